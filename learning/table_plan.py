"""Tables for a group's practice: who sits with whom, and the computer players.

Two ways, as the teacher asks:

* **same need** (the default): the group's pupils two to a table, in the order
  given; an odd one out plays against a computer player. Two at a table
  rather than four: every pupil gets a turn every other roll.
* **mixed**: each pupil of the group shares a seat with a pupil who masters
  the skill (a team of two, where the game has teams), one team to a table
  against a computer player, so the pair is never split by the start form's
  shuffling of teams. When the masters run out, the rest sit as in "same need".
  A master joins one table at most, over all the groups of a class.

The computer players' level fits the pupils: ``beginner`` for pupils who need
the skill (a loss to a strong computer teaches nothing), ``greedy`` (the start
form's "medium") for pupils ready for the next step.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

PUPILS_PER_TABLE = 2
LEVEL_FOR = {"need": "beginner", "ready": "greedy"}


@dataclass(frozen=True)
class TablePlan:
    """One table: its seats (a seat is one pupil, or a team of two, master
    first) and how many computer players fill the rest."""

    seats: tuple[tuple[Hashable, ...], ...]
    computers: int

    @property
    def pupil_ids(self) -> list[Hashable]:
        return [pupil for seat in self.seats for pupil in seat]


@dataclass(frozen=True)
class Plan:
    """A group's tables, with what the start form needs to seat them: players
    per table, pupils per seat, the computer players' level."""

    tables: tuple[TablePlan, ...]
    table_size: int
    team_size: int
    computer_level: str
    mixed: bool = False

    def seating(self) -> dict[Hashable, int]:
        """Pupil -> table number (from 1), as the start form's seating fields say."""
        return {
            pupil: number
            for number, table in enumerate(self.tables, start=1)
            for pupil in table.pupil_ids
        }


def _same_need(pupils: Sequence[Hashable]) -> list[TablePlan]:
    tables = []
    for start in range(0, len(pupils), PUPILS_PER_TABLE):
        seats = tuple((pupil,) for pupil in pupils[start : start + PUPILS_PER_TABLE])
        tables.append(TablePlan(seats, PUPILS_PER_TABLE - len(seats)))
    return tables


def plan(
    kind: str,
    pupils: Sequence[Hashable],
    *,
    mixed: bool = False,
    masters: Iterable[Hashable] = (),
    taken: set[Hashable] | None = None,
    teams: bool = True,
) -> Plan:
    """The tables of one group (module docstring). ``masters`` are the partners
    a mixed table may take, best first; ``taken`` (updated) holds the masters
    other groups' tables already took. ``teams``: whether the game has teams;
    without them a mixed table seats the two side by side."""
    level = LEVEL_FOR.get(kind, "beginner")
    if not mixed:
        return Plan(tuple(_same_need(pupils)), PUPILS_PER_TABLE, 1, level)
    taken = set() if taken is None else taken
    free = [m for m in masters if m not in taken and m not in pupils]
    tables: list[TablePlan] = []
    alone: list[Hashable] = []
    for pupil in pupils:
        if not free:
            alone.append(pupil)
            continue
        master = free.pop(0)
        taken.add(master)
        if teams:
            tables.append(TablePlan(((master, pupil),), PUPILS_PER_TABLE - 1))
        else:
            tables.append(TablePlan(((master,), (pupil,)), 0))
    if not tables:
        return Plan(tuple(_same_need(pupils)), PUPILS_PER_TABLE, 1, level)
    if teams:
        # With teams of two, two pupils at one table would share a seat: a
        # pupil left without a partner sits alone against the computer.
        tables += [TablePlan(((pupil,),), PUPILS_PER_TABLE - 1) for pupil in alone]
        return Plan(tuple(tables), PUPILS_PER_TABLE, 2, level, mixed=True)
    tables += _same_need(alone)
    return Plan(tuple(tables), PUPILS_PER_TABLE, 1, level, mixed=True)
