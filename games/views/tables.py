"""What a table looks like to a pupil, a teacher or the projector."""

from __future__ import annotations

import time
import uuid
from typing import Any

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

from .. import live, seating, services, watching
from ..models import Table
from ..presenters import presenter

POLL_SALT = "numbo.table.poll"
POLL_MAX_AGE = 12 * 60 * 60


def poll_token(table: Table | int, pupil_id: int | None, teacher_id: int | None) -> str:
    table_id = table if isinstance(table, int) else table.pk
    return signing.dumps({"t": table_id, "p": pupil_id, "k": teacher_id}, salt=POLL_SALT)


# Tokens already verified by this process: a tablet sends the same one every
# 2 s, and checking its signature again was a tenth of an unchanged poll.
_verified: dict[str, tuple[dict[str, Any], float]] = {}
VERIFIED_FOR = 300.0  # seconds; far below POLL_MAX_AGE
VERIFIED_MAX = 20_000


def read_poll_token(token: str, table_id: int) -> dict[str, Any] | None:
    seen = _verified.get(token)
    if seen is not None and time.monotonic() - seen[1] < VERIFIED_FOR:
        data = seen[0]
    else:
        try:
            data = signing.loads(token, salt=POLL_SALT, max_age=POLL_MAX_AGE)
        except signing.BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        if len(_verified) >= VERIFIED_MAX:
            _verified.clear()
        _verified[token] = (data, time.monotonic())
    return data if data.get("t") == table_id else None


def seat_names(table: Table) -> dict[int, str]:
    seats = list(table.seats.all())
    labels = seating.labels(table)
    names: dict[int, list[str]] = {}
    bots = 0
    for seat in seats:
        if seat.pupil_id:
            names.setdefault(seat.player, []).append(labels[seat.pupil_id])
        else:
            bots += 1
            names.setdefault(seat.player, []).append(_("Computer %(n)d") % {"n": bots})
    return {player: " & ".join(parts) for player, parts in names.items()}


def table_context(
    table: Table,
    *,
    player: int | None,
    pupil=None,
    teacher=None,
    feedback: list[dict[str, Any]] | None = None,
    note: str = "",
    note_kind: str = "info",
    for_watchers: bool = False,
) -> dict[str, Any]:
    """Everything a table's templates draw, for a pupil (``player``) or, with
    ``player=None``, for the teacher's live view and the projector.

    ``for_watchers``: the page every watcher shares (games.watching), with
    slots for the poll token and the "(you)" mark."""
    session = table.session
    shown = presenter(session.game)
    state = shown.engine.from_json(table.state)
    view = shown.engine.view(state, player)
    names = seat_names(table)
    token = (
        watching.TOKEN_SLOT
        if for_watchers
        else poll_token(table, getattr(pupil, "pk", None), getattr(teacher, "pk", None))
    )
    context: dict[str, Any] = {
        "table": table,
        "stamp": live.stamp(table),
        "session": session,
        "game": session.game,
        "view": view,
        "names": names,
        "player": player,
        "pupil": pupil,
        "move_id": uuid.uuid4().hex,
        # Per player: never in the page that watchers share.
        "seen": "" if for_watchers or player is None else shown.scene(state, player),
        "note": note,
        "note_kind": note_kind,
        "poll_url": reverse("games:table_poll", args=[table.pk]) + "?t=" + token,
        # A computer player or a clock will move next: the tablets keep polling
        # every 2 s even while their push stream is live, so the move shows
        # without a worker too (the embedded default, the browser tests).
        "server_moves": services.due_at(table, state) is not None,
        "push_url": settings.PUSH_URL
        + reverse("games:table_events", args=[table.pk])
        + "?t="
        + token,
        "is_pupil": pupil is not None,
        "you_slots": for_watchers,
    }
    context.update(shown.context(table, state, view, context))
    if for_watchers:
        for shown_player in context.get("players", []):
            shown_player["you"] = False
    context["feedback"] = shown.feedback(feedback or [], names)
    return context
