"""The teacher's live view polls every 2 s: what its poll carries, and what it
reads to answer "nothing new" with no database query.

Each answer that draws the view hands the page a signed token (``v`` in the
poll's URL), which says what the page now shows: per table its stamp
(games.live) and the moment its pupil counts as silent. The next poll then
compares that with the tables' stamps in Redis and the clock: all the same,
the answer is 204 without reading the teacher, the session or the tables.
When a stamp is missing (none of the table's tablets polled for a while) the
tables' rows are read, one query; when something moved, only the cards that
changed are drawn and sent.

The token stands for the teacher's sign-in only so far:
- it is bound to the browser's session cookie (a token copied out of a log
  is worth nothing elsewhere) and to the teacher and the session;
- it ends when that teacher signs out or their account changes (password,
  deactivation): ``teacher_out`` leaves the moment in the cache, and tokens
  of a sign-in before it fall back to the signed-in path, which checks the
  session row as every page does;
- a chain of tokens lasts ``SIGNED_IN_FOR`` after the last request that
  checked the sign-in, then one request checks it again.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils.crypto import salted_hmac

from classroom import redis_store

from . import live, poll_tokens
from .signed import SignedTokens

SALT = "numbo.live.view"
SIGNED_IN_FOR = 15 * 60  # s: how long a token chain trusts the sign-in it started from
MAX_AGE = SIGNED_IN_FOR + 60
TABLES_TTL = 24 * 60 * 60

# The page sends the same token every 2 s until something moves.
TOKENS = SignedTokens(SALT, MAX_AGE, verified_for=120.0, kept=5_000)


# --------------------------------------------------------------------------- keys


def _prefix() -> str:
    return redis_store.key_prefix()


def _out_key(teacher_id: int) -> str:
    # One mark ends the teacher's table tokens and live view tokens alike.
    return poll_tokens.teacher_out_key(teacher_id)


def _tables_key(session_id: int) -> str:
    return f"{_prefix()}:live-view:tables:{session_id}"


def browser_of(request) -> str:
    """A short fingerprint of the browser's session cookie (never the cookie
    itself: the token travels in URLs, which logs keep)."""
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    return salted_hmac(SALT, key).hexdigest()[:20] if key else ""


# --------------------------------------------------------------------------- the token


def mint(
    request,
    *,
    session_id: int,
    teacher_id: int,
    signed_in_at: float,
    language: str,
    tables_seen: int,
    shown: Iterable[tuple[int, str, int]],
    now: float,
) -> str:
    """``shown``: (table id, stamp, second from which it counts as silent),
    in table order, as the answer draws them at ``now``."""
    data = {
        "s": session_id,
        "k": teacher_id,
        "b": browser_of(request),
        "a": round(signed_in_at, 3),
        "l": language,
        "g": tables_seen,
        "n": int(now),
        "t": [list(row) for row in shown],
    }
    return TOKENS.dumps(data, compress=True)


def read(request, token: str, session_id: int, fresh: bool = True) -> dict[str, Any] | None:
    """What the token says, or None when it is forged, old, for another
    session or browser or (``fresh``) of a sign-in that has gone stale."""
    if not token:
        return None
    data = TOKENS.load(token)
    if data is None or not isinstance(data.get("t"), list):
        return None
    if data.get("s") != session_id or data.get("b") != browser_of(request):
        return None
    if fresh and time.time() - data.get("a", 0) > SIGNED_IN_FOR:
        return None
    return data


def shown_stamps(data: dict[str, Any]) -> dict[int, tuple[str, int]]:
    """Table id -> (stamp, silent from) as the page shows it."""
    return {row[0]: (row[1], row[2]) for row in data["t"]}


def silent(silent_from: int, now: float) -> bool:
    return now > silent_from


# --------------------------------------------------------------------------- what the poll reads


def peek(data: dict[str, Any]) -> tuple[float | None, int, dict[int, live.Token | None]]:
    """In one round trip: when the teacher last signed out (or None), how many
    tables the session has had added (see ``table_added``) and each shown
    table's live token (stamp, when the server moves next)."""
    ids = [row[0] for row in data["t"]]
    client = live.redis_client()
    keys = [_out_key(data["k"]), _tables_key(data["s"])]
    if client is not None:
        raws = client.mget(keys + [live.key(pk) for pk in ids])
        out = float(raws[0]) if raws[0] is not None else None
        added = int(raws[1]) if raws[1] is not None else 0
        tokens = {pk: live.decode(raw) for pk, raw in zip(ids, raws[2:], strict=True)}
        return out, added, tokens
    found = cache.get_many(keys)
    return found.get(keys[0]), found.get(keys[1], 0), live.read_many(ids)


def tables_added(session_id: int) -> int:
    client = live.redis_client()
    if client is not None:
        raw = client.get(_tables_key(session_id))
        return int(raw) if raw is not None else 0
    return cache.get(_tables_key(session_id), 0)


def signed_out_since(data: dict[str, Any], out: float | None) -> bool:
    return out is not None and out >= data.get("a", 0)


# --------------------------------------------------------------------------- signal receivers


def teacher_out(teacher_id: int) -> None:
    """The teacher's tokens minted before now end (a sign-out, an account change)."""
    poll_tokens.teacher_out(teacher_id)


def on_logged_out(sender=None, request=None, user=None, **kwargs) -> None:
    if user is not None and user.pk is not None:
        teacher_out(user.pk)


def on_teachers_left_class(sender=None, teacher_ids=(), **kwargs) -> None:
    for teacher_id in teacher_ids:
        teacher_out(teacher_id)
        transaction.on_commit(lambda teacher_id=teacher_id: teacher_out(teacher_id))


def on_teacher_saved(sender=None, instance=None, created=False, update_fields=None, **kwargs):
    # A sign-in only writes last_login: that one does not end the tokens.
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    teacher_out(instance.pk)
    transaction.on_commit(lambda: teacher_out(instance.pk))


def on_table_saved(sender=None, instance=None, created=False, **kwargs) -> None:
    """A table added to a session (a late pupil seated): the pages showing it
    must read its tables again. A counter, not a deletion, so that a page
    that read the tables just before the new one came cannot hide it."""
    if not created:
        return
    session_id = instance.session_id

    def count() -> None:
        client = live.redis_client()
        if client is not None:
            with client.pipeline(transaction=False) as pipe:
                pipe.incr(_tables_key(session_id))
                pipe.expire(_tables_key(session_id), TABLES_TTL)
                pipe.execute()
        else:
            cache.add(_tables_key(session_id), 0, TABLES_TTL)
            try:
                cache.incr(_tables_key(session_id))
            except ValueError:
                cache.set(_tables_key(session_id), 1, TABLES_TTL)

    transaction.on_commit(count)
