"""A skill's accuracy and BKT estimate over time, for the pupil page's charts."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import NamedTuple

from .bkt import P_INIT, bkt_update
from .records import AttemptRecord, in_time_order


class TrendPoint(NamedTuple):
    bucket: Hashable
    attempts: int
    correct: int
    accuracy: float
    estimate: float  # after the bucket's last first try


def by_week(attempt: AttemptRecord) -> str:
    """ISO week of the attempt, "2025-W03" (in the datetime's own time zone:
    convert to the school's zone first if weeks must start at local midnight)."""
    year, week, _ = attempt.created_at.isocalendar()
    return f"{year}-W{week:02d}"


def by_day(attempt: AttemptRecord) -> str:
    return attempt.created_at.date().isoformat()


def trend(
    attempts: Iterable[AttemptRecord],
    skill: str,
    buckets: Callable[[AttemptRecord], Hashable] = by_week,
) -> list[TrendPoint]:
    """Accuracy and estimate per bucket, oldest first, for the chart.

    ``buckets`` maps an attempt to its bucket: ``by_week``, ``by_day``, or e.g.
    ``lambda a: a.session_id`` for one point per game session. The estimate
    carries over from bucket to bucket exactly as in ``tally.summarise``.
    """
    points: list[TrendPoint] = []
    estimate = P_INIT
    current: Hashable = None
    right = total = 0
    for attempt in in_time_order(attempts):
        if attempt.skill != skill or not attempt.first_try:
            continue
        bucket = buckets(attempt)
        if total and bucket != current:
            points.append(TrendPoint(current, total, right, right / total, estimate))
            right = total = 0
        current = bucket
        correct = bool(attempt.correct)
        right += correct
        total += 1
        estimate = bkt_update(estimate, correct)
    if total:
        points.append(TrendPoint(current, total, right, right / total, estimate))
    return points
