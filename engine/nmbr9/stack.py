"""A player's NMBR 9 stack: placement rules (RULES.md 2.4) and scoring (2.5).

The board is a square grid of ``BOARD_SIZE`` x ``BOARD_SIZE`` cells (20 by
default). A set of 20 tiles covers 170 cells over all levels, so level 0 rarely
needs more than ~100: 400 cells leave room to sprawl and still fit a tablet
screen. Upper levels lie on level 0, so they stay on the board by themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from engine.core import IllegalMove
from engine.nmbr9.tiles import DISTINCT_ROTATIONS, Cell, shape, size, tile_cells

BOARD_SIZE = 20
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


class Placement(NamedTuple):
    rotation: int
    x: int
    y: int
    level: int

    def to_move(self) -> dict[str, Any]:
        return {"type": "place", "rotation": self.rotation, "x": self.x, "y": self.y,
                "level": self.level}


@dataclass(frozen=True)
class Tile:
    digit: int
    rotation: int
    x: int
    y: int
    level: int

    @property
    def cells(self) -> frozenset[Cell]:
        return tile_cells(self.digit, self.rotation, self.x, self.y)

    @property
    def points(self) -> int:
        return self.digit * self.level

    def to_json(self, with_cells: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {"digit": self.digit, "rotation": self.rotation, "x": self.x,
                                "y": self.y, "level": self.level}
        if with_cells:
            data["cells"] = [list(c) for c in sorted(self.cells)]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tile:
        return cls(data["digit"], data["rotation"], data["x"], data["y"], data["level"])


@dataclass(frozen=True)
class Stack:
    """The tiles in the order they were placed. Equality ignores the caches."""

    tiles: tuple[Tile, ...] = ()
    board: int = BOARD_SIZE

    @cached_property
    def levels(self) -> tuple[dict[Cell, int], ...]:
        """Per level, which tile (index in ``tiles``) covers each cell."""
        top = max((t.level for t in self.tiles), default=-1)
        grids: list[dict[Cell, int]] = [{} for _ in range(top + 1)]
        for index, tile in enumerate(self.tiles):
            for cell in tile.cells:
                grids[tile.level][cell] = index
        return tuple(grids)

    @property
    def top(self) -> int:
        """The highest level with a tile, -1 for an empty stack."""
        return len(self.levels) - 1

    def place(self, digit: int, rotation: int, x: int, y: int, level: int) -> Stack:
        check_placement(self, digit, rotation, x, y, level)
        return Stack(self.tiles + (Tile(digit, rotation, x, y, level),), self.board)

    def to_json(self) -> dict[str, Any]:
        return {"tiles": [t.to_json(with_cells=False) for t in self.tiles], "board": self.board}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Stack:
        return cls(tuple(Tile.from_json(t) for t in data["tiles"]), data["board"])


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_placement(stack: Stack, digit: int, rotation: int, x: int, y: int,
                    level: int) -> frozenset[Cell]:
    """The cells the tile would cover, or :class:`IllegalMove` saying why not.

    Codes: ``malformed`` (field), ``off_board`` (cells), ``too_high`` (level,
    max_level), ``overlap`` (cells), ``overhang`` (cells), ``one_tile_below``
    (tiles), ``not_touching`` (level).
    """
    for name, value, lo, hi in (("digit", digit, 0, 9), ("rotation", rotation, 0, 3),
                                ("x", x, -99, 99), ("y", y, -99, 99), ("level", level, 0, 99)):
        if not _is_int(value) or not lo <= value <= hi:
            raise IllegalMove("That move makes no sense.", "malformed", field=name,
                              min=lo, max=hi)
    cells = tile_cells(digit, rotation, x, y)
    outside = sorted(c for c in cells if not (0 <= c[0] < stack.board and 0 <= c[1] < stack.board))
    if outside:
        raise IllegalMove("The tile must stay on the board.", "off_board",
                          cells=[list(c) for c in outside])
    grids = stack.levels
    if level > len(grids) or (level == len(grids) and level > 0 and not grids[level - 1]):
        raise IllegalMove("There are no tiles under that level yet.", "too_high",
                          level=level, max_level=len(grids))
    here = grids[level] if level < len(grids) else {}
    taken = sorted(cells & here.keys())
    if taken:
        raise IllegalMove("Another tile is already there.", "overlap",
                          cells=[list(c) for c in taken])
    if level > 0:
        below = grids[level - 1]
        hanging = sorted(cells - below.keys())
        if hanging:
            raise IllegalMove("Every part of the tile must lie on a tile below.", "overhang",
                              cells=[list(c) for c in hanging])
        under = sorted({below[c] for c in cells})
        if len(under) < 2:
            raise IllegalMove("The tile must lie on at least two tiles.", "one_tile_below",
                              tiles=under)
    if here and not any((cx + dx, cy + dy) in here for cx, cy in cells
                        for dx, dy in NEIGHBOURS):
        raise IllegalMove("The tile must touch a tile of its level along a side.",
                          "not_touching", level=level)
    return cells


def legal_placements(stack: Stack, digit: int) -> list[Placement]:
    """Every legal placement of ``digit``; one rotation per distinct look (so
    0 and 8 only offer rotations 0 and 1), by level, rotation, x and y.

    Only the places a tile can reach are tried: on level 0 those where it
    covers a cell beside the tiles there, above those where it lies on the
    level below. Trying every position near the stack took about 10 ms on a
    20-tile stack, and each tablet's page asks at each new card."""
    grids = stack.levels
    board = stack.board
    if not grids:
        return [
            Placement(rotation, x, y, 0)
            for rotation in DISTINCT_ROTATIONS[digit]
            for x in range(board - size(digit, rotation)[0] + 1)
            for y in range(board - size(digit, rotation)[1] + 1)
        ]
    found: list[Placement] = []
    for level in range(len(grids) + 1):
        below = grids[level - 1] if level else {}
        if level and len(set(below.values())) < 2:
            continue  # the level below holds only one tile: nothing can go above it
        here = grids[level] if level < len(grids) else {}
        beside = _beside(here)
        for rotation in DISTINCT_ROTATIONS[digit]:
            turned = shape(digit, rotation)  # its cells, from its box's top-left corner
            width, height = size(digit, rotation)
            if level == 0:
                # The stack is not empty, so level 0 has tiles: a new one touches them.
                origins = _reaching(beside, turned) - _reaching(here, turned)
            else:
                # On the level below: every cell of the tile on one of its tiles.
                origins = set.intersection(
                    *({(bx - dx, by - dy) for bx, by in below} for dx, dy in turned)
                )
                if here:
                    origins = (origins & _reaching(beside, turned)) - _reaching(here, turned)
            for x, y in origins:
                if not (0 <= x <= board - width and 0 <= y <= board - height):
                    continue
                if level and len({below[x + dx, y + dy] for dx, dy in turned}) < 2:
                    continue  # the cells beneath belong to one tile only (rule 2.4)
                found.append(Placement(rotation, x, y, level))
    found.sort(key=lambda p: (p.level, p.rotation, p.x, p.y))
    return found


def _reaching(cells, turned: frozenset[Cell]) -> set[Cell]:
    """The top-left corners from which a cell of the turned tile lands on one of these."""
    return {(cx - dx, cy - dy) for cx, cy in cells for dx, dy in turned}


def _beside(cells: dict[Cell, int]) -> set[Cell]:
    """The cells that share a side with these and are not among them."""
    return {(x + dx, y + dy) for x, y in cells for dx, dy in NEIGHBOURS} - cells.keys()


def score(stack: Stack) -> int:
    """Each tile scores its digit times its level."""
    return sum(t.digit * t.level for t in stack.tiles)


def level_digit_sums(stack: Stack) -> dict[int, int]:
    """For each level >= 1 that holds tiles: the sum of its digits."""
    sums: dict[int, int] = {}
    for tile in stack.tiles:
        if tile.level >= 1:
            sums[tile.level] = sums.get(tile.level, 0) + tile.digit
    return dict(sorted(sums.items()))


def level_scores(stack: Stack) -> dict[int, int]:
    """For each level >= 1: level x sum of its digits (= the sum of its tiles' points)."""
    return {level: level * total for level, total in level_digit_sums(stack).items()}


def stack_problems(stack: Stack) -> list[str]:
    """Everything wrong with a finished stack (empty when it obeys every rule):
    overlap, board, support, two tiles below, and each level 4-connected."""
    problems: list[str] = []
    seen: list[dict[Cell, int]] = []
    for index, tile in enumerate(stack.tiles):
        while len(seen) <= tile.level:
            seen.append({})
        for cell in tile.cells:
            if not (0 <= cell[0] < stack.board and 0 <= cell[1] < stack.board):
                problems.append(f"tile {index} off the board at {cell}")
            if cell in seen[tile.level]:
                problems.append(f"tile {index} overlaps at {cell}")
            seen[tile.level][cell] = index
    for index, tile in enumerate(stack.tiles):
        if tile.level == 0:
            continue
        below = seen[tile.level - 1]
        if not tile.cells <= below.keys():
            problems.append(f"tile {index} overhangs")
        elif len({below[c] for c in tile.cells}) < 2:
            problems.append(f"tile {index} lies on one tile")
    for level, grid in enumerate(seen):
        if not grid:
            problems.append(f"level {level} is empty")
            continue
        start = next(iter(grid))
        reached = {start}
        todo = [start]
        while todo:
            cx, cy = todo.pop()
            for dx, dy in NEIGHBOURS:
                nxt = (cx + dx, cy + dy)
                if nxt in grid and nxt not in reached:
                    reached.add(nxt)
                    todo.append(nxt)
        if len(reached) != len(grid):
            problems.append(f"level {level} is not in one piece")
    return problems
