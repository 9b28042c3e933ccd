"""The Number Quest board (RULES.md 1.3, 1.4, Appendix A).

The squares 1..100 fill a diamond of 19 rows holding 1, 2, ..., 10, ..., 1
squares, numbered left to right, row after row; neighbouring rows are offset
by half a square, so every square touches up to six others.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Collection, Iterable
from functools import lru_cache

FIRST, LAST = 1, 100
ROWS = 19
SQUARES = tuple(range(FIRST, LAST + 1))

# (colour, first square, last square, payout), in the seed's order.
COLOUR_BANDS: tuple[tuple[str, int, int, int], ...] = (
    ("orange", 1, 15, 10),
    ("turquoise", 16, 28, 20),
    ("yellow", 29, 45, 50),
    ("blue", 46, 64, 100),
    ("green", 65, 79, 200),
    ("violet", 80, 90, 300),
    ("red", 91, 100, 500),
)
COLOURS: tuple[str, ...] = tuple(band[0] for band in COLOUR_BANDS)
NUBBLE_BONUS = 100
DOUBLE_NUBBLE_BONUS = 200


def row_length(row: int) -> int:
    return row if row <= 10 else 20 - row


def _row_start(row: int) -> int:
    """The square just before the first one of ``row``."""
    return sum(row_length(r) for r in range(1, row))


_POSITION: dict[int, tuple[int, int]] = {}
_NUMBER: dict[tuple[int, int], int] = {}
for _row in range(1, ROWS + 1):
    for _pos in range(1, row_length(_row) + 1):
        _n = _row_start(_row) + _pos
        _POSITION[_n] = (_row, _pos)
        _NUMBER[(_row, _pos)] = _n


def _check(n: int) -> None:
    if not (isinstance(n, int) and FIRST <= n <= LAST):
        raise ValueError(f"{n!r} is not a square of the board (1..100)")


def cell_position(n: int) -> tuple[int, int]:
    """(row, pos) of square ``n``, both counted from 1, rows from the top."""
    _check(n)
    return _POSITION[n]


def square_at(row: int, pos: int) -> int | None:
    return _NUMBER.get((row, pos))


def cell_centre(n: int, size: float = 1.0) -> tuple[float, float]:
    """Centre of square ``n`` for a pointy-top hex SVG layout: ``size`` is the
    distance between neighbouring centres; x = 0 is the middle column, y = 0
    the top row."""
    row, pos = cell_position(n)
    x = (pos - (row_length(row) + 1) / 2) * size
    y = (row - 1) * size * math.sqrt(3) / 2
    return (x, y)


def _compute_neighbours(n: int) -> tuple[int, ...]:
    row, pos = _POSITION[n]
    around = [(row, pos - 1), (row, pos + 1)]
    # Rows grow until row 10 and shrink after it, which flips the offsets.
    above = (pos - 1, pos) if row <= 10 else (pos, pos + 1)
    below = (pos, pos + 1) if row < 10 else (pos - 1, pos)
    around += [(row - 1, p) for p in above] + [(row + 1, p) for p in below]
    return tuple(sorted(_NUMBER[c] for c in around if c in _NUMBER))


_NEIGHBOURS: dict[int, tuple[int, ...]] = {n: _compute_neighbours(n) for n in SQUARES}
_NEIGHBOUR_SETS: dict[int, frozenset[int]] = {n: frozenset(v) for n, v in _NEIGHBOURS.items()}


def neighbours(n: int) -> tuple[int, ...]:
    """The squares touching ``n``, smallest first."""
    _check(n)
    return _NEIGHBOURS[n]


def colour(n: int) -> str:
    _check(n)
    for name, first, last, _ in COLOUR_BANDS:
        if first <= n <= last:
            return name
    raise AssertionError(n)


def payout(n: int) -> int:
    """What covering ``n`` pays before any Nubble bonus."""
    _check(n)
    for _, first, last, amount in COLOUR_BANDS:
        if first <= n <= last:
            return amount
    raise AssertionError(n)


def squares_of_colour(name: str) -> tuple[int, ...]:
    for band, first, last, _ in COLOUR_BANDS:
        if band == name:
            return tuple(range(first, last + 1))
    raise ValueError(f"no colour {name!r}")


@lru_cache(maxsize=256)
def is_prime(n: int) -> bool:
    """Divisible only by 1 and itself (so 1 is not prime)."""
    if n < 2:
        return False
    return all(n % d for d in range(2, math.isqrt(n) + 1))


def triangles(covered: Collection[int], n: int) -> tuple[tuple[int, int], ...]:
    """The pairs (u, v) of covered squares that, with ``n``, make a triangle."""
    around = [u for u in _NEIGHBOURS[n] if u in covered]
    return tuple(
        (u, v) for i, u in enumerate(around) for v in around[i + 1 :] if v in _NEIGHBOUR_SETS[u]
    )


def closes_triangle(covered: Collection[int], n: int) -> bool:
    """True when a token on ``n`` completes a triangle with two covered squares
    (any colours): a Nubble."""
    _check(n)
    return bool(triangles(covered, n))


def bonus(covered: Collection[int], n: int) -> int:
    """The one Nubble bonus a token on ``n`` earns: 200 on a prime
    (Double-Nubble), 100 otherwise, 0 without a triangle."""
    if not closes_triangle(covered, n):
        return 0
    return DOUBLE_NUBBLE_BONUS if is_prime(n) else NUBBLE_BONUS


def chain_connects(
    covered: Collection[int], a: int, b: int, lo: int = FIRST, hi: int = LAST
) -> bool:
    """True when covered squares inside lo..hi link ``a`` to ``b``."""
    inside = {n for n in covered if lo <= n <= hi}
    return _linked(inside, a, b)


def _linked(cells: Collection[int], a: int, b: int) -> bool:
    if a not in cells or b not in cells:
        return False
    seen = {a}
    queue = deque([a])
    while queue:
        here = queue.popleft()
        if here == b:
            return True
        for there in _NEIGHBOURS[here]:
            if there in cells and there not in seen:
                seen.add(there)
                queue.append(there)
    return False


def region_connects(cells: Iterable[int], a: int, b: int) -> bool:
    """True when ``cells`` (covered or not) contain a path from ``a`` to ``b``."""
    return _linked(set(cells), a, b)


def chain_costs(covered: Collection[int], usable: Collection[int], start: int) -> dict[int, int]:
    """For every usable square: how many uncovered squares a chain from
    ``start`` to it still needs, both ends included (0-1 breadth-first search:
    covered squares cost 0, free ones 1)."""
    if start not in usable:
        return {}
    first = 0 if start in covered else 1
    cost = {start: first}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        base = cost[here]
        for there in _NEIGHBOURS[here]:
            if there not in usable:
                continue
            step = 0 if there in covered else 1
            if base + step < cost.get(there, 1 << 30):
                cost[there] = base + step
                if step:
                    queue.append(there)
                else:
                    queue.appendleft(there)
    return cost


def chain_gap(covered: Collection[int], usable: Collection[int], a: int, b: int) -> int | None:
    """The fewest free squares still needed to link ``a`` and ``b`` through
    ``usable`` squares; None when they can never be linked."""
    return chain_costs(covered, usable, a).get(b)
