"""Celery tasks of the games: the server's own moves (a computer player's turn,
a turn's or a game's time running out), made when they are due whether or not
a tablet has the table open.

`games.services` sends `advance_table` for the moment a move is due; the beat
runs `advance_overdue_tables` as a safety net for a message lost with a broker
restart. Both only call `services.advance`, which makes a move only when it is
due, so a task that comes twice or early does nothing wrong.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db.models import Exists, OuterRef
from django.utils import timezone

from . import services
from .models import GameSession, Seat, Table

# Longer than BOT_PAUSE and a scheduled task's usual delay: the sweep only
# catches tables whose own schedule was lost.
OVERDUE_AFTER = timedelta(seconds=20)


@shared_task(ignore_result=True)
def advance_table(table_id: int) -> bool:
    try:
        return services.advance(table_id)
    except Table.DoesNotExist:  # erased with its class since the task was sent
        return False


@shared_task(ignore_result=True)
def advance_overdue_tables() -> int:
    """Tables of running games with a computer player, quiet for a while: let
    each make the move it owes, if any. Returns how many moved."""
    quiet = Table.objects.filter(
        finished=False,
        session__status=GameSession.Status.RUNNING,
        updated_at__lt=timezone.now() - OVERDUE_AFTER,
    ).filter(Exists(Seat.objects.filter(table=OuterRef("pk"), pupil__isnull=True)))
    return sum(services.advance(pk) for pk in quiet.values_list("pk", flat=True))
