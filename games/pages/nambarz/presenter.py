"""Nambarz on the pages: a hand of cards, the target, calculations typed step
by step (RULES.md 3).

The first game with hidden information. Everything a pupil's page shows of
the cards comes from the engine's ``view(state, player)``, which holds only
that player's hand; the teacher's and the projector's views hold none. The
table's log leaves out the steps of another pupil's wrong calculation: the
cards in it are still in their hand.
"""

from __future__ import annotations

import re
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.arithmetic import SKILL_OF
from engine.core import IllegalMove
from engine.nambarz import GAME, bot_moves, opportunity, rank_points
from engine.nambarz.bots import simplest_parts
from engine.nambarz.cards import cards_of, match_kind
from engine.nambarz.state import team_of
from games.narration import SYMBOLS
from games.narration import refusal as common_refusal
from games.pages.base import (
    OWN_SLOT,
    PLAYER_COLOUR_NAMES,
    PLAYER_COLOURS,
    Presenter,
    drawn_once,
    drawn_piece,
    kept_words,
    recent_moves,
)

from . import drawing
from .options import NambarzOptions, initial_from

LOG_MOVES = 8
LOG_LINES = 6
# No hand holds more: a longer list is a forged form, not a calculation.
MAX_CARDS = 20
MAX_RESULT_DIGITS = 7
LIST_ITEM = re.compile(r"\d{1,7}", re.ASCII)  # not "٣" nor "７": int() takes them
# Symbol and drawing cards keep their ids whatever the number of jokers
# (the jokers come last in the deck), so a refusal can name them.
NUMBER_CARDS = cards_of(12)[:80]


def _card_name(card_id: Any) -> str:
    if isinstance(card_id, int) and 0 <= card_id < len(NUMBER_CARDS):
        return drawing.label(NUMBER_CARDS[card_id].to_json())
    return ""


def _numbers(raw: str) -> list[int] | None:
    """"3,12,40" -> [3, 12, 40]; None when any item is not a whole number."""
    items = [item.strip() for item in raw.split(",")] if raw.strip() else []
    if len(items) > MAX_CARDS or not all(LIST_ITEM.fullmatch(item) for item in items):
        return None
    return [int(item) for item in items]


def _steps(raw: str, k: int) -> list[list[int]] | None:
    """"0-1,2-4" -> [[0, 1], [2, 4]]: which two numbers each step joins."""
    pairs = [item.strip().split("-") for item in raw.split(",")]
    if len(pairs) != k - 1 or not all(
        len(pair) == 2 and all(LIST_ITEM.fullmatch(p) for p in pair) for pair in pairs
    ):
        return None
    return [[int(a), int(b)] for a, b in pairs]


def calculation_text(numbers: list[Any], ops: list[str], results: list[Any]) -> str:
    """Left to right, as the pupil typed it: "3 × 3 = 9, 9 − 1 = 8"."""
    steps = []
    left = numbers[0] if numbers else "?"
    for index, op in enumerate(ops):
        right = numbers[index + 1] if index + 1 < len(numbers) else "?"
        result = results[index] if index < len(results) else "?"
        steps.append(f"{left} {SYMBOLS.get(op, op)} {right} = {result}")
        left = result
    return ", ".join(steps)


class NambarzPresenter(Presenter):
    slug = "nambarz"
    title = gettext_lazy("Nambarz")
    pitch = gettext_lazy("Nambarz: cards in hand, calculate to hit the target")
    chance_words = gettext_lazy(
        "In Nambarz, a turn counts when a calculation with the operation could make the"
        " target from the pupil's cards, whether the pupil then calculated, laid a card"
        " or drew one."
    )
    engine = GAME
    options_form = NambarzOptions

    def options_initial(self, options: dict[str, Any]) -> dict[str, Any]:
        return initial_from(options)
    stylesheet = "css/nambarz.css"
    second_chance = False  # a wrong result is always tried again
    move_fields = {
        "match": ("card",),
        "joker": ("card",),
        "calculate": ("cards", "ops", "results"),
        "draw": (),
        "pass": (),
    }
    number_fields = frozenset({"card"})

    # ------------------------------------------------------------------ moves

    def read_move(self, post) -> dict[str, Any] | None:
        if post.get("type") != "calculate":
            return super().read_move(post)
        cards = _numbers(post.get("cards", "")[:200])
        if not cards or len(cards) < 2:
            return {"type": "calculate", "invalid": "cards"}
        ops = [op.strip() for op in post.get("ops", "")[:200].split(",")]
        if len(ops) != len(cards) - 1 or not all(op in SYMBOLS for op in ops):
            return {"type": "calculate", "invalid": "ops"}
        results = _numbers(post.get("results", "")[:200])
        if results is None or len(results) != len(cards) - 1:
            return {"type": "calculate", "invalid": "results"}
        move = {"type": "calculate", "cards": cards, "ops": ops, "results": results}
        if post.get("steps", "").strip():
            steps = _steps(post["steps"][:400], len(cards))
            if steps is None:
                return {"type": "calculate", "invalid": "steps"}
            move["steps"] = steps
        return move

    def invalid_note(self, move: dict[str, Any] | None) -> str:
        field = (move or {}).get("invalid")
        if field == "results":
            return _("Type the result of every step with the keypad.")
        if field == "steps":
            return _("Join two numbers at each step, then type the result.")
        if field == "ops":
            return _("Tap an operation between each two cards.")
        if field in ("cards", "card"):
            return _("Tap the cards of your hand first.")
        return _("Something was missing. Tap again.")

    # ------------------------------------------------------------------ turns

    def waiting_on(self, state) -> set[int]:
        return set() if state.over else {state.current}

    def current(self, state) -> int | None:
        return None if state.over else state.current

    # Every pupil the turn is not on sees the same table; their hand fills
    # the page's slot for it (watcher_own), never the page itself.
    watchers_share_a_page = True

    def watching(self, table, state, player: int | None) -> bool:
        # A pupil whose wrong calculation is still in the log reads it there;
        # the others' log leaves it out: their page is their own.
        return super().watching(table, state, player) and player not in _wrong_calculators(
            recent_moves(table, LOG_MOVES)[0]
        )

    def watcher_own(self, table, state, player: int, context: dict[str, Any]) -> str:
        # As context() draws it for a pupil whose turn it is not.
        return hand_html(
            state, self.engine.view(state, player), hidden=False, shown_hand=True,
            your_turn=False, drawn=None, move_url=context["move_url"],
        )

    def turn_key(self, state) -> Any:
        return (state.current, state.turn, state.round)

    def bot_moves(self, state, player: int, level: str, seed: int) -> list[dict[str, Any]]:
        return bot_moves(state, player, level or "greedy", seed)

    # ------------------------------------------------------------------ evidence

    def opportunities(self, state, events: list[dict[str, Any]]):
        # A turn that starts: which operations a legal calculation would have
        # used. A pupil who then matches or draws shows as "could, didn't".
        if events and not any(e["kind"] in ("turn", "round_started") for e in events):
            return None
        return opportunity(state)

    def used_skills(self, before, events=(), attempts=()) -> list[str] | None:
        # Every operation the pupil laid and typed a result for, right or
        # wrong, the target made or missed (the steps after a slip too).
        for event in events:
            if event.get("kind") in ("calculated", "wrong_result"):
                ops = (event.get("data") or {}).get("ops") or []
                return sorted({SKILL_OF[op] for op in ops if op in SKILL_OF}) or None
        return None

    # ------------------------------------------------------------------ words

    def event_text(self, event: dict[str, Any], names: dict[int, str]) -> str:
        kind = event.get("kind")
        data = event.get("data") or {}
        who = names.get(event.get("player"), "")
        if kind == "matched":
            laid = {"who": who, "card": drawing.label(data.get("card") or {})}
            if data.get("by") == "drawing":
                return _("%(who)s laid the %(card)s: the same animal.") % laid
            if data.get("by") == "joker":
                return _("%(who)s laid the %(card)s on the joker.") % laid
            return _("%(who)s laid the %(card)s: the same number.") % laid
        if kind == "calculated":
            cards = data.get("cards") or []
            text = calculation_text(
                [c.get("number") for c in cards], data.get("ops") or [], data.get("results") or []
            )
            line = _("%(who)s calculated with %(n)s cards: %(text)s.") % {
                "who": who, "n": len(cards), "text": text,
            }
            if data.get("bonus"):
                line += " " + _("Bonus: %(bonus)s points!") % {"bonus": data["bonus"]}
            return line
        if kind == "wrong_result" and data.get("missed"):
            return _(
                "Your calculation makes %(value)s, but the target is %(target)s. "
                "Your cards are still in your hand: try again."
            ) % {"value": data.get("value"), "target": data.get("target")}
        if kind == "wrong_result":
            return _(
                "Not quite: %(left)s %(op)s %(right)s is not %(given)s. "
                "Your cards are still in your hand: try again."
            ) % {
                "left": data.get("left"), "op": SYMBOLS.get(data.get("op"), data.get("op")),
                "right": data.get("right"), "given": data.get("given"),
            }
        if kind == "joker":
            card = drawing.card(data.get("card") or {})
            return _("%(who)s played a joker. %(meaning)s") % {
                "who": who, "meaning": card.get("meaning", ""),
            }
        if kind == "drew":
            if data.get("card", 0) is None:
                return _("%(who)s could not draw: there is no card left.") % {"who": who}
            return _("%(who)s drew a card.") % {"who": who}
        if kind == "passed":
            return _("%(who)s passed.") % {"who": who}
        if kind == "timeout":
            return _("%(who)s ran out of time.") % {"who": who}
        if kind == "went_out":
            return _("%(who)s has no cards left: place %(rank)s!") % {
                "who": who, "rank": data.get("rank"),
            }
        if kind == "reshuffled":
            return _("The played cards were shuffled into a new pile.")
        if kind == "blocked":
            return _("Nobody can play any more: the round ends.")
        if kind == "round_over":
            return _("Round %(n)s is over.") % {"n": data.get("round")}
        if kind == "round_started":
            if data.get("extra"):
                return _("The tie-break starts: one more round for the tied leaders.")
            return _("Round %(n)s starts.") % {"n": data.get("round")}
        if kind == "game_over":
            return _("The game is over.")
        return ""

    wrong_kinds = frozenset({"wrong_result"})

    def refusal(self, error: IllegalMove) -> str:
        d = error.details
        code = error.code
        card = _card_name(d.get("card"))
        if code == "no_match":
            return _(
                "The %(card)s does not match the %(target)s: "
                "it needs the same number or the same animal."
            ) % {"card": card, "target": _card_name(d.get("target"))}
        if code == "concordant_inside":
            if d.get("by") == "drawing":
                return _(
                    "The %(card)s matches the target by its animal: "
                    "it can't be inside a calculation. Lay it alone!"
                ) % {"card": card}
            return _(
                "The %(card)s matches the target by its number: "
                "it can't be inside a calculation. Lay it alone!"
            ) % {"card": card}
        if code == "misses_target":
            return _("Your calculation makes %(value)s, but the target is %(target)s.") % {
                "value": d.get("value"), "target": d.get("target"),
            }
        if code == "not_simplest":
            return _("%(part)s already makes %(target)s: use fewer cards.") % {
                "part": d.get("text") or " ".join(str(n) for n in d.get("part") or []),
                "target": d.get("target"),
            }
        if code == "shorter_in_hand":
            return _("Fewer cards from your hand can make %(target)s: use fewer cards.") % {
                "target": d.get("target")
            }
        if code == "play_drawn":
            if card:
                return _("You drew the %(card)s: play it now, or pass.") % {"card": card}
            if d.get("card") is not None:
                # A joker: its id depends on how many the game has.
                return _("You drew a joker: play it now, or pass.")
            return _("There was no card to draw: pass.")
        if code == "joker_family":
            if d.get("families") == ["symbol"]:
                return _("On this joker, lay a number card.")
            if d.get("families") == ["drawing"]:
                return _("On this joker, lay an animal card.")
            return _("On this joker, lay a number card or an animal card.")
        messages = {
            "not_in_hand": _("That card is not in your hand."),
            "card_twice": _("Each card can be used only once."),
            "too_few_cards": _("A calculation uses 2 cards or more."),
            "not_a_joker": _("That card is not a joker."),
            "joker_inside": _("A joker can't be inside a calculation."),
            "mixed_families": _(
                "In a calculation, use only number cards, or only animal cards."
            ),
            "left_to_right_only": _("Calculate from left to right, in the order of your cards."),
            "no_calculation_on_joker": _("No calculation on a joker: lay one card, or draw."),
            "follow_card": _("Lay one card on your joker, or pass."),
            "already_drawn": _("You have drawn already: play that card, or pass."),
            "draw_first": _("Play a card, or draw one first."),
            "below_zero": _("A step goes below zero: change the order or the operation."),
            "not_whole": _("A division does not fall exactly: change the order or the operation."),
            "op_not_allowed": _("This game does not use that operation."),
        }
        return messages.get(code) or common_refusal(error)

    # ------------------------------------------------------------------ pages

    card_moves = LOG_MOVES

    def card_context(self, table, state, names, moves) -> dict[str, Any]:
        # The teacher's view of the engine holds no hand: nor does the card.
        view = self.engine.view(state, None)
        players = _players(state, view, names, None, self.ending(state, names)["winners"])
        return {
            "players": players,
            "current_name": names.get(state.current, ""),
            "stuck_player": None if state.over else state.current,
            "board_html": board_html(view, players),
            "last_calculation": _last_calculation(self, moves, names),
        }

    def context(self, table, state, view: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
        session = table.session
        names = base["names"]
        player = base["player"]
        over = state.over
        ending = self.ending(state, names, player)
        winners = ending["winners"]
        humans = {s.player for s in table.seats.all() if s.pupil_id}
        your_turn = bool(view.get("your_turn")) and session.is_running
        shared = session.tablets == session.Tablets.SHARED and len(humans) > 1
        # A shared tablet shows a hand only to the pupil whose turn it is.
        hand_hidden = player is None or (shared and not your_turn)
        players = _players(state, view, names, player, winners)
        for_watchers = base["you_slots"]
        if for_watchers:
            for shown in players:
                shown["you"] = False  # a slot for each tablet's "(you)" instead
        moves, said = recent_moves(table, LOG_MOVES)
        drawn = None
        if your_turn and view.get("pending") == "drawn":
            drawn = _drawn_card(state, player, view)
        # Another pupil's wrong calculation is left out of the log: which
        # pupil reads it matters only when one is in it.
        wrong = bool(_wrong_calculators(moves))
        told = kept_words(
            "nambarz-log",
            (said, tuple(names.items()), wrong, player if wrong and not for_watchers else None),
            lambda: (_last_calculation(self, moves, names),
                     *_log(self, moves, names, None if for_watchers else player)[:LOG_LINES]),
        )
        context = {
            "players": players,
            # What the list of players shows: it changes only with the turn,
            # the scores and the tablet's own seat, not with each card laid.
            "seats": [{key: p[key] for key in SEAT_FIELDS} for p in players],
            "over": over,
            "your_turn": your_turn,
            "current_name": names.get(state.current, ""),
            "current_colour": PLAYER_COLOURS[state.current % 4],
            "current_number": state.current + 1,
            "stuck_player": None if over else state.current,
            "pile": view["pile"],
            "hand_hidden": hand_hidden and player is not None,
            "retrying": bool(view.get("retrying")),
            "round": view["round"],
            "rounds": view["rounds"],
            "scores": _score_table(state, view, names),
            "round_end": _round_end(moves, names),
            "log": list(told[1:]),
            "last_calculation": told[0],
            "handover_name": names.get(state.current, "")
            if shared and your_turn and state.current in humans and not view.get("pending")
            and not state.retrying
            else "",
            "winner_names": ending["winner_names"],
            "you_won": ending["you_won"],
            "no_winner": ending["no_winner"],
            "ended_early": ending["ended_early"],
        }
        context["hand_html"] = mark_safe(OWN_SLOT) if for_watchers else hand_html(
            state, view, hidden=context["hand_hidden"], shown_hand=not hand_hidden,
            your_turn=your_turn, drawn=drawn, move_url=base["move_url"],
        )
        context["board_html"] = board_html(view, players)
        return context


# What the side's list of players reads of each player.
SEAT_FIELDS = ("index", "name", "colour", "score", "current", "you", "winner")


def hand_html(state, view: dict[str, Any], *, hidden: bool, shown_hand: bool, your_turn: bool,
              drawn: dict[str, Any] | None, move_url: str) -> str:
    """The pupil's own cards, the prompt and the forms of their turn, drawn
    once per process for what they show: the cards of the hand, the card
    just drawn, the target, what the turn allows. Another pupil's tablet is
    served it only if they hold the same cards: it shows nothing they have
    not."""
    hand = (view.get("hand") or []) if shown_hand else []
    target = view.get("target")
    pending = view.get("pending", "")
    bound = view.get("bound") or []
    options = state.options

    def context() -> dict[str, Any]:
        cards = [drawing.card(c) for c in hand]
        just_drawn = drawn.get("id") if drawn else None
        return {
            "hand_hidden": hidden,
            "hand": cards,
            # Each card's button, the same in every hand that holds it.
            "hand_cards": [(c, just_drawn is not None and c["id"] == just_drawn) for c in cards],
            "off": not your_turn or state.over,
            "your_turn": your_turn,
            "over": state.over,
            "drawn": drawn,
            "pending": pending,
            "bound": bound,
            "brackets": options.brackets,
            "operations": [(op, SYMBOLS[op]) for op in options.operations],
            "target": drawing.card(target) if target else None,
            "move_url": move_url,
        }

    what = (
        hidden,
        tuple(tuple(card.items()) for card in hand),
        drawn and tuple(drawn.items()),
        your_turn,
        state.over,
        pending,
        tuple(bound),
        options.brackets,
        options.operations,
        target and tuple(target.items()),
        move_url,
    )
    return drawn_piece("nambarz-hand", what, "games/nambarz/_hand_zone.html", context)


HAND_FIELDS = ("index", "name", "colour", "current", "cards", "backs", "out_rank")


def board_html(view: dict[str, Any], players: list[dict[str, Any]]) -> str:
    """The target, the pile and the size of each hand: the same on every
    tablet of the table and on the teacher's live view, drawn once per
    process for what it shows."""
    target = view.get("target")

    def draw() -> str:
        return render_to_string(
            "games/nambarz/_board.html",
            {
                "target": drawing.card(target) if target else None,
                "pile": view["pile"],
                # What the board shows of each player: a move changes one or
                # two of them, the others' hands are kept.
                "players": [{key: p[key] for key in HAND_FIELDS} for p in players],
            },
        )

    shown = (
        tuple(target.items()) if target else None,
        view["pile"],
        tuple(
            (p["index"], p["name"], p["colour"], p["current"], p["cards"], p["out_rank"])
            for p in players
        ),
    )
    return drawn_once("nambarz-board", shown, draw)


def _players(state, view: dict[str, Any], names: dict[int, str], player: int | None,
             winners: set[int]) -> list[dict[str, Any]]:
    return [
        {
            "index": index,
            "name": names.get(index, "?"),
            "score": view["scores"][index],
            "cards": view["hand_sizes"][index],
            "backs": range(min(view["hand_sizes"][index], 12)),
            "colour": PLAYER_COLOURS[index % 4],
            "colour_name": PLAYER_COLOUR_NAMES[index % 4],
            "current": index == state.current and not state.over,
            "you": index == player,
            "winner": index in winners,
            "out_rank": (view["out"].index(index) + 1) if index in view["out"] else None,
        }
        for index in range(state.players)
    ]


def _drawn_card(state, player: int | None, view: dict[str, Any]) -> dict[str, Any] | None:
    """The card the pupil just drew, and whether it may go now."""
    drawn_id = view.get("drawn")
    if drawn_id is None or player is None:
        return {"none": True}
    card = drawing.card(state.card(drawn_id).to_json())
    playable = {m.get("card") for m in view.get("moves", []) if m["type"] in ("match", "joker")}
    card["playable"] = drawn_id in playable
    card["in_calculation"] = not card["playable"] and _fits_a_calculation(state, player, drawn_id)
    return card


def _fits_a_calculation(state, player: int, drawn_id: int) -> bool:
    """Whether some legal calculation from the hand uses the drawn card (or its
    twin: a card of the same number and family)."""
    drawn = state.card(drawn_id)
    if drawn.number is None or match_kind(drawn, state.target) is not None:
        return False
    return any(
        family == drawn.family and drawn.number in part
        for family, part in simplest_parts(state, player)
    )


def _score_table(state, view: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    history = view.get("history") or []
    rows = []
    for index in range(state.players):
        rows.append(
            {
                "name": names.get(index, "?"),
                "rounds": [points[index] for points in history],
                "total": view["scores"][index],
                "team": team_of(state, index) if state.options.teams else None,
            }
        )
    return rows


def _round_end(moves, names: dict[int, str]) -> dict[str, Any] | None:
    """The newest round's ranks, points and bonuses, while the next round is young
    (or the game is over)."""
    for _number, _player, _pupil_id, events in moves:
        for event in events or []:
            if event.get("kind") != "round_over":
                continue
            data = event.get("data") or {}
            order = data.get("order") or []
            points = data.get("points") or []
            lines = []
            for rank, index in enumerate(order, start=1):
                total = points[index] if index < len(points) else 0
                # A round's points are its rank's and its bonuses; a player the
                # options leave unpaid for their rank has only bonuses.
                paid = rank_points(rank) if total >= rank_points(rank) else 0
                lines.append(
                    {"rank": rank, "name": names.get(index, "?"), "points": total,
                     "rank_points": paid, "bonus": total - paid}
                )
            return {"round": data.get("round"), "lines": lines}
    return None


def _wrong_calculators(moves) -> set[int]:
    """The players whose wrong calculation is among these moves."""
    return {
        e.get("player") for m in moves for e in m[3] or () if e.get("kind") == "wrong_result"
    }


def _log(shown, moves, names: dict[int, str], viewer: int | None) -> list[str]:
    """Newest first. Another pupil's wrong calculation is left out: its cards
    are still in their hand."""
    lines: list[str] = []
    for _number, _player, _pupil_id, events in moves:
        for event in reversed(events or []):
            if event.get("kind") == "wrong_result" and event.get("player") != viewer:
                continue
            text = shown.event_text(event, names)
            if text:
                lines.append(text)
    return lines


def _last_calculation(shown, moves, names: dict[int, str]) -> str:
    """The newest calculation a pupil typed, right or wrong, for the teacher's live view."""
    for _number, player, pupil_id, events in moves:
        if pupil_id is None:
            continue
        for event in reversed(events or []):
            if event.get("kind") in ("calculated", "wrong_result"):
                if event["kind"] == "wrong_result":
                    # The live view may be on the class's screen: no card of a
                    # hand in it, only that a step was wrong.
                    return _("%(who)s: a step was not right, trying again.") % {
                        "who": names.get(player, "")
                    }
                return shown.event_text(event, names)
    return ""


PRESENTER = NambarzPresenter()
