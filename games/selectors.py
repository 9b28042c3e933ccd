"""Read-only queries of the game pages: the teacher's live view above all.

Views parse the request, call a selector (reads) or a service
(``games.services``, writes) and render.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta
from types import SimpleNamespace

from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.models import Attempt, Pupil

from . import live
from .models import GameSession, Table

SILENCE = timedelta(seconds=90)
WRONG_IN_A_ROW = 3


def why_stuck(table: Table, player: int | None, silent: bool | None = None) -> str:
    """Why the pupil whose turn it is (``player``) seems stuck, or ''.
    ``silent``: whether their silence has lasted (from the turn's start, by
    default), as the caller decided it for the whole answer."""
    return why_stuck_many([(table, player, silent)])[table.pk]


def why_stuck_many(asked: list[tuple[Table, int | None, bool | None]]) -> dict[int, str]:
    """``why_stuck`` of several tables (their seats loaded) in one query: the
    live view draws every table that moved in one answer."""
    pupils: dict[int, int] = {}
    for table, player, _silent in asked:
        seats = [s for s in table.seats.all() if s.player == player and s.pupil_id]
        if seats and not table.finished and table.session.is_running:
            pupils[table.pk] = seats[0].pupil_id
    recent: dict[int, list[bool]] = {pk: [] for pk in pupils}
    if len(pupils) == 1:
        # One table (most answers): the plain query costs half the window's to build.
        [(table_id, pupil_id)] = pupils.items()
        recent[table_id] = list(
            Attempt.objects.filter(table_id=table_id, pupil_id=pupil_id)
            .order_by("-pk")
            .values_list("correct", flat=True)[:WRONG_IN_A_ROW]
        )
    elif pupils:
        rows = (
            Attempt.objects.filter(
                Q.create([Q(table_id=t, pupil_id=p) for t, p in pupils.items()], connector=Q.OR)
            )
            .annotate(
                latest=Window(RowNumber(), partition_by=[F("table_id")], order_by=F("pk").desc())
            )
            .filter(latest__lte=WRONG_IN_A_ROW)
            .values_list("table_id", "correct")
        )
        for table_id, correct in rows:
            recent[table_id].append(correct)
    now = timezone.now()
    found = {}
    for table, _player, silent in asked:
        if table.pk not in pupils:
            found[table.pk] = ""
        elif len(recent[table.pk]) == WRONG_IN_A_ROW and not any(recent[table.pk]):
            found[table.pk] = _("three wrong steps in a row")
        elif silent if silent is not None else now - table.turn_started_at > SILENCE:
            found[table.pk] = _("no move for a while")
        else:
            found[table.pk] = ""
    return found


def late_pupils(session: GameSession) -> list[Pupil]:
    """Pupils of the class who signed in after the game started and have no
    seat in it, by name. Those the teacher left out when starting it signed in
    before, and stay out."""
    return list(
        session.classroom.pupils.filter(signed_in_at__gte=session.created_at)
        .exclude(seats__table__session=session)
        .order_by("first_name", "initial")
    )


@dataclass
class LiveRow:
    """What the live view needs of a table to know whether its card changed."""

    pk: int
    stamp: str
    # The second after which its pupil counts as silent; None when not known
    # for this stamp (the table moved since): its row is read to draw it.
    silent_from: int | None
    status: str  # the session's


def silent_from(turn_started_at) -> int:
    return math.ceil(turn_started_at.timestamp() + SILENCE.total_seconds())


def status_of_stamp(stamp: str) -> str:
    """The session's status as a table's stamp (games.live.stamp) names it:
    the letter after the version."""
    letter = stamp.lstrip("0123456789")[:1]
    return {s[0]: s for s in GameSession.Status.values}.get(letter, GameSession.Status.RUNNING)


def live_rows(session_id: int, teacher_id: int) -> list[LiveRow]:
    """The tables of this teacher's session, in order, with their stamps as
    games.live.stamp makes them: one query, no state read. Empty for
    anyone else's session (or a session without tables)."""
    rows = (
        Table.objects.filter(session_id=session_id, session__teacher_id=teacher_id)
        .order_by("number")
        .values_list(
            "pk",
            "version",
            "seating",
            "turn_started_at",
            "session__status",
            "session__whole_class",
            "session__cards_shown",
        )
    )
    found = []
    for pk, version, seating, started, status, whole_class, cards_shown in rows:
        session = SimpleNamespace(status=status, whole_class=whole_class, cards_shown=cards_shown)
        stamp = live.stamp(SimpleNamespace(version=version, seating=seating, session=session))
        found.append(LiveRow(pk, stamp, silent_from(started), status))
    return found


def teachers_session(teacher, pk: int) -> GameSession:
    """One of this teacher's game sessions; 404 for anyone else's."""
    return get_object_or_404(
        GameSession.objects.select_related("classroom"), pk=pk, teacher=teacher
    )
