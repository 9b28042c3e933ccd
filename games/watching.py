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

In a card game each watcher also holds a hand the others must not see. The
shared page leaves a slot for it (``OWN_SLOT``), and the copy keeps each
watcher's own piece beside the page (``Presenter.watcher_own``): the push
service and the poll fill a tablet's slot with that tablet's piece only, so
the bytes another pupil is sent never hold a hand but their own.
"""

from __future__ import annotations

import json
import re
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.translation import get_language

from classroom import redis_store

from . import live
from .pages.base import MOVE_FIELDS_SLOT, OWN_SLOT, you_class_slot, you_slot

CLASS_SLOTS = re.compile(r"<!--you-class:\d+-->")  # you_class_slot's
YOU_SLOTS = re.compile(r"<!--you:\d+-->")  # you_slot's

TOKEN_SLOT = "watchers-poll-token"
# Where a pupil's own page has the lines about their move: empty for the
# watchers, the mover's lines when their move made them a watcher.
FEEDBACK_SLOT = "<!--mover-feedback-->"
TTL = 60  # s: a copy is only useful until the next move


def key(table_id: int, language: str) -> str:
    """Where the watchers' page of a table in a language is kept (the push
    service reads it with other keys)."""
    # "watchers", not the "watch" of the copies without a hand slot: a process
    # still on that code during a deploy reads none of these (it would send a
    # page without the hand).
    return f"{redis_store.key_prefix()}:watchers:{table_id}:{language}"


class Copy(NamedTuple):
    """A kept page as one watcher takes it: the shared page, their player and
    what fills its ``OWN_SLOT`` for them ('' when the page has none)."""

    html: str
    player: int
    own: str = ""


def store(
    table_id: int,
    stamp: str,
    watchers: dict[int, int],
    html: str,
    tap_id: str = "",
    own: dict[int, str] | None = None,
) -> bool:
    """Keep the watchers' page of this table version; ``watchers`` maps the
    pupils who may take it to their player, ``own`` each watching player to
    the piece only they see. False if the page is not shareable: one holding
    a form (its CSRF token or its tap id ``tap_id``), or whose slot for a
    watcher's own piece has no piece for one of them."""
    pieces = own or {}
    shown = [html, *pieces.values()]
    # A form's fields are one request's: a piece holding one is never kept.
    forms = ("csrfmiddlewaretoken", MOVE_FIELDS_SLOT, *([tap_id] if tap_id else []))
    if any(mark in part for part in shown for mark in forms):
        return False
    if TOKEN_SLOT not in html:
        return False
    if OWN_SLOT in html and any(player not in pieces for player in watchers.values()):
        return False
    said = {"s": stamp, "w": {str(k): v for k, v in watchers.items()}}
    if pieces:
        said["o"] = {str(player): piece for player, piece in pieces.items()}
    header = json.dumps(said)
    raw = f"{header}\n{html}"
    client = live.redis_client()
    if client is not None:
        client.set(key(table_id, get_language()), raw, ex=TTL)
    else:
        cache.set(key(table_id, get_language()), raw, TTL)
    return True


def copy_for(table_id: int, stamp: str, pupil_id: int) -> Copy | None:
    """The watchers' page of version ``stamp`` as this pupil takes it, to be
    made theirs by ``personal``; None when no page is kept, an older one, or
    the pupil is not watching."""
    client = live.redis_client()
    where = key(table_id, get_language())
    return read_copy(client.get(where) if client is not None else cache.get(where), stamp, pupil_id)


def read_copy(raw: bytes | str | None, stamp: str, pupil_id: int) -> Copy | None:
    """``copy_for`` on what was read at ``key``."""
    if raw is None:
        return None
    text = raw.decode() if isinstance(raw, bytes) else raw
    header, _, html = text.partition("\n")
    try:
        found = json.loads(header)
        player = found["w"].get(str(pupil_id))
        kept_stamp = found["s"]
        own = found.get("o", {}).get(str(player))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None  # not a page this code kept: render instead
    if kept_stamp != stamp or not isinstance(player, int):
        return None
    if OWN_SLOT in html and not isinstance(own, str):
        return None
    return Copy(html, player, own or "")


def personal(copy: Copy, token: str, feedback: str = "") -> str:
    """The page made this watcher's (in the active language): their token
    stands in the poll and in the push address, their player is "(you)",
    their own piece (their hand) fills its slot, and ``feedback`` (the lines
    about the move that made them a watcher, if theirs) its own."""
    html = copy.html.replace(TOKEN_SLOT, token).replace(you_slot(copy.player), _you_mark(), 1)
    # The others' marks go as well: the page is then byte for byte the one
    # this pupil's own render draws, whichever way it reached them.
    html = YOU_SLOTS.sub("", html)
    if "<!--you-class:" in html:
        # Inside a class attribute: the others' slots must not stay as text.
        mine = you_class_slot(copy.player)
        html = CLASS_SLOTS.sub(lambda found: " you" if found.group(0) == mine else "", html)
    return html.replace(OWN_SLOT, copy.own, 1).replace(FEEDBACK_SLOT, feedback, 1)


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
