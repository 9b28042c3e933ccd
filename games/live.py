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
from dataclasses import dataclass

from celery import current_app
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
    return redis_store.key_prefix()


def key(table_id: int) -> str:
    """Where the table's token is kept (a caller may read it with other keys)."""
    return f"{_prefix()}:live:table:{table_id}"


def _encode(token: Token) -> str:
    stamp, due = token
    return f"{stamp}|{'' if due is None else repr(due)}"


def decode(raw: bytes | str | tuple | None) -> Token | None:
    """The token as read at ``key``: Redis's text, or the cache's tuple."""
    if raw is None or isinstance(raw, tuple):
        return raw
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


def session_mark(session) -> str:
    """The part of a table's stamp its session sets (``stamp``): whether it is
    playing, paused or over and, in a whole-class game, the cards turned."""
    mark = session.status[0]
    return f"{mark}c{session.cards_shown}" if session.whole_class else mark


def _mark_key(session_id: int) -> str:
    return f"{_prefix()}:live:session:{session_id}"


MARK_TTL = 7 * 24 * 60 * 60  # s: a session paused for days keeps it

# A table's token, stored only if it is of the session as it now is: a pause or
# a turned card that committed after the rows were read (its own mark written
# since) wins over it. Once the version is published, a stale one would hide
# the change from every tablet until the token expired; so a whole-class move
# deleted its token instead (every pupil's next poll then read the database).
# The mark is written after each session change commits, before its tables'
# tokens are deleted; one missing (a Redis restart) is taken as this one's.
# Nor is a stamp kept over a later one of the same session (a higher version,
# or the same version with more seats): two moves' commits, or a move and a
# late pupil's seat, may publish in the other order than they committed, and
# the earlier stamp would hide the later change from every tablet.
# 3 says the token replaced named the same due moment (Published.due_known).
_PUBLISH = """
local mark = redis.call('GET', KEYS[2])
if not mark then
  redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4])
  mark = ARGV[3]
end
if mark == ARGV[3] then
  local kept = redis.call('GET', KEYS[1])
  if kept then
    local kept_version = tonumber(string.match(kept, '^(%d+)')) or -1
    local version = tonumber(string.match(ARGV[1], '^(%d+)')) or -1
    local kept_seating = tonumber(string.match(kept, '^%d+%as(%d+)') or '0')
    local seating = tonumber(string.match(ARGV[1], '^%d+%as(%d+)') or '0')
    if kept_version > version or (kept_version == version and kept_seating > seating) then
      return 2
    end
  end
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  if ARGV[5] ~= '' then redis.call('PUBLISH', ARGV[5], ARGV[6]) end
  if kept and string.match(kept, '|(.*)$') == string.match(ARGV[1], '|(.*)$') then
    return 3
  end
  return 1
end
redis.call('DEL', KEYS[1])
if ARGV[5] ~= '' then redis.call('PUBLISH', ARGV[5], '') end
return 0
"""
_scripts: dict[int, object] = {}


@dataclass(frozen=True)
class Published:
    """What ``publish`` did: whether the token is kept (the object's truth),
    and whether the token it replaced named the same due moment. A turn's or
    the game's time is the same at each move until the turn changes: the
    move that first set it put the server's move on the schedule."""

    kept: bool
    due_known: bool = False

    def __bool__(self) -> bool:
        return self.kept


def publish(
    table_id: int, table_stamp: str, due: float | None, *, session=None, ring: bool = False
) -> Published:
    """Keep the table's token for the polls (and with ``ring`` tell the
    tablets listening). With ``session`` (the table's, as read with the stamp)
    only if the session has not changed since: one Redis round trip either
    way. Returns whether it was kept, and whether the due was already (Published)."""
    client = redis_client()
    if client is None:
        return Published(_publish_in_cache(table_id, table_stamp, due, session))
    token = _encode((table_stamp, due))
    if session is None:
        if not ring:
            client.set(key(table_id), token, ex=TTL)
            return Published(True)
        with client.pipeline(transaction=False) as pipe:
            pipe.set(key(table_id), token, ex=TTL)
            pipe.publish(channel(table_id), table_stamp)
            pipe.execute()
        return Published(True)
    script = _scripts.get(id(client))
    if script is None:
        script = _scripts[id(client)] = client.register_script(_PUBLISH)
    kept = script(
        keys=[key(table_id), _mark_key(session.pk)],
        args=[token, TTL, session_mark(session), MARK_TTL,
              channel(table_id) if ring else "", table_stamp],
    )
    return Published(kept in (1, 3), due_known=kept == 3)


def _publish_in_cache(table_id: int, table_stamp: str, due: float | None, session) -> bool:
    """``publish`` without Redis (the embedded default, one process or a few
    sharing files): the same comparison, though not atomic. A whole-class
    game's token is not kept: a card turned between the comparison and the
    write would be hidden from the whole class."""
    if session is not None:
        mark = cache.get(_mark_key(session.pk))
        if session.whole_class or (mark is not None and mark != session_mark(session)):
            cache.delete(key(table_id))
            return False
        if mark is None:
            cache.set(_mark_key(session.pk), session_mark(session), MARK_TTL)
    cache.set(key(table_id), (table_stamp, due), TTL)
    return True


def session_changed(session, table_ids: list[int]) -> None:
    """After a pause, an end or a turned card committed: the session's new
    mark, then every tablet of its tables re-reads (one round trip)."""
    client = redis_client()
    if client is None:
        cache.set(_mark_key(session.pk), session_mark(session), MARK_TTL)
        cache.delete_many([key(pk) for pk in table_ids])
        return
    with client.pipeline(transaction=False) as pipe:
        pipe.set(_mark_key(session.pk), session_mark(session), ex=MARK_TTL)
        for pk in table_ids:
            pipe.delete(key(pk))
            pipe.publish(channel(pk), "")
        pipe.execute()


def bump(table_id: int) -> None:
    """The table changed outside a move and its stamp does not say so (its
    state edited by hand or by a test): every tablet re-reads it."""
    client = redis_client()
    if client is not None:
        with client.pipeline(transaction=False) as pipe:
            pipe.delete(key(table_id))
            pipe.publish(channel(table_id), "")
            pipe.execute()
    else:
        cache.delete(key(table_id))


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
        return decode(client.get(key(table_id)))
    return cache.get(key(table_id))


def read_many(table_ids: list[int]) -> dict[int, Token | None]:
    if not table_ids:
        return {}
    client = redis_client()
    if client is not None:
        raws = client.mget([key(pk) for pk in table_ids])
        return {pk: decode(raw) for pk, raw in zip(table_ids, raws, strict=True)}
    found = cache.get_many([key(pk) for pk in table_ids])
    return {pk: found.get(key(pk)) for pk in table_ids}


GAME_TTL = 24 * 60 * 60


def game_key(table_id: int) -> str:
    return f"{_prefix()}:live:game:{table_id}"


def game_of(table_id: int, found: bytes | str | None = None) -> str | None:
    """The game a table plays (None if there is no such table). It never
    changes, so a tap reads it here and not from the database: one query
    less on the path every move takes. ``found``: what a caller already read
    at ``game_key`` (with other keys, in one round trip)."""
    where = game_key(table_id)
    client = redis_client()
    if found is None:
        found = client.get(where) if client is not None else cache.get(where)
    if found is not None:
        return found.decode() if isinstance(found, bytes) else found
    from .models import Table

    game = Table.objects.filter(pk=table_id).values_list("session__game", flat=True).first()
    if game is not None:
        if client is not None:
            client.set(where, game, ex=GAME_TTL)
        else:
            cache.set(where, game, GAME_TTL)
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
