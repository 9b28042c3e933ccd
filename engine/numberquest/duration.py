"""How long a Number Quest variant lasts (RULES.md 0.2): table turns to the
end, simulated as the rules say: every turn the dice are rolled and a free
square the roll can make is covered, chosen at random; the game ends when the
covered squares link the two ends of the board.

Only the table's sequence of rolls matters, not who plays: every table turn is
one roll, whoever's turn it is.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement
from statistics import median_low

from engine.arithmetic import reachable_frozen
from engine.numberquest import board

DEFAULT_GAMES = 600
# A guard only: with the skip over empty rolls below, even the seed's 1..24
# board (needing one roll in 1,296) ends well before this.
MOST_TURNS = 100_000


class _Shape:
    """What a simulation needs, computed once per variant: for every roll (as
    a sorted multiset, with how many ordered rolls give it) the board squares
    it can make, and the board's neighbours inside lo..hi."""

    def __init__(self, dice: int, operations: str, lo: int, hi: int) -> None:
        self.lo, self.hi = lo, hi
        counts = Counter(tuple(sorted(r)) for r in _ordered_rolls(dice))
        rolls = combinations_with_replacement(range(1, 7), dice)
        made = [
            (
                counts[roll],
                tuple(n for n in sorted(reachable_frozen(roll, operations)) if lo <= n <= hi),
            )
            for roll in rolls
        ]
        self.total = 6**dice
        # The ordered rolls point at their multiset: one randrange picks a fair roll.
        index = {roll: i for i, roll in enumerate(combinations_with_replacement(range(1, 7), dice))}
        self.by_roll = [made[index[tuple(sorted(r))]][1] for r in _ordered_rolls(dice)]
        self.weighted = [(w, sum(1 << n for n in squares), squares) for w, squares in made]
        self.neighbours = {
            n: tuple(m for m in board.neighbours(n) if lo <= m <= hi) for n in range(lo, hi + 1)
        }


def _ordered_rolls(dice: int) -> list[tuple[int, ...]]:
    rolls: list[tuple[int, ...]] = [()]
    for _ in range(dice):
        rolls = [r + (face,) for r in rolls for face in range(1, 7)]
    return rolls


@lru_cache(maxsize=64)
def _shape(dice: int, operations: str, lo: int, hi: int) -> _Shape:
    return _Shape(dice, operations, lo, hi)


def simulate(shape: _Shape, rng: random.Random) -> int:
    """Table turns of one game, the winning turn included."""
    lo, hi = shape.lo, shape.hi
    parent: dict[int, int] = {}

    def root(n: int) -> int:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    draw = rng.random
    by_roll, total = shape.by_roll, shape.total
    turns = 0
    live: list | None = None  # the rolls that can still cover a square
    while turns < MOST_TURNS:
        turns += 1
        made = by_roll[int(draw() * total)]
        square = _any_free(made, parent, draw)
        if square is None:
            # A roll that covers nothing: rather than rolling on one by one
            # (thousands of times on a board that waits for 6+6+6+6), jump
            # over the empty rolls, as many as chance would bring.
            if live is None:
                taken = sum(1 << n for n in parent)
                live = [(w, made) for w, mask, made in shape.weighted if mask & ~taken]
            weight = sum(w for w, _ in live)
            if not weight:
                return MOST_TURNS
            chance = weight / shape.total
            if chance < 1:
                turns += int(math.log(1.0 - rng.random()) / math.log1p(-chance))
            turns += 1
            pick = rng.randrange(weight)
            for w, made in live:
                if pick < w:
                    square = _any_free(made, parent, draw)
                    break
                pick -= w
        live = None
        parent[square] = square
        for other in shape.neighbours[square]:
            if other in parent:
                parent[root(other)] = root(square)
        if lo in parent and hi in parent and root(lo) == root(hi):
            return turns
    return MOST_TURNS


def _any_free(made: tuple[int, ...], covered: dict[int, int], draw) -> int | None:
    """A free square among ``made``, each equally likely, or None. A few blind
    draws first: early in a game nearly every square is free, and drawing is
    cheaper than listing the free ones (still fair: a draw that hits a free
    square is uniform over the free ones)."""
    if not made:
        return None
    for _ in range(3):
        square = made[int(draw() * len(made))]
        if square not in covered:
            return square
    free = [n for n in made if n not in covered]
    return free[int(draw() * len(free))] if free else None


def turns_to_end(
    dice: int, operations: str, lo: int, hi: int, games: int = DEFAULT_GAMES, seed: int = 0
) -> tuple[int, int]:
    """(median, 90th percentile) of table turns to the end over ``games`` games."""
    shape = _shape(dice, operations, lo, hi)
    rng = random.Random(seed)
    lengths = sorted(simulate(shape, rng) for _ in range(games))
    return median_low(lengths), lengths[min(len(lengths) - 1, math.ceil(0.9 * len(lengths)) - 1)]
