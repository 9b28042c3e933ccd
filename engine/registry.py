"""Game slug -> game object. Adding a game is one line in ``GAMES``."""

from __future__ import annotations

from engine import nmbr9, ultimes
from engine.core import Game
from engine.numberquest import GAME as NUMBER_QUEST

GAMES: dict[str, Game] = {
    NUMBER_QUEST.slug: NUMBER_QUEST,
    ultimes.GAME.slug: ultimes.GAME,
    nmbr9.GAME.slug: nmbr9.GAME,
}


def get_game(slug: str) -> Game:
    """The game for ``slug``; KeyError for an unknown one."""
    return GAMES[slug]


def slugs() -> tuple[str, ...]:
    return tuple(GAMES)
