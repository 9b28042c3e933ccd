"""What tablets poll: each table's version (and when the server must move next)
in the cache, so an unchanged board costs one cache read and no database query."""

from __future__ import annotations

import time

from django.core.cache import cache

# Short, so a publish lost after a commit (a killed process) heals within seconds.
TTL = 30


def _key(table_id: int) -> str:
    return f"table:{table_id}"


def stamp(table) -> str:
    """What a tablet's copy of a table is compared with: its version and whether
    the session is playing, paused or over (a pause must reach every tablet too)."""
    return f"{table.version}{table.session.status[0]}"


def publish(table_id: int, table_stamp: str, due: float | None) -> None:
    cache.set(_key(table_id), (table_stamp, due), TTL)


def bump(table_id: int) -> None:
    """Something beside a move changed (a seat, a pause): make every tablet re-read."""
    cache.delete(_key(table_id))


def read(table_id: int) -> tuple[str, float | None] | None:
    return cache.get(_key(table_id))


def read_many(table_ids: list[int]) -> dict[int, tuple[str, float | None] | None]:
    found = cache.get_many([_key(pk) for pk in table_ids])
    return {pk: found.get(_key(pk)) for pk in table_ids}


def is_due(token: tuple[str, float | None]) -> bool:
    return token[1] is not None and token[1] <= time.time()
