"""Queries and rows of the skill reports.

``class_report`` is the one query behind the class report page and all three
exports: they cannot disagree, and the filters carry over. Without filters it
reads the ``PupilSkill`` snapshot the Celery tasks keep; with filters it
streams the filtered attempts through ``learning`` (a class is a few
tens of thousands of rows: well under a second).

``recompute_pupils`` rewrites the snapshot. It streams attempts ordered by
(pupil, created_at) from a server-side cursor as plain tuples into
``learning.tally.summarise_stream``, one batch of pupils per query, so memory
stays flat whatever the number of attempts, and upserts the summaries in bulk.

This module is the one place where Django meets ``learning``: model rows become
``learning.records`` here, and the pages and exports read what comes back
through here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime

from django.db import transaction
from django.db.models import Count, Max, Min, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from classroom import roster
from classroom.models import Attempt, Classroom, Opportunity, Pupil, PupilSkill
from learning import opportunities, trend, verdicts
from learning.calculations import IN_WORDS, WHOLE_CALCULATION
from learning.i18n import untranslated
from learning.mistakes import MISTAKE_LABELS, calculation_text
from learning.records import AttemptRecord, OpportunityRecord
from learning.skills import OPERATIONS, in_report_order
from learning.tally import MasteryAccumulator, PupilMastery, no_evidence, summarise_stream
from learning.times_tables import FACTS, FactCell, TableCell
from learning.verdicts import SkillSummary

from .filters import GAME_NAMES, ReportFilters

ATTEMPT_FIELDS = AttemptRecord._fields  # pupil_id, skill, ... created_at, game, session_id
OPPORTUNITY_FIELDS = OpportunityRecord._fields  # pupil_id, roll, could, used, created_at
_USED = OPPORTUNITY_FIELDS.index("used")
CHUNK_SIZE = 5000
PUPILS_PER_QUERY = 50

# Snapshot columns copied from a SkillSummary.
SUMMARY_FIELDS = (
    "attempts",
    "first_tries",
    "retries",
    "correct_first",
    "accuracy",
    "last10_accuracy",
    "last10_right",
    "last10_total",
    "median_ms",
    "estimate",
    "status",
    "sentence",
    "games",
    "help_right",
    "help_total",
)

# The status and avoidance rules' figures, in the words of the class page's
# legend and the PDF's "how to read it" (learning.verdicts, learning.opportunities).
RULES = {
    "count": verdicts.MIN_ATTEMPTS,
    "help_count": verdicts.HELP_MIN_ATTEMPTS,
    "games": verdicts.MIN_GAMES,
    "mastered": round(verdicts.MASTERED_ESTIMATE * 100),
    "mastered_recent": verdicts.recent_needed(verdicts.LAST_N),
    "recent": verdicts.LAST_N,
    "help_window": verdicts.HELP_WINDOW,
    "help_right": round(verdicts.HELP_ACCURACY * verdicts.HELP_WINDOW),
    "help_percent": round(verdicts.HELP_ACCURACY * 100),
    "nearly": round(verdicts.NEARLY_ESTIMATE * 100),
    "nearly_recent": round(verdicts.NEARLY_LAST10 * verdicts.LAST_N),
    "chances": opportunities.AVOID_MIN_CHANCES,
    "avoid_in": round(1 / opportunities.AVOID_RATE),
}

# slug -> what makes a turn a chance to use an operation, in the game's words.
# Games are the floor above: the games app fills this in when Django starts.
CHANCE_WORDS: dict[str, str] = {}

# ------------------------------------------------------------------ streaming


def attempt_records(
    pupil_ids: Sequence[int], filters: ReportFilters | None = None
) -> Iterator[AttemptRecord]:
    """Attempts of these pupils ordered by (pupil, created_at), as records."""
    queryset = Attempt.objects.filter(pupil_id__in=list(pupil_ids))
    if filters is not None:
        queryset = filters.apply(queryset)
    rows = (
        queryset.order_by("pupil_id", "created_at", "id")
        .values_list(*ATTEMPT_FIELDS)
        .iterator(chunk_size=CHUNK_SIZE)
    )
    return map(AttemptRecord._make, rows)


def opportunities_of(
    filters: ReportFilters | None = None,
) -> Callable[[int], Iterable[OpportunityRecord]]:
    """A function giving one pupil's opportunities as records, oldest first."""

    def records(pupil_id: int) -> Iterator[OpportunityRecord]:
        queryset = Opportunity.objects.filter(pupil_id=pupil_id)
        if filters is not None:
            queryset = filters.apply(queryset)
        rows = (
            queryset.order_by("created_at", "id")
            .values_list(*OPPORTUNITY_FIELDS, "cut_off")
            .iterator()
        )
        # A turn the teacher's end cut off before the pupil typed a step was
        # no chance: they had no time to take it.
        return (
            OpportunityRecord._make(row[:-1]) for row in rows if not row[-1] or row[_USED]
        )

    return records


def _batches(ids: Sequence[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(ids), size):
        yield list(ids[start : start + size])


def masteries(
    pupil_ids: Sequence[int],
    filters: ReportFilters | None = None,
    *,
    gettext=gettext,
    batch: int = PUPILS_PER_QUERY,
    on_batch: Callable[[list[int]], None] | None = None,
) -> Iterator[tuple[int, PupilMastery]]:
    """(pupil id, PupilMastery) for the pupils that have attempts, in id order."""
    for chunk in _batches(sorted(pupil_ids), batch):
        yield from summarise_stream(
            attempt_records(chunk, filters), opportunities_of(filters), gettext=gettext
        )
        if on_batch is not None:
            on_batch(chunk)


# ------------------------------------------------------------------ the snapshot


def recompute_pupils(
    pupil_ids: Iterable[int],
    *,
    batch: int = PUPILS_PER_QUERY,
    on_batch: Callable[[list[int]], None] | None = None,
) -> int:
    """Rewrite the PupilSkill snapshot of these pupils; idempotent. Returns the
    number of snapshot rows written. ``on_batch(ids)`` runs after each batch is
    committed: a job records its cursor there."""
    written = 0
    for chunk in _batches(sorted(set(pupil_ids)), batch):
        stamp = timezone.now()
        rows = [
            PupilSkill(
                pupil_id=pupil_id,
                skill=skill,
                updated_at=stamp,
                **{name: getattr(summary, name) for name in SUMMARY_FIELDS},
                **_chances(result.avoidance.get(skill)),
            )
            for pupil_id, result in summarise_stream(
                attempt_records(chunk), opportunities_of(), gettext=untranslated
            )  # English sentences in the database; pages translate again
            for skill, summary in result.skills.items()
        ]
        with transaction.atomic():
            PupilSkill.objects.bulk_create(
                rows,
                batch_size=1000,
                update_conflicts=True,
                unique_fields=["pupil", "skill"],
                update_fields=[*SUMMARY_FIELDS, *CHANCE_FIELDS, "updated_at"],
            )
            # Pupils whose attempts were erased keep no stale snapshot.
            PupilSkill.objects.filter(pupil_id__in=chunk, updated_at__lt=stamp).delete()
        written += len(rows)
        if on_batch is not None:
            on_batch(chunk)
    return written


CHANCE_FIELDS = ("chances", "chances_taken")


def _chances(avoidance: opportunities.Avoidance | None) -> dict[str, int]:
    if avoidance is None:
        return {"chances": 0, "chances_taken": 0}
    return {"chances": avoidance.could, "chances_taken": avoidance.used}


def summary_of(row: PupilSkill, gettext=gettext) -> SkillSummary:
    summary = SkillSummary(skill=row.skill, **{name: getattr(row, name) for name in SUMMARY_FIELDS})
    # The status again from the row's numbers: a snapshot written under older
    # rules reads as today's rules say, before the night's recompute.
    status = verdicts.status_for(
        summary.first_tries, summary.last10_right, summary.last10_total, summary.estimate,
        games=summary.games, help_right=summary.help_right, help_total=summary.help_total,
    )
    summary = replace(summary, status=status)
    return replace(summary, sentence=verdicts.explain(summary, gettext))


def avoidance_of(row: PupilSkill) -> opportunities.Avoidance | None:
    """An operation's chances from the snapshot; None for another skill."""
    if row.skill not in OPERATIONS:
        return None
    return opportunities.judged(row.skill, row.chances, row.chances_taken)


# ------------------------------------------------------------------ rows shown


def skill_name(skill: str) -> str:
    return str(SKILL_NAMES.get(skill, skill))


def status_label(status: str) -> str:
    return gettext(verdicts.STATUS_LABELS[status])


@dataclass(frozen=True)
class Cell:
    """One pupil × skill: what the grid, the exports and "needs help" show."""

    summary: SkillSummary
    label: str  # the status in words
    avoidance: opportunities.Avoidance | None = None  # of an operation with chances

    @property
    def evidence(self) -> verdicts.Evidence:
        """The figures the status rests on, and the estimate only where it agrees."""
        return verdicts.evidence(self.summary)

    @property
    def avoids(self) -> bool:
        return self.avoidance is not None and self.avoidance.avoids

    @property
    def avoid_reason(self) -> str:
        """ "has not divided in 14 turns where dividing would help"; "" unless avoided."""
        return opportunities.why_avoided(self.avoidance, gettext) if self.avoids else ""

    @property
    def choice_sentence(self) -> str:
        """What the pupil's turns say of the operation ("uses", "avoids", "not
        known yet"); "" for a skill with no chance to use it."""
        if self.avoidance is None or not self.avoidance.could:
            return ""
        return opportunities.explain(self.avoidance, gettext)

    @property
    def avoid_sentence(self) -> str:
        """ "avoids division: has not divided in 14 turns ..."; "" unless avoided."""
        return opportunities.explain(self.avoidance, gettext) if self.avoids else ""

    @property
    def status(self) -> str:
        return self.summary.status

    @property
    def skill(self) -> str:
        return self.summary.skill

    @property
    def name(self) -> str:
        return skill_name(self.summary.skill)

    @property
    def reason(self) -> str:
        """The sentence without the status it starts with, for where the status
        is shown just before it ("nearly there" once, not twice in a row)."""
        sentence, label = str(self.summary.sentence), str(self.label)
        if not sentence.startswith(label):
            return sentence
        return capfirst(sentence[len(label) :].lstrip(" \u00a0:")) or sentence

    @property
    def estimate_percent(self) -> int | None:
        """The estimate where it agrees with the status, else None: a "needs
        help" never shows 95%, and the model's starting guess is no figure
        about a pupil."""
        return self.evidence.estimate

    @property
    def median_seconds(self) -> float | None:
        ms = self.summary.median_ms
        return None if ms is None else round(ms / 1000, 1)

    @property
    def accuracy_percent(self) -> int | None:
        accuracy = self.summary.accuracy
        return None if accuracy is None else round(accuracy * 100)


@dataclass
class PupilRow:
    pupil: Pupil
    cells: list[Cell]

    @property
    def needs_help(self) -> list[Cell]:
        """The skills that need help and the operations avoided."""
        return [cell for cell in self.cells if cell.status == "needs_help" or cell.avoids]


@dataclass
class ClassReport:
    classroom: Classroom
    filters: ReportFilters
    skills: list[str]
    rows: list[PupilRow]
    updated_at: datetime | None = None  # of the snapshot; None when computed live
    live: bool = False
    needs_help: list[tuple[Pupil, list[Cell]]] = field(default_factory=list)

    @property
    def skill_names(self) -> list[tuple[str, str]]:
        return [(skill, skill_name(skill)) for skill in self.skills]


def _cell(summary: SkillSummary, avoidance: opportunities.Avoidance | None = None) -> Cell:
    return Cell(summary, status_label(summary.status), avoidance)


def class_report(
    classroom: Classroom,
    filters: ReportFilters | None = None,
    *,
    on_batch: Callable[[list[int]], None] | None = None,
) -> ClassReport:
    """The class report: page, CSV, XLSX and PDF all come from here."""
    filters = filters or ReportFilters()
    pupils = roster.label_each(roster.in_name_order(classroom.pupils.all()))
    summaries: dict[int, dict[str, SkillSummary]] = {p.pk: {} for p in pupils}
    avoided: dict[int, dict[str, opportunities.Avoidance]] = {p.pk: {} for p in pupils}
    updated_at = None
    if filters.is_empty:
        snapshot = PupilSkill.objects.filter(pupil__classroom=classroom)
        for row in snapshot:
            summaries[row.pupil_id][row.skill] = summary_of(row)
            avoidance = avoidance_of(row)
            if avoidance is not None:
                avoided[row.pupil_id][row.skill] = avoidance
        updated_at = snapshot.aggregate(at=Min("updated_at"))["at"]
    else:
        for pupil_id, result in masteries(
            list(summaries), filters, batch=PUPILS_PER_QUERY, on_batch=on_batch
        ):
            summaries[pupil_id] = result.skills
            avoided[pupil_id] = result.avoidance
    skills = in_report_order(
        {skill for by_skill in summaries.values() for skill in by_skill} | set(OPERATIONS)
    )
    blank = {skill: no_evidence(skill, gettext) for skill in skills}
    rows = [
        PupilRow(
            p,
            [
                _cell(summaries[p.pk].get(skill) or blank[skill], avoided[p.pk].get(skill))
                for skill in skills
            ],
        )
        for p in pupils
    ]
    needs_help = sorted(
        ((row.pupil, row.needs_help) for row in rows if row.needs_help),
        key=lambda item: (-len(item[1]), min(c.summary.last10_accuracy or 0 for c in item[1])),
    )
    return ClassReport(
        classroom=classroom,
        filters=filters,
        skills=skills,
        rows=rows,
        updated_at=updated_at,
        live=not filters.is_empty,
        needs_help=needs_help,
    )


# ------------------------------------------------------------------ one pupil


@dataclass
class Chart:
    """A skill's trend as SVG coordinates (the template draws it)."""

    skill: str
    name: str
    points: list[dict]
    accuracy_line: str
    estimate_line: str
    width: int = 600
    height: int = 180
    threshold_y: float = 0.0
    # The estimate's line only where the status agrees with it: a "needs help"
    # drawn above the mastered line would argue with its own card.
    estimate_shown: bool = True


CHART_W, CHART_H, CHART_PAD = 600, 180, 36


def week_label(bucket) -> str:
    """An ISO week ("2026-W48") as a teacher reads it: "week of November 23"."""
    try:
        year, week = str(bucket).split("-W")
        monday = date.fromisocalendar(int(year), int(week), 1)
    except ValueError:
        return str(bucket)
    return gettext("week of %(monday)s") % {"monday": date_format(monday, "MONTH_DAY_FORMAT")}


def _chart(summary: SkillSummary, points: list[trend.TrendPoint]) -> Chart:
    skill = summary.skill
    inner_w, inner_h = CHART_W - 2 * CHART_PAD, CHART_H - 2 * 16
    step = inner_w / max(1, len(points) - 1)

    def y(value: float) -> float:
        return round(16 + (1 - value) * inner_h, 1)

    drawn = []
    for index, point in enumerate(points):
        x = round(CHART_PAD + (index * step if len(points) > 1 else inner_w / 2), 1)
        drawn.append(
            {
                "x": x,
                "y_accuracy": y(point.accuracy),
                "y_estimate": y(point.estimate),
                "box_x": round(x - 4, 1),
                "box_y": round(y(point.estimate) - 4, 1),
                "week": week_label(point.bucket),
                "attempts": point.attempts,
                "correct": point.correct,
                "accuracy": round(point.accuracy * 100),
                "estimate": verdicts.percent(point.estimate),
            }
        )
    return Chart(
        skill=skill,
        name=skill_name(skill),
        points=drawn,
        accuracy_line=" ".join(f"{p['x']},{p['y_accuracy']}" for p in drawn),
        estimate_line=" ".join(f"{p['x']},{p['y_estimate']}" for p in drawn),
        threshold_y=y(verdicts.MASTERED_ESTIMATE),
        estimate_shown=verdicts.evidence(summary).estimate is not None,
    )


def _fact(fact: FactCell) -> dict:
    """A fact cell with a heat class 0 (no calculation) to 4 (all right)."""
    if not fact.total:
        heat = 0
    else:
        accuracy = fact.right / fact.total
        heat = 4 if accuracy >= 0.9 else 3 if accuracy >= 0.7 else 2 if accuracy >= 0.4 else 1
    return {"right": fact.right, "total": fact.total, "heat": heat}


def _local_week(attempt: AttemptRecord) -> str:
    return trend.by_week(attempt._replace(created_at=timezone.localtime(attempt.created_at)))


@dataclass
class PupilReport:
    pupil: Pupil
    cells: list[Cell]
    charts: list[Chart]
    tables: list[TableCell]
    facts: list[dict]
    mistakes: list[dict]
    games: list[dict]
    avoidance: list[tuple[opportunities.Avoidance, str]]
    chance_words: list[str] = field(default_factory=list)  # how each game counts a turn
    fact_heads: tuple = tuple(FACTS)

    @property
    def fact_rows(self) -> list[dict]:
        return self.facts


def pupil_report(pupil: Pupil) -> PupilReport:
    attempts = list(attempt_records([pupil.pk]))
    accumulator = MasteryAccumulator(pupil.pk)
    for attempt in attempts:
        accumulator.add(attempt)
    for opportunity in opportunities_of()(pupil.pk):
        accumulator.add_opportunity(opportunity)
    result = accumulator.result(gettext)
    skills = in_report_order(result.skills)
    charts = [
        _chart(result.skills[skill], trend.trend(attempts, skill, _local_week))
        for skill in skills
        if result.skills[skill].first_tries
    ]
    facts = [
        {"a": a, "cells": [_fact(result.facts[(a, b)]) for b in FACTS]}
        for a in FACTS
    ]
    mistakes = [
        {
            "skill": skill_name(m.skill),
            "kind": gettext(MISTAKE_LABELS.get(m.kind, MISTAKE_LABELS["other"])),
            "calculation": m.calculation,
            "in_words": m.skill in IN_WORDS,
            "created_at": m.created_at,
        }
        for m in reversed(result.mistakes)
    ]
    chance_games = (
        Opportunity.objects.filter(pupil=pupil).values_list("game", flat=True).distinct()
        if attempts
        else []
    )
    return PupilReport(
        pupil=pupil,
        cells=[_cell(result.skills[skill], result.avoidance.get(skill)) for skill in skills],
        charts=charts,
        tables=list(result.tables.values()),
        facts=facts,
        mistakes=mistakes,
        games=games_played(pupil),
        avoidance=[
            (a, opportunities.explain(a, gettext))
            for a in result.avoidance.values()
            # A pupil who never calculated has no choice to report, and an
            # operation no roll allowed has nothing to say.
            if a.could and attempts
        ],
        chance_words=[
            str(CHANCE_WORDS[slug]) for slug in sorted(set(chance_games)) if slug in CHANCE_WORDS
        ],
    )


GAMES_SHOWN = 20


# ------------------------------------------------------------------ how a game ended


@dataclass(frozen=True)
class Placed:
    """A player of a finished table: ``place`` 1 is the best (ties share it);
    None when the game names no winner (the teacher ended it first)."""

    player: int
    place: int | None
    score: int


@dataclass(frozen=True)
class TableOutcome:
    placed: list[Placed]  # best first
    score_name: str  # what the score counts, for a column head: "Points", "Square"
    score_format: str  # the same beside a score: "%(score)s points", "square %(score)s"
    # The teacher ended the game before its rules did: the places are the
    # rules' at that moment, and there are none where they name no winner yet.
    ended_early: bool = False

    def of(self, player: int) -> Placed | None:
        return next((p for p in self.placed if p.player == player), None)


# Games are the floor above classroom: classroom never imports them. The games
# app hands in how a table's game ended when Django starts (games.apps).
_outcome_of: Callable[[object], TableOutcome | None] | None = None


def provide_outcomes(source: Callable[[object], TableOutcome | None]) -> None:
    global _outcome_of
    _outcome_of = source


def table_outcome(table) -> TableOutcome | None:
    """The final places of a finished table; None while it plays (or without games)."""
    if not table.finished or _outcome_of is None:
        return None
    return _outcome_of(table)


def _player_names(seats) -> dict[int, str]:
    """Each player's name from its seats, as the game's pages name them
    (games.seating.player_names): a team's pupils joined with " & ", the n-th
    computer seat in seat order "Computer n", so that a report tells two
    computers apart as the tablets and the projector did."""
    names: dict[int, list[str]] = {}
    bots = 0
    for seat in sorted(seats, key=lambda s: (s.player, s.pk)):
        if seat.pupil_id:
            names.setdefault(seat.player, []).append(seat.pupil.label)
        else:
            bots += 1
            names.setdefault(seat.player, []).append(gettext("Computer %(n)d") % {"n": bots})
    return {player: " & ".join(parts) for player, parts in names.items()}


def _ranking(table, outcome: TableOutcome | None) -> list[dict]:
    if outcome is None:
        return []
    names = _player_names(table.seats.all())
    return [
        {"place": p.place, "name": names.get(p.player, "?"), "score": p.score, "won": p.place == 1}
        for p in outcome.placed
    ]


# What a pupil typed an answer for, as the reports count calculations: not
# the tags that judge a whole calculation (its steps are counted), nor the
# multiplication a NUM-X count is also evidence of (the same answer, typed once).
_NOT_TYPED = Q(skill__in=WHOLE_CALCULATION) | Q(game="numx", skill="mul")


def typed(attempt) -> bool:
    """Whether an attempt is an answer the pupil typed (``_NOT_TYPED``)."""
    return attempt.skill not in WHOLE_CALCULATION and not (
        attempt.game == "numx" and attempt.skill == "mul"
    )


def games_played(pupil: Pupil) -> list[dict]:
    """The pupil's last GAMES_SHOWN game sessions, newest first."""
    counts = {
        row["session_id"]: row
        for row in Attempt.objects.filter(pupil=pupil)
        .exclude(_NOT_TYPED)
        .values("session_id")
        .annotate(
            calculations=Count("id"),
            right=Count("id", filter=Q(correct=True, first_try=True)),
            wrong=Count("id", filter=Q(correct=False, first_try=True)),
            last=Max("created_at"),
        )
    }
    played = []
    seats = pupil.seats.select_related("table__session").order_by("-table__session__created_at")[
        :GAMES_SHOWN
    ]
    for seat in seats:
        session = seat.table.session
        row = counts.get(session.pk, {})
        outcome = table_outcome(seat.table)
        placed = outcome.of(seat.player) if outcome else None
        played.append(
            {
                "session": session,
                "game": GAME_NAMES.get(session.game, session.game),
                "table": seat.table.number,
                "calculations": row.get("calculations", 0),
                "right": row.get("right", 0),
                "wrong": row.get("wrong", 0),
                "result": _result_text(placed, outcome) if placed and outcome else "",
            }
        )
    return played


def _result_text(placed: Placed, outcome: TableOutcome) -> str:
    """"won · 42 points", "place 2 of 3 · 30 points"; "no winner · 0 points ·
    ended by the teacher"."""
    players = len(outcome.placed)
    if placed.place is None:
        where = gettext("no winner")
    elif placed.place == 1:
        where = gettext("won") if players > 1 else gettext("alone at the table")
    else:
        where = gettext("place %(place)s of %(count)s") % {
            "place": placed.place,
            "count": players,
        }
    said = [where, outcome.score_format % {"score": placed.score}]
    if outcome.ended_early:
        said.append(gettext("ended by the teacher"))
    return " · ".join(said)


# ------------------------------------------------------------------ one session


def _step_text(attempt) -> str:
    """As typed; the right answer in brackets only when it was wrong."""
    return calculation_text(
        attempt.skill,
        attempt.operands,
        attempt.expected,
        attempt.given,
        correct=attempt.correct,
        gettext=gettext,
    )


def session_report(session) -> list[dict]:
    """Per table, per player: the calculations they made, right and wrong."""
    attempts_by_pupil: dict[int, list] = {}
    for attempt in Attempt.objects.filter(session=session).order_by("created_at", "id"):
        attempts_by_pupil.setdefault(attempt.pupil_id, []).append(attempt)
    tables = []
    seated = list(session.tables.prefetch_related("seats__pupil"))
    roster.label_each(s.pupil for t in seated for s in t.seats.all() if s.pupil_id)
    for table in seated:
        players = []
        names = _player_names(table.seats.all())
        for seat in table.seats.all():
            mine = attempts_by_pupil.get(seat.pupil_id, []) if seat.pupil_id else []
            answers = [a for a in mine if typed(a)]
            firsts = [a for a in answers if a.first_try]
            players.append(
                {
                    "seat": seat,
                    "pupil": seat.pupil,
                    "name": names.get(seat.player, ""),
                    "calculations": len(answers),
                    "right": sum(a.correct for a in firsts),
                    "wrong": sum(not a.correct for a in firsts),
                    "retries": len(answers) - len(firsts),
                    "steps": [
                        {
                            "text": _step_text(a),
                            "in_words": a.skill in IN_WORDS,
                            "correct": a.correct,
                            "first_try": a.first_try,
                            "skill": skill_name(a.skill),
                            "created_at": a.created_at,
                        }
                        for a in mine
                    ],
                }
            )
        outcome = table_outcome(table)
        tables.append(
            {
                "table": table,
                "players": players,
                "finished": table.finished,
                "ranking": _ranking(table, outcome),
                "score_name": outcome.score_name if outcome else "",
                "ended_early": bool(outcome and outcome.ended_early),
                "no_winner": bool(outcome and outcome.placed and outcome.placed[0].place is None),
            }
        )
    return tables


# Names of the skills, for column heads (lazy: translated where shown).

SKILL_NAMES = {
    "add": _("addition"),
    "sub": _("subtraction"),
    "mul": _("multiplication"),
    "div": _("division"),
    "brackets": _("brackets"),
    "multi_step": _("several steps"),
    "primes": _("primes"),
    "powers": _("powers"),
    "left_to_right": _("left to right"),
    "scoring": _("scoring"),
}
