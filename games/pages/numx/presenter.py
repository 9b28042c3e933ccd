"""NUM-X on the pages (RULES.md 4): hidden hands, a secret first choice,
tricks that climb, a Rainbow any pupil may add out of turn, the tour winner's
hand-out and a final count the pupils make themselves.

A page renders a pupil's cards from ``view(state, player)`` alone: another
pupil's hand, a face-down score card (its owner's too) and a card someone
drew never reach a page, a poll or a log line. The engine's ``current`` is
None while everyone chooses at once (the setup, the X-Game refill, the
count): whom the game waits on is always the engine's ``waiting_on``.
"""

from __future__ import annotations

import zlib
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.core import IllegalMove
from engine.numx import GAME, bot_moves, can_add_rainbow, task, waiting_on
from games.models import Move
from games.pages.base import Presenter

from . import drawing, words
from . import moves as posted
from . import table as shown
from .options import NumxOptions

LOG_MOVES = 10
LOG_LINES = 8
# A pupil's count moves, read back to mark each group right or wrong.
COUNT_MOVES = 60


class NumxPresenter(Presenter):
    slug = "numx"
    title = gettext_lazy("NUM-X")
    pitch = gettext_lazy("NUM-X: tricks that climb, then count your score cards")
    engine = GAME
    options_form = NumxOptions
    stylesheet = "css/numx.css"

    # ------------------------------------------------------------------ moves

    def read_move(self, post) -> dict[str, Any] | None:
        return posted.read(post)

    def invalid_note(self, move: dict[str, Any] | None) -> str:
        field = (move or {}).get("invalid")
        if field in ("worth", "total"):
            return _("Type a number with the keypad.")
        if field in ("cards", "card", "indices"):
            return _("Tap the cards first.")
        if field in ("target", "theirs"):
            return _("Choose who the card is for.")
        return _("Something was missing. Tap again.")

    # ------------------------------------------------------------------ turns

    def waiting_on(self, state) -> set[int]:
        return waiting_on(state)

    def current(self, state) -> int | None:
        # On a shared tablet the pupils who choose or count at the same time
        # take the tablet one after the other, in seat order.
        waiting = waiting_on(state)
        return min(waiting) if waiting else None

    def turn_key(self, state) -> Any:
        return (state.phase, tuple(sorted(waiting_on(state))), state.round_no, state.tour,
                len(state.tricks))

    def scene(self, state, player: int | None) -> str:
        # What a pupil's move rests on. Everyone chooses, refills and counts
        # at once: another's choice or count leaves this one's move valid.
        # In play, the tour, the pupil's own cards and row and what they were
        # asked (a drawn card, a Malus): a Rainbow added meanwhile leaves a
        # late Rainbow to the engine ("trick_changed": it names its trick)
        # and a late turn too ("not_your_turn": the turn was lost).
        if player is None:
            return ""
        phase = state.phase
        if phase in ("choose", "refill"):
            return f"{phase}:{state.round_no}"
        if phase == "count":
            return f"count:{len(state.counts[player])}:{state.totals[player]}"
        if phase == "play":
            pending = state.pending
            asked = pending.kind if pending is not None and player in waiting_on(state) else ""
            mine = zlib.crc32(repr((state.hands[player], state.rows[player])).encode())
            return f"play:{state.round_no}:{state.tour}:{mine}:{asked}"
        return ""

    def bot_moves(self, state, player: int, level: str, seed: int) -> list[dict[str, Any]]:
        return bot_moves(state, player, level or "greedy", seed)

    def bystander_moves(self, state, player: int, level: str, seed: int
                        ) -> list[dict[str, Any]]:
        # Only the out-of-turn Rainbow: can_add_rainbow is cheap, and only
        # then is the bot asked whether it wants to add it.
        if state.phase != "play" or not can_add_rainbow(state, player):
            return []
        return [m for m in bot_moves(state, player, level or "greedy", seed)
                if m["type"] == "rainbow"][:1]

    # ------------------------------------------------------------------ evidence

    # The count asks for each group's worth and the total: the attempts
    # (scoring, mul, add) are the evidence. There is no choice of operation
    # to record as an opportunity (a group worth value × count is always a
    # mul attempt), so ``opportunities`` stays None, as in the track game.

    # ------------------------------------------------------------------ words

    def event_text(self, event: dict[str, Any], names: dict[int, str]) -> str:
        return words.event_text(event, names)

    wrong_kinds = frozenset()

    def refusal(self, error: IllegalMove) -> str:
        return words.refusal(error)

    # ------------------------------------------------------------------ pages

    card_moves = LOG_MOVES

    def card_context(self, table, state, names, moves) -> dict[str, Any]:
        # The teacher's view of the engine holds no hand nor face-down card:
        # nor does the card.
        view = self.engine.view(state, None)
        waiting = waiting_on(state)
        players = shown.players(state, view, names, None, waiting)
        board = {
            "players": players,
            "tricks": shown.tricks(view, names),
            "phase": state.phase,
            "pile": view["pile"],
            "round": view["round"],
            "rounds": view["rounds"],
            "tour": view["tour"] + 1,
            "winner_name": names.get(state.winner, "") if state.phase == "distribute" else "",
        }
        if state.phase == "distribute":
            board["distribution_public"] = shown.distribution(view, names)
        return {
            "players": players,
            "current_name": words.names_list(sorted(waiting), names),
            "stuck_player": next(iter(waiting))
            if len(waiting) == 1 and state.phase in ("play", "distribute") else None,
            "board_html": render_to_string("games/numx/_board.html", board),
            "last_calculation": _last_count(self, moves, names),
        }

    def context(self, table, state, view: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
        session = table.session
        names = base["names"]
        player = base["player"]
        running = session.is_running
        over = state.phase == "over"
        waiting = waiting_on(state)
        humans = {s.player for s in table.seats.all() if s.pupil_id}
        shared = session.tablets == session.Tablets.SHARED and len(humans) > 1
        mine = task(state, player) if player is not None else "watch"
        your_turn = running and mine not in ("wait", "done", "watch")
        # A choice stays open until everyone has chosen (not on a shared tablet:
        # the next pupil holds it).
        rechoose = running and state.phase == "choose" and player is not None and not shared
        hand_hidden = player is None or (shared and not your_turn)
        history = list(
            Move.objects.filter(table=table)
            .order_by("-number")
            .values_list("number", "player", "pupil_id", "events")[:LOG_MOVES]
        )
        players = shown.players(state, view, names, player, waiting)
        pending = view.get("pending") or {}
        drawn = pending.get("card") if pending.get("kind") == "drawn" else None
        context: dict[str, Any] = {
            "players": players,
            "over": over,
            "numx_task": mine,
            "phase": state.phase,
            "your_turn": your_turn,
            "rechoose": rechoose,
            "current_name": words.names_list(sorted(waiting), names),
            "stuck_player": next(iter(waiting))
            if len(waiting) == 1 and state.phase in ("play", "distribute") else None,
            "tricks": shown.tricks(view, names),
            "pile": view["pile"],
            "round": view["round"],
            "rounds": view["rounds"],
            "tour": view["tour"] + 1,
            "family": view["mode"] == "family",
            "winner_name": names.get(state.winner, "") if state.phase == "distribute" else "",
            "hand_hidden": hand_hidden and player is not None,
            "hand": [] if hand_hidden else shown.hand(view, view.get("your_choice"), drawn),
            "your_choice": view.get("your_choice") if not hand_hidden else None,
            "my_row": shown.row_of(view["rows"][player]) if player is not None else [],
            "rainbow": shown.rainbow(state, view)
            if running and not hand_hidden and not shared else None,
            "drawn": drawing.label(drawn) if drawn and not hand_hidden else "",
            "log": _log(self, history, names)[:LOG_LINES],
            "last_calculation": _last_count(self, history, names),
            "lost_turn_to": _lost_turn_to(history, player, names),
            "handover_name": names.get(player, "")
            if shared and your_turn and player in humans and _moved_last(history) != player
            else "",
            "scores": _scores(players) if over else [],
            "winner_names": [p["name"] for p in players if p["winner"]],
            "you_won": any(p["winner"] and p["you"] for p in players),
            "last": state.last,
        }
        if your_turn and mine in ("play", "drawn", "bonus", "blocked"):
            context["panel"] = shown.play_panel(state, player, names, view)
        if your_turn and mine == "distribute":
            context["distribution"] = shown.distribution(view, names)
        elif state.phase == "distribute":
            context["distribution_public"] = shown.distribution(view, names)
        if your_turn and mine.startswith("malus_"):
            context["malus"] = shown.malus(view, player)
        if player is not None and state.phase in ("count", "over") and not hand_hidden:
            context["count"] = shown.count(view, _count_marks(table, player))
        context["board_html"] = render_to_string("games/numx/_board.html", {**base, **context})
        return context


def _log(presenter: NumxPresenter, history, names: dict[int, str]) -> list[str]:
    """Newest first. The engine's events name no hidden card."""
    lines: list[str] = []
    for _number, _player, _pupil_id, events in history:
        for event in reversed(events or []):
            text = presenter.event_text(event, names)
            if text:
                lines.append(text)
    return lines


def _moved_last(history) -> int | None:
    return history[0][1] if history else None


def _lost_turn_to(history, player: int | None, names: dict[int, str]) -> str:
    """Who took this pupil's turn with a Rainbow since they last moved, or ''."""
    if player is None:
        return ""
    for _number, mover, _pupil_id, events in history:
        if mover == player:
            return ""
        for event in events or []:
            if event.get("kind") == "lost_turn" and player in (event.get("data") or {}).get(
                    "players", []):
                return names.get(mover, "?")
    return ""


def _last_count(presenter: NumxPresenter, history, names: dict[int, str]) -> str:
    """The newest step a pupil counted, for the teacher's live view."""
    for _number, _player, pupil_id, events in history:
        if pupil_id is None:
            continue
        for event in reversed(events or []):
            if event.get("kind") in ("counted_group", "counted_total"):
                return presenter.event_text(event, names)
    return ""


def _count_marks(table, player: int) -> list[bool]:
    """Whether each group this pupil counted was right, in order."""
    marks: list[bool] = []
    rows = (
        Move.objects.filter(table=table, player=player)
        .order_by("-number")
        .values_list("events", flat=True)[:COUNT_MOVES]
    )
    for events in reversed(list(rows)):
        for event in events or []:
            if event.get("kind") == "counted_group":
                marks.append(bool((event.get("data") or {}).get("correct")))
    return marks


def _scores(players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(
        ({"name": p["name"], "score": p["points"], "team": p["team"], "winner": p["winner"]}
         for p in players),
        key=lambda row: (-(row["score"] or 0), row["name"]),
    )


PRESENTER = NumxPresenter()
