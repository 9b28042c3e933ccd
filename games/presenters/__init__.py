"""One presenter per game: what the Django side needs to know of a game beyond
the engine contract (engine/core.py).

The engine says what is legal; a presenter says how a table of that game looks
(its template context), how a posted form becomes a move, whom the game waits
on (for computer players and "seems stuck" flags), how its computer players are
asked for moves and which opportunities a turn offered. Adding a game to the
pages is one module here and one line in ``PRESENTERS``.
"""

from __future__ import annotations

from games.presenters.base import Presenter
from games.presenters.nmbr9 import PRESENTER as NMBR9
from games.presenters.numberquest import PRESENTER as NUMBER_QUEST
from games.presenters.ultimes import PRESENTER as ULTIMES

PRESENTERS: dict[str, Presenter] = {p.slug: p for p in (NUMBER_QUEST, ULTIMES, NMBR9)}


def presenter(slug: str) -> Presenter:
    return PRESENTERS[slug]


__all__ = ["PRESENTERS", "Presenter", "presenter"]
