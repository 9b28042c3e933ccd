"""The presenter contract and the defaults most games share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import QueryDict
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from engine.core import IllegalMove
from engine.registry import get_game
from games import live

MAX_FIELD = 40  # no move field needs more; a huge paste is cut before it reaches the engine


def drawn_once(table, kind: str, draw: Callable[[], str], *, shared: bool = True) -> str:
    """A board's SVG. Every tablet at a table sees the same board until the next
    move, so a shared board is drawn once per table version and language; a
    board whose squares are buttons (they carry one tap's id) is drawn for its
    pupil alone (``shared=False``). ``draw`` runs only on a cache miss."""
    if not shared:
        return draw()
    key = f"{kind}:{table.pk}:{live.stamp(table)}:{get_language()}"
    html = cache.get(key)
    if html is not None:
        return mark_safe(html)  # our own rendered template, read back from the cache
    html = draw()
    cache.set(key, html, 60)
    return html


class Presenter:
    """Subclass per game. ``move_fields`` maps a move type to the form fields
    it reads; fields in ``number_fields`` must be whole numbers."""

    slug: str = ""
    title: str = ""
    move_fields: dict[str, tuple[str, ...]] = {}
    number_fields: frozenset[str] = frozenset()
    signed_fields: frozenset[str] = frozenset()

    @property
    def engine(self):
        return get_game(self.slug)

    # ------------------------------------------------------------------ moves

    def read_move(self, post: QueryDict) -> dict[str, Any] | None:
        """The move a form posted, as the engine wants it; None if the type is
        unknown, and ``{"type": ..., "invalid": field}`` for a field that is
        not what it must be (the page says which)."""
        kind = post.get("type", "")
        if kind not in self.move_fields:
            return None
        move: dict[str, Any] = {"type": kind}
        for name in self.move_fields[kind]:
            raw = post.get(name, "").strip()[:MAX_FIELD]
            if name in self.number_fields:
                digits = raw[1:] if name in self.signed_fields and raw.startswith("-") else raw
                # isdigit() alone accepts "²" and other digits int() refuses.
                if not (digits.isascii() and digits.isdigit()):
                    return {"type": kind, "invalid": name}
                move[name] = int(raw)
            else:
                move[name] = raw
        return move

    def invalid_note(self, move: dict[str, Any] | None) -> str:
        """What the pupil reads when ``read_move`` refused the form."""
        from django.utils.translation import gettext as _

        return _("Type a number with the keypad.")

    def check(self, table, state, player: int, move: dict[str, Any]) -> None:
        """A rule of the session beyond the engine's (raise IllegalMove)."""

    # ------------------------------------------------------------------ turns

    def waiting_on(self, state) -> set[int]:
        """The players the game waits on now (for turn-based games, one)."""
        current = getattr(state, "current", None)
        return set() if current is None else {current}

    def current(self, state) -> int | None:
        """The one player whose turn it is, or None in a game everyone plays at once."""
        return getattr(state, "current", None)

    def turn_key(self, state) -> Any:
        """Changes when a new turn starts: the clock of timed turns restarts."""
        return (getattr(state, "current", None), getattr(state, "turn", None))

    def bot_moves(self, state, player: int, level: str, seed: int) -> list[dict[str, Any]]:
        raise NotImplementedError

    def deadline(self, state) -> int | None:
        """Seconds per turn when turns are timed."""
        return None

    def time_limit_minutes(self, state) -> int | None:
        """Minutes after which the server ends the game."""
        return None

    # ------------------------------------------------------------------ evidence

    def opportunities(self, state, events: list[dict[str, Any]]):
        """``(player, roll, could)`` when a turn just offered a choice of
        operations worth recording, else None."""
        return None

    def used_skills(self, state) -> list[str] | None:
        return None

    # ------------------------------------------------------------------ pages

    def event_text(self, event: dict[str, Any], names: dict[int, str]) -> str:
        return ""

    def refusal(self, error: IllegalMove) -> str:
        from games import narration

        return narration.refusal(error)

    def context(self, table, state, view: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
        """The game's part of a table's template context. ``base`` holds what
        every game has (table, session, names, player, pupil, move_id...).

        Must give: ``players`` (index, name, colour, score, current, you,
        winner), ``board_html`` (the board, also shown small on the live view),
        ``your_turn``, ``current_name``, ``log``, ``last_calculation``,
        ``over``, ``stuck_player`` (whose silence the live view watches) and
        ``handover_name`` (shared tablets)."""
        raise NotImplementedError
