"""NMBR 9 (RULES.md section 2): tiles, stack rules and scoring, game, bot."""

from engine.nmbr9.bot import bot_place, bot_stack
from engine.nmbr9.game import GAME, Nmbr9, Nmbr9State, bot_moves, bot_score, deck_for, phase
from engine.nmbr9.stack import (
    BOARD_SIZE,
    Placement,
    Stack,
    Tile,
    check_placement,
    legal_placements,
    level_scores,
    score,
)
from engine.nmbr9.tiles import SHAPES

__all__ = [
    "BOARD_SIZE", "GAME", "SHAPES", "Nmbr9", "Nmbr9State", "Placement", "Stack", "Tile",
    "bot_moves", "bot_place", "bot_score", "bot_stack", "check_placement", "deck_for",
    "legal_placements", "level_scores", "phase", "score",
]
