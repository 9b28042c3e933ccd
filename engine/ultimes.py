"""La piste des nombres ultimes (RULES.md section 5, decisions of 0.3).

A pawn runs along a track of squares 0..99. Ultimate squares (primes with 0 and
1) push the pawn on to the next ultimate, elevated squares (powers of an
ultimate) send it back to their source, and the first pawn to land exactly on
99 wins.

A turn, for the pupil (the engine only checks, it never computes a step first):

1. ``{"type": "dice", "count": 1|2}`` only after the pawn has passed 99;
   the engine rolls as soon as the count is known (or at once otherwise).
2. ``{"type": "sum", "value": n}``: the dice sum, an ``add`` attempt on the
   dice. Skipped with a single die.
3. ``{"type": "reach", "square": n}``: the square the roll reaches. Forward it
   is an ``add`` attempt on ``(position, sum)``; past 99 the pawn bounces back
   and it is a ``sub`` attempt on ``(99, overshoot)`` where
   ``overshoot = position + sum - 99``, because that is how a child counts it:
   "up to 99, then back 3".
4. ``{"type": "send", "square": n}``: where that square sends the pawn. A
   ``powers`` attempt when the square is elevated, else a ``primes`` attempt
   (also for a plain square, whose answer is "it stays": knowing that 12 is not
   ultimate is evidence too, and for the 97 rule). Operands ``(square,)``.
   Skipped when the roll reaches 99: the game is won.

A wrong answer is recorded (``correct=False``), the event shows the right value
and play goes on with it, so a child is never stuck. With ``second_chance`` the
first wrong answer only asks again (the retry is an attempt with
``first_try=False``) and the right value is shown after the second miss.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
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
    read_int_field,
)

FINISH = 99
TRACK = tuple(range(FINISH + 1))
SPECIAL_97 = 97
MAX_PLAYERS = 4
# Typed numbers come from an on-screen keypad; anything beyond is not a real answer.
MAX_TYPED = 999


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


ULTIMATES: tuple[int, ...] = tuple(n for n in TRACK if n < 2 or _is_prime(n))


def _elevated() -> dict[int, int]:
    # A power (exponent >= 2) of an ultimate, larger than it: 0 and 1 give none.
    found: dict[int, int] = {}
    for base in ULTIMATES:
        if base < 2:
            continue
        power = base * base
        while power <= FINISH:
            found[power] = base
            power *= base
    return dict(sorted(found.items()))


ELEVATED: dict[int, int] = _elevated()
_ULTIMATE_SET = frozenset(ULTIMATES)


def is_ultimate(square: int) -> bool:
    return square in _ULTIMATE_SET


def square_kind(square: int) -> str:
    """``"ultimate"``, ``"elevated"`` or ``"plain"``."""
    if square in _ULTIMATE_SET:
        return "ultimate"
    if square in ELEVATED:
        return "elevated"
    return "plain"


def next_ultimate(square: int) -> int:
    return next(u for u in ULTIMATES if u > square)


def previous_ultimate(square: int) -> int:
    return max(u for u in ULTIMATES if u < square)


@dataclass(frozen=True)
class PawnMove:
    """The whole story of one move, for the UI and the checks.

    ``reached`` is the square the roll itself reaches (after a bounce if any),
    ``end`` where the pawn finally stands. ``effect`` is one of ``"win"``,
    ``"reset_97"``, ``"back_97"`` (option), ``"next_ultimate"``,
    ``"previous_ultimate"`` (after a bounce), ``"source"``, ``"stay"``.
    """

    start: int
    total: int
    reached: int
    bounced: bool
    overshoot: int
    effect: str
    end: int

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def move_pawn(
    position: int,
    total: int,
    passed_99: bool = False,
    *,
    jump_97_resets: bool = False,
    passed_97_back: bool = False,
) -> PawnMove:
    """One move of a pawn from ``position`` by ``total`` squares.

    Exactly one effect applies (no chaining, RULES 5.4), except with the option
    ``jump_97_resets`` where a jump 89 -> 97 also sends the pawn to 0.
    ``passed_97_back`` is the literal reading of the seed ("après avoir passé
    sur la case 99"): a pawn that has passed 99 and lands forward on 97 goes
    back to 89 instead of 0. Off by default (RULES 5.4 recommendation), which is
    the only case where ``passed_99`` matters.
    """
    if not 0 <= position < FINISH or total < 1:
        raise ValueError(f"no move from {position} by {total}")
    ahead = position + total
    if ahead > FINISH:
        overshoot = ahead - FINISH
        reached = FINISH - overshoot
        # Bounces reach 88..98 only, so no elevated square: only 89 and 97 matter.
        if is_ultimate(reached):
            return PawnMove(position, total, reached, True, overshoot, "previous_ultimate",
                            previous_ultimate(reached))
        return PawnMove(position, total, reached, True, overshoot, "stay", reached)
    reached = ahead
    if reached == FINISH:
        effect, end = "win", FINISH
    elif reached == SPECIAL_97:
        effect, end = ("back_97", previous_ultimate(97)) if passed_99 and passed_97_back \
            else ("reset_97", 0)
    elif is_ultimate(reached):
        end = next_ultimate(reached)
        effect = "next_ultimate"
        if end == SPECIAL_97 and jump_97_resets:
            end = 0
    elif reached in ELEVATED:
        effect, end = "source", ELEVATED[reached]
    else:
        effect, end = "stay", reached
    return PawnMove(position, total, reached, False, 0, effect, end)


def destination(position: int, total: int, passed_99: bool = False) -> int:
    """The square a pawn ends on, with the default rules (see :func:`move_pawn`)."""
    return move_pawn(position, total, passed_99).end


# --------------------------------------------------------------------------- state

PHASES = ("dice", "sum", "reach", "send", "over")

OPTION_DEFAULTS: dict[str, bool] = {
    "second_chance": False,
    "mark_ultimates": False,
    "mark_elevated": False,
    "jump_97_resets": False,
    "passed_97_back": False,
}


@dataclass(frozen=True)
class UltimesState:
    players: int
    seed: int
    draws: int
    positions: tuple[int, ...]
    passed_99: tuple[bool, ...]
    turns: tuple[int, ...]
    turn: int
    phase: str
    dice: tuple[int, ...] = ()
    total: int | None = None
    reached: int | None = None
    retrying: bool = False
    winner: int | None = None
    # The teacher ended the race before any pawn reached 99.
    ended: bool = False
    # First-player rolls: one tuple of (player, die) per round, ties re-roll.
    opening: tuple[tuple[tuple[int, int], ...], ...] = ()
    second_chance: bool = False
    mark_ultimates: bool = False
    mark_elevated: bool = False
    jump_97_resets: bool = False
    passed_97_back: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seed": self.seed,
            "draws": self.draws,
            "positions": list(self.positions),
            "passed_99": list(self.passed_99),
            "turns": list(self.turns),
            "turn": self.turn,
            "phase": self.phase,
            "dice": list(self.dice),
            "total": self.total,
            "reached": self.reached,
            "retrying": self.retrying,
            "winner": self.winner,
            "ended": self.ended,
            "opening": [[list(pair) for pair in rnd] for rnd in self.opening],
            "options": self.options,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UltimesState:
        options = dict(data["options"])
        # Games saved before the elevated squares had an option of their own
        # marked them with the ultimate ones.
        options.setdefault("mark_elevated", options.get("mark_ultimates", False))
        return cls(
            players=data["players"],
            seed=data["seed"],
            draws=data["draws"],
            positions=tuple(data["positions"]),
            passed_99=tuple(bool(b) for b in data["passed_99"]),
            turns=tuple(data["turns"]),
            turn=data["turn"],
            phase=data["phase"],
            dice=tuple(data["dice"]),
            total=data["total"],
            reached=data["reached"],
            retrying=data["retrying"],
            winner=data["winner"],
            ended=data.get("ended", False),
            opening=tuple(tuple((p, d) for p, d in rnd) for rnd in data["opening"]),
            **{k: bool(options.get(k, False)) for k in OPTION_DEFAULTS},
        )

    @property
    def options(self) -> dict[str, bool]:
        return {k: getattr(self, k) for k in OPTION_DEFAULTS}

    def pawn_move(self) -> PawnMove:
        assert self.total is not None
        p = self.turn
        return move_pawn(self.positions[p], self.total, self.passed_99[p],
                         jump_97_resets=self.jump_97_resets,
                         passed_97_back=self.passed_97_back)


def _check_options(options: dict[str, Any] | None) -> dict[str, bool]:
    options = dict(options or {})
    for key, value in options.items():
        if key not in OPTION_DEFAULTS:
            raise IllegalMove("This game has no such option.", "bad_option", option=key)
        if not isinstance(value, bool):
            raise IllegalMove("This option is on or off.", "bad_option", option=key)
    return {**OPTION_DEFAULTS, **options}


def _opening(seed: int, players: int) -> tuple[int, int, tuple[tuple[tuple[int, int], ...], ...]]:
    """Each player rolls one die, the highest starts, tied players re-roll."""
    draws = 0
    rounds: list[tuple[tuple[int, int], ...]] = []
    contenders = list(range(players))
    while len(contenders) > 1:
        rolls, draws = Dice.roll(seed, draws, len(contenders))
        rounds.append(tuple(zip(contenders, rolls, strict=True)))
        best = max(rolls)
        contenders = [p for p, r in zip(contenders, rolls, strict=True) if r == best]
    return contenders[0], draws, tuple(rounds)


def first_player(state: UltimesState) -> int:
    """Who started: the only highest roll of the last opening round (0 alone)."""
    if not state.opening:
        return 0
    last = state.opening[-1]
    return max(last, key=lambda pair: pair[1])[0]


def _start_turn(state: UltimesState, player: int) -> tuple[UltimesState, list[Event]]:
    """Hand the turn to ``player``: the engine rolls two dice unless they may choose."""
    state = _replace(state, turn=player, dice=(), total=None, reached=None, retrying=False)
    if state.passed_99[player]:
        return _replace(state, phase="dice"), []
    return _roll(state, 2)


def _roll(state: UltimesState, count: int) -> tuple[UltimesState, list[Event]]:
    dice, draws = Dice.roll(state.seed, state.draws, count)
    event = Event("rolled", state.turn, {"dice": list(dice)})
    if count == 1:
        # One die: there is no sum to type.
        return _replace(state, draws=draws, dice=dice, total=dice[0], phase="reach"), [event]
    return _replace(state, draws=draws, dice=dice, phase="sum"), [event]


def _replace(state: UltimesState, **changes: Any) -> UltimesState:
    return replace(state, **changes)


# ------------------------------------------------------------------ validation

def _check_actor(state: UltimesState, player: Any) -> None:
    check_in_game(player, state.players)
    if state.phase == "over":
        raise IllegalMove("The game is over.", "game_over", winner=state.winner)
    if player != state.turn:
        raise IllegalMove("Wait for your turn.", "not_your_turn", player=player, turn=state.turn)


_MOVE_PHASE = {"dice": "dice", "sum": "sum", "reach": "reach", "send": "send"}


class Ultimes(StateStoresItself):
    """The engine game for the registry (slug ``ultimes``)."""

    state_class = UltimesState
    slug = "ultimes"

    def new(self, options: dict[str, Any] | None, players: int, seed: int) -> UltimesState:
        opts = _check_options(options)
        check_players(players, 1, MAX_PLAYERS, "This game is for 1 to 4 players.")
        first, draws, opening = _opening(seed, players)
        state = UltimesState(
            players=players, seed=seed, draws=draws, positions=(0,) * players,
            passed_99=(False,) * players, turns=(0,) * players, turn=first, phase="sum",
            opening=opening, **opts,
        )
        state, _ = _start_turn(state, first)
        return state

    def opening_events(self, state: UltimesState) -> tuple[Event, ...]:
        """The events of :meth:`new` (first-player rolls and first roll), to show."""
        events = [Event("first_player_roll", None, {"rolls": [list(r) for r in rnd]})
                  for rnd in state.opening]
        events.append(Event("first_player", first_player(state), {}))
        return tuple(events)

    def moves(self, state: UltimesState, player: int) -> list[dict[str, Any]]:
        """The move shapes open to ``player``; typed values are left out on
        purpose (``moves`` must never give the answer away)."""
        if state.phase == "over" or player != state.turn:
            return []
        if state.phase == "dice":
            return [{"type": "dice", "count": 1}, {"type": "dice", "count": 2}]
        if state.phase == "sum":
            return [{"type": "sum", "min": 0, "max": MAX_TYPED}]
        return [{"type": state.phase, "min": 0, "max": FINISH}]

    def apply(self, state: UltimesState, player: int | None, move: dict[str, Any]) -> Outcome:
        if not isinstance(move, dict):
            raise IllegalMove("That move makes no sense.", "malformed", field="move")
        if player is None and move.get("type") == "end":
            return _ended(state)
        _check_actor(state, player)
        kind = move.get("type")
        if not isinstance(kind, str) or kind not in _MOVE_PHASE:
            raise IllegalMove("That move makes no sense.", "malformed", field="type")
        if kind != state.phase:
            raise IllegalMove(_PHASE_HINT[state.phase], "wrong_phase",
                              phase=state.phase, type=kind)
        if kind == "dice":
            count = read_int_field(move, "count", 1, 2)
            state, events = _roll(state, count)
            return Outcome(state, (Event("dice_chosen", player, {"count": count}), *events))
        if kind == "sum":
            given = read_int_field(move, "value", 0, MAX_TYPED)
            expected = sum(state.dice)
            return self._answer(state, player, "sum", "add", tuple(state.dice), expected, given)
        given = read_int_field(move, "square", 0, FINISH)
        assert state.total is not None
        pawn = state.pawn_move()
        if kind == "reach":
            if pawn.bounced:
                operands: tuple[int, ...] = (FINISH, pawn.overshoot)
                skill = "sub"
            else:
                operands, skill = (state.positions[player], state.total), "add"
            return self._answer(state, player, "reach", skill, operands, pawn.reached, given)
        skill = "powers" if pawn.effect == "source" else "primes"
        return self._answer(state, player, "send", skill, (pawn.reached,), pawn.end, given)

    def _answer(self, state: UltimesState, player: int, step: str, skill: str,
                operands: tuple[int, ...], expected: int, given: int) -> Outcome:
        correct = given == expected
        attempt = Attempt(skill, operands, expected, given, correct, first_try=not state.retrying)
        if not correct and state.second_chance and not state.retrying:
            # The right value stays hidden: the retry must be the pupil's own.
            event = Event("try_again", player, {"step": step, "given": given})
            return Outcome(_replace(state, retrying=True), (event,), (attempt,))
        events = [Event("answer", player, {"step": step, "given": given, "expected": expected,
                                           "correct": correct})]
        state = _replace(state, retrying=False)
        if step == "sum":
            state = _replace(state, total=expected, phase="reach")
        elif step == "reach":
            state = _replace(state, reached=expected)
            pawn = state.pawn_move()
            if pawn.effect == "win":
                state, more = self._finish_move(state, pawn)
                events += more
            else:
                state = _replace(state, phase="send")
        else:
            state, more = self._finish_move(state, state.pawn_move())
            events += more
        return Outcome(state, tuple(events), (attempt,))

    def _finish_move(self, state: UltimesState, pawn: PawnMove) -> tuple[UltimesState, list[Event]]:
        p = state.turn
        events = [Event("moved", p, pawn.to_json())]
        positions = list(state.positions)
        positions[p] = pawn.end
        passed = list(state.passed_99)
        if pawn.bounced and not passed[p]:
            passed[p] = True
            events.append(Event("passed_99", p, {}))
        turns = list(state.turns)
        turns[p] += 1
        state = _replace(state, positions=tuple(positions), passed_99=tuple(passed),
                         turns=tuple(turns))
        if pawn.effect == "win":
            events.append(Event("won", p, {"turns": turns[p]}))
            return _replace(state, phase="over", winner=p), events
        following = (p + 1) % state.players
        state, more = _start_turn(state, following)
        events.append(Event("next_turn", following, {}))
        return state, events + more

    def view(self, state: UltimesState, player: int | None) -> dict[str, Any]:
        # Sum, reached and end squares are shown only once the pupil has typed them.
        track = []
        for square in TRACK:
            cell: dict[str, Any] = {"square": square, "kind": square_kind(square)}
            if square in ELEVATED:
                cell["source"] = ELEVATED[square]
            track.append(cell)
        return {
            "players": state.players,
            "you": player,
            "turn": state.turn,
            "your_turn": player == state.turn and state.phase != "over",
            "phase": state.phase,
            "dice": list(state.dice),
            "sum": state.total if state.phase in ("reach", "send") else None,
            "reached": state.reached if state.phase == "send" else None,
            "retrying": state.retrying,
            "positions": list(state.positions),
            "passed_99": list(state.passed_99),
            "turns": list(state.turns),
            "winner": state.winner,
            "mark_ultimates": state.mark_ultimates,
            "mark_elevated": state.mark_elevated,
            "options": state.options,
            "opening": [[list(pair) for pair in rnd] for rnd in state.opening],
            "track": track,
            "moves": self.moves(state, player) if player is not None else [],
        }

    def result(self, state: UltimesState) -> Result | None:
        if state.ended:
            # A race's rules crown only the pawn on 99: ended before, nobody won.
            return Result(tuple(state.positions), (), ended=True)
        if state.winner is None:
            return None
        # The others rank by how close they stand to 99; the winner alone stands on it.
        scores = tuple(state.positions)
        ranking = [(state.winner,)]
        for value in sorted({s for i, s in enumerate(scores) if i != state.winner},
                            reverse=True):
            ranking.append(tuple(i for i, s in enumerate(scores)
                                 if s == value and i != state.winner))
        return Result(scores, tuple(ranking))


def _ended(state: UltimesState) -> Outcome:
    """The teacher ends the race (the server's move, no player's): the pawns
    stay where they stand."""
    if state.phase == "over":
        raise IllegalMove("The game is over.", "game_over", winner=state.winner)
    state = _replace(state, phase="over", ended=True, dice=(), total=None, reached=None,
                     retrying=False)
    return Outcome(state, (Event("game_over", None, {"reason": "teacher"}),))


_PHASE_HINT = {
    "dice": "First choose one die or two dice.",
    "sum": "First type the sum of the dice.",
    "reach": "First tap the square your pawn reaches.",
    "send": "First tap the square where your pawn goes.",
    "over": "The game is over.",
}

GAME = Ultimes()


# --------------------------------------------------------------------------- bot

def choose_dice(position: int) -> int:
    """One or two dice after passing 99: the count with the better chance to
    land on 99 this turn; two dice when neither can, to get closer faster."""
    gap = FINISH - position
    one = 1 / 6 if 1 <= gap <= 6 else 0.0
    two = (6 - abs(gap - 7)) / 36 if 2 <= gap <= 12 else 0.0
    return 1 if one > two else 2


def bot_moves(state: UltimesState, player: int, seed: int = 0) -> list[dict[str, Any]]:
    """All the moves of the bot's turn, right answers only (bots never err).

    The roll after a dice choice is known from the state's (seed, draws), so the
    turn is played out on a copy. ``seed`` is unused: the bot's choices have no
    ties to break, it is there to match the other games' bots.
    """
    moves: list[dict[str, Any]] = []
    if state.phase == "over" or player != state.turn:
        return moves
    turns = state.turns[player]
    # A solo pawn plays again at once: stop when this turn's move is done.
    while state.phase != "over" and state.turns[player] == turns:
        if state.phase == "dice":
            move: dict[str, Any] = {"type": "dice", "count": choose_dice(state.positions[player])}
        elif state.phase == "sum":
            move = {"type": "sum", "value": sum(state.dice)}
        elif state.phase == "reach":
            move = {"type": "reach", "square": state.pawn_move().reached}
        else:
            move = {"type": "send", "square": state.pawn_move().end}
        moves.append(move)
        state = GAME.apply(state, player, move).state
    return moves
