"""What a table looks like to a pupil, a teacher or the projector."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from classroom import roster

from .. import live, poll_tokens, seating, services, watching
from ..models import Table
from ..pages import presenter
from ..pages.base import FORM_NOTE_SLOT, table_url

read_poll_token = poll_tokens.read


def poll_token(
    table: Table | int, pupil_id: int | None, teacher_id: int | None, generation: int = 0
) -> str:
    """The table's poll token for a pupil (with their sign_in_generation) or a teacher."""
    table_id = table if isinstance(table, int) else table.pk
    return poll_tokens.mint(table_id, pupil_id, teacher_id, generation)


def seat_names(table: Table) -> dict[int, str]:
    seats = ((seat.player, seat.pupil_id) for seat in table.seats.all())
    return seating.player_names(seats, seating.labels(table))


def _note_by_the_form(context: dict[str, Any]) -> None:
    """A refusal goes next to the form that sent the move when the pupil's
    hand has one, where they are looking (and scrolled to), instead of
    with the lines about moves."""
    hand = context.get("hand_html")
    if not isinstance(hand, str) or FORM_NOTE_SLOT not in hand:
        return
    said = ""
    if context["note"] and context["note_kind"] == "error":
        said = render_to_string("games/_note.html", {"note": context["note"], "note_kind": "error"})
        context["note"] = ""
    context["hand_html"] = mark_safe(hand.replace(FORM_NOTE_SLOT, said))  # noqa: S308


def _team_answering(table: Table, player: int | None, pupil) -> list[tuple[int, str]]:
    """On a shared tablet, the pupils of the team whose turn it is: the one
    answering taps their name, and the calculations are theirs."""
    if pupil is None or player is None or table.session.tablets != table.session.Tablets.SHARED:
        return []
    team = [s.pupil for s in table.seats.all() if s.player == player and s.pupil_id]
    if len(team) < 2:
        return []
    labels = roster.labels(team)
    return [(p.pk, labels[p.pk]) for p in team]


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
    state: Any = None,
    posted: QueryDict | None = None,
) -> dict[str, Any]:
    """Everything a table's templates draw, for a pupil (``player``) or, with
    ``player=None``, for the teacher's live view and the projector.

    ``for_watchers``: the page every watcher shares (games.watching), with
    slots for the poll token and the "(you)" mark. ``state``: the table's
    state, when the caller has read it already. ``posted``: the form of a
    refused move, whose choices a presenter may draw again."""
    session = table.session
    shown = presenter(session.game)
    if state is None:
        state = shown.engine.from_json(table.state)
    view = shown.engine.view(state, player)
    names = seat_names(table)
    token = (
        watching.TOKEN_SLOT
        if for_watchers
        else poll_token(
            table,
            getattr(pupil, "pk", None),
            getattr(teacher, "pk", None),
            getattr(pupil, "sign_in_generation", 0),
        )
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
        "poll_url": table_url("games:table_poll", table.pk) + "?t=" + token,
        # A computer player or a clock may move next: the tablets keep polling
        # every 2 s even while their push stream is live, so the move shows
        # without a worker too (the embedded default, the browser tests).
        # Said from what every tablet sees, not from a computer's hidden hand.
        "server_moves": services.server_may_move(table, state),
        # The language lets the push service send a watcher's page in the
        # language this page is drawn in.
        "push_url": settings.PUSH_URL
        + table_url("games:table_events", table.pk)
        + "?t="
        + token
        + "&l="
        + get_language(),
        "is_pupil": pupil is not None,
        # Reversed once for the page's forms (and its link home), not per form.
        "move_url": table_url("games:table_move", table.pk),
        "home_url": table_url("classroom:pupil_home") if pupil is not None else "",
        "you_slots": for_watchers,
        # The mover who now watches is answered with this page, their
        # feedback in this slot (games.watching.personal).
        "mover_feedback_slot": mark_safe(watching.FEEDBACK_SLOT) if for_watchers else "",  # noqa: S308
        "posted": posted,
    }
    context.update(shown.context(table, state, view, context))
    _note_by_the_form(context)
    context["team_answering"] = _team_answering(table, player, pupil)
    if for_watchers:
        for shown_player in context.get("players", []):
            shown_player["you"] = False
    context["feedback"] = shown.feedback(feedback or [], names)
    return context
