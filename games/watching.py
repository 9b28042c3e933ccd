"""The table as the pupils who are not playing see it, rendered once per move.

At a table of four on their own tablets one pupil plays and three watch. After
each move all three polls find a new version, and the three pages they need
differ in two places only: the poll token in the ``#table`` element and which
player is marked "(you)". So the first watcher's poll renders the page with a
slot for each, keeps it in Redis for a minute, and the other watchers' polls
fill the slots in their copy: no query, no template.

Which pupils may take the copy is stored with it: only those the game calls
watchers now (see ``Presenter.watching``), whose own render is the same page.
A copy holding a form is never shared (it would carry one pupil's CSRF token).
"""

from __future__ import annotations

import json

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.translation import get_language

from classroom import redis_store

from . import live

TOKEN_SLOT = "watchers-poll-token"
TTL = 60  # s: a copy is only useful until the next move


def you_slot(player: int) -> str:
    """Where a watcher's copy marks their own player (a comment in the others')."""
    return f"<!--you:{player}-->"


def key(table_id: int, language: str) -> str:
    """Where the watchers' page of a table in a language is kept (the push
    service reads it with other keys)."""
    return f"{redis_store.key_prefix()}:watch:{table_id}:{language}"


def store(
    table_id: int, stamp: str, watchers: dict[int, int], html: str, tap_id: str = ""
) -> bool:
    """Keep the watchers' page of this table version; ``watchers`` maps the
    pupils who may take it to their player. False if the page is not shareable:
    one holding a form (its CSRF token or its tap id ``tap_id``)."""
    if "csrfmiddlewaretoken" in html or TOKEN_SLOT not in html:
        return False
    if tap_id and tap_id in html:
        return False
    header = json.dumps({"s": stamp, "w": {str(k): v for k, v in watchers.items()}})
    raw = f"{header}\n{html}"
    client = live.redis_client()
    if client is not None:
        client.set(key(table_id, get_language()), raw, ex=TTL)
    else:
        cache.set(key(table_id, get_language()), raw, TTL)
    return True


def copy_for(table_id: int, stamp: str, pupil_id: int) -> tuple[str, int] | None:
    """The watchers' page of version ``stamp`` and this pupil's player, to be
    made theirs by ``personal``; None when no page is kept, an older one, or
    the pupil is not watching."""
    client = live.redis_client()
    where = key(table_id, get_language())
    return read_copy(client.get(where) if client is not None else cache.get(where), stamp, pupil_id)


def read_copy(raw: bytes | str | None, stamp: str, pupil_id: int) -> tuple[str, int] | None:
    """``copy_for`` on what was read at ``key``."""
    if raw is None:
        return None
    text = raw.decode() if isinstance(raw, bytes) else raw
    header, _, html = text.partition("\n")
    try:
        found = json.loads(header)
        player = found["w"].get(str(pupil_id))
        kept_stamp = found["s"]
    except (ValueError, KeyError, TypeError, AttributeError):
        return None  # not a page this code kept: render instead
    if kept_stamp != stamp or not isinstance(player, int):
        return None
    return html, player


def personal(html: str, player: int, token: str) -> str:
    """The page made this watcher's (in the active language): their token
    stands in the poll and in the push address, and their player is "(you)"."""
    return html.replace(TOKEN_SLOT, token).replace(you_slot(player), _you_mark(), 1)


def forget(table_id: int) -> None:
    """Seats changed without a move: no copy of the old page may be served."""
    keys = [key(table_id, code) for code, _name in settings.LANGUAGES]
    client = live.redis_client()
    if client is not None:
        client.delete(*keys)
    else:
        cache.delete_many(keys)


_marks: dict[str, str] = {}


def _you_mark() -> str:
    language = get_language()
    if language not in _marks:
        _marks[language] = render_to_string("games/_you.html")
    return _marks[language]
