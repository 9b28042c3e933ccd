"""A greedy NMBR 9 bot: good enough for "the computer scored 74", and fast.

Each legal placement gets a value and the best one wins (ties broken by the
seed). The value prefers, in this order of weight: points now (digit x level),
height (a tile up high is a floor for the next ones) and sides shared with tiles
of the same level (seams between tiles are where the next level can rest on
two tiles). The weights were tuned on a few decks: about 55 points on average.
A penalty for a sprawling level 0 was tried and only lost points.
"""

from __future__ import annotations

import random

from engine.nmbr9.stack import NEIGHBOURS, Placement, Stack, legal_placements
from engine.nmbr9.tiles import tile_cells

POINTS = 10.0
HEIGHT = 2.0
CONTACT = 1.0


def _value(stack: Stack, digit: int, placement: Placement) -> float:
    cells = tile_cells(digit, placement.rotation, placement.x, placement.y)
    grids = stack.levels
    here = grids[placement.level] if placement.level < len(grids) else {}
    contacts = sum((cx + dx, cy + dy) in here for cx, cy in cells for dx, dy in NEIGHBOURS)
    return POINTS * digit * placement.level + HEIGHT * placement.level + CONTACT * contacts


def bot_place(stack: Stack, digit: int, seed: int = 0) -> Placement | None:
    """The bot's placement for ``digit`` on ``stack``; the first tile goes to
    the middle of the board so the stack can grow in every direction. None
    when the tile fits nowhere on the board (it is set aside)."""
    if not stack.tiles:
        middle = stack.board // 2 - 2
        return Placement(0, middle, middle, 0)
    rng = random.Random(f"{seed}:{len(stack.tiles)}:{digit}")
    options = legal_placements(stack, digit)
    if not options:
        return None
    best = max(_value(stack, digit, p) for p in options)
    return rng.choice([p for p in options if _value(stack, digit, p) == best])


def bot_stack(deck: tuple[int, ...] | list[int], seed: int = 0, board: int | None = None) -> Stack:
    """The bot's whole stack for a deck: what "the computer" scores for this
    game. A tile that fits nowhere is set aside (it is not in the stack)."""
    stack = Stack() if board is None else Stack(board=board)
    for digit in deck:
        p = bot_place(stack, digit, seed)
        if p is None:
            continue
        stack = stack.place(digit, p.rotation, p.x, p.y, p.level)
    return stack
