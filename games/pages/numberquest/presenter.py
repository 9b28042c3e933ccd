"""Number Quest on the pages: the diamond board, dice, calculation steps."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from engine.arithmetic import SKILL_OF, STEP_SKILLS, operations_that_make
from engine.core import Outcome
from engine.numberquest import GAME
from engine.numberquest.game import free_makeable
from games import narration
from games.pages.base import (
    MAX_FIELD,
    MOVE_URL_SLOT,
    PLAYER_COLOUR_NAMES,
    PLAYER_COLOURS,
    TAP_SLOT,
    VERSION_SLOT,
    KeptHtml,
    Presenter,
    drawn_once,
    table_url,
)

from . import drawing as boards
from .duration import duration_of, form_values
from .options import PRESET_LABELS, NumberQuestOptions

# A calculation sent whole: at most one step fewer than the dice (four).
MAX_STEPS = 3
STEP_FIELDS = ("left", "op", "right", "result")
CALCULATION_EVENTS = {"calculated", "wrong_step", "try_again", "could_have_made", "no_number"}


# The board's colours by name, for its legend (what the end options say: "a
# colour full", "a token on every colour").
BAND_NAMES = {
    "orange": gettext_lazy("orange"),
    "turquoise": gettext_lazy("turquoise"),
    "yellow": gettext_lazy("yellow"),
    "blue": gettext_lazy("blue"),
    "green": gettext_lazy("green"),
    "violet": gettext_lazy("violet"),
    "red": gettext_lazy("red"),
}


def legend_bands(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The board's colours in play with their patterns and payouts, named."""
    return [{**band, "name": str(BAND_NAMES[band["colour"]])} for band in boards.bands(view)]


# Every table's board is a new arrangement of the same few hundred squares (a
# square is free, a player's, a button or on the winning chain): each is drawn
# once per process, and a board is their join. Drawing the board whole took
# 5-8 ms, and a busy server's four processes each drew every board again.
_squares = KeptHtml(most=16384)


def _square_html(cell: dict[str, Any], token_radius: float, language: str) -> str:
    """One square of the diamond. Its key holds everything
    ``_board_square.html`` reads: the cell (numbers, strings, booleans), the
    token's size and the language; a button's table, version and tap are
    slots each board fills in."""
    return _squares.get(
        (tuple(cell.values()), token_radius, language),
        lambda: render_to_string(
            "games/numberquest/_board_square.html",
            {
                "c": cell,
                "token_radius": token_radius,
                "move_url": MOVE_URL_SLOT,
                "version": VERSION_SLOT,
                "move_id": TAP_SLOT,
            },
        ),
    )


def board_html(
    table,
    view: dict[str, Any],
    *,
    tappable: int | None,
    chain: set[int],
    move_id: str,
    offers: bool = False,
) -> str:
    """The diamond's SVG; its squares are buttons for the pupil placing a token,
    or, with ``offers``, may become one on the tablet (``boards.diamond``)."""

    def draw() -> str:
        board = boards.diamond(view, tappable=tappable, chain=chain, offers=offers)
        radius, language = board["token_radius"], get_language()  # read once: 30 us each
        squares = "".join(_square_html(cell, radius, language) for cell in board["cells"])
        if tappable is not None:
            # A board of buttons is kept for its own table (its key holds the
            # table): its address is filled in once, here; the version and the
            # tap id change with each request, so drawn_once fills them.
            squares = squares.replace(MOVE_URL_SLOT, table_url("games:table_move", table.pk))
        return render_to_string(
            "games/numberquest/_board.html",
            {"board": board, "squares": mark_safe(squares)},  # noqa: S308 - our own rendered template
        )

    # The squares never change but for their tokens; a board of buttons posts
    # to its own table.
    board = view["board"]
    shown = (
        board["lo"],
        board["hi"],
        tuple(s["owner"] for s in board["squares"]),
        tuple(sorted(chain)),
        tappable,
        tappable is not None and table.pk,
        offers,
    )
    fill = {VERSION_SLOT: str(table.version), TAP_SLOT: move_id}
    return drawn_once("diamond", shown, draw, fill if tappable is not None else None)


def _free_squares(view: dict[str, Any]) -> str:
    """The squares a token may still cover, as the page's script reads them."""
    board = view["board"]
    lo, hi = board["lo"], board["hi"]
    return ",".join(
        str(s["square"]) for s in board["squares"] if s["owner"] is None and lo <= s["square"] <= hi
    )


def _shown_balances(view: dict[str, Any]) -> list[int]:
    """The balances every screen shows. While a pupil types their new balance
    (the bank), theirs stays the old one: the new one beside the question, on
    their tablet, their neighbours' or the projector, would answer it."""
    shown = list(view["scores"])
    bank = view.get("bank")
    if view.get("phase") == "bank" and bank:
        shown[view["current"]] = bank["old"]
    return shown


def _standing(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events without the steps an Undo or Start again took back, nor the
    calculation they made: the log tells the calculation that stands once, as
    on a tablet alone with the computer, whose Undo never leaves it. Read from
    the newest back, as the kept events may begin in the middle of a turn: an
    Undo takes back the last step still standing before it, Start again every
    step of its turn."""
    kept: list[dict[str, Any]] = []
    undone, cleared = 0, False
    for event in reversed(events):
        kind = event.get("kind")
        if kind == "undo":
            undone += 1
        elif kind == "clear":
            cleared = True
        elif kind == "rolled":
            undone, cleared = 0, False
        elif kind == "calculated" and (undone or cleared):
            continue
        elif kind == "step" and (undone or cleared):
            if not cleared:
                undone -= 1
            continue
        kept.append(event)
    kept.reverse()
    return kept


def _ending_text(view: dict[str, Any], names: dict[int, str]) -> str:
    """Why the game ended, said on the ended page: a pupil would otherwise see
    only that it did."""
    ended = view.get("ended")
    if ended == "chain":
        board = view["board"]
        return _("Squares %(lo)s and %(hi)s are joined by a chain of tokens.") % {
            "lo": board["lo"], "hi": board["hi"],
        }
    if ended == "board_full":
        return _("Every square is covered.")
    if ended == "colour_full":
        return _("A whole colour of the board is covered.")
    if ended == "each_colour":
        ender = next(
            (e.get("player") for e in reversed(view["events"]) if e.get("kind") == "game_over"),
            None,
        )
        return _("%(who)s has a token on every colour.") % {"who": names.get(ender, "")}
    if ended == "time":
        return _("The time for the game is up.")
    if ended == "teacher":
        return _("Your teacher ended the game.")
    return ""


def _winners(view: dict[str, Any]) -> list[int]:
    """Who won a game that is over, as the engine's result ranks them (money;
    nobody, when the teacher ended the game before anybody earned any)."""
    ranking = view["result"]["ranking"]
    return list(ranking[0]) if ranking else []


def _winners_text(view: dict[str, Any], names: dict[int, str]) -> str:
    """Who won, as the players' list crowns them (``_winners``)."""
    scores = view["scores"]
    best = _winners(view)
    if not best:
        return _("Nobody earned any money.")
    if len(best) == 1:
        return _("%(who)s wins with %(money)s!") % {
            "who": names.get(best[0], ""), "money": scores[best[0]],
        }
    return _("A tie at %(money)s: %(who)s!") % {
        "who": narration.names_list(best, names), "money": scores[best[0]],
    }


def _players(view: dict[str, Any], names: dict[int, str], player: int | None, over: bool):
    balances = _shown_balances(view)
    winners = _winners(view) if over else []
    return [
        {
            "index": index,
            "name": names.get(index, "?"),
            "score": balances[index],
            "money": balances[index],
            "colour": PLAYER_COLOURS[index % 4],
            "colour_name": PLAYER_COLOUR_NAMES[index % 4],
            "current": index == view["current"] and not over,
            "you": index == player,
            "winner": index in winners,
        }
        for index in range(view["players"])
    ]


class NumberQuestPresenter(Presenter):
    slug = "numberquest"
    title = gettext_lazy("Number Quest")
    pitch = gettext_lazy("Number Quest: make numbers from dice, cover the board")
    chance_words = gettext_lazy(
        "In Number Quest, a turn counts when the dice let the pupil cover a free square"
        " with the operation."
    )
    engine = GAME
    options_form = NumberQuestOptions
    next_turn_kind = "rolled"
    no_winner_words = gettext_lazy("Nobody earned any money.")
    move_fields = {
        "step": ("left", "op", "right", "result"),
        "place": ("square",),
        "bank": ("balance",),
        "undo": (),
        "clear": (),
        "cant": (),
    }
    number_fields = frozenset({"left", "right", "result", "square", "balance"})
    watchers_share_a_page = True

    def read_move(self, post) -> dict[str, Any] | None:
        if post.get("type") == "steps":
            return self._read_steps(post)
        if post.get("type") == "kept":
            # Steps the tablet still held when the teacher ended the game. The
            # tablet timed each: without the times they would count as instant.
            if not post.getlist("ms"):
                return {"type": "kept", "invalid": "ms"}
            return {**self._read_steps(post), "type": "kept"}
        if post.get("type") == "cant" and "op" in post:
            # Giving up with steps kept on the tablet: they go with it.
            kept = self._read_steps(post)
            return {**kept, "type": "cant"}
        if post.get("type") != "step":
            return super().read_move(post)
        if post.get("left") and post.get("left") == post.get("right"):
            return {"type": "step", "invalid": "same"}
        post = post.copy()
        for side in ("left", "right"):
            # The number tiles post "value|origin": two dice of the same value stay distinct.
            post[side] = post.get(side, "").split("|", 1)[0]
        return super().read_move(post)

    def rule_after_end(self, state, player: int, move: dict[str, Any]) -> Outcome | None:
        if move.get("type") != "kept":
            return None
        return self.engine.rule_on_kept_steps(state, player, move.get("steps"))

    def _read_steps(self, post) -> dict[str, Any]:
        """A calculation's steps typed on the tablet and sent together
        (static/js/numberquest.js): each field once per step, in order, and
        ``ms`` the time each took, when the tablet measured it."""
        fields = {name: post.getlist(name)[:MAX_STEPS + 1] for name in STEP_FIELDS}
        count = len(fields["op"])
        times = post.getlist("ms")[:MAX_STEPS + 1]
        if not 1 <= count <= MAX_STEPS or any(len(v) != count for v in fields.values()):
            return {"type": "steps", "invalid": "steps"}
        if times and len(times) != count:
            return {"type": "steps", "invalid": "steps"}
        steps = []
        for index in range(count):
            posted = QueryDict(mutable=True)
            posted["type"] = "step"
            for name, values in fields.items():
                posted[name] = values[index]
            one = self.read_move(posted)
            if one is None or "invalid" in one:
                return {"type": "steps", "invalid": (one or {}).get("invalid", "steps")}
            if times:
                raw = times[index].strip()[:MAX_FIELD]
                if not (raw.isascii() and raw.isdigit()):
                    return {"type": "steps", "invalid": "ms"}
                one["ms"] = int(raw)
            del one["type"]
            steps.append(one)
        move = {"type": "steps", "steps": steps}
        if "square" in post:
            # The square of the number the steps made, tapped on the tablet.
            raw = post.get("square", "").strip()[:MAX_FIELD]
            if not (raw.isascii() and raw.isdigit()):
                return {"type": "steps", "invalid": "square"}
            move["square"] = int(raw)
        return move

    def invalid_note(self, move: dict[str, Any] | None) -> str:
        if move and move.get("invalid") == "same":
            return _("Pick two different numbers.")
        if move and move.get("invalid") in ("result", "balance"):
            return _("Type a number with the keypad.")
        return _("Tap a number, an operation and another number first.")

    def options_initial(self, options: dict[str, Any]) -> dict[str, Any]:
        shape = ("dice", "operations", "lo", "hi")
        if all(key in options for key in shape):
            return {
                "preset": "custom",
                "dice": options["dice"],
                "operations": list(str(options["operations"])),
                "lo": options["lo"],
                "hi": options["hi"],
            }
        preset = options.get("preset")
        return {"preset": preset} if preset in PRESET_LABELS else {}

    def options_preview(self, query) -> str | None:
        if not query.get("duration"):
            return None
        # The teacher changed the variant: only the line saying how long it lasts.
        return render_to_string(
            "games/numberquest/_duration.html", {"duration": duration_of(form_values(query))}
        )

    def bot_moves(self, state, player: int, level: str, seed: int) -> list[dict[str, Any]]:
        return self.engine.bot_moves(state, player, level or "greedy", seed)

    def deadline(self, state) -> int | None:
        return state.deadline

    def time_limit_minutes(self, state) -> int | None:
        return state.options.time_limit_minutes

    def opportunities(self, state, events: list[dict[str, Any]]):
        # A roll that starts a turn: which operations could have made a free square.
        if getattr(state, "phase", "") != "calculate":
            return None
        if events and not any(e["kind"] == "rolled" for e in events):
            return None
        could = operations_that_make(
            list(state.dice), free_makeable(state) or [], state.variant.operations
        )
        return state.current, list(state.dice), {SKILL_OF[op]: bool(ok) for op, ok in could.items()}

    def used_skills(self, before, events=(), attempts=()) -> list[str] | None:
        # Every step typed counts, right or wrong; the bank's addition is
        # no step of the calculation. Only what this move adds to the turn.
        if getattr(before, "phase", "") not in ("calculate", "over"):
            return None
        earlier = {SKILL_OF[op] for _left, op, _right in getattr(before, "typed", ())}
        typed = {a.skill for a in attempts if a.skill in STEP_SKILLS}
        return sorted(typed) if typed - earlier else None

    def seconds_left(self, table, state, over: bool) -> int | None:
        """What is left of a timed turn, by the server's clock (it ends the turn)."""
        seconds = self.deadline(state)
        if not seconds or over or not table.session.is_running:
            return None
        spent = (timezone.now() - table.turn_started_at).total_seconds()
        return max(0, int(seconds - spent))

    def event_text(self, event: dict[str, Any], names: dict[int, str]) -> str:
        return narration.event_text(event, names)

    def card_context(self, table, state, names, moves) -> dict[str, Any]:
        view = self.engine.view(state, None)
        over = bool(view.get("result"))
        # The newest calculation event, even one with no words: as ``context``.
        calculation = next(
            (e for e in reversed(_standing(view["events"])) if e.get("kind") in CALCULATION_EVENTS),
            None,
        )
        return {
            "players": _players(view, names, None, over),
            "current_name": names.get(view["current"], ""),
            "stuck_player": None if over else view["current"],
            "board_html": board_html(
                table,
                view,
                tappable=None,
                chain=boards.winning_chain(view) if over else set(),
                move_id="",
            ),
            "last_calculation": self.event_text(calculation, names) if calculation else "",
            "bands": legend_bands(view),
        }

    def context(self, table, state, view: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
        session = table.session
        names = base["names"]
        player = base["player"]
        over = bool(view.get("result"))
        your_turn = bool(view.get("your_turn")) and session.is_running
        place_phase = your_turn and view.get("phase") == "place"
        chain = boards.winning_chain(view) if over else set()
        players = _players(view, names, player, over)
        humans = {s.player for s in table.seats.all() if s.pupil_id}
        texts = [
            (e, narration.computer_text(e, names)
             if e.get("player") not in humans
             else self.event_text(e, names))
            for e in reversed(_standing(view["events"]))
        ]
        calculations = [t for e, t in texts if e.get("kind") in CALCULATION_EVENTS]
        handover = (
            session.tablets == session.Tablets.SHARED
            and base["pupil"] is not None
            and your_turn
            and view["current"] in humans
            and len(humans) > 1  # alone with the computer: nobody to pass the tablet to
            and not view.get("steps")
            and view.get("phase") == "calculate"
        )
        # Alone at the table (or with the computer), the pupil's steps wait on
        # the tablet until the calculation is done (static/js/numberquest.js):
        # a request a step saved where nobody watches the steps come one by one.
        # Not in a timed turn: the clock would end it with the steps unsent.
        may_keep = your_turn and base["pupil"] is not None and not self.deadline(state)
        steps_on_tablet = may_keep and all(
            s.pupil_id in (None, base["pupil"].pk) for s in table.seats.all()
        )
        # A die whose number went into a step is spent: it must look it.
        unspent = {n["origin"] for n in view.get("available", [])}
        dice = [{"value": d, "used": f"die:{i}" not in unspent} for i, d in enumerate(view["dice"])]
        return {
            "players": players,
            "dice": dice,
            "has_steps": bool(view.get("steps")),
            "steps_on_tablet": steps_on_tablet,
            # The line the server says for a right step, for the script's own.
            "right_line": _("Right: %(step)s.") if your_turn else "",
            # Where steps wait on the tablet (kept before a pupil sat down too),
            # so may the tap on their square: the free squares and what the
            # page says, for the script.
            "free_squares": _free_squares(view) if may_keep else "",
            "made_line": _("You made %(n)s! Tap the square %(n)s on the board.")
            if may_keep
            else "",
            "square_label": _("Square %(n)s") if may_keep else "",
            "over": over,
            "ending": _ending_text(view, names) if over else "",
            "winners": _winners_text(view, names) if over else "",
            "winner_names": [names.get(p, "") for p in _winners(view)] if over else [],
            "your_turn": your_turn,
            "place_phase": place_phase,
            "current_name": names.get(view["current"], ""),
            "stuck_player": None if over else view["current"],
            "board_html": board_html(
                table,
                view,
                tappable=view.get("number") if place_phase else None,
                chain=chain,
                move_id=base["move_id"],
                offers=may_keep,
            ),
            "bands": legend_bands(view),
            # The status line says the game is over: the log does not say it again.
            "log": [t for e, t in texts if t and e.get("kind") != "game_over"][:5],
            "last_calculation": calculations[0] if calculations else "",
            "handover_name": names.get(view["current"], "") if handover else "",
            "seconds_left": self.seconds_left(table, state, over),
            "operations": [
                (op, narration.SYMBOLS[op]) for op in view.get("variant", {}).get("operations", "")
            ],
        }


PRESENTER = NumberQuestPresenter()
