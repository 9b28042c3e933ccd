"""The games on the pages: one package per game, and the one list of them.

A page package (``games/pages/<slug>/``) holds what a game needs beyond its
engine: the presenter (template context, form reading, bots, evidence), its
drawing (SVG geometry), its part of the start form (``options.py``), its
templates (``templates/games/<slug>/``) and, when it has pages of its own,
``urls.py``. Adding a game is an engine package, a page package and one line
in ``PAGES``.
"""

from __future__ import annotations

from engine.core import Game

from . import nambarz, nmbr9, numberquest, numx, ultimes
from .base import Presenter

PAGES: dict[str, Presenter] = {
    page.slug: page
    for page in (
        numberquest.PAGE,
        ultimes.PAGE,
        nmbr9.PAGE,
        nambarz.PAGE,
        numx.PAGE,
    )
}


def engine_of(slug: str) -> Game:
    """The engine of the game ``slug``; KeyError for an unknown one."""
    return PAGES[slug].engine


def presenter(slug: str) -> Presenter:
    """The presenter of the game ``slug``; KeyError for an unknown one."""
    return PAGES[slug]


__all__ = ["PAGES", "Presenter", "engine_of", "presenter"]
