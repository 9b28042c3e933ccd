"""What a table looks like to a pupil, a teacher or the projector."""

from __future__ import annotations

import uuid
from typing import Any

from django.core import signing
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from classroom import roster
from engine.registry import get_game

from .. import boards, live, narration
from ..models import GameSession, Table

CALCULATION_EVENTS = {"calculated", "wrong_step", "try_again", "could_have_made", "no_number"}
POLL_SALT = "numbo.table.poll"
POLL_MAX_AGE = 12 * 60 * 60


def poll_token(table: Table, pupil_id: int | None, teacher_id: int | None) -> str:
    return signing.dumps({"t": table.pk, "p": pupil_id, "k": teacher_id}, salt=POLL_SALT)


def read_poll_token(token: str, table_id: int) -> dict[str, Any] | None:
    try:
        data = signing.loads(token, salt=POLL_SALT, max_age=POLL_MAX_AGE)
    except signing.BadSignature:
        return None
    return data if isinstance(data, dict) and data.get("t") == table_id else None


def seat_names(table: Table) -> dict[int, str]:
    seats = list(table.seats.all())
    labels = roster.labels([s.pupil for s in seats if s.pupil_id])
    names: dict[int, list[str]] = {}
    bots = 0
    for seat in seats:
        if seat.pupil_id:
            names.setdefault(seat.player, []).append(labels[seat.pupil_id])
        else:
            bots += 1
            names.setdefault(seat.player, []).append(_("Computer %(n)d") % {"n": bots})
    return {player: " & ".join(parts) for player, parts in names.items()}


def board_html(
    table: Table, view: dict[str, Any], *, tappable: int | None, chain: set[int], move_id: str
) -> str:
    """The board's SVG. Every tablet at a table sees the same board until the
    next move, so it is drawn once per table version; only the board of the
    pupil placing a token (its squares carry that tap's id) is drawn for them."""
    context = {
        "table": table,
        "board": boards.diamond(view, tappable=tappable, chain=chain),
        "move_id": move_id,
    }
    template = f"games/{table.session.game}/_board.html"
    if tappable is not None:
        return render_to_string(template, context)
    key = f"board:{table.pk}:{live.stamp(table)}:{get_language()}"
    html = cache.get(key)
    if html is not None:
        return mark_safe(html)  # our own rendered template, read back from the cache
    html = render_to_string(template, context)
    cache.set(key, html, 60)
    return html


def table_context(
    table: Table,
    *,
    player: int | None,
    pupil=None,
    teacher=None,
    feedback: list[dict[str, Any]] | None = None,
    note: str = "",
    note_kind: str = "info",
) -> dict[str, Any]:
    session = table.session
    move_id = uuid.uuid4().hex
    engine = get_game(session.game)
    state = engine.from_json(table.state)
    view = engine.view(state, player)
    names = seat_names(table)
    your_turn = bool(view.get("your_turn")) and session.is_running
    place_phase = your_turn and view.get("phase") == "place"
    chain = boards.winning_chain(view) if view.get("result") else set()
    players = []
    for index in range(view["players"]):
        players.append(
            {
                "index": index,
                "name": names.get(index, "?"),
                "money": view["scores"][index],
                "colour": boards.PLAYER_COLOURS[index % 4],
                "colour_name": boards.PLAYER_COLOUR_NAMES[index % 4],
                "current": index == view["current"] and not view.get("result"),
                "you": index == player,
                "winner": bool(view.get("result")) and index in view["result"]["ranking"][0],
            }
        )
    log = [
        text for text in (narration.event_text(e, names) for e in reversed(view["events"])) if text
    ][:5]
    calculations = [
        narration.event_text(e, names)
        for e in reversed(view["events"])
        if e.get("kind") in CALCULATION_EVENTS
    ]
    current_seat_pupils = [
        s for s in table.seats.all() if s.player == view["current"] and s.pupil_id
    ]
    handover = (
        session.tablets == GameSession.Tablets.SHARED
        and pupil is not None
        and your_turn
        and current_seat_pupils
        and not view.get("steps")
        and view.get("phase") == "calculate"
    )
    return {
        "table": table,
        "stamp": live.stamp(table),
        "session": session,
        "view": view,
        "players": players,
        "names": names,
        "current_name": names.get(view["current"], ""),
        "your_turn": your_turn,
        "place_phase": place_phase,
        "board_html": board_html(
            table,
            view,
            tappable=view.get("number") if place_phase else None,
            chain=chain,
            move_id=move_id,
        ),
        "move_id": move_id,
        "log": log,
        "last_calculation": calculations[0] if calculations else "",
        "feedback": [t for t in (narration.event_text(e, names) for e in feedback or []) if t],
        "note": note,
        "note_kind": note_kind,
        "handover_name": names.get(view["current"], "") if handover else "",
        "poll_url": reverse("games:table_poll", args=[table.pk])
        + "?t="
        + poll_token(table, getattr(pupil, "pk", None), getattr(teacher, "pk", None)),
        "operations": [
            (op, narration.SYMBOLS[op]) for op in view.get("variant", {}).get("operations", "")
        ],
        "is_pupil": pupil is not None,
    }
