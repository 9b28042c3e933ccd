"""What a signed-in pupil can play now, for their home page.

Games are the floor above classroom: classroom never imports them. The games
app hands its list in when Django starts (games.apps), as apps register their
models with the admin; before that, or without games, the list is empty.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# pupil -> [(table, the game's name)], newest session first
PlayList = Callable[[Any], list[tuple[Any, str]]]

_source: PlayList | None = None


def provide(source: PlayList) -> None:
    global _source
    _source = source


def for_pupil(pupil) -> list[tuple[Any, str]]:
    return _source(pupil) if _source else []
