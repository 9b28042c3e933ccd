"""How often a Number Quest variant gives a pupil a chance at each operation,
simulated with the solver the way ``duration`` simulates a game's length.

Two counts per operation and table turn, from the roll and the free squares:

* ``could``: some free square can be made by a calculation using the
  operation. This is the chance the reports count (``learning.opportunities``:
  a turn where the operation would help); in the classic game every roll of four
  dice allows all four operations, so it says little about practice there.
* ``only``: some free square can be made, and none without the operation: the
  operation is the only way to cover a square, so a pupil who plays the turn
  uses it, and a pupil who avoids it shows it. This is the chance a practice
  set-up is chosen on: the pupil cannot go round it.

The game is played as ``duration`` plays it (any free square the roll can make,
chosen at random; the game ends when the chain links the board's two ends), so
the turns counted are those of a whole game, the slow turns at its end included.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

from engine.arithmetic import SKILL_OF, normalise_operations, operations_that_make, reachable_frozen
from engine.numberquest import board

DEFAULT_TURNS = 6000
"""Whole games are simulated until this many table turns: a rate is a count
over turns, and the young boards' games vary most in length (a few wait long
for the one roll that ends them), so it takes many more of their short games
than of the classic's long ones to count as many turns."""
# A game of a variant chosen for practice ends in far fewer table turns; a
# board that waits for one rare roll is cut here rather than simulated for ever.
MOST_TURNS = 600


@dataclass(frozen=True)
class Chances:
    """Table turns simulated, and per operation (skill name: ``add``...) the
    turns where it could help and those where it was the only way."""

    turns: int
    could: dict[str, int]
    only: dict[str, int]

    def could_rate(self, skill: str) -> float:
        return self.could.get(skill, 0) / self.turns if self.turns else 0.0

    def only_rate(self, skill: str) -> float:
        return self.only.get(skill, 0) / self.turns if self.turns else 0.0


class _Rolls:
    """For every roll (a sorted multiset of faces), as bit masks of board
    squares: what it makes, and per operation what it makes with and without it."""

    def __init__(self, dice: int, operations: str, lo: int, hi: int) -> None:
        on_board = sum(1 << n for n in range(lo, hi + 1))
        self.rolls: list[tuple[int, dict[str, int], dict[str, int]]] = []
        for roll in combinations_with_replacement(range(1, 7), dice):
            made = _mask(reachable_frozen(roll, operations)) & on_board
            with_op = dict.fromkeys(operations, 0)
            without_op: dict[str, int] = {}
            for square in _squares(made):
                for op, used in operations_that_make(roll, (square,), operations).items():
                    if used:
                        with_op[op] |= 1 << square
            for op in operations:
                rest = operations.replace(op, "")
                without_op[op] = _mask(reachable_frozen(roll, rest)) & on_board if rest else 0
            self.rolls.append((made, with_op, without_op))
        # One index per ordered roll, so a fair roll is one draw.
        self.where = {
            roll: i for i, roll in enumerate(combinations_with_replacement(range(1, 7), dice))
        }
        self.ordered = [self.where[tuple(sorted(roll))] for roll in _ordered_rolls(dice)]
        self.operations = operations

    def turn(self, index: int, covered: int) -> tuple[set[str], set[str]]:
        """(could, only): the operations that could help with roll ``index``
        while the squares of ``covered`` are taken, and those that are the
        only way to cover a square."""
        made, with_op, without_op = self.rolls[index]
        free = made & ~covered
        if not free:
            return set(), set()
        could = {op for op in self.operations if free & with_op[op]}
        only = {op for op in self.operations if not free & without_op[op]}
        return could, only


@lru_cache(maxsize=64)
def _rolls(dice: int, operations: str, lo: int, hi: int) -> _Rolls:
    return _Rolls(dice, operations, lo, hi)


def turn_chances(
    dice: int, operations: str, lo: int, hi: int, roll, covered
) -> tuple[set[str], set[str]]:
    """(could, only) as skill names for one turn of a variant: its ``roll`` with
    the squares ``covered`` taken; what the simulation counts (module docstring)."""
    operations = normalise_operations(operations)
    rolls = _rolls(dice, operations, lo, hi)
    could, only = rolls.turn(rolls.where[tuple(sorted(roll))], _mask(covered))
    return {SKILL_OF[op] for op in could}, {SKILL_OF[op] for op in only}


def _mask(squares) -> int:
    return sum(1 << n for n in squares if isinstance(n, int) and n > 0)


def _squares(mask: int) -> list[int]:
    found = []
    while mask:
        lowest = mask & -mask
        found.append(lowest.bit_length() - 1)
        mask ^= lowest
    return found


def _ordered_rolls(dice: int) -> list[tuple[int, ...]]:
    rolls: list[tuple[int, ...]] = [()]
    for _ in range(dice):
        rolls = [r + (face,) for r in rolls for face in range(1, 7)]
    return rolls


def chances(
    dice: int, operations: str, lo: int, hi: int, turns: int = DEFAULT_TURNS, seed: int = 0
) -> Chances:
    """The counts of whole simulated games of the variant, at least ``turns``
    table turns in all (module docstring). Cached: a class report asks for the
    same few variants again and again."""
    return _chances(dice, normalise_operations(operations), lo, hi, turns, seed)


@lru_cache(maxsize=64)
def _chances(dice: int, operations: str, lo: int, hi: int, wanted: int, seed: int) -> Chances:
    rolls = _rolls(dice, operations, lo, hi)
    rng = random.Random(seed)
    could = dict.fromkeys(operations, 0)
    only = dict.fromkeys(operations, 0)
    turns = 0
    while turns < wanted:
        covered = 0
        parent: dict[int, int] = {}
        for _turn in range(MOST_TURNS):
            turns += 1
            index = rng.choice(rolls.ordered)
            free = rolls.rolls[index][0] & ~covered
            if not free:
                continue
            helped, needed = rolls.turn(index, covered)
            for op in helped:
                could[op] += 1
            for op in needed:
                only[op] += 1
            square = rng.choice(_squares(free))
            covered |= 1 << square
            if _links(parent, square, lo, hi):
                break
    return Chances(
        turns,
        {SKILL_OF[op]: n for op, n in could.items()},
        {SKILL_OF[op]: n for op, n in only.items()},
    )


def _links(parent: dict[int, int], square: int, lo: int, hi: int) -> bool:
    """Cover ``square`` in the union-find of covered squares; whether the
    chain now links ``lo`` to ``hi``."""

    def root(n: int) -> int:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    parent[square] = square
    for other in board.neighbours(square):
        if lo <= other <= hi and other in parent:
            parent[root(other)] = root(square)
    return lo in parent and hi in parent and root(lo) == root(hi)
