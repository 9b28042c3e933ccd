"""What tablets learn of a table: its version (and when the server must move
next) in the cache, so an unchanged poll costs one cache read and no database
query; and, with Redis, a ring on the table's channel the moment it changes,
which games.push passes on to the tablets that listen (they then poll at once).

With Redis (REDIS_URL) the tokens are plain strings read through one client per
process: Django's cache builds a new Redis client object and unpickles on every
call, which was a fifth of an unchanged poll's time. Without Redis (the
embedded default) they go through Django's cache.
"""

from __future__ import annotations

import time

from celery import current_app
from django.conf import settings
from django.core.cache import cache

from classroom import redis_store

# Short, so a publish lost after a commit (a killed process) heals within seconds.
TTL = 30

Token = tuple[str, float | None]

def redis_client():
    """The process's Redis client (shared with classroom.pupil_auth: one
    connection pool), or None in the embedded default."""
    return redis_store.redis_client()


def _prefix() -> str:
    return settings.CACHES["default"].get("KEY_PREFIX", "")


def _key(table_id: int) -> str:
    return f"{_prefix()}:live:table:{table_id}"


def _encode(token: Token) -> str:
    stamp, due = token
    return f"{stamp}|{'' if due is None else repr(due)}"


def _decode(raw: bytes | str | None) -> Token | None:
    if raw is None:
        return None
    text = raw.decode() if isinstance(raw, bytes) else raw
    stamp, _, due = text.partition("|")
    return stamp, float(due) if due else None


def stamp(table) -> str:
    """What a tablet's copy of a table is compared with: its version and whether
    the session is playing, paused or over (a pause must reach every tablet too),
    the seating (a pupil seated late appears on every tablet of the table) and,
    in a whole-class game, how many cards the teacher has turned."""
    session = table.session
    base = f"{table.version}{session.status[0]}"
    if table.seating:
        base += f"s{table.seating}"
    return f"{base}c{session.cards_shown}" if session.whole_class else base


def publish(table_id: int, table_stamp: str, due: float | None) -> None:
    client = redis_client()
    if client is not None:
        client.set(_key(table_id), _encode((table_stamp, due)), ex=TTL)
    else:
        cache.set(_key(table_id), (table_stamp, due), TTL)


def bump(table_id: int) -> None:
    """Something beside a move changed (a seat, a pause): make every tablet re-read."""
    client = redis_client()
    if client is not None:
        client.delete(_key(table_id))
        client.publish(channel(table_id), "")
    else:
        cache.delete(_key(table_id))


def _channels() -> str:
    # Redis channels ignore the database number: name it, so that two setups
    # sharing a Redis server (a demo and the tests) never ring each other.
    client = redis_client()
    database = client.connection_pool.connection_kwargs.get("db", 0) if client else 0
    return f"{_prefix()}:{database}:push:table"


def channel(table_id: int) -> str:
    return f"{_channels()}:{table_id}"


def channel_pattern() -> str:
    return f"{_channels()}:*"


def ring(table_id: int, table_stamp: str) -> None:
    """Tell the tablets listening to this table that it is now at this stamp.
    Only the stamp travels: each tablet then reads its own view by polling, so
    a ring carries nothing a pupil may not see. Without Redis, nobody listens."""
    client = redis_client()
    if client is not None:
        client.publish(channel(table_id), table_stamp)


def read(table_id: int) -> Token | None:
    client = redis_client()
    if client is not None:
        return _decode(client.get(_key(table_id)))
    return cache.get(_key(table_id))


def read_many(table_ids: list[int]) -> dict[int, Token | None]:
    if not table_ids:
        return {}
    client = redis_client()
    if client is not None:
        raws = client.mget([_key(pk) for pk in table_ids])
        return {pk: _decode(raw) for pk, raw in zip(table_ids, raws, strict=True)}
    found = cache.get_many([_key(pk) for pk in table_ids])
    return {pk: found.get(_key(pk)) for pk in table_ids}


GAME_TTL = 24 * 60 * 60


def game_of(table_id: int) -> str | None:
    """The game a table plays (None if there is no such table). It never
    changes, so a tap reads it here and not from the database: one query
    less on the path every move takes."""
    key = f"{_prefix()}:live:game:{table_id}"
    client = redis_client()
    found = client.get(key) if client is not None else cache.get(key)
    if found is not None:
        return found.decode() if isinstance(found, bytes) else found
    from .models import Table

    game = Table.objects.filter(pk=table_id).values_list("session__game", flat=True).first()
    if game is not None:
        if client is not None:
            client.set(key, game, ex=GAME_TTL)
        else:
            cache.set(key, game, GAME_TTL)
    return game


# With a worker (tasks not eager) the server's moves are its job, sent for the
# moment they are due (games.services.schedule_server_move): a poll or the
# teacher's view makes one only when the worker is this late (none running, a
# lost message), instead of doing a computer's whole turn in a tablet's request.
WORKER_GRACE = 0.5  # s


def is_due(token: Token) -> bool:
    if token[1] is None:
        return False
    grace = 0.0 if current_app.conf.task_always_eager else WORKER_GRACE
    return token[1] + grace <= time.time()
