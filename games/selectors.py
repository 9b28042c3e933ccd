"""Read-only queries of the game pages: the teacher's live view above all.

Views parse the request, call a selector (reads) or a service
(``games.services``, writes) and render.
"""

from __future__ import annotations

from datetime import timedelta

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.models import Attempt, Pupil

from .models import GameSession, Table

SILENCE = timedelta(seconds=90)
WRONG_IN_A_ROW = 3


def why_stuck(table: Table, player: int | None) -> str:
    """Why the pupil whose turn it is (``player``) seems stuck, or ''."""
    seats = [s for s in table.seats.all() if s.player == player and s.pupil_id]
    if not seats or table.finished or not table.session.is_running:
        return ""
    recent = list(
        Attempt.objects.filter(table=table, pupil_id=seats[0].pupil_id)
        .order_by("-pk")
        .values_list("correct", flat=True)[:WRONG_IN_A_ROW]
    )
    if len(recent) == WRONG_IN_A_ROW and not any(recent):
        return _("three wrong steps in a row")
    if timezone.now() - table.turn_started_at > SILENCE:
        return _("no move for a while")
    return ""


def late_pupils(session: GameSession) -> list[Pupil]:
    """Pupils of the class who signed in after the game started and have no
    seat in it, by name. Those the teacher left out when starting it signed in
    before, and stay out."""
    return list(
        session.classroom.pupils.filter(signed_in_at__gte=session.created_at)
        .exclude(seats__table__session=session)
        .order_by("first_name", "initial")
    )


def table_versions(session: GameSession) -> list[tuple[int, int]]:
    """(table id, version) of each table, in table order."""
    return list(session.tables.order_by("number").values_list("pk", "version"))


def live_version(session: GameSession, versions: list[int] | None = None) -> str:
    """Changes when any table moves, and every 30 s so silences show up: the
    live view's poll gets "nothing new" while it stays the same."""
    if versions is None:
        versions = [version for _pk, version in table_versions(session)]
    bucket = int(timezone.now().timestamp() // 30)
    cards = f"c{session.cards_shown}" if session.whole_class else ""
    return f"{session.status}{cards}-{'.'.join(str(v) for v in versions)}-{bucket}"


def teachers_session(teacher, pk: int) -> GameSession:
    """One of this teacher's game sessions; 404 for anyone else's."""
    return get_object_or_404(
        GameSession.objects.select_related("classroom"), pk=pk, teacher=teacher
    )
