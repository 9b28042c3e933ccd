"""NMBR 9 as an engine game: one shared deck, one stack per player.

Every round one card is revealed and every player places a tile of that digit
in any order; the next card comes when everybody has placed. A table may hold
the whole class (up to ``MAX_PLAYERS`` stacks driven by one deck). A server
that prefers one state per pupil can give every pupil the same seed: the deck
depends on the seed alone (:func:`deck_for`), not on the number of players.

The board is bounded (``BOARD_RANGE``): a tile that fits nowhere on a
player's board is set aside. It scores nothing and is not in the stack, but it
counts as that player's card done for the round (``Nmbr9State.done``).

After the 20th card each pupil counts, from the top level down (as the rule
book removes tiles top-down): for each level L >= 1 a ``mul`` attempt with
operands ``(L, sum of the digits on level L)``, then, when there are two levels
or more, the total: an ``add`` attempt whose operands are the level scores,
top level first. With a single scoring level there is nothing to add, and with
none the pupil has nothing to count (the stack scores 0).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.core import (
    Attempt,
    Dice,
    Event,
    IllegalMove,
    Outcome,
    Result,
    StateStoresItself,
    check_in_game,
    check_players,
    rank_by_score,
    rank_when_ended,
    read_int_field,
)
from engine.nmbr9.bot import bot_place, bot_stack
from engine.nmbr9.stack import (
    BOARD_SIZE,
    Stack,
    Tile,
    check_placement,
    legal_placements,
    level_digit_sums,
    level_scores,
    score,
)
from engine.nmbr9.tiles import DIGITS, shape

CARDS: tuple[int, ...] = tuple(d for d in DIGITS for _ in range(2))
MAX_PLAYERS = 64
MAX_TYPED = 999
BOARD_RANGE = (12, 40)
# The moves of the place phase: a tile placed, or set aside when it fits nowhere.
PLACING = ("place", "set_aside")


def deck_for(seed: int) -> tuple[int, ...]:
    """The 20 cards in the order they are revealed for this seed."""
    cards, _ = Dice.shuffle(seed, 0, list(CARDS))
    return tuple(cards)


@dataclass(frozen=True)
class Nmbr9State:
    players: int
    seed: int
    deck: tuple[int, ...]
    stacks: tuple[Stack, ...]
    # Per player, the level scores accepted so far, top level first.
    counts: tuple[tuple[int, ...], ...]
    totals: tuple[int | None, ...]
    # Per player: the step ("level:3", "total") whose second chance is running.
    retrying: tuple[str | None, ...]
    second_chance: bool = False
    board: int = BOARD_SIZE
    draws: int = 1
    # Per player, the tiles set aside because they fitted nowhere on the board.
    # Left out, none for anybody.
    aside: tuple[int, ...] = ()
    # The teacher ended the game: every stack scores as it stands.
    ended: bool = False

    def __post_init__(self) -> None:
        if not self.aside:
            object.__setattr__(self, "aside", (0,) * len(self.stacks))

    def done(self, player: int) -> int:
        """The cards this player is done with: tiles placed plus tiles set aside."""
        return len(self.stacks[player].tiles) + self.aside[player]

    @property
    def round(self) -> int:
        """Index of the card being placed (``len(deck)`` once all are placed)."""
        return min(self.done(p) for p in range(len(self.stacks)))

    @property
    def card(self) -> int | None:
        return self.deck[self.round] if self.round < len(self.deck) else None

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seed": self.seed,
            "draws": self.draws,
            "deck": list(self.deck),
            "stacks": [s.to_json() for s in self.stacks],
            "counts": [list(c) for c in self.counts],
            "totals": list(self.totals),
            "retrying": list(self.retrying),
            "aside": list(self.aside),
            "ended": self.ended,
            "options": {"second_chance": self.second_chance, "board": self.board},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Nmbr9State:
        return cls(
            players=data["players"],
            seed=data["seed"],
            draws=data["draws"],
            deck=tuple(data["deck"]),
            stacks=tuple(Stack.from_json(s) for s in data["stacks"]),
            counts=tuple(tuple(c) for c in data["counts"]),
            totals=tuple(data["totals"]),
            retrying=tuple(data["retrying"]),
            # States saved before tiles could be set aside have none.
            aside=tuple(data.get("aside") or ()),
            ended=bool(data.get("ended", False)),
            second_chance=bool(data["options"]["second_chance"]),
            board=data["options"]["board"],
        )


def counting_levels(stack: Stack) -> tuple[int, ...]:
    """The levels a pupil counts, in order: top level first, down to level 1."""
    return tuple(sorted(level_digit_sums(stack), reverse=True))


def phase(state: Nmbr9State, player: int) -> str:
    """``place``, ``wait`` (placed this card, others have not), ``count`` or ``done``."""
    if state.ended:
        return "done"
    if state.round < len(state.deck):
        return "wait" if state.done(player) > state.round else "place"
    levels = counting_levels(state.stacks[player])
    if len(state.counts[player]) < len(levels):
        return "count"
    if len(levels) >= 2 and state.totals[player] is None:
        return "count"
    return "done"


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1:]


def _round_over(state: Nmbr9State, card_index: int) -> tuple[Event, ...]:
    """After a player is done with card ``card_index``: the next card, or the
    end of placing, when that completed the round."""
    if state.round <= card_index:
        return ()
    if state.card is not None:
        return (Event("card_revealed", None, {"card_index": state.round, "card": state.card}),)
    return (Event("placing_over", None, {}),)


class Nmbr9(StateStoresItself):
    """The engine game for the registry (slug ``nmbr9``)."""

    state_class = Nmbr9State
    slug = "nmbr9"

    def new(self, options: dict[str, Any] | None, players: int, seed: int) -> Nmbr9State:
        options = dict(options or {})
        second_chance = options.pop("second_chance", False)
        board = options.pop("board", BOARD_SIZE)
        if options:
            raise IllegalMove("This game has no such option.", "bad_option",
                              option=sorted(options)[0])
        if not isinstance(second_chance, bool):
            raise IllegalMove("This option is on or off.", "bad_option", option="second_chance")
        if isinstance(board, bool) or not isinstance(board, int) \
                or not BOARD_RANGE[0] <= board <= BOARD_RANGE[1]:
            raise IllegalMove("The board size is not possible.", "bad_option", option="board",
                              min=BOARD_RANGE[0], max=BOARD_RANGE[1])
        check_players(players, 1, MAX_PLAYERS, "Too many or too few players.")
        return Nmbr9State(
            players=players, seed=seed, deck=deck_for(seed),
            stacks=(Stack(board=board),) * players, counts=((),) * players,
            totals=(None,) * players, retrying=(None,) * players,
            second_chance=second_chance, board=board, aside=(0,) * players,
        )

    def moves(self, state: Nmbr9State, player: int) -> list[dict[str, Any]]:
        """Placements are listed in full (they are the rules, not an answer);
        counting moves are listed without their value. A tile that fits
        nowhere on the board has one move: ``set_aside``."""
        now = phase(state, player)
        if now == "place":
            assert state.card is not None
            placements = legal_placements(state.stacks[player], state.card)
            return [p.to_move() for p in placements] or [{"type": "set_aside"}]
        if now == "count":
            levels = counting_levels(state.stacks[player])
            done = len(state.counts[player])
            if done < len(levels):
                return [{"type": "level_score", "level": levels[done], "min": 0,
                         "max": MAX_TYPED}]
            return [{"type": "total", "min": 0, "max": MAX_TYPED}]
        return []

    def apply(self, state: Nmbr9State, player: int | None, move: dict[str, Any]) -> Outcome:
        if player is None and isinstance(move, dict) and move.get("type") == "end":
            return _ended(state)
        check_in_game(player, state.players)
        if not isinstance(move, dict):
            raise IllegalMove("That move makes no sense.", "malformed", field="move")
        kind = move.get("type")
        if not isinstance(kind, str) or kind not in PLACING + ("level_score", "total"):
            raise IllegalMove("That move makes no sense.", "malformed", field="type")
        now = phase(state, player)
        if now == "done":
            raise IllegalMove("You have finished this game.", "game_over")
        if now == "wait":
            raise IllegalMove("Wait for the others to place their tile.", "wait_for_others",
                              card_index=state.round)
        if (kind in PLACING) != (now == "place"):
            hint = "Place your tile first." if now == "place" else "Now count your points."
            raise IllegalMove(hint, "wrong_phase", phase=now, type=kind)
        if kind == "place":
            return self._place(state, player, move)
        if kind == "set_aside":
            return self._set_aside(state, player)
        return self._count(state, player, kind, move)

    def _place(self, state: Nmbr9State, player: int, move: dict[str, Any]) -> Outcome:
        digit = state.card
        assert digit is not None
        rotation = read_int_field(move, "rotation", 0, 3)
        x = read_int_field(move, "x", -99, 99)
        y = read_int_field(move, "y", -99, 99)
        level = read_int_field(move, "level", 0, 99)
        stack = state.stacks[player]
        check_placement(stack, digit, rotation, x, y, level)
        tile = Tile(digit, rotation, x, y, level)
        card_index = state.round
        state = replace(state, stacks=_set(state.stacks, player,
                                           Stack(stack.tiles + (tile,), stack.board)))
        event = Event("placed", player, {"card_index": card_index, "tile": tile.to_json()})
        return Outcome(state, (event, *_round_over(state, card_index)))

    def _set_aside(self, state: Nmbr9State, player: int) -> Outcome:
        """The tile fits nowhere on the board: it is put aside, scores nothing,
        and this player is done with the card."""
        digit = state.card
        assert digit is not None
        if legal_placements(state.stacks[player], digit):
            raise IllegalMove("The tile fits on your board: place it.", "it_fits", digit=digit)
        card_index = state.round
        state = replace(state, aside=_set(state.aside, player, state.aside[player] + 1))
        event = Event("set_aside", player, {"card_index": card_index, "digit": digit})
        return Outcome(state, (event, *_round_over(state, card_index)))

    def _count(self, state: Nmbr9State, player: int, kind: str,
               move: dict[str, Any]) -> Outcome:
        stack = state.stacks[player]
        levels = counting_levels(stack)
        done = state.counts[player]
        if kind == "level_score":
            if len(done) == len(levels):
                raise IllegalMove("All levels are counted: now the total.", "wrong_phase",
                                  phase="count", type=kind)
            level = read_int_field(move, "level", 0, 99)
            expected_level = levels[len(done)]
            if level != expected_level:
                raise IllegalMove("Count the levels from the top down.", "count_from_top",
                                  level=level, expected_level=expected_level)
            step = f"level:{level}"
            operands: tuple[int, ...] = (level, level_digit_sums(stack)[level])
            skill, expected = "mul", level_scores(stack)[level]
        else:
            if len(done) < len(levels):
                raise IllegalMove("Count every level first.", "levels_first",
                                  levels=list(levels[len(done):]))
            step, operands, skill, expected = "total", tuple(done), "add", sum(done)
        given = read_int_field(move, "value", 0, MAX_TYPED)
        correct = given == expected
        retrying = state.retrying[player] == step
        attempt = Attempt(skill, operands, expected, given, correct, first_try=not retrying)
        if not correct and state.second_chance and not retrying:
            # The right value stays hidden: the retry must be the pupil's own.
            state = replace(state, retrying=_set(state.retrying, player, step))
            return Outcome(state, (Event("try_again", player, {"step": step, "given": given}),),
                           (attempt,))
        state = replace(state, retrying=_set(state.retrying, player, None))
        if kind == "level_score":
            state = replace(state, counts=_set(state.counts, player, done + (expected,)))
        else:
            state = replace(state, totals=_set(state.totals, player, expected))
        events = [Event("answer", player, {"step": step, "given": given, "expected": expected,
                                           "correct": correct})]
        if phase(state, player) == "done":
            events.append(Event("counted", player, {"score": score(stack)}))
        return Outcome(state, tuple(events), (attempt,))

    def view(self, state: Nmbr9State, player: int | None) -> dict[str, Any]:
        """What a player (or, with ``None``, the teacher's screen) sees. Scores
        only appear once counted: a pupil's own when done, the others' when the
        viewer is done, all of them on the teacher's screen at the end."""
        card = state.card
        over = self.result(state) is not None
        viewer_done = over if player is None else phase(state, player) == "done"
        others = []
        for p in range(state.players):
            if p == player:
                continue
            stack = state.stacks[p]
            others.append({
                "player": p,
                "phase": phase(state, p),
                "placed": len(stack.tiles),
                "aside": state.aside[p],
                "tiles": [t.to_json(with_cells=False) for t in stack.tiles],
                "score": score(stack) if viewer_done and phase(state, p) == "done" else None,
            })
        data: dict[str, Any] = {
            "players": state.players,
            "you": player,
            "board": state.board,
            "card": card,
            "card_index": state.round if card is not None else None,
            "cards_total": len(state.deck),
            "remaining": max(len(state.deck) - state.round - 1, 0),
            # The current card's outline in each rotation, for the preview.
            "card_shapes": [[list(c) for c in sorted(shape(card, r))] for r in range(4)]
            if card is not None else [],
            "others": others,
            "over": over,
        }
        if player is not None:
            stack = state.stacks[player]
            now = phase(state, player)
            levels = counting_levels(stack)
            counted = state.counts[player]
            data.update({
                "phase": now,
                "stack": [t.to_json() for t in stack.tiles],
                "top_level": stack.top,
                "aside": state.aside[player],
                "counting": {
                    "levels": list(levels),
                    "scores": [[lv, v] for lv, v in zip(levels, counted, strict=False)],
                    "next_level": levels[len(counted)] if len(counted) < len(levels) else None,
                    "needs_total": len(levels) >= 2,
                    "total": state.totals[player],
                    "retrying": state.retrying[player],
                } if now in ("count", "done") else None,
                "score": score(stack) if now == "done" else None,
            })
        return data

    def result(self, state: Nmbr9State) -> Result | None:
        if any(phase(state, p) != "done" for p in range(state.players)):
            return None
        scores = tuple(score(s) for s in state.stacks)
        if state.ended:
            # The rules' count (digit × level) of the tiles placed so far.
            return Result(scores, rank_when_ended(scores), ended=True)
        return Result(scores, rank_by_score(scores))


def _ended(state: Nmbr9State) -> Outcome:
    """The teacher ends the game (the server's move, no player's)."""
    if GAME.result(state) is not None:
        raise IllegalMove("The game is over.", "game_over")
    state = replace(state, ended=True, retrying=(None,) * state.players)
    return Outcome(state, (Event("game_over", None, {
        "reason": "teacher", "scores": [score(s) for s in state.stacks]}),))


GAME = Nmbr9()


def bot_moves(state: Nmbr9State, player: int, seed: int = 0) -> list[dict[str, Any]]:
    """The bot's moves for what it has to do now: one placement, or its whole
    count with right answers (bots never err)."""
    moves: list[dict[str, Any]] = []
    now = phase(state, player)
    if now == "place":
        assert state.card is not None
        placement = bot_place(state.stacks[player], state.card, seed)
        return [placement.to_move() if placement else {"type": "set_aside"}]
    if now == "count":
        stack = state.stacks[player]
        scores = level_scores(stack)
        for level in counting_levels(stack)[len(state.counts[player]):]:
            moves.append({"type": "level_score", "level": level, "value": scores[level]})
        if len(scores) >= 2:
            moves.append({"type": "total", "value": sum(scores.values())})
    return moves


def bot_score(seed: int, bot_seed: int = 0, board: int = BOARD_SIZE) -> int:
    """What "the computer" scores with this game's deck, for a solo pupil."""
    return score(bot_stack(deck_for(seed), bot_seed, board))
