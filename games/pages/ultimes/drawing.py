"""The track of ultimate numbers as SVG geometry: squares 0..99 on a snake.

Ten rows of ten squares wind up the picture like a snakes-and-ladders board:
0 sits bottom left, the first row runs left to right, the next one right to
left, and 99 waits top left. A cell is 48 px, so on a 768 px portrait tablet
(the track beside the pupil's controls) every square is a full touch target;
the coloured square drawn inside it is 42 px, and the gaps let the road that
joins the centres show the way the track winds.

Each player's pawn has its own corner of a square (player 1 top left, 2 top
right, 3 bottom left, 4 bottom right), so pawns sharing a square never hide
each other and the square's number in the middle stays readable: a pupil
counts from it.

Pure geometry: nothing here reads the database or a request.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from engine.ultimes import ELEVATED, FINISH, SPECIAL_97, is_ultimate
from games.pages.base import PLAYER_COLOURS

COLUMNS = 10
ROWS = (FINISH + 1) // COLUMNS
CELL = 48.0  # the touch target of one square, in px
SQUARE = 42.0  # the coloured square drawn inside it
MARGIN = 8.0
WIDTH = COLUMNS * CELL + 2 * MARGIN
HEIGHT = ROWS * CELL + 2 * MARGIN
PAWN_RADIUS = 10.0
# From the square's centre to a pawn's centre, along x and y: the pawn sits on
# the square's corner, clear of the number in the middle.
PAWN_OFFSET = 15.0
# Player index -> (x, y) corner of the square: 0 top left, 1 top right, ...
PAWN_SLOTS = ((-1, -1), (1, -1), (-1, 1), (1, 1))

COLOURS = {
    "plain": "#ffffff",
    "ultimate": "#ffd54f",
    "elevated": "#b9d7ff",
    "finish": "#8fd19e",
    "start": "#eef1f6",
}
STROKE = "#9aa3b5"
ROAD = "#e9dcc3"


def cell_origin(square: int) -> tuple[float, float]:
    """Top-left corner of a square's cell: rows go up, every other row runs back."""
    row, step = divmod(square, COLUMNS)
    column = step if row % 2 == 0 else COLUMNS - 1 - step
    return MARGIN + column * CELL, MARGIN + (ROWS - 1 - row) * CELL


def centre(square: int) -> tuple[float, float]:
    x, y = cell_origin(square)
    return x + CELL / 2, y + CELL / 2


def road() -> str:
    """The polyline through every centre, 0 to 99: the winding path itself."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in (centre(s) for s in range(FINISH + 1)))


def star(cx: float, cy: float, outer: float = 7.0, inner: float = 3.0) -> str:
    points = []
    for k in range(10):
        radius = outer if k % 2 == 0 else inner
        angle = math.radians(-90 + 36 * k)
        points.append(f"{cx + radius * math.cos(angle):.1f},{cy + radius * math.sin(angle):.1f}")
    return " ".join(points)


def flag(cx: float, cy: float) -> str:
    """A small finish flag above the middle of 99's square (a triangle on a pole)."""
    return f"M{cx - 5:.1f},{cy - 9:.1f} v-11 l11,4 l-11,4"


def pawn_spot(square: int, player: int) -> tuple[float, float]:
    cx, cy = centre(square)
    dx, dy = PAWN_SLOTS[player % len(PAWN_SLOTS)]
    return round(cx + dx * PAWN_OFFSET, 1), round(cy + dy * PAWN_OFFSET, 1)


def kind_shown(square: int, mark_ultimates: bool, mark_elevated: bool) -> str:
    """What the picture tells about a square: its kind only where the option
    marks it (an unmarked track keeps primes and powers for the pupil to know),
    except 99, the finish, which is always shown."""
    if square == FINISH:
        return "finish"
    if mark_ultimates and is_ultimate(square):
        return "ultimate"
    if mark_elevated and square in ELEVATED:
        return "elevated"
    if square == 0:
        return "start"
    return "plain"


@lru_cache(maxsize=4)
def squares(mark_ultimates: bool, mark_elevated: bool) -> tuple[dict[str, Any], ...]:
    """Squares 0..99 as they look with no pawn on them: the same on every
    track with these marks, so computed once. Read-only: callers copy a
    square before they add a pawn's names to it."""
    cells = []
    for square in range(FINISH + 1):
        x, y = cell_origin(square)
        cx, cy = x + CELL / 2, y + CELL / 2
        inset = (CELL - SQUARE) / 2
        kind = kind_shown(square, mark_ultimates, mark_elevated)
        badge = ""
        if kind == "elevated":
            badge = f"↩{ELEVATED[square]}"
        elif kind == "ultimate" and square == SPECIAL_97:
            badge = "↩0"
        cells.append(
            {
                "square": square,
                "x": round(x + inset, 1),
                "y": round(y + inset, 1),
                "hit_x": round(x, 1),
                "hit_y": round(y, 1),
                "cx": round(cx, 1),
                "cy": round(cy, 1),
                "kind": kind,
                "fill": COLOURS[kind],
                "star": star(cx, cy - 14.5) if kind == "ultimate" else "",
                "flag": flag(cx, cy) if kind == "finish" else "",
                "badge": badge,
                "source": ELEVATED.get(square),
                "badge_y": round(cy - 13, 1) if kind == "elevated" else round(cy + 16.5, 1),
                "pawn_names": [],
                "outline": "",
            }
        )
    return tuple(cells)


def frame() -> dict[str, Any]:
    """The picture's sizes and colours, the same for every track."""
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "cell": CELL,
        "square": SQUARE,
        "road": road(),
        "pawn_radius": PAWN_RADIUS,
        "stroke": STROKE,
        "road_colour": ROAD,
    }


def pawns(view: dict[str, Any], *, names: dict[int, str] | None = None) -> dict[str, Any]:
    """What one engine view lays on the squares: the pawns, the faint copy of
    the one moving, and the squares they stand on (named in the square's
    label, the current player's outlined), by square number.

    While the pupil says where a square sends the pawn (phase ``send``) the
    pawn already stands on the square it reached, with a faint copy where it
    started.
    """
    names = names or {}
    phase = view.get("phase")
    turn = view.get("turn")
    over = phase == "over"
    positions = list(view.get("positions", []))
    start_ghost = None
    if phase == "send" and view.get("reached") is not None and turn is not None:
        start_ghost = positions[turn]
        positions[turn] = view["reached"]

    on_square: dict[int, list[int]] = {}
    for player, square in enumerate(positions):
        on_square.setdefault(square, []).append(player)
    occupied = {
        square: {
            "pawn_names": [names.get(p, str(p + 1)) for p in here],
            "outline": PLAYER_COLOURS[turn % 4]
            if turn is not None and not over and turn in here
            else "",
        }
        for square, here in on_square.items()
    }

    shown = []
    for player, square in enumerate(positions):
        px, py = pawn_spot(square, player)
        shown.append(
            {
                "player": player,
                "label": player + 1,
                "cx": px,
                "cy": py,
                "colour": PLAYER_COLOURS[player % 4],
                "current": player == turn and not over,
                "winner": over and player == view.get("winner"),
            }
        )
    ghost = None
    if start_ghost is not None:
        gx, gy = pawn_spot(start_ghost, turn)
        ghost = {"cx": gx, "cy": gy, "colour": PLAYER_COLOURS[turn % 4], "label": turn + 1}
    return {"pawns": shown, "ghost": ghost, "occupied": occupied}


def power_text(square: int) -> str:
    """``16`` -> ``"2 × 2 × 2 × 2"``: an elevated square written as its product."""
    base = ELEVATED.get(square)
    if base is None:
        return str(square)
    factors, rest = [], square
    while rest > 1:
        factors.append(str(base))
        rest //= base
    return " × ".join(factors)
