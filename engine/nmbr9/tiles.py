"""The ten NMBR 9 tiles (RULES.md 2.2) and their rotations.

Cells are (x, y) with x to the right and y downwards, the digit upright.
Rotation ``r`` is ``r`` quarter turns clockwise; tiles are never flipped, so
chirality matters. A rotated shape is moved back so that its smallest x and
smallest y are 0: a placement's (x, y) is the top-left of that box.
"""

from __future__ import annotations

Cell = tuple[int, int]

DIGITS: tuple[int, ...] = tuple(range(10))

SHAPES: dict[int, frozenset[Cell]] = {
    0: frozenset({(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2), (0, 3), (1, 3),
                  (2, 3)}),
    1: frozenset({(0, 0), (1, 0), (1, 1), (1, 2), (1, 3)}),
    2: frozenset({(1, 0), (2, 0), (1, 1), (2, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)}),
    3: frozenset({(0, 0), (1, 0), (2, 0), (2, 1), (1, 2), (2, 2), (0, 3), (1, 3), (2, 3)}),
    4: frozenset({(1, 0), (2, 0), (1, 1), (0, 2), (1, 2), (2, 2), (1, 3), (2, 3)}),
    5: frozenset({(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (2, 2), (0, 3), (1, 3),
                  (2, 3)}),
    6: frozenset({(0, 0), (1, 0), (0, 1), (0, 2), (1, 2), (2, 2), (0, 3), (1, 3), (2, 3)}),
    7: frozenset({(0, 0), (1, 0), (2, 0), (1, 1), (0, 2), (1, 2), (0, 3)}),
    8: frozenset({(1, 0), (2, 0), (1, 1), (2, 1), (0, 2), (1, 2), (0, 3), (1, 3)}),
    9: frozenset({(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (0, 3),
                  (1, 3)}),
}

ROTATIONS: tuple[int, ...] = (0, 1, 2, 3)


def normalise(cells: frozenset[Cell] | set[Cell]) -> frozenset[Cell]:
    """Move a shape so that its smallest x and smallest y are 0."""
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return frozenset((x - min_x, y - min_y) for x, y in cells)


def rotate_quarter(cells: frozenset[Cell]) -> frozenset[Cell]:
    """A quarter turn clockwise in the y-down frame: (x, y) -> (-y, x)."""
    return normalise({(-y, x) for x, y in cells})


def _all_rotations() -> dict[int, tuple[frozenset[Cell], ...]]:
    table = {}
    for digit, shape in SHAPES.items():
        turns = [normalise(shape)]
        for _ in range(3):
            turns.append(rotate_quarter(turns[-1]))
        table[digit] = tuple(turns)
    return table


ROTATED: dict[int, tuple[frozenset[Cell], ...]] = _all_rotations()


def _distinct() -> dict[int, tuple[int, ...]]:
    # Two rotations giving the same cells are the same placement: 0 and 8 look
    # the same after half a turn. Keep the lowest rotation number of each look.
    table = {}
    for digit, turns in ROTATED.items():
        seen: list[frozenset[Cell]] = []
        keep = []
        for r, cells in enumerate(turns):
            if cells not in seen:
                seen.append(cells)
                keep.append(r)
        table[digit] = tuple(keep)
    return table


DISTINCT_ROTATIONS: dict[int, tuple[int, ...]] = _distinct()


def shape(digit: int, rotation: int = 0) -> frozenset[Cell]:
    """The cells of a tile turned ``rotation`` quarter turns, top-left at (0, 0)."""
    return ROTATED[digit][rotation % 4]


def size(digit: int, rotation: int = 0) -> tuple[int, int]:
    """(width, height) of the tile's box once turned."""
    cells = shape(digit, rotation)
    return max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1


def tile_cells(digit: int, rotation: int, x: int, y: int) -> frozenset[Cell]:
    """The board cells covered by a tile whose box's top-left is at (x, y)."""
    return frozenset((x + dx, y + dy) for dx, dy in shape(digit, rotation))
