"""Number Quest bots. A bot's turn is a list of ordinary moves the server
applies one by one; bots see the same roll as everyone and never make an
arithmetic mistake (their attempts are not pupil evidence).

Levels:

* ``beginner``: any square the roll can make, at random.
* ``greedy``: the square paying most (colour amount + Nubble bonus); the
  bigger square on a tie.
* ``strategist``: greedy, plus the chain. Tokens of every colour build the same
  chain and the game ends when it links the board's two ends, so the chain is
  worth finishing only for the player ahead. The strategist measures the
  fewest free squares still needed to link the ends (``chain_gap``) and:
  finishes the chain at once if that leaves it strictly richest; never
  finishes it otherwise unless nothing else is possible; when ahead, adds
  ``CHAIN_WEIGHT`` for a square that shortens the chain; when behind,
  subtracts it (the only "block" this game allows is not helping), and avoids
  leaving the chain one square from the end for the next player.
"""

from __future__ import annotations

import random
from typing import Any

from engine.arithmetic import explain, to_json_number
from engine.core import IllegalMove
from engine.numberquest import board
from engine.numberquest.game import (
    State,
    free_makeable,
    gain,
    usable_squares,
    would_end,
)

LEVELS = ("beginner", "greedy", "strategist")
CHAIN_WEIGHT = 60
LAST_GAP_PENALTY = 150


def choose_square(state: State, player: int, level: str, rng_seed: int = 0) -> int | None:
    """The square this bot aims for with the current roll, or None."""
    free = free_makeable(state)
    if not free:
        return None
    if level == "beginner":
        return random.Random(f"{rng_seed}:{state.turn}").choice(free)
    if level == "greedy":
        return max(free, key=lambda n: (sum(gain(state, n)), n))
    return max(free, key=_strategist_scores(state, player, free).__getitem__)


def _strategist_scores(state: State, player: int, free: list[int]) -> dict[int, tuple]:
    variant = state.variant
    covered = state.covered_squares()
    usable = usable_squares(variant, state.options.fractions)
    from_lo = board.chain_costs(covered, usable, variant.lo)
    from_hi = board.chain_costs(covered, usable, variant.hi)
    gap = from_lo.get(variant.hi)
    others = max((b for p, b in enumerate(state.balances) if p != player), default=0)
    scores: dict[int, tuple] = {}
    for square in free:
        earned = sum(gain(state, square))
        mine = state.balances[player] + earned
        if would_end(state, player, square):
            richest = mine + state.options.end_bonus > others
            # Winning now beats everything; losing now is the last resort.
            scores[square] = (2 if richest else 0, earned, square)
            continue
        value = earned
        if gap is not None and square in from_lo and square in from_hi:
            # Both costs count the square itself; once covered it is free.
            through = from_lo[square] + from_hi[square] - 2
            new_gap = min(gap, through)
            shortened = gap - new_gap
            ahead = mine > others
            value += CHAIN_WEIGHT * shortened * (1 if ahead else -1)
            if not ahead and new_gap <= 1:
                value -= LAST_GAP_PENALTY
        scores[square] = (1, value, square)
    return scores


def bot_moves(
    state: State, player: int, level: str = "greedy", rng_seed: int = 0
) -> list[dict[str, Any]]:
    """The moves of this bot's turn from ``state`` on, to be applied in order.
    Empty when it is not this player's turn or the game is over."""
    if level not in LEVELS:
        raise IllegalMove("Unknown bot level.", "bad_option", option="level", levels=list(LEVELS))
    if state.phase == "over" or state.current != player:
        return []
    if state.phase == "bank":
        old, paid = state.bank
        return [{"type": "bank", "balance": old + paid}]
    plan: list[dict[str, Any]] = [{"type": "clear"}] if state.steps else []
    square = choose_square(state, player, level, rng_seed)
    if square is None:
        return [{"type": "cant"}]
    calculation = explain(state.dice, square, state.variant.operations, state.options.fractions)
    for step in calculation.steps:
        plan.append(
            {
                "type": "step",
                "left": to_json_number(step.left),
                "op": step.op,
                "right": to_json_number(step.right),
                "result": to_json_number(step.result),
            }
        )
    plan.append({"type": "place", "square": square})
    if state.options.pupils_bank and not would_end(state, player, square):
        paid = sum(gain(state, square))
        plan.append({"type": "bank", "balance": state.balances[player] + paid})
    return plan
