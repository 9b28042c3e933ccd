"""The times tables 1..12 and the 10 × 10 grid of multiplication facts.

First tries of ``mul`` and ``div`` with whole operands. ``a × b`` counts for the
table of a and the table of b (once when a == b); ``a ÷ b = c`` counts for the
table of b and the table of c. Only tables 1..12 exist; larger operands count
for no table. Per table: ``unknown`` under TABLE_MIN_ATTEMPTS (4) attempts,
``solid`` at accuracy >= TABLE_SOLID (0.9), ``shaky`` at >= TABLE_SHAKY (0.7),
``weak`` below. ``fact_grid`` is the 10 × 10 multiplication grid: 6 × 7 is put
in both cells (6, 7) and (7, 6), so row n reads as the whole table of n.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from .i18n import N_, Gettext, untranslated
from .numbers import whole
from .records import AttemptRecord

TABLE_MIN_ATTEMPTS = 4
TABLE_SOLID = 0.9
TABLE_SHAKY = 0.7
TABLES = range(1, 13)
FACTS = range(1, 11)

MSG_TABLE = {
    "unknown": N_("table of %(table)d: too few calculations yet (%(attempts)d)"),
    "solid": N_("table of %(table)d solid: %(correct)d of %(attempts)d right"),
    "shaky": N_("table of %(table)d shaky: %(correct)d of %(attempts)d right"),
    "weak": N_("table of %(table)d weak: %(correct)d of %(attempts)d right"),
}


class TableCell(NamedTuple):
    table: int
    attempts: int
    correct: int
    accuracy: float | None
    status: str  # "solid" | "shaky" | "weak" | "unknown"


class FactCell(NamedTuple):
    right: int
    total: int


class TableTally:
    """Right/total per times table and per 10 × 10 fact; shared by the pupil's
    tally and the standalone grid functions so they cannot disagree."""

    __slots__ = ("tables", "facts")

    def __init__(self) -> None:
        self.tables = [[0, 0] for _ in range(TABLES.stop)]
        self.facts: dict[tuple[int, int], list[int]] = {}

    def add(self, skill: str, operands: list, expected: Any, correct: bool) -> None:
        if len(operands) != 2:
            return
        a, b = whole(operands[0]), whole(operands[1])
        if a is None or b is None:
            return
        if skill == "mul":
            tables = (a, b)
            if a in FACTS and b in FACTS:
                for cell in {(a, b), (b, a)}:
                    tally = self.facts.setdefault(cell, [0, 0])
                    tally[0] += correct
                    tally[1] += 1
        elif skill == "div":
            quotient = a // b if b and a % b == 0 else whole(expected)
            tables = (b, quotient)
        else:
            return
        for table in set(tables):
            if table is not None and table in TABLES:
                tally = self.tables[table]
                tally[0] += correct
                tally[1] += 1

    def add_attempt(self, attempt: AttemptRecord) -> None:
        self.add(attempt.skill, attempt.operands or (), attempt.expected, attempt.correct)

    def grid(self) -> dict[int, TableCell]:
        return {table: _table_cell(table, *self.tables[table]) for table in TABLES}

    def fact_grid(self) -> dict[tuple[int, int], FactCell]:
        return {(a, b): FactCell(*self.facts.get((a, b), (0, 0))) for a in FACTS for b in FACTS}


def _table_cell(table: int, correct: int, attempts: int) -> TableCell:
    accuracy = correct / attempts if attempts else None
    if attempts < TABLE_MIN_ATTEMPTS:
        status = "unknown"
    elif accuracy >= TABLE_SOLID:
        status = "solid"
    elif accuracy >= TABLE_SHAKY:
        status = "shaky"
    else:
        status = "weak"
    return TableCell(table, attempts, correct, accuracy, status)


def tables_grid(
    attempts: Iterable[AttemptRecord], skills: Iterable[str] = ("mul", "div")
) -> dict[int, TableCell]:
    """Times tables 1..12 from first tries of mul and div (rules: module docstring)."""
    wanted = set(skills)
    tally = TableTally()
    for attempt in attempts:
        if attempt.skill in wanted and attempt.first_try:
            tally.add_attempt(attempt)
    return tally.grid()


def fact_grid(attempts: Iterable[AttemptRecord]) -> dict[tuple[int, int], FactCell]:
    """Right/total of every fact a × b for a, b in 1..10 (first tries of mul)."""
    tally = TableTally()
    for attempt in attempts:
        if attempt.skill == "mul" and attempt.first_try:
            tally.add_attempt(attempt)
    return tally.fact_grid()


def explain(cell: TableCell, gettext: Gettext = untranslated) -> str:
    """ "table of 6 shaky: 8 of 10 right"."""
    return gettext(MSG_TABLE[cell.status]) % cell._asdict()
