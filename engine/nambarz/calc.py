"""Nambarz calculations (RULES.md 3.4 b): which targets some cards reach, left
to right or with brackets, the simplest-calculation rule, and the points.

Left to right (the basic rule) the cards are laid in order and each operation
joins the running result and the next card: ``((a op b) op c) op d``. With the
brackets variant any bracketing is allowed, which is ``engine.arithmetic``'s
solver. Every intermediate result is a whole number >= 0 and division is exact
(RULES 0.1 and 3.4 b6).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import combinations

from engine.arithmetic import (
    ALL_OPERATIONS,
    SYMBOL_OF,
    Step,
    evaluate,
    explain,
    normalise_operations,
    reachable_frozen,
)

# Rank points per round (RULES 3.5): 1st 40, 2nd 32, ... 6th and later 0.
RANK_POINTS = (40, 32, 25, 19, 14)
BONUS_PER_CARD = 7
BONUS_FROM = 4


def rank_points(rank: int) -> int:
    """Points for finishing a round at ``rank`` (1 = first out)."""
    return RANK_POINTS[rank - 1] if 1 <= rank <= len(RANK_POINTS) else 0


def calculation_bonus(k: int) -> int:
    """Bonus for a legal calculation of ``k`` cards: 7 × (k − 3) from 4 cards
    (coup de maître 7, coup de super maître 14, 6 cards 21), else 0."""
    return BONUS_PER_CARD * (k - 3) if k >= BONUS_FROM else 0


def _key(numbers: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(numbers))


def _join(left: int, op: str, right: int) -> int | None:
    """One step under the rules, or None when it leaves the whole numbers >= 0."""
    if op == "+":
        return left + right
    if op == "*":
        return left * right
    if op == "-":
        return left - right if left >= right else None
    return left // right if right and left % right == 0 else None


@cache
def _chain_reaches(numbers: tuple[int, ...], target: int, ops: str) -> bool:
    """Left to right, searched backwards from the target (see _last_steps)."""
    if len(numbers) == 1:
        return numbers[0] == target
    return next(_last_steps(numbers, target, ops), None) is not None


def _last_steps(numbers: tuple[int, ...], target: int,
                ops: str) -> Iterator[tuple[int, str, tuple[int, ...], int]]:
    """(last card, its operation, the other cards, what they must make) for
    each way a left-to-right calculation can end on ``target``: the last card
    and its operation fix what the other cards must make."""
    for index, last in enumerate(numbers):
        if index and numbers[index - 1] == last:
            continue
        rest = numbers[:index] + numbers[index + 1:]
        for op in ops:
            needed = _undo(target, op, last)
            if needed is not None and _chain_reaches(rest, needed, ops):
                yield last, op, rest, needed


@cache
def _splits(numbers: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every cut of a sorted multiset into (bigger or equal part, smaller part)."""
    count = len(numbers)
    cuts = set()
    for mask in range(1, 1 << count):
        small = tuple(numbers[i] for i in range(count) if mask >> i & 1)
        if 2 * len(small) > count:
            continue
        big = tuple(numbers[i] for i in range(count) if not mask >> i & 1)
        cuts.add((big, small))
    return tuple(sorted(cuts))


@cache
def _tree_reaches(numbers: tuple[int, ...], target: int, ops: str) -> bool:
    """Any bracketing, searched backwards: for each cut, each value b of the
    smaller part fixes what the bigger part must make."""
    if len(numbers) <= 3:
        return target in reachable_frozen(numbers, ops)
    for big, small in _splits(numbers):
        for b in reachable_frozen(small, ops):
            if b == 0 or target == 0:
                # A zero undoes nothing; ask the bigger part forwards.
                if any(_join(a, op, b) == target or _join(b, op, a) == target
                       for a in reachable_frozen(big, ops) for op in ops):
                    return True
                continue
            needed = set()
            if "+" in ops and target >= b:
                needed.add(target - b)
            if "-" in ops:
                needed.add(target + b)
                if b >= target:
                    needed.add(b - target)
            if "*" in ops and target % b == 0:
                needed.add(target // b)
            if "/" in ops:
                needed.add(target * b)
                if b % target == 0:
                    needed.add(b // target)
            if any(_tree_reaches(big, a, ops) for a in needed):
                return True
    return False


def reaches(numbers: Iterable[int], target: int, brackets: bool = False,
            operations: str = ALL_OPERATIONS) -> bool:
    """Some order of ALL the numbers (any bracketing with ``brackets``) makes ``target``."""
    key = _key(numbers)
    if not key or isinstance(target, bool) or not isinstance(target, int) or target < 0:
        return False
    ops = normalise_operations(operations)
    return _tree_reaches(key, target, ops) if brackets else _chain_reaches(key, target, ops)


def smaller_part(numbers: Iterable[int], target: int, brackets: bool = False,
                 operations: str = ALL_OPERATIONS) -> tuple[int, ...] | None:
    """The fewest of these numbers (at least 2, fewer than all) that already
    make ``target``, or None."""
    key = _key(numbers)
    for size in range(2, len(key)):
        for part in sorted(set(combinations(key, size))):
            if reaches(part, target, brackets, operations):
                return part
    return None


def simplest(numbers: Iterable[int], target: int, brackets: bool = False,
             operations: str = ALL_OPERATIONS) -> bool:
    """``reaches``, and no part of 2 or more (but not all) of the cards does
    (RULES 3.4 b5, the engine's reading)."""
    key = _key(numbers)
    return (len(key) >= 2 and reaches(key, target, brackets, operations)
            and smaller_part(key, target, brackets, operations) is None)


def chain(k: int) -> list[list[int]]:
    """The steps of a left-to-right calculation of ``k`` cards, as pairs of
    positions (see :func:`run_steps`)."""
    return [[0, 1]] + [[k + s, s + 2] for s in range(k - 2)]


def run_steps(numbers: Sequence[int], ops: Sequence[str],
              steps: Sequence[Sequence[int]]) -> list[Step]:
    """The true steps of a calculation. Positions 0..k-1 are the cards in the
    order laid; position k + s is the result of step s. Raises IllegalMove
    (``below_zero``, ``not_whole``) when a step leaves the whole numbers >= 0."""
    items = list(numbers)
    done: list[Step] = []
    for (a, b), op in zip(steps, ops, strict=True):
        left, right = items[a], items[b]
        result = int(evaluate(left, op, right))
        items.append(result)
        done.append(Step(left, op, right, result))
    return done


def text(steps: Sequence[Step]) -> str:
    """A calculation as a child reads it, one step after the other: "3 × 3 = 9, 9 − 1 = 8"."""
    return ", ".join(f"{s.left} {SYMBOL_OF[s.op]} {s.right} = {s.result}" for s in steps)


def _undo(target: int, op: str, last: int) -> int | None:
    """What the running result must be so that ``result op last`` makes ``target``."""
    if op == "+":
        return target - last if target >= last else None
    if op == "-":
        return target + last
    if op == "*":
        return target // last if last and target % last == 0 else None
    return target * last if last else None


def _solve_chain(numbers: tuple[int, ...], target: int,
                 ops: str) -> tuple[list[int], list[str]] | None:
    if len(numbers) == 1:
        return ([numbers[0]], []) if numbers[0] == target else None
    for last, op, rest, needed in _last_steps(numbers, target, ops):
        found = _solve_chain(rest, needed, ops)
        assert found is not None
        return found[0] + [last], found[1] + [op]
    return None


def solve(numbers: Iterable[int], target: int, brackets: bool = False,
          operations: str = ALL_OPERATIONS,
          ) -> tuple[list[int], list[str], list[list[int]]] | None:
    """One calculation with all ``numbers`` making ``target``: the numbers in
    the order they are laid, the operations, and the steps as pairs of
    positions (:func:`run_steps`); None when there is none."""
    key = _key(numbers)
    ops = normalise_operations(operations)
    if len(key) < 2:
        return None
    if not brackets:
        found = _solve_chain(key, target, ops)
        if found is None:
            return None
        return found[0], found[1], chain(len(key))
    calculation = explain(key, target, ops)
    if calculation is None:
        return None
    # Lay the cards in the order the steps first use them.
    order: list[int] = []
    positions: list[tuple[int, int]] = []  # (value, position) still available
    pool = list(key)
    laid_steps: list[tuple[object, str, object]] = []
    for step in calculation.steps:
        sides = []
        for value in (step.left, step.right):
            for index in range(len(positions) - 1, -1, -1):
                if positions[index][0] == value:
                    sides.append(("made", positions.pop(index)[1]))
                    break
            else:
                pool.remove(int(value))
                order.append(int(value))
                sides.append(("card", len(order) - 1))
        laid_steps.append((sides[0], step.op, sides[1]))
        positions.append((int(step.result), -len(laid_steps)))
    k = len(order)

    def position(side: tuple[str, int]) -> int:
        kind, index = side
        return index if kind == "card" else k + (-index - 1)

    steps = [[position(a), position(b)] for a, _, b in laid_steps]  # type: ignore[arg-type]
    return order, [op for _, op, _ in laid_steps], steps


def clear_caches() -> None:
    for cached in (_chain_reaches, _tree_reaches, _splits):
        cached.cache_clear()
