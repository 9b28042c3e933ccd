"""The Number Quest diamond as SVG geometry: one hexagon per square.

The engine gives each square's centre on a unit lattice; here it becomes
pixels. A square to tap takes in the white edge it shares with its
neighbours (``hit``): on a 768 px tablet, where the board is 460 px wide, that
makes it 44 px across, a full touch target, while the gaps between the
coloured hexagons still show.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from games.pages.base import PLAYER_COLOURS

HEX = 46.0  # distance between neighbouring centres, in px
RADIUS = HEX / math.sqrt(3)  # pointy-top hexagon touching its neighbours
MARGIN = 4.0  # room for a thick outline at the edge; more shrinks every square

BAND_COLOURS = {
    "orange": "#f6a04d",
    "turquoise": "#58c7cf",
    "yellow": "#f5d94e",
    "blue": "#5b8de0",
    "green": "#62bd6e",
    "violet": "#ab85db",
    "red": "#e4646a",
}

# Each colour of the board has its own pattern too (``_patterns.html`` draws
# them): under protanopia orange and green, blue and violet, red and the dark
# look alike, and in grey nothing but the pattern tells the bands apart. The
# legend under the board shows each pattern with what its squares pay.
BAND_PATTERNS = {
    "orange": "dots",
    "turquoise": "lines",
    "yellow": "slant",
    "blue": "upright",
    "green": "checks",
    "violet": "cross",
    "red": "zigzag",
}
# What ``_patterns.html`` defines: each colour, filled with its pattern.
PATTERN_DEFS = tuple((colour, fill, BAND_PATTERNS[colour]) for colour, fill in BAND_COLOURS.items())


@functools.lru_cache(maxsize=4096)  # the same lattice on every board: compute each hexagon once
def _corners(cx: float, cy: float, radius: float) -> str:
    points = []
    for k in range(6):
        angle = math.radians(60 * k - 90)
        points.append(f"{cx + radius * math.cos(angle):.1f},{cy + radius * math.sin(angle):.1f}")
    return " ".join(points)


def diamond(
    view: dict[str, Any], tappable: int | None = None, chain: set[int] = (), offers: bool = False
) -> dict:
    """Everything the board template draws; `tappable` squares become buttons.
    With `offers`, the page's script may make a free square a button
    (numberquest.js): each has its full-size ``hit`` ready."""
    squares = view["board"]["squares"]
    min_x = min(s["x"] for s in squares)
    width = (max(s["x"] for s in squares) - min_x) * HEX + 2 * (RADIUS + MARGIN)
    height = max(s["y"] for s in squares) * HEX + 2 * (RADIUS + MARGIN)
    cells = []
    for s in squares:
        cx = (s["x"] - min_x) * HEX + RADIUS + MARGIN
        cy = s["y"] * HEX + RADIUS + MARGIN
        owner = s["owner"]
        free = s["on_board"] and owner is None
        tap = tappable is not None and free
        cells.append(
            {
                "square": s["square"],
                "cx": round(cx, 1),
                "cy": round(cy, 1),
                "points": _corners(cx, cy, RADIUS - 1),
                "inner": _corners(cx, cy, RADIUS * 0.62),
                "fill": BAND_COLOURS[s["colour"]],
                "colour": s["colour"],
                "pays": s["pays"],
                "prime": s["prime"],
                "on_board": s["on_board"],
                "owner": owner,
                "token": PLAYER_COLOURS[owner % 4] if owner is not None else None,
                "tap": tap,
                "hit": _corners(cx, cy, RADIUS) if free and (tap or offers) else "",
                "chain": s["square"] in chain,
            }
        )
    return {
        "width": round(width, 1),
        "height": round(height, 1),
        "cells": cells,
        "token_radius": round(RADIUS * 0.55, 1),
        "patterns": PATTERN_DEFS,
    }


def bands(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The colours of the squares in play, top to bottom, each with its
    pattern and what it pays: the board's legend."""
    seen: dict[str, dict[str, Any]] = {}
    for s in view["board"]["squares"]:
        if s["on_board"] and s["colour"] not in seen:
            seen[s["colour"]] = {
                "colour": s["colour"],
                "fill": BAND_COLOURS[s["colour"]],
                "pattern": BAND_PATTERNS[s["colour"]],
                "pays": s["pays"],
            }
    return sorted(seen.values(), key=lambda band: band["pays"])


def winning_chain(view: dict[str, Any]) -> set[int]:
    """The covered squares on a shortest covered path between the board's ends."""
    board = view["board"]
    lo, hi = board["lo"], board["hi"]
    covered = {s["square"] for s in board["squares"] if s["owner"] is not None}
    if lo not in covered or hi not in covered:
        return set()
    from engine.numberquest.board import neighbours

    previous: dict[int, int | None] = {lo: None}
    queue = [lo]
    for square in queue:
        if square == hi:
            break
        for nxt in neighbours(square):
            if nxt in covered and lo <= nxt <= hi and nxt not in previous:
                previous[nxt] = square
                queue.append(nxt)
    if hi not in previous:
        return set()
    path, square = set(), hi
    while square is not None:
        path.add(square)
        square = previous[square]
    return path
