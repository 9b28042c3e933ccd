"""The learning records: the one shape of input of this package.

An attempt is one calculation step a pupil typed (the engine's ``attempts``);
an opportunity is one turn's roll and the operations that could have used it.
The Django side builds them from its rows (``classroom.reports.services``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from datetime import datetime
from typing import NamedTuple, TypeVar


class AttemptRecord(NamedTuple):
    """One calculation step: the fields of an Attempt row this package reads."""

    pupil_id: Hashable
    skill: str
    operands: list
    expected: str
    given: str
    correct: bool
    first_try: bool = True
    response_ms: int | None = None
    created_at: datetime | None = None
    game: str = ""
    session_id: Hashable = None


class OpportunityRecord(NamedTuple):
    """One turn: its roll, ``could`` = {operation: whether it could make a free
    square}, ``used`` = the skills of the steps the pupil made."""

    pupil_id: Hashable
    roll: list
    could: dict
    used: list
    created_at: datetime | None = None


Record = TypeVar("Record", AttemptRecord, OpportunityRecord)


def in_time_order(records: Iterable[Record]) -> list[Record]:
    """Sorted by ``created_at``, stably (same-time records keep their order);
    in the order given when any has no time."""
    records = list(records)
    times = [record.created_at for record in records]
    if any(time is None for time in times):
        return records  # no times to sort on: trust the caller's order
    order = sorted(range(len(records)), key=times.__getitem__)
    return [records[i] for i in order]
