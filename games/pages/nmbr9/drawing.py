"""NMBR 9 stacks as pictures: pure geometry for the SVG templates.

Coordinates are in cells (one grid square = 1 unit), so a template's
``viewBox`` is the board in cells and a tap maps straight back to a cell. A
tile stays on its own grid cells at every level, so what a pupil taps is where
it goes; height shows through colour (each level warmer and darker than the
one below), a shadow that grows with the level, a hatching from level 2 up
(slanted on even levels, crossed on odd ones) and a badge with the level
number on every tile above the table: under deuteranopia the yellow of level 1
and the orange of level 2 look alike, so colour is never the only cue. The
digit is written on each tile.

Everything a picture needs is an attribute of the SVG itself (no stylesheet):
the same pictures appear on the teacher's live view and projector pages.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from engine.nmbr9.stack import Tile
from engine.nmbr9.tiles import Cell, shape

# Level 0 (the table) is pale; every level up is warmer and darker.
LEVEL_FILLS = (
    "#efe6d2",  # 0: cream
    "#ffd45c",  # 1: yellow
    "#ffa23a",  # 2: orange
    "#f0693a",  # 3: red-orange
    "#d1356b",  # 4: raspberry
    "#9d2b8c",  # 5: purple
    "#66308f",  # 6: violet
    "#3c2270",  # 7 and up: deep indigo
)
DARK_INK = "#1d2433"
LIGHT_INK = "#ffffff"
EDGE = "#4a3728"
SHADOW_STEP = 0.07  # cells of shadow per level
SHADOW_MAX = 0.35


def level_fill(level: int) -> str:
    return LEVEL_FILLS[min(max(level, 0), len(LEVEL_FILLS) - 1)]


def level_ink(level: int) -> str:
    """The colour of the writing on a tile of this level (readable on its fill)."""
    return DARK_INK if level <= 3 else LIGHT_INK


def level_hatch(level: int) -> str:
    """The hatching of a level's tiles: none on the table and on level 1,
    slanted on even levels, crossed on odd ones from 3: two levels that touch
    never share one."""
    if level < 2:
        return ""
    return "slant" if level % 2 == 0 else "cross"


def hatch_path(cells: Iterable[Cell], hatch: str) -> str:
    """Lines across every cell, half a cell apart, that join from cell to cell
    into one hatching over the tile."""
    if not hatch:
        return ""
    parts = []
    for x, y in sorted(cells):
        parts.append(f"M{x} {_num(y + .5)}l.5 -.5M{x} {y + 1}l1 -1M{_num(x + .5)} {y + 1}l.5 -.5")
        if hatch == "cross":
            parts.append(f"M{_num(x + .5)} {y}l.5 .5M{x} {y}l1 1M{x} {_num(y + .5)}l.5 .5")
    return "".join(parts)


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def cells_path(cells: Iterable[Cell]) -> str:
    """One closed square per cell: the tile's surface."""
    return "".join(f"M{x} {y}h1v1h-1z" for x, y in sorted(cells))


def outline_path(cells: Iterable[Cell]) -> str:
    """The tile's outline: every cell side that does not touch another of its cells."""
    cells = set(cells)
    parts = []
    for x, y in sorted(cells):
        if (x, y - 1) not in cells:
            parts.append(f"M{x} {y}h1")
        if (x + 1, y) not in cells:
            parts.append(f"M{x + 1} {y}v1")
        if (x, y + 1) not in cells:
            parts.append(f"M{x} {y + 1}h1")
        if (x - 1, y) not in cells:
            parts.append(f"M{x} {y}v1")
    return "".join(parts)


def label_cell(cells: Iterable[Cell]) -> Cell:
    """The cell nearest the tile's middle, where its digit is written."""
    cells = sorted(cells)
    mx = sum(x for x, _ in cells) / len(cells)
    my = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c[1], c[0]))


def badge_cell(cells: Iterable[Cell], label: Cell) -> Cell:
    """A corner cell for the level badge, away from the digit."""
    others = [c for c in cells if c != label] or [label]
    return min(others, key=lambda c: (c[0] + c[1], c[1], c[0]))


def _as_tile(tile: Tile | dict[str, Any]) -> Tile:
    return tile if isinstance(tile, Tile) else Tile.from_json(tile)


def tile_picture(tile: Tile, *, faint: bool = False) -> dict[str, Any]:
    cells = tile.cells
    label = label_cell(cells)
    badge = badge_cell(cells, label)
    shadow = min(SHADOW_STEP * tile.level + 0.05, SHADOW_MAX) if tile.level else 0
    return {
        "digit": tile.digit,
        "level": tile.level,
        "fill": level_fill(tile.level),
        "ink": level_ink(tile.level),
        "edge": EDGE,
        "surface": cells_path(cells),
        "outline": outline_path(cells),
        "hatch": hatch_path(cells, level_hatch(tile.level)),
        "shadow": _num(shadow) if shadow else "",
        "label_x": _num(label[0] + 0.5),
        "label_y": _num(label[1] + 0.5),
        "badge_x": _num(badge[0] + 0.4),
        "badge_y": _num(badge[1] + 0.4),
        "faint": faint,
    }


def stack_picture(
    tiles: Iterable[Tile | dict[str, Any]],
    board: int,
    *,
    crop: bool = False,
    highlight_level: int | None = None,
) -> dict[str, Any]:
    """What ``_stack.html`` draws: the board (or, with ``crop``, just the stack
    and one cell around it), its grid, and the tiles from the table up, each
    level's shadows drawn just before that level's tiles. With
    ``highlight_level`` the other levels fade and that level comes on top (the
    pupil is counting it)."""
    placed = [_as_tile(t) for t in tiles]
    order = sorted(
        range(len(placed)),
        key=lambda i: (placed[i].level == highlight_level, placed[i].level, i),
    )
    pictures = [
        tile_picture(
            placed[i], faint=highlight_level is not None and placed[i].level != highlight_level
        )
        for i in order
    ]
    if crop and placed:
        cells = [c for t in placed for c in t.cells]
        lo_x = max(min(x for x, _ in cells) - 1, 0)
        lo_y = max(min(y for _, y in cells) - 1, 0)
        hi_x = min(max(x for x, _ in cells) + 2, board)
        hi_y = min(max(y for _, y in cells) + 2, board)
        # Square, so every small stack of a page has the same shape.
        side = max(hi_x - lo_x, hi_y - lo_y, 6)
        lo_x = max(min(lo_x - (side - (hi_x - lo_x)) // 2, board - side), 0)
        lo_y = max(min(lo_y - (side - (hi_y - lo_y)) // 2, board - side), 0)
        box = (lo_x, lo_y, min(side, board), min(side, board))
    else:
        box = (0, 0, board, board)
    x0, y0, width, height = box
    grid = "".join(f"M{x} {y0}v{height}" for x in range(x0 + 1, x0 + width)) + "".join(
        f"M{x0} {y}h{width}" for y in range(y0 + 1, y0 + height)
    )
    top = max((t.level for t in placed), default=-1)
    return {
        "board": board,
        "view_box": f"{_num(x0 - 0.15)} {_num(y0 - 0.15)} {_num(width + 0.5)} {_num(height + 0.5)}",
        "x0": x0,
        "y0": y0,
        "width": width,
        "height": height,
        "grid": grid,
        "tiles": pictures,
        "count": len(placed),
        "top_level": top,
        "levels": [
            {
                "level": level,
                "fill": level_fill(level),
                "ink": level_ink(level),
                "hatch": level_hatch(level),
            }
            for level in range(top + 1)
        ],
    }


def card_picture(digit: int, rotation: int = 0) -> dict[str, Any]:
    """A card's tile on its own (the big card, the turn preview)."""
    # Ten digits, four turns: drawn once per process. A copy, for callers may
    # add to it; its strings are the kept ones, whose hashes are known (a
    # {% drawn %} key hashes the paths at every page).
    return dict(_card_picture(digit, rotation))


@lru_cache(maxsize=64)
def _card_picture(digit: int, rotation: int) -> dict[str, Any]:
    cells = shape(digit, rotation)
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    label = label_cell(cells)
    return {
        "digit": digit,
        "rotation": rotation,
        "width": width,
        "height": height,
        # 4 x 4 for every rotation, the tile in the middle: turning does not jump.
        "view_box": f"{_num((width - 4) / 2 - 0.1)} {_num((height - 4) / 2 - 0.1)} 4.2 4.2",
        "surface": cells_path(cells),
        "outline": outline_path(cells),
        "label_x": _num(label[0] + 0.5),
        "label_y": _num(label[1] + 0.5),
        "fill": LEVEL_FILLS[1],
        "ink": DARK_INK,
        "edge": EDGE,
    }
