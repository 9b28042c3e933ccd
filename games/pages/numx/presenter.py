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
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from engine.core import IllegalMove
from engine.numx import GAME, bot_moves, can_add_rainbow, task, waiting_on
from games import narration
from games.models import Move
from games.pages.base import (
    OWN_SLOT,
    Presenter,
    drawn_fragment,
    drawn_once,
    drawn_piece,
    kept_words,
    recent_moves,
    you_class_slot,
    you_slot,
)

from . import drawing, words
from . import moves as posted
from . import table as shown
from .options import NumxOptions, initial_from

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

    def options_initial(self, options: dict[str, Any]) -> dict[str, Any]:
        return initial_from(options)
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

    # While the tricks are played and handed out, the pupils the game is not
    # waiting on see the same table; their hand fills the page's slot for it
    # (watcher_own), never the page itself.
    watchers_share_a_page = True

    def watching(self, table, state, player: int | None) -> bool:
        # Not while everyone chooses or counts (what a pupil chose or counted
        # is on their page alone), nor for a pupil with a Rainbow to add (a
        # form of their own) or told that a Rainbow took their turn.
        if state.phase not in ("play", "distribute") or not super().watching(table, state, player):
            return False
        if can_add_rainbow(state, player):
            return False
        history, _said = recent_moves(table, LOG_MOVES)
        return _turn_taken_by(history, player) is None

    def watcher_own(self, table, state, player: int, context: dict[str, Any]) -> str:
        # As context() draws it for a pupil the game is not waiting on.
        return hand_html(
            state, self.engine.view(state, player), context["names"], player, task(state, player),
            hidden=False, shown_hand=True, rechoose=False, your_turn=False, drawn=None,
            move_url=context["move_url"],
        )

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
            # Only what the pupil sees: the page carries this, and a checksum
            # of a face-down card (their own row's too) would tell it.
            row = tuple(card if up else "" for card, up in state.rows[player])
            mine = zlib.crc32(repr((state.hands[player], row)).encode())
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

    def may_move_out_of_turn(self, state, player: int) -> bool:
        # can_add_rainbow without the hand: whether this player holds the
        # Rainbow is theirs alone to know.
        last = state.last
        return (state.phase == "play" and state.pending is None and last is not None
                and last.kind == "number" and last.owner != player)

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
        return {
            "players": players,
            "current_name": narration.names_list(sorted(waiting), names),
            "stuck_player": next(iter(waiting))
            if len(waiting) == 1 and state.phase in ("play", "distribute") else None,
            "board_html": board_html(state, view, names, players, None,
                                     offer=state.phase == "distribute"),
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
        history, said = recent_moves(table, LOG_MOVES)
        players = shown.players(state, view, names, player, waiting)
        ending = self.ending(state, names, player)
        pending = view.get("pending") or {}
        drawn = pending.get("card") if pending.get("kind") == "drawn" else None
        told = kept_words(
            "numx-log", (said, tuple(names.items())),
            lambda: (_last_count(self, history, names), *_log(self, history, names)[:LOG_LINES]),
        )
        context: dict[str, Any] = {
            "players": players,
            "over": over,
            "numx_task": mine,
            "phase": state.phase,
            "your_turn": your_turn,
            "rechoose": rechoose,
            "current_name": narration.names_list(sorted(waiting), names),
            "stuck_player": next(iter(waiting))
            if len(waiting) == 1 and state.phase in ("play", "distribute") else None,
            "pile": view["pile"],
            "round": view["round"],
            "rounds": view["rounds"],
            "tour": view["tour"] + 1,
            "family": view["mode"] == "family",
            "winner_name": names.get(state.winner, "") if state.phase == "distribute" else "",
            "hand_hidden": hand_hidden and player is not None,
            "your_choice": view.get("your_choice") if not hand_hidden else None,
            "rainbow": shown.rainbow(state, view)
            if running and not hand_hidden and not shared else None,
            "drawn": drawing.label(drawn) if drawn and not hand_hidden else "",
            # RULES 4.5: a drawn card is kept only in games of the first rulebook.
            "keep_drawn": state.rulebook < 2,
            "log": list(told[1:]),
            "last_calculation": told[0],
            "lost_turn_to": _lost_turn_to(history, player, names),
            "handover_name": names.get(player, "")
            if shared and your_turn and player in humans and _moved_last(history) != player
            else "",
            "scores": _scores(players) if over else [],
            "winner_names": [p["name"] for p in players if p["winner"]],
            "you_won": any(p["winner"] and p["you"] for p in players),
            "no_winner": ending["no_winner"],
            "ended_early": ending["ended_early"],
            "last": state.last,
            # What the status says of the trick to beat.
            "last_trick": None if state.last is None else {
                "kind": state.last.kind, "size": state.last.size, "value": state.last.value},
        }
        if your_turn and mine.startswith("malus_"):
            context["malus"] = shown.malus(view, player)
        if player is not None and state.phase in ("count", "over") and not hand_hidden:
            context["count"] = shown.count(view, _count_marks(table, player))
        for_watchers = base["you_slots"]
        context["hand_html"] = mark_safe(OWN_SLOT) if for_watchers else hand_html(
            state, view, names, player, mine, hidden=context["hand_hidden"],
            shown_hand=not hand_hidden, rechoose=rechoose, your_turn=your_turn,
            drawn=drawn, move_url=base["move_url"],
            kept=shown.kept_hand_out(view, base.get("posted"))
            if your_turn and mine == "distribute" else (),
        )
        context["board_html"] = board_html(
            state, view, names, players, player,
            offer=state.phase == "distribute" and not (your_turn and mine == "distribute"),
            for_watchers=for_watchers,
        )
        return context


# Where the board marks each seat as the tablet's own ("(you)"): one board is
# drawn for all the tablets at a table, and each fills in its own seat.
def _you_slots(index: int) -> tuple[str, str]:
    return f"<!--nx-you-seat:{index}-->", f"<!--nx-you:{index}-->"


def _cards_key(cards: list[dict[str, Any]]) -> tuple:
    return tuple(tuple(card.items()) for card in cards)


def _rows_key(rows: list[list[dict[str, Any]]]) -> tuple:
    """Every score row as the view shows it: a face-down card has no card."""
    return tuple(
        tuple((entry["face_up"], tuple(entry["card"].items()) if "card" in entry else None)
              for entry in row)
        for row in rows
    )


def board_html(state, view: dict[str, Any], names: dict[int, str],
               players: list[dict[str, Any]], you: int | None, *, offer: bool,
               for_watchers: bool = False) -> str:
    """The tricks, the pile and every seat with its score row: the same on
    every tablet at the table and on the teacher's live view but for the
    "(you)" mark, drawn once per process for what it shows and filled in
    with each tablet's mark. ``offer``: the tour winner's hand-out shows
    (everyone but the winner, who has its form). ``for_watchers``: the
    marks are left as the watchers' page's slots (games.watching)."""
    phase = state.phase
    winner_name = names.get(state.winner, "") if phase == "distribute" else ""
    offered = view["distribution"] if offer else None

    def draw() -> str:
        board = {
            "players": shown.with_rows([{**p, "you": False} for p in players], view),
            "you_slots": True,
            "tricks": shown.tricks(view, names),
            "phase": phase,
            "pile": view["pile"],
            "round": view["round"],
            "rounds": view["rounds"],
            "tour": view["tour"] + 1,
            "winner_name": winner_name,
            "winner_names": [p["name"] for p in players if p["winner"]],
        }
        if offer:
            board["distribution_public"] = shown.distribution(view, names)
        return render_to_string("games/numx/_board.html", board)

    what = (
        phase,
        view["pile"],
        view["round"],
        view["rounds"],
        view["tour"],
        winner_name,
        tuple(names.items()),
        # Each player as the seats show them (their "you" is the slot's).
        tuple(tuple(value for field, value in p.items() if field != "you") for p in players),
        _rows_key(view["rows"]),
        tuple(
            (t["player"], t.get("completed_by"), t.get("value"), t.get("kind"),
             _cards_key(t["cards"]))
            for t in view["tricks"]
        ),
        offer and (repr(offered), len(view["rows"])),
    )
    html = drawn_once("numx-board", what, draw)
    for index in range(len(players)):
        seat, mark = _you_slots(index)
        if for_watchers:
            html = html.replace(seat, you_class_slot(index)).replace(mark, you_slot(index))
            continue
        mine = index == you
        html = html.replace(seat, " you" if mine else "").replace(mark, _you_mark() if mine else "")
    return mark_safe(html)  # noqa: S308 - our own rendered template


def _you_mark() -> str:
    return drawn_fragment(("numx-you", get_language()), lambda: render_to_string("games/_you.html"))


def hand_html(state, view: dict[str, Any], names: dict[int, str], player: int | None, mine: str,
              *, hidden: bool, shown_hand: bool, rechoose: bool, your_turn: bool,
              drawn: str | None, move_url: str,
              kept: tuple[tuple[str, str, str, str], ...] = ()) -> str:
    """The pupil's own cards and what they may do with them, drawn once per
    process for what it shows: their cards, their row, the moves the engine
    allows them now. Another pupil's tablet is served it only if they hold
    the same cards and may do the same: it shows nothing they have not.
    ``kept``: the choices of the hand-out the server just refused."""
    panel = your_turn and mine in ("play", "drawn", "bonus", "blocked")
    malus = your_turn and mine.startswith("malus_")
    handing_out = your_turn and mine == "distribute"
    legal = GAME.moves(state, player) if panel else None
    hand = (view.get("hand") or []) if shown_hand else []
    chosen = view.get("your_choice")
    row = view["rows"][player] if player is not None else []

    def context() -> dict[str, Any]:
        cards = shown.hand({"hand": hand}, chosen, drawn) if shown_hand else []
        owed = shown.malus(view, player) if malus else None
        # Which cards may be tapped now; the others are shown disabled.
        free = bool(panel) or (owed or {}).get("what") == "discard"
        return {
            "hand_hidden": hidden,
            "hand": cards,
            # Each card with its picture (the same whatever the hand's marks
            # on it) and whether it may be tapped now.
            "hand_picks": [
                (c, {k: v for k, v in c.items() if k not in shown.HAND_MARKS},
                 free and not (mine == "bonus" and not c["action"])
                 and not (mine == "blocked" and c["kind"] != "numx"))
                for c in cards
            ],
            "phase": state.phase,
            "numx_task": mine,
            "rechoose": rechoose,
            "panel": shown.play_panel(legal, player, names, view) if panel else None,
            "my_row": shown.row_of(row) if player is not None else [],
            "malus": owed,
            "distribution": shown.distribution(view, names, kept) if handing_out else None,
            "move_url": move_url,
        }

    what = (
        hidden,
        shown_hand and (_cards_key(hand), chosen, drawn),
        state.phase,
        mine,
        rechoose,
        move_url,
        _rows_key([row]),
        # The moves allowed to this player: Éclair's show the other rows, each
        # target is named; a Malus says what this player owes.
        player if panel or malus else None,
        panel and (repr(legal), _rows_key(view["rows"]), tuple(names.items())),
        malus and repr(view.get("pending")),
        handing_out and (repr(view.get("distribution")), len(view["rows"]),
                         tuple(names.items()), kept),
    )
    return drawn_piece("numx-hand", what, "games/numx/_hand.html", context)


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


def _turn_taken_by(history, player: int | None) -> int | None:
    """The player who took this pupil's turn with a Rainbow since they last
    moved, if any."""
    if player is None:
        return None
    for _number, mover, _pupil_id, events in history:
        if mover == player:
            return None
        for event in reversed(events or []):
            kind = event.get("kind")
            if kind == "lost_turn" and player in (event.get("data") or {}).get("players", []):
                return mover
            # Since the Rainbow, the turn came round to them again (to play,
            # or passed over blocked) or the tour ended: "you lost your turn"
            # beside "your turn" would be old news read as a contradiction.
            if kind == "tour_won" or (kind in ("turn", "blocked")
                                      and event.get("player") == player):
                return None
    return None


def _lost_turn_to(history, player: int | None, names: dict[int, str]) -> str:
    """Who took this pupil's turn with a Rainbow since they last moved, or ''."""
    taker = _turn_taken_by(history, player)
    return "" if taker is None else names.get(taker, "?")


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
