"""Number Quest / Nubble: the state and the rules of a turn (RULES.md 0.2, 1.5-1.7).

A turn: the engine rolls; the pupil joins two available numbers at a time
("step"), typing each result; when every die is used the pupil taps the square
of the result ("place"), is paid, and may have to type the new balance ("bank").
Moves are plain JSON dicts with a "type" key; see :data:`MOVE_TYPES`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from fractions import Fraction
from typing import Any

from engine.arithmetic import (
    MAX_NUMBER,
    SYMBOL_OF,
    Number,
    Step,
    build_calculation,
    check_operation,
    evaluate,
    explain,
    from_json_number,
    is_whole,
    operation_of,
    parse_calculation,
    plan_attempts,
    reachable_frozen,
    show,
    step_attempt,
    to_json_number,
)
from engine.core import (
    Attempt,
    Dice,
    Event,
    IllegalMove,
    Outcome,
    Result,
    rank_when_ended,
    read_move_type,
)
from engine.numberquest import board
from engine.numberquest.variants import Options, Variant, makeable_numbers, resolve

SLUG = "numberquest"
PHASES = ("calculate", "place", "bank", "over")
MOVE_TYPES = (
    "step", "steps", "undo", "clear", "place", "cant", "bank", "timeout", "end", "calculation"
)
MAX_STEP_MS = 10 * 60 * 1000
MAX_PLAYERS = 4
KEPT_EVENTS = 12  # enough for "what just happened" on the other tablets


@dataclass(frozen=True)
class State:
    """One moment of a game. Only tuples inside, so it is a value."""

    variant: Variant
    options: Options
    players: int
    seed: int
    draws: int
    turn: int
    current: int
    phase: str
    dice: tuple[int, ...]
    # The numbers the pupil may still join, with where they came from:
    # "die:<i>" for a die, "step:<k>" for the result of step k.
    available: tuple[tuple[Number, str], ...]
    steps: tuple[Step, ...]
    retry: tuple[Number, str, Number] | None  # the step a second chance is for
    chances: int
    covered: tuple[tuple[int, int], ...]  # (square, player), by square
    balances: tuple[int, ...]
    bank: tuple[int, int] | None  # (old balance, payout) the pupil must add
    deadline: int | None  # seconds per turn when timed; the server keeps the clock
    events: tuple[Event, ...]
    ended: str | None = None
    ender: int | None = None
    # The steps typed this turn, (left, op, right), right or wrong: a step
    # typed again after an undo is no first try, and the turn's operations
    # are those the pupil typed (the opportunity's "used").
    typed: tuple[tuple[Number, str, Number], ...] = ()
    # Whether this turn's calculation was already judged as a whole: one
    # made again after an undo is no first try either.
    judged: bool = False

    def owner(self, square: int) -> int | None:
        return dict(self.covered).get(square)

    def covered_squares(self) -> frozenset[int]:
        return frozenset(square for square, _ in self.covered)

    def result_number(self) -> Number | None:
        """The number the finished calculation made (place phase)."""
        return self.available[0][0] if self.phase == "place" else None

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": asdict(self.variant),
            "options": self.options.to_json(),
            "players": self.players,
            "seed": self.seed,
            "draws": self.draws,
            "turn": self.turn,
            "current": self.current,
            "phase": self.phase,
            "dice": list(self.dice),
            "available": [[to_json_number(v), origin] for v, origin in self.available],
            "steps": [_step_json(s) for s in self.steps],
            "retry": None
            if self.retry is None
            else [to_json_number(self.retry[0]), self.retry[1], to_json_number(self.retry[2])],
            "chances": self.chances,
            "covered": [list(pair) for pair in self.covered],
            "balances": list(self.balances),
            "bank": None if self.bank is None else list(self.bank),
            "deadline": self.deadline,
            "events": [_plain(e.to_json()) for e in self.events],
            "ended": self.ended,
            "ender": self.ender,
            "typed": [[to_json_number(a), op, to_json_number(b)] for a, op, b in self.typed],
            "judged": self.judged,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        num = from_json_number
        retry = data["retry"]
        return cls(
            variant=Variant(**data["variant"]),
            options=Options.from_json(data["options"]),
            players=data["players"],
            seed=data["seed"],
            draws=data["draws"],
            turn=data["turn"],
            current=data["current"],
            phase=data["phase"],
            dice=tuple(data["dice"]),
            available=tuple((num(v), origin) for v, origin in data["available"]),
            steps=tuple(
                Step(num(s["left"]), s["op"], num(s["right"]), num(s["result"]))
                for s in data["steps"]
            ),
            retry=None if retry is None else (num(retry[0]), retry[1], num(retry[2])),
            chances=data["chances"],
            covered=tuple((s, p) for s, p in data["covered"]),
            balances=tuple(data["balances"]),
            bank=None if data["bank"] is None else tuple(data["bank"]),
            deadline=data["deadline"],
            events=tuple(Event(e["kind"], e["player"], e["data"]) for e in data["events"]),
            ended=data["ended"],
            ender=data["ender"],
            typed=tuple((num(a), op, num(b)) for a, op, b in data.get("typed", ())),
            judged=data.get("judged", False),
        )


def _step_json(step: Step) -> dict[str, Any]:
    return {
        "left": to_json_number(step.left),
        "op": step.op,
        "right": to_json_number(step.right),
        "result": to_json_number(step.result),
        "text": step.text(),
    }


def _plain(value: Any) -> Any:
    """Events hold JSON-shaped data only, so a state survives a round trip."""
    return json.loads(json.dumps(value))


def _event(kind: str, player: int | None, **data: Any) -> Event:
    return Event(kind, player, _plain(data))


# --------------------------------------------------------------------------- reading moves


UNREADABLE = "That move is not readable."  # what a "malformed" refusal says unless told


def _malformed(field: str, reason: str = UNREADABLE) -> IllegalMove:
    return IllegalMove(reason, "malformed", field=field)


def _read_int(move: dict[str, Any], key: str) -> int:
    value = move.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > MAX_NUMBER:
        raise _malformed(key)
    return value


def _read_number(move: dict[str, Any], key: str, fractions: bool) -> Number:
    value = move.get(key)
    if isinstance(value, str) and fractions and 0 < len(value) <= 15:
        top, slash, bottom = value.partition("/")
        if slash and top.isdigit() and bottom.isdigit() and int(bottom):
            return board_number(Fraction(int(top), int(bottom)))
        raise _malformed(key)
    return _read_int(move, key)


def board_number(value: Fraction) -> Number:
    return value.numerator if value.denominator == 1 else value


# --------------------------------------------------------------------------- turns


def _covered_map(state: State) -> dict[int, int]:
    return dict(state.covered)


def _start_turn(state: State, player: int, turn: int, events: list[Event]) -> State:
    dice, draws = Dice.roll(state.seed, state.draws, state.variant.dice)
    events.append(_event("rolled", player, dice=list(dice), turn=turn))
    return replace(
        state,
        draws=draws,
        turn=turn,
        current=player,
        phase="calculate",
        dice=dice,
        available=tuple((d, f"die:{i}") for i, d in enumerate(dice)),
        steps=(),
        retry=None,
        chances=1 if state.options.second_chance else 0,
        bank=None,
        typed=(),
        judged=False,
    )


def _next_turn(state: State, events: list[Event]) -> State:
    return _start_turn(state, (state.current + 1) % state.players, state.turn + 1, events)


def _done(state: State, events: list[Event], attempts: list[Attempt] | tuple = ()) -> Outcome:
    kept = (state.events + tuple(events))[-KEPT_EVENTS:]
    return Outcome(replace(state, events=kept), tuple(events), tuple(attempts))


def new(options: dict[str, Any] | None, players: int, seed: int) -> State:
    """A fresh game: the players have rolled for who starts, and the first
    player has rolled the game's dice and is calculating."""
    variant, play = resolve(options)
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= MAX_PLAYERS:
        raise IllegalMove(
            f"Number Quest is for 1 to {MAX_PLAYERS} players or teams.",
            "bad_players",
            players=str(players),
            most=MAX_PLAYERS,
        )
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise IllegalMove("The game needs a whole-number seed.", "bad_option", option="seed")
    state = State(
        variant=variant,
        options=play,
        players=players,
        seed=seed,
        draws=0,
        turn=0,
        current=0,
        phase="calculate",
        dice=(),
        available=(),
        steps=(),
        retry=None,
        chances=0,
        covered=(),
        balances=(0,) * players,
        bank=None,
        deadline=play.turn_seconds,
        events=(),
    )
    first, rounds, draws = roll_for_first(seed, players)
    events: list[Event] = []
    if rounds:
        events.append(_event("first_roll", first, rounds=rounds))
    state = _start_turn(replace(state, draws=draws), first, 1, events)
    return replace(state, events=tuple(events))


def roll_for_first(seed: int, players: int) -> tuple[int, list[list[list[int]]], int]:
    """Who starts (RULES.md 0.2, seed 1.5): everyone rolls one die, the highest
    starts, tied players roll again. Returns the first player, the rounds as
    [[player, die], ...] lists, and the draws used (the dice of the game
    follow on from them, so the whole game still comes from the seed)."""
    if players < 2:
        return 0, [], 0
    contenders, rounds, draws = list(range(players)), [], 0
    while len(contenders) > 1:
        dice, draws = Dice.roll(seed, draws, len(contenders), 6)
        rolls = [[player, die] for player, die in zip(contenders, dice, strict=True)]
        rounds.append(rolls)
        contenders = [player for player, die in rolls if die == max(dice)]
    return contenders[0], rounds, draws


def _replay(dice: tuple[int, ...], steps: tuple[Step, ...]) -> tuple[tuple[Number, str], ...]:
    """The available numbers after ``steps`` (used by undo: steps are always valid)."""
    available = [(d, f"die:{i}") for i, d in enumerate(dice)]
    for index, step in enumerate(steps):
        for value in (step.left, step.right):
            available.pop(_find(available, value))
        available.append((step.result, f"step:{index}"))
    return tuple(available)


def _find(available: list[tuple[Number, str]] | tuple, value: Number) -> int:
    """Index of an available ``value``; with equal values the newest, which is
    the one a pupil just made (the same rule as arithmetic.build_calculation)."""
    for index in range(len(available) - 1, -1, -1):
        if available[index][0] == value:
            return index
    return -1


def _placeable(state: State, number: Number) -> str | None:
    """Why ``number`` cannot be covered now, as an IllegalMove code, or None."""
    if not is_whole(number) or not state.variant.on_board(number):
        return "off_board"
    if state.owner(number) is not None:
        return "square_taken"
    return None


def free_makeable(state: State) -> list[int]:
    """The free squares of the board this roll can make, smallest first."""
    made = reachable_frozen(state.dice, state.variant.operations, state.options.fractions)
    covered = state.covered_squares()
    variant = state.variant
    return sorted(n for n in made if variant.lo <= n <= variant.hi and n not in covered)


def _step(state: State, player: int, move: dict[str, Any]) -> Outcome:
    fractions = state.options.fractions
    left = _read_number(move, "left", fractions)
    right = _read_number(move, "right", fractions)
    op = operation_of(move.get("op"))
    if op is None:
        raise _malformed("op")
    given = _read_number(move, "result", fractions)
    check_operation(op, state.variant.operations)
    pool = list(state.available)
    for value in (left, right):
        index = _find(pool, value)
        if index < 0:
            raise IllegalMove(
                f"You don't have a {show(value)} to use.",
                "not_available",
                number=to_json_number(value),
                available=[to_json_number(v) for v, _ in pool],
            )
        pool.pop(index)
    exact = evaluate(left, op, right, fractions)
    if not pool and not is_whole(exact):
        raise IllegalMove(
            f"That would end on {show(exact)}, which is not a whole number. Try another way.",
            "fraction_final",
            value=to_json_number(exact),
        )
    step = Step(left, op, right, exact)
    again = (left, op, right) in state.typed or (
        op in "+*" and (right, op, left) in state.typed
    )
    attempt = step_attempt(step, given, first_try=not again)
    attempts = [attempt]
    events: list[Event] = []
    state = replace(state, typed=state.typed + ((left, op, right),))
    if not attempt.correct:
        shown = {"left": to_json_number(left), "op": op, "right": to_json_number(right)}
        if state.chances > 0:
            events.append(_event("try_again", player, given=to_json_number(given), **shown))
            new_state = replace(state, chances=state.chances - 1, retry=(left, op, right))
            return _done(new_state, events, attempts)
        # The turn ends here: the calculation tried is judged as a plan, cut
        # short unless this step joined the last two numbers.
        attempts.extend(
            plan_attempts(
                state.dice, state.steps + (step,), finished=not pool, first_try=not state.judged
            )
        )
        events.append(
            _event(
                "wrong_step",
                player,
                given=to_json_number(given),
                expected=to_json_number(exact),
                text=f"{step.text()}",
                **shown,
            )
        )
        return _done(_next_turn(state, events), events, attempts)
    steps = state.steps + (step,)
    pool.append((exact, f"step:{len(state.steps)}"))
    new_state = replace(state, steps=steps, available=tuple(pool), retry=None)
    events.append(_event("step", player, **_step_json(step)))
    if len(pool) == 1:
        calculation = build_calculation(state.dice, steps)
        # A wrong step put right on its second chance is that step's
        # mistake, not the plan's.
        attempts.extend(plan_attempts(state.dice, steps, finished=True, first_try=not state.judged))
        new_state = replace(new_state, phase="place", judged=True)
        events.append(_calculated(new_state, player, calculation.text, exact))
    return _done(new_state, events, attempts)


def _steps(state: State, player: int, move: dict[str, Any]) -> Outcome:
    """Several steps typed on the tablet one after the other, sent together
    (the page checks the right ones as it goes and sends them with the last
    step or the first one it cannot vouch for): each is ruled on as a "step"
    of its own, in order. A wrong result stops there, as it would have step by
    step, and the steps after it (built on the wrong number) are dropped; a
    step the rules refuse refuses them all, so nothing is half done.

    With ``square`` the pupil also tapped the square of the number the steps
    made (the page offers it when it can vouch for the whole calculation and
    the square is free): placed once every step was right, and refused with
    them if it cannot be, so nothing is half done."""
    outcome, all_right = _rule_on_steps(state, player, move.get("steps"))
    if "square" not in move or not all_right:
        return outcome
    if outcome.state.phase != "place":
        raise IllegalMove(_WRONG_PHASE["calculate"], "wrong_phase", phase="calculate", move="place")
    placed = _place(outcome.state, player, move)
    return Outcome(
        placed.state, outcome.events + placed.events, outcome.attempts + placed.attempts
    )


def _rule_on_steps(state: State, player: int, steps: Any) -> tuple[Outcome, bool]:
    """``_steps``'s ruling, and whether every step ruled on was right."""
    if not isinstance(steps, list) or not 1 <= len(steps) < len(state.available):
        raise _malformed("steps")
    events: list[Event] = []
    attempts: list[Attempt] = []
    for one in steps:
        if not isinstance(one, dict):
            raise _malformed("steps")
        ms = one.get("ms")
        if ms is not None:
            if not isinstance(ms, int) or isinstance(ms, bool) or ms < 0:
                raise _malformed("ms")
            # A time is evidence, not a rule: a pupil who thought for an hour
            # still finishes their calculation.
            ms = min(ms, MAX_STEP_MS)
        outcome = _step(state, player, one)
        state = outcome.state
        events += outcome.events
        typed, *whole = outcome.attempts
        attempts += [replace(typed, ms=ms), *whole]
        if not typed.correct:
            return Outcome(state, tuple(events), tuple(attempts)), False
    return Outcome(state, tuple(events), tuple(attempts)), True


def rule_on_kept_steps(state: State, player: int, steps: Any) -> Outcome:
    """The steps a tablet still kept when the teacher ended the game (the page
    keeps a calculation's right steps until it is done): ruled on as they
    would have been in the turn the game ended in, for the evidence alone.
    The game stays over: the outcome's state is ``state`` and it tells no
    events. Refused for a game that ended otherwise or another player's turn."""
    if state.phase != "over" or state.ended != "teacher":
        raise IllegalMove("Only a game the teacher ended keeps these steps.", "not_ended")
    if player != state.current:
        raise IllegalMove(
            "It was not your turn.", "not_your_turn", player=player, current=state.current
        )
    # The page keeps steps only in the calculate phase, the one the end
    # replaced; in the others fewer than two numbers are left, and steps are refused.
    ruled, _all_right = _rule_on_steps(replace(state, phase="calculate"), player, steps)
    return Outcome(state, (), ruled.attempts)


def _calculated(state: State, player: int, text: str, value: Number, bot: bool = False) -> Event:
    problem = _placeable(state, value)
    data: dict[str, Any] = {
        "value": to_json_number(value),
        "text": text,
        "placeable": not problem,
        # The operations it took: a move that goes on past it (its square
        # tapped with it) leaves no steps in the state to read them from.
        "ops": sorted({step.op for step in state.steps}),
    }
    if problem:
        data["problem"] = problem
    if bot:
        data["bot"] = True
    return _event("calculated", player, **data)


def _calculation(state: State, player: int, move: dict[str, Any]) -> Outcome:
    """A whole typed calculation (bots and tests): no attempts, since nobody
    typed the steps one by one."""
    if state.steps:
        raise IllegalMove(
            "Clear your steps before typing a whole calculation.",
            "steps_started",
            steps=len(state.steps),
        )
    text = move.get("text")
    if not isinstance(text, str):
        raise _malformed("text")
    numbers = [v for v, _ in state.available]
    calculation = parse_calculation(
        text, numbers, state.variant.operations, state.options.fractions
    )
    steps = calculation.steps
    new_state = replace(
        state,
        steps=steps,
        available=_replay(state.dice, steps),
        phase="place",
        retry=None,
    )
    event = _calculated(new_state, player, calculation.text, calculation.value, bot=True)
    return _done(new_state, [event])


def _undo(state: State, player: int, everything: bool) -> Outcome:
    if not state.steps:
        raise IllegalMove("There is nothing to undo.", "nothing_to_undo")
    steps = () if everything else state.steps[:-1]
    new_state = replace(state, steps=steps, available=_replay(state.dice, steps), phase="calculate")
    return _done(new_state, [_event("clear" if everything else "undo", player, steps=len(steps))])


def would_end(state: State, player: int, square: int) -> str | None:
    """Why covering ``square`` would end the game, or None."""
    covered = state.covered_squares() | {square}
    variant, ends = state.variant, state.options.end_conditions
    if board.chain_connects(covered, variant.lo, variant.hi, variant.lo, variant.hi):
        return "chain"
    if "board_full" in ends and all(n in covered for n in variant.squares()):
        return "board_full"
    if "colour_full" in ends:
        same = [n for n in board.squares_of_colour(board.colour(square)) if variant.on_board(n)]
        if all(n in covered for n in same):
            return "colour_full"
    if "each_colour" in ends:
        mine = {s for s, p in state.covered if p == player} | {square}
        wanted = {board.colour(n) for n in variant.squares()}
        if wanted <= {board.colour(n) for n in mine}:
            return "each_colour"
    return None


def gain(state: State, square: int) -> tuple[int, int]:
    """(colour amount, Nubble bonus) for covering ``square`` now."""
    return board.payout(square), board.bonus(state.covered_squares(), square)


def _place(state: State, player: int, move: dict[str, Any]) -> Outcome:
    square = _read_int(move, "square")
    number = state.result_number()
    if square != number:
        raise IllegalMove(
            f"That square is not {show(number)}. Tap the square {show(number)}.",
            "wrong_square",
            square=square,
            number=to_json_number(number),
        )
    problem = _placeable(state, number)
    if problem == "off_board":
        variant = state.variant
        raise IllegalMove(
            f"{show(number)} is not on this board ({variant.lo} to {variant.hi}). "
            "Undo and try another calculation.",
            "off_board",
            number=to_json_number(number),
            lo=variant.lo,
            hi=variant.hi,
        )
    if problem == "square_taken":
        raise IllegalMove(
            f"{square} is already covered. Undo and try another calculation.",
            "square_taken",
            square=square,
            owner=state.owner(square),
        )
    amount, bonus = gain(state, square)
    ending = would_end(state, player, square)
    old = state.balances[player]
    paid = amount + bonus
    end_bonus = state.options.end_bonus if ending else 0
    balances = list(state.balances)
    balances[player] = old + paid + end_bonus
    covered = tuple(sorted(state.covered + ((square, player),)))
    new_state = replace(state, covered=covered, balances=tuple(balances))
    nubble = (
        None if not bonus else ("double_nubble" if bonus == board.DOUBLE_NUBBLE_BONUS else "nubble")
    )
    events = [
        _event(
            "placed",
            player,
            square=square,
            colour=board.colour(square),
            amount=amount,
            bonus=bonus,
            nubble=nubble,
            prime=board.is_prime(square),
            paid=paid,
            balance=old + paid,
        )
    ]
    if ending:
        new_state = replace(new_state, phase="over", ended=ending, ender=player)
        if end_bonus:
            events.append(_event("end_bonus", player, amount=end_bonus))
        events.append(_event("game_over", player, reason=ending, balances=balances))
        return _done(new_state, events)
    if state.options.pupils_bank:
        events.append(_event("bank_now", player, old=old, paid=paid))
        return _done(replace(new_state, phase="bank", bank=(old, paid)), events)
    return _done(_next_turn(new_state, events), events)


def _bank(state: State, player: int, move: dict[str, Any]) -> Outcome:
    given = _read_int(move, "balance")
    old, paid = state.bank
    step = Step(old, "+", paid, old + paid)
    attempt = step_attempt(step, given)
    events = [_event("banked", player, given=given, balance=old + paid, correct=attempt.correct)]
    return _done(_next_turn(state, events), events, [attempt])


def _cant(state: State, player: int, move: dict[str, Any]) -> Outcome:
    """The player says no number can be made. Steps the tablet kept (right, as
    far as the page could tell) come with it: they are the pupil's work and
    are ruled on first, as if sent before. A wrong one stops there, as it
    would have step by step: the pupil reads why before giving up."""
    if "steps" not in move:
        return _give_up(state, player)
    if state.phase != "calculate":
        raise IllegalMove(_WRONG_PHASE[state.phase], "wrong_phase", phase=state.phase, move="steps")
    ruled, all_right = _rule_on_steps(state, player, move["steps"])
    if not all_right:
        return ruled
    given_up = _give_up(ruled.state, player)
    return Outcome(
        given_up.state, ruled.events + given_up.events, ruled.attempts + given_up.attempts
    )


def _give_up(state: State, player: int) -> Outcome:
    free = free_makeable(state)
    if not free:
        events = [_event("no_number", player, dice=list(state.dice))]
    else:
        square = free[0]
        calculation = explain(state.dice, square, state.variant.operations, state.options.fractions)
        events = [
            _event(
                "could_have_made",
                player,
                square=square,
                text=calculation.text,
                steps=[_step_json(s) for s in calculation.steps],
                count=len(free),
            )
        ]
    return _done(_next_turn(state, events), events)


def _end(state: State, player: int | None, move: dict[str, Any]) -> Outcome:
    reason = move.get("reason")
    if reason not in ("time", "teacher"):
        raise _malformed("reason")
    if reason == "time" and state.options.time_limit_minutes is None:
        raise IllegalMove("This game has no time limit.", "end_not_enabled", end=reason)
    events = [_event("game_over", player, reason=reason, balances=list(state.balances))]
    return _done(replace(state, phase="over", ended=reason, bank=None), events)


_PHASE_OF_MOVE = {
    "step": ("calculate",),
    "steps": ("calculate",),
    "calculation": ("calculate",),
    "undo": ("calculate", "place"),
    "clear": ("calculate", "place"),
    "place": ("place",),
    "cant": ("calculate", "place"),
    "bank": ("bank",),
    "timeout": ("calculate", "place", "bank"),
}
_WRONG_PHASE = {
    "calculate": "Finish your calculation first.",
    "place": "Your calculation is finished: tap its square.",
    "bank": "Type your new balance first.",
}


def apply(state: State, player: int | None, move: Any) -> Outcome:
    """Apply one move of ``player``; IllegalMove (never another exception) when
    the rules or the move's shape refuse it. ``player`` may be None for the
    server's own moves ("timeout", "end")."""
    kind = read_move_type(move, MOVE_TYPES, UNREADABLE)
    if state.phase == "over":
        raise IllegalMove("The game is over.", "game_over")
    if player is not None and (
        not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < state.players
    ):
        raise _malformed("player")
    if kind == "end":
        return _end(state, player, move)
    if player is None and kind == "timeout":
        player = state.current
    if player is None:
        raise _malformed("player")
    if player != state.current:
        raise IllegalMove(
            "It is not your turn yet.", "not_your_turn", player=player, current=state.current
        )
    if state.phase not in _PHASE_OF_MOVE[kind]:
        raise IllegalMove(
            _WRONG_PHASE.get(state.phase, "Not now."), "wrong_phase", phase=state.phase, move=kind
        )
    if kind == "step":
        return _step(state, player, move)
    if kind == "steps":
        return _steps(state, player, move)
    if kind == "calculation":
        return _calculation(state, player, move)
    if kind in ("undo", "clear"):
        return _undo(state, player, kind == "clear")
    if kind == "place":
        return _place(state, player, move)
    if kind == "bank":
        return _bank(state, player, move)
    if kind == "cant":
        return _cant(state, player, move)
    events = [_event("timeout", player, phase=state.phase)]
    return _done(_next_turn(state, events), events)


# --------------------------------------------------------------------------- what players see


def moves(state: State, player: int | None) -> list[dict[str, Any]]:
    """What ``player`` may do now, as move templates (cheap: no search)."""
    if state.phase == "over" or player != state.current:
        return []
    if state.phase == "bank":
        old, paid = state.bank
        return [{"type": "bank", "old": old, "paid": paid}]
    found: list[dict[str, Any]] = []
    if state.phase == "calculate":
        found.append(
            {
                "type": "step",
                "numbers": [to_json_number(v) for v, _ in state.available],
                "operations": state.variant.operations,
            }
        )
    else:
        number = state.result_number()
        if _placeable(state, number) is None:
            found.append({"type": "place", "square": number})
    if state.steps:
        found += [{"type": "undo"}, {"type": "clear"}]
    found.append({"type": "cant"})
    return found


_SQUARES_STATIC = tuple(
    {
        "square": n,
        "row": board.cell_position(n)[0],
        "pos": board.cell_position(n)[1],
        "x": round(board.cell_centre(n)[0], 4),
        "y": round(board.cell_centre(n)[1], 4),
        "colour": board.colour(n),
        "pays": board.payout(n),
        "prime": board.is_prime(n),
    }
    for n in board.SQUARES
)


def view(state: State, player: int | None) -> dict[str, Any]:
    """Everything the page needs, JSON-able. Nothing is hidden in this game.

    Shape shared by every game: game, phase, current, you, your_turn, players,
    turn, scores, events, moves, result; the rest is this game's own."""
    covered = _covered_map(state)
    variant = state.variant
    finished = result(state)
    return {
        "game": SLUG,
        "phase": state.phase,
        "current": state.current,
        "you": player,
        "your_turn": player == state.current and state.phase != "over",
        "players": state.players,
        "turn": state.turn,
        "scores": list(state.balances),
        "events": [_plain(e.to_json()) for e in state.events],
        "moves": moves(state, player),
        "result": finished.to_json() if finished else None,
        "variant": asdict(variant),
        "options": state.options.to_json(),
        "dice": list(state.dice),
        "available": [
            {"value": to_json_number(v), "origin": origin} for v, origin in state.available
        ],
        "steps": [_step_json(s) for s in state.steps],
        "symbols": dict(SYMBOL_OF),
        "number": to_json_number(state.result_number()) if state.phase == "place" else None,
        "bank": None if state.bank is None else {"old": state.bank[0], "paid": state.bank[1]},
        "deadline_seconds": state.deadline,
        "ended": state.ended,
        "board": {
            "lo": variant.lo,
            "hi": variant.hi,
            "squares": [
                {
                    **cell,
                    "on_board": variant.lo <= cell["square"] <= variant.hi,
                    "owner": covered.get(cell["square"]),
                }
                for cell in _SQUARES_STATIC
            ],
        },
    }


def result(state: State) -> Result | None:
    if state.phase != "over":
        return None
    # Money ranks (RULES 1.7). Balances start at 0 and only grow: a game that
    # ended before anybody earned any (the teacher's end, the game's time up)
    # crowns nobody.
    return Result(state.balances, rank_when_ended(state.balances),
                  ended=state.ended == "teacher")


def usable_squares(variant: Variant, fractions: bool = False) -> frozenset[int]:
    """Squares of the board some roll can make: the only ones a chain can use."""
    made = makeable_numbers(variant.dice, variant.operations, fractions)
    return frozenset(n for n in variant.squares() if n in made)
