"""Everything about each pupil, built one record at a time.

One pass per pupil with O(1) work per attempt (the median sorts once at the
end). ``summarise`` sorts by time first; ``MasteryAccumulator`` and
``summarise_stream`` take records already in time order, so a caller can stream
millions of rows pupil by pupil.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from statistics import median

from .bkt import P_INIT, bkt_update
from .i18n import Gettext, untranslated
from .mistakes import Mistake, mistake
from .opportunities import Avoidance, AvoidanceTally
from .records import AttemptRecord, OpportunityRecord, in_time_order
from .skills import OPERATIONS
from .times_tables import FactCell, TableCell, TableTally
from .verdicts import HELP_WINDOW, LAST_N, SkillSummary, explain, status_for


@dataclass(frozen=True)
class PupilMastery:
    pupil_id: Hashable
    skills: dict[str, SkillSummary]
    avoidance: dict[str, Avoidance]
    tables: dict[int, TableCell]
    facts: dict[tuple[int, int], FactCell]
    mistakes: list[Mistake] = field(default_factory=list)  # newest last


class SkillTally:
    """One pupil and one skill: the counters and windows the status rules read."""

    __slots__ = (
        "attempts", "first_tries", "correct_first", "last", "times", "estimate", "sessions"
    )

    def __init__(self) -> None:
        self.attempts = 0
        self.first_tries = 0
        self.correct_first = 0
        # The help rule's window; the last ten are its tail.
        self.last: deque[bool] = deque(maxlen=HELP_WINDOW)
        self.times: list[int] = []
        self.estimate = P_INIT
        self.sessions: set[Hashable] = set()

    def summary(self, skill: str, gettext: Gettext) -> SkillSummary:
        recent = list(self.last)[-LAST_N:]
        right, total = sum(recent), len(recent)
        help_right, help_total = sum(self.last), len(self.last)
        n = self.first_tries
        games = len(self.sessions)
        status = status_for(
            n, right, total, self.estimate, games=games, help_right=help_right,
            help_total=help_total,
        )
        draft = SkillSummary(
            skill=skill,
            attempts=self.attempts,
            first_tries=n,
            retries=self.attempts - n,
            correct_first=self.correct_first,
            accuracy=self.correct_first / n if n else None,
            last10_accuracy=right / total if total else None,
            last10_right=right,
            last10_total=total,
            median_ms=median(self.times) if self.times else None,
            estimate=self.estimate,
            status=status,
            sentence="",
            games=games,
            help_right=help_right,
            help_total=help_total,
        )
        return replace(draft, sentence=explain(draft, gettext))


def no_evidence(skill: str, gettext: Gettext = untranslated) -> SkillSummary:
    """The summary of a skill the pupil has not practised ("no evidence yet")."""
    return SkillTally().summary(skill, gettext)


class MasteryAccumulator:
    """Everything about one pupil, built one record at a time.

    Feed attempts (and opportunities) in ``created_at`` order; only counters,
    the last twenty outcomes per skill, response times and the last ten
    mistakes are kept, never the records.
    """

    def __init__(self, pupil_id: Hashable = None) -> None:
        self.pupil_id = pupil_id
        self._skills: dict[str, SkillTally] = {}
        self._tables = TableTally()
        self._avoidance = AvoidanceTally()
        self._mistakes: deque[AttemptRecord] = deque(maxlen=LAST_N)
        self._last_time: datetime | None = None

    def add(self, attempt: AttemptRecord) -> None:
        skill, correct, created_at = attempt.skill, attempt.correct, attempt.created_at
        if created_at is not None:
            # BKT depends on order: refuse silently wrong estimates.
            if self._last_time is not None and created_at < self._last_time:
                raise ValueError("attempts must be added in created_at order")
            self._last_time = created_at
        state = self._skills.get(skill)
        if state is None:
            state = self._skills[skill] = SkillTally()
        state.attempts += 1
        if not attempt.first_try:
            return
        state.first_tries += 1
        state.correct_first += correct
        state.last.append(bool(correct))
        state.sessions.add(attempt.session_id)
        if attempt.response_ms is not None:
            state.times.append(attempt.response_ms)
        state.estimate = bkt_update(state.estimate, correct)
        if skill == "mul" or skill == "div":
            self._tables.add_attempt(attempt)
        if not correct:
            # Naming is slower than counting: keep the record, name it in result().
            self._mistakes.append(attempt)

    def add_opportunity(self, opportunity: OpportunityRecord) -> None:
        self._avoidance.add(opportunity)

    def result(self, gettext: Gettext = untranslated) -> PupilMastery:
        skills = {skill: SkillTally() for skill in OPERATIONS}
        skills.update(self._skills)
        return PupilMastery(
            pupil_id=self.pupil_id,
            skills={skill: state.summary(skill, gettext) for skill, state in skills.items()},
            avoidance=self._avoidance.result(),
            tables=self._tables.grid(),
            facts=self._tables.fact_grid(),
            mistakes=[mistake(attempt, gettext) for attempt in self._mistakes],
        )


def summarise(
    attempts: Iterable[AttemptRecord],
    opportunities: Iterable[OpportunityRecord] = (),
    *,
    gettext: Gettext = untranslated,
) -> dict[Hashable, PupilMastery]:
    """Mastery of every pupil seen in the attempts or opportunities.

    Records may come in any order; they are sorted by ``created_at`` first
    (stable, so same-time records keep their order). Records without a time are
    taken in the order given.
    """
    accumulators: dict[Hashable, MasteryAccumulator] = {}
    for attempt in in_time_order(attempts):
        accumulator = accumulators.get(attempt.pupil_id)
        if accumulator is None:
            accumulator = accumulators[attempt.pupil_id] = MasteryAccumulator(attempt.pupil_id)
        accumulator.add(attempt)
    for opportunity in opportunities:
        pupil = opportunity.pupil_id
        accumulator = accumulators.get(pupil)
        if accumulator is None:
            accumulator = accumulators[pupil] = MasteryAccumulator(pupil)
        accumulator.add_opportunity(opportunity)
    return {pupil: accumulator.result(gettext) for pupil, accumulator in accumulators.items()}


def summarise_stream(
    attempts: Iterable[AttemptRecord],
    opportunities_for: Callable[[Hashable], Iterable[OpportunityRecord]] | None = None,
    *,
    gettext: Gettext = untranslated,
) -> Iterator[tuple[Hashable, PupilMastery]]:
    """Mastery pupil by pupil from records ordered by (pupil, created_at).

    Holds one pupil at a time, so 2,000,000 records for 1,000 pupils stream in
    constant memory. ``opportunities_for(pupil_id)`` supplies that pupil's
    opportunities when the pupil is finished.
    """
    accumulator: MasteryAccumulator | None = None
    seen: set[Hashable] = set()
    for attempt in attempts:
        pupil = attempt.pupil_id
        if accumulator is None or pupil != accumulator.pupil_id:
            if accumulator is not None:
                yield accumulator.pupil_id, _finish(accumulator, opportunities_for, gettext)
            if pupil in seen:
                raise ValueError("attempts must be grouped by pupil")
            seen.add(pupil)
            accumulator = MasteryAccumulator(pupil)
        accumulator.add(attempt)
    if accumulator is not None:
        yield accumulator.pupil_id, _finish(accumulator, opportunities_for, gettext)


def _finish(
    accumulator: MasteryAccumulator,
    opportunities_for: Callable[[Hashable], Iterable[OpportunityRecord]] | None,
    gettext: Gettext,
) -> PupilMastery:
    if opportunities_for is not None:
        for opportunity in opportunities_for(accumulator.pupil_id):
            accumulator.add_opportunity(opportunity)
    return accumulator.result(gettext)
