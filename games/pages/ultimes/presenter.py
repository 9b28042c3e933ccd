"""The track of ultimate numbers on the pages: the snake track, dice, the
sum typed on the keypad, and the squares tapped (RULES.md 0.3 and 5)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.template.loader import get_template, render_to_string
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from engine.core import Event, IllegalMove
from engine.ultimes import FINISH, GAME, bot_moves
from games import narration, selectors
from games.pages.base import (
    MOVE_URL_SLOT,
    PLAYER_COLOUR_NAMES,
    PLAYER_COLOURS,
    TAP_SLOT,
    VERSION_SLOT,
    Presenter,
    drawn_once,
    table_url,
)

from . import drawing as tracks
from .options import TrackOptions, initial_from

LOG_MOVES = 8  # the last moves read for the table's log
LOG_LINES = 6
# A pawn this close to 99 may go past it: the page reminds how to count back.
BOUNCE_ZONE = FINISH - 12


def _who(names: dict[int, str], player: Any) -> str:
    return names.get(player, "") if isinstance(player, int) else ""


# The move URL in squares drawn for every table, filled in per table.


@lru_cache(maxsize=32)
def _empty_squares(
    marks: tuple[bool, bool], tappable: bool, language: str | None
) -> tuple[str, ...]:
    """Squares 0..99 with no pawn on them, drawn once per process for their
    marks, whether they are buttons and the language of their labels: a move
    redraws only the few squares its pawns stand on (``language`` keys the
    cache; the drawing reads the active one)."""
    track = tracks.frame()
    context = {"track": track, "tap": tappable, "move_url": MOVE_URL_SLOT if tappable else ""}
    template = get_template("games/ultimes/_track_square.html")
    return tuple(template.render({**context, "c": cell}) for cell in tracks.squares(*marks))


@lru_cache(maxsize=64)
def _frame(marks: tuple[bool, bool], tappable: bool, phase: str, language: str | None) -> str:
    """The track's outline, road and badges, with slots for its squares and pawns."""
    return render_to_string(
        "games/ultimes/_track.html",
        {
            "track": tracks.frame(),
            "cells": tracks.squares(*marks),
            "tappable": tappable,
            "version": VERSION_SLOT,
            "move_id": TAP_SLOT,
            "move_type": phase,
            "squares": SQUARES_SLOT,
            "pawns": PAWNS_SLOT,
        },
    )


SQUARES_SLOT = "track-squares-slot"
PAWNS_SLOT = "track-pawns-slot"


def track_html(
    table, view: dict[str, Any], names: dict[int, str], *, tappable: bool, move_id: str, phase: str
) -> str:
    """The track's SVG, drawn once for what it shows (the pawns, the phase, the
    names, whether its squares are buttons)."""
    marks = (bool(view.get("mark_ultimates")), bool(view.get("mark_elevated")))

    def draw() -> str:
        language = get_language()
        pieces = tracks.pawns(view, names=names)
        track = {**tracks.frame(), **pieces}
        squares = list(_empty_squares(marks, tappable, language))
        move_url = table_url("games:table_move", table.pk) if tappable else ""
        if pieces["occupied"]:
            template = get_template("games/ultimes/_track_square.html")
            cells = tracks.squares(*marks)
            for square, on_it in pieces["occupied"].items():
                squares[square] = template.render(
                    {
                        "track": track,
                        "tap": tappable,
                        "move_url": MOVE_URL_SLOT,
                        "c": {**cells[square], **on_it},
                    }
                )
        pawns = render_to_string("games/ultimes/_track_pawns.html", {"track": track})
        html = _frame(marks, tappable, phase, language)
        html = html.replace(SQUARES_SLOT, "".join(squares)).replace(PAWNS_SLOT, pawns)
        return html.replace(MOVE_URL_SLOT, move_url) if tappable else html

    shown = (
        phase,
        view.get("phase"),
        view.get("turn"),
        tuple(view.get("positions", [])),
        view.get("reached"),
        view.get("winner"),
        marks,
        tuple(sorted(names.items())),
        tappable and table.pk,  # a track of buttons posts to its own table
    )
    fill = {VERSION_SLOT: str(table.version), TAP_SLOT: move_id} if tappable else None
    return drawn_once("track", shown, draw, fill)


def _players(state, names: dict[int, str], player: int | None) -> list[dict[str, Any]]:
    over = state.phase == "over"
    return [
        {
            "index": index,
            "name": names.get(index, "?"),
            "score": state.positions[index],
            "position": state.positions[index],
            "passed_99": state.passed_99[index],
            "colour": PLAYER_COLOURS[index % 4],
            "colour_name": PLAYER_COLOUR_NAMES[index % 4],
            "current": index == state.turn and not over,
            "you": index == player,
            "winner": over and index == state.winner,
        }
        for index in range(state.players)
    ]


class UltimesPresenter(Presenter):
    slug = "ultimes"
    title = gettext_lazy("The track of ultimate numbers")
    pitch = gettext_lazy("The track of ultimate numbers: a race to 99 with primes and powers")
    engine = GAME
    options_form = TrackOptions

    def options_initial(self, options: dict[str, Any]) -> dict[str, Any]:
        return initial_from(options)
    stylesheet = "css/ultimes.css"
    move_fields = {
        "dice": ("count",),
        "sum": ("value",),
        "reach": ("square",),
        "send": ("square",),
    }
    number_fields = frozenset({"count", "value", "square"})
    watchers_share_a_page = True
    feedback_template = "games/ultimes/_feedback.html"
    next_turn_kind = "next_turn"
    score_heading = gettext_lazy("Square")
    score_words = gettext_lazy("square %(score)s")
    # A race's rules crown only the pawn on 99.
    no_winner_words = gettext_lazy("No pawn reached 99: no winner.")

    def feedback_context(
        self, events: list[dict[str, Any]], names: dict[int, str]
    ) -> dict[str, Any]:
        return {"feedback": self.feedback(events, names), "verdict": _verdict_of(events)}

    # ------------------------------------------------------------------ moves

    def invalid_note(self, move: dict[str, Any] | None) -> str:
        field = (move or {}).get("invalid")
        if field == "value":
            return _("Type the sum of the dice with the keypad.")
        if field == "square":
            return _("Tap a square of the track.")
        if field == "count":
            return _("Choose one die or two dice.")
        return _("Something was missing. Tap again.")

    # ------------------------------------------------------------------ turns

    def current(self, state) -> int | None:
        return None if state.phase == "over" else state.turn

    def waiting_on(self, state) -> set[int]:
        return set() if state.phase == "over" else {state.turn}

    def turn_key(self, state) -> Any:
        # The turn counters change when a move ends, even for a pupil playing alone.
        return (state.turn, tuple(state.turns), state.phase == "over")

    def bot_moves(self, state, player: int, level: str, seed: int) -> list[dict[str, Any]]:
        return bot_moves(state, player, seed)

    def opportunities(self, state, events):
        return None  # no choice of operations here: every turn is the same calculation

    # ------------------------------------------------------------------ words

    def event_text(self, event: dict[str, Any], names: dict[int, str]) -> str:
        return event_text(event, names)

    def refusal(self, error: IllegalMove) -> str:
        d = error.details
        if error.code == "wrong_phase":
            return PHASE_HINTS().get(d.get("phase"), narration.refusal(error))
        if error.code == "malformed":
            field = d.get("field")
            if field == "value":
                return _("Type a number from 0 to %(max)s with the keypad.") % {
                    "max": d.get("max", 999)
                }
            if field == "square":
                return _("Tap a square of the track, from 0 to 99.")
            if field == "count":
                return _("Choose one die or two dice.")
        if error.code == "no_such_player":
            return _("You are not in this game.")
        return narration.refusal(error)

    # ------------------------------------------------------------------ pages

    card_moves = LOG_MOVES

    def card_context(self, table, state, names, moves) -> dict[str, Any]:
        over = state.phase == "over"
        view = self.engine.view(state, None)
        return {
            "players": _players(state, names, None),
            "current_name": names.get(state.turn, ""),
            "stuck_player": None if over else state.turn,
            "board_html": track_html(
                table, view, names, tappable=False, move_id="", phase=state.phase
            ),
            "last_calculation": _last_calculation(moves, names),
        }

    def context(self, table, state, view: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
        session = table.session
        names = base["names"]
        player = base["player"]
        phase = state.phase
        over = phase == "over"
        turn = state.turn
        your_turn = bool(view.get("your_turn")) and session.is_running
        tappable = your_turn and phase in ("reach", "send")
        players = _players(state, names, player)
        moves = _recent_moves(table)
        log = _log(self, moves, state, names, table.version)
        humans = {s.player for s in table.seats.all() if s.pupil_id}
        handover = (
            session.tablets == session.Tablets.SHARED
            and base["pupil"] is not None
            and your_turn
            and len(humans) > 1
            and turn in humans
            and phase in ("sum", "dice")
            and not state.retrying
        )
        position = state.positions[turn]
        return {
            "players": players,
            "over": over,
            "your_turn": your_turn,
            "current_name": names.get(turn, ""),
            "current_colour": PLAYER_COLOURS[turn % 4],
            "current_number": turn + 1,
            "stuck_player": None if over else turn,
            "board_html": track_html(
                table, view, names, tappable=tappable, move_id=base["move_id"], phase=phase
            ),
            "log": log[:LOG_LINES],
            "last_calculation": _last_calculation(moves, names),
            "handover_name": names.get(turn, "") if handover else "",
            "phase": phase,
            "dice": list(state.dice),
            "dice_sum": view.get("sum"),
            "position": position,
            "reached": view.get("reached"),
            "retrying": state.retrying,
            "bounce_reminder": phase == "reach" and position >= BOUNCE_ZONE,
            "verdict": _verdict(moves, player, table.version),
            **self.ending(state, names, player),
            "marks": state.mark_ultimates,
            "marks_elevated": state.mark_elevated,
            "phase_text": _phase_text(phase, names.get(turn, ""), state.retrying),
        }


PRESENTER = UltimesPresenter()


# --------------------------------------------------------------------------- words


def PHASE_HINTS() -> dict[str, str]:  # noqa: N802 - a table of translated words
    return {
        "dice": _("First choose one die or two dice."),
        "sum": _("First type the sum of the dice."),
        "reach": _("First tap the square your pawn reaches."),
        "send": _("First tap the square where your pawn goes."),
        "over": _("The game is over."),
    }


def _phase_text(phase: str, who: str, retrying: bool) -> str:
    """What the player whose turn it is is doing, for the others and the projector."""
    if phase == "dice":
        return _("%(who)s chooses one die or two.") % {"who": who}
    if phase == "sum":
        return _("%(who)s adds the dice.") % {"who": who}
    if phase == "reach":
        return _("%(who)s looks for the square the pawn reaches.") % {"who": who}
    if phase == "send":
        return _("%(who)s says where that square sends the pawn.") % {"who": who}
    return ""


def _answer_text(data: dict[str, Any]) -> str:
    step, expected, given = data.get("step"), data.get("expected"), data.get("given")
    values = {"n": expected, "given": given}
    if data.get("correct"):
        if step == "sum":
            return _("Right: the dice make %(n)s!") % values
        if step == "reach":
            return _("Right: the pawn reaches %(n)s!") % values
        return _("Right: the pawn goes to %(n)s!") % values
    if step == "sum":
        return _("Not quite: the dice make %(n)s, not %(given)s.") % values
    if step == "reach":
        return _("Not quite: the pawn reaches %(n)s, not %(given)s.") % values
    return _("Not quite: the pawn goes to %(n)s, not %(given)s.") % values


def _moved_text(data: dict[str, Any], who: str) -> str:
    effect = data.get("effect")
    values = {
        "who": who,
        "square": data.get("reached"),
        "end": data.get("end"),
        "start": data.get("start"),
        "total": data.get("total"),
        "over": data.get("overshoot"),
    }
    if effect == "win":
        return _("%(who)s lands exactly on 99!") % values
    if effect == "reset_97":
        return _("97 straight from the dice: %(who)s goes back to 0!") % values
    if effect == "back_97":
        return _("97 after passing 99: %(who)s goes back to 89.") % values
    if effect == "next_ultimate":
        return (
            _("%(square)s is an ultimate number: %(who)s jumps on to the next one, %(end)s.")
            % values
        )
    if effect == "previous_ultimate":
        return (
            _(
                "%(start)s + %(total)s goes %(over)s past 99, back to %(square)s: "
                "an ultimate number, so %(who)s goes back to the one before, %(end)s."
            )
            % values
        )
    if effect == "source":
        values["product"] = tracks.power_text(data.get("reached", 0))
        return (
            _("%(square)s = %(product)s, a power of %(end)s: %(who)s goes back to %(end)s.")
            % values
        )
    if data.get("bounced"):
        return (
            _("%(start)s + %(total)s goes %(over)s past 99: %(who)s counts back to %(square)s.")
            % values
        )
    return _("%(square)s is neither ultimate nor a power: %(who)s stays there.") % values


def event_text(event: dict[str, Any], names: dict[int, str]) -> str:
    """One line for the log or the pupil's feedback, or '' when none is needed."""
    return _event_line(event, names).strip()


def _event_line(event: dict[str, Any], names: dict[int, str]) -> str:
    kind = event.get("kind")
    data = event.get("data") or {}
    who = _who(names, event.get("player"))
    if kind == "rolled":
        dice = [str(d) for d in data.get("dice", [])]
        if len(dice) == 1:
            return _("%(who)s rolled %(a)s.") % {"who": who, "a": dice[0]}
        return _("%(who)s rolled %(a)s and %(b)s.") % {
            "who": who,
            "a": ", ".join(dice[:-1]),
            "b": dice[-1] if dice else "",
        }
    if kind == "dice_chosen":
        if data.get("count") == 1:
            return _("%(who)s plays with one die.") % {"who": who}
        return _("%(who)s plays with two dice.") % {"who": who}
    if kind == "answer":
        return _answer_text(data)
    if kind == "try_again":
        return _("Not quite. Try once more!")
    if kind == "moved":
        return _moved_text(data, who)
    if kind == "passed_99":
        return _("%(who)s went past 99: from now on, one die or two!") % {"who": who}
    if kind == "won":
        return _("%(who)s wins the race!") % {"who": who}
    if kind == "first_player_roll":
        rolls = ", ".join(
            f"{_who(names, pair[0])} {pair[1]}" for pair in data.get("rolls", []) if len(pair) == 2
        )
        return _("Who starts? Each player rolled a die: %(rolls)s.") % {"rolls": rolls}
    if kind == "first_player":
        return _("%(who)s starts!") % {"who": who}
    return ""


# --------------------------------------------------------------------------- the log


def _recent_moves(table) -> list[tuple]:
    """The table's last moves, read once per table object: a move's answer
    draws the mover's page and the watchers' from the same saved table."""
    kept = table.__dict__.get("_recent_moves")
    if kept is None or kept[0] != table.version:
        # The live card's select, written out in SQL: the ORM took longer to build it.
        moves = selectors.last_moves({table.pk: LOG_MOVES})[table.pk]
        kept = table.__dict__["_recent_moves"] = (table.version, moves)
    return kept[1]


def _log(shown, moves, state, names: dict[int, str], version: int) -> list[str]:
    """Newest first: the last moves' events, and the opening while the game is young.
    A computer's answers are always right: its lines say what happened, not "Right!"."""
    lines: list[str] = []
    for _number, _player, pupil_id, events in moves:
        for event in reversed(events or []):
            if event.get("kind") in ("answer", "try_again") and pupil_id is None:
                continue
            text = shown.event_text(event, names)
            if text:
                lines.append(text)
    if version < LOG_MOVES:
        lines += [shown.event_text(e.to_json(), names) for e in _opening(shown, state)]
    return [line for line in lines if line]


def _opening(shown, state) -> list[Event]:
    """Who started and the first roll, newest first (the engine made them in ``new``)."""
    engine = shown.engine
    try:
        first = engine.new(state.options, state.players, state.seed)
    except IllegalMove:
        return []
    events = list(engine.opening_events(first)) if state.players > 1 else []
    if first.dice:
        events.append(Event("rolled", first.turn, {"dice": list(first.dice)}))
    return list(reversed(events))


def _last_calculation(moves, names: dict[int, str]) -> str:
    """The newest calculation a pupil typed, for the teacher's live view."""
    for _number, player, pupil_id, events in moves:
        if pupil_id is None:
            continue
        for event in reversed(events or []):
            if event.get("kind") == "answer":
                return f"{_who(names, player)}: {_answer_text(event.get('data') or {})}"
            if event.get("kind") == "try_again":
                return f"{_who(names, player)}: {_('Not quite. Try once more!')}"
    return ""


def _verdict(moves, player: int | None, version: int) -> str:
    """``right``, ``wrong`` or ``retry`` when the table's last move was this
    player's answer (the big picture beside the feedback), else ''."""
    if not moves or player is None:
        return ""
    number, mover, _pupil, events = moves[0]
    if number != version or mover != player:
        return ""
    return _verdict_of(events or [])


def _verdict_of(events: list[dict[str, Any]]) -> str:
    """What the big picture says of a move's events: ``retry``, ``right``,
    ``wrong``, or '' when they hold no answer."""
    for event in events:
        if event.get("kind") == "try_again":
            return "retry"
        if event.get("kind") == "answer":
            return "right" if event.get("data", {}).get("correct") else "wrong"
    return ""
