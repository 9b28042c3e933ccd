"""The Redis keys of the sign-in rows classroom.pupil_auth keeps per pupil,
and ``forget``, which the models call when those rows change. Apart from
pupil_auth so that the models need not import it (it imports them)."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache
from django.db import transaction

from . import redis_store

# Longer than any record lives (pupil_auth.RECORD_TTL): a counter that expired
# must not come back to a value a live record carries.
COUNTER_TTL = 24 * 60 * 60  # s


def keys(pupil_id: int) -> tuple[str, str]:
    prefix = redis_store.key_prefix()
    return f"{prefix}:pupil-auth:{pupil_id}", f"{prefix}:pupil-auth-counter:{pupil_id}"


def forget(pupil_ids: Iterable[int]) -> None:
    """These pupils' kept rows are no longer to be used, now and once the
    transaction under way commits (a request reading the rows in between keeps
    what it read under the counter of now, which the commit then moves on)."""
    pupil_ids = sorted(set(pupil_ids))
    if not pupil_ids:
        return
    _move_counters(pupil_ids)
    transaction.on_commit(lambda: _move_counters(pupil_ids))


def _move_counters(pupil_ids: list[int]) -> None:
    client = redis_store.redis_client()
    if client is not None:
        with client.pipeline(transaction=False) as pipe:
            for pupil_id in pupil_ids:
                _record_key, counter_key = keys(pupil_id)
                pipe.incr(counter_key)
                pipe.expire(counter_key, COUNTER_TTL)
            pipe.execute()
        return
    for pupil_id in pupil_ids:
        _record_key, counter_key = keys(pupil_id)
        try:
            cache.incr(counter_key)
        except ValueError:
            cache.set(counter_key, 1, COUNTER_TTL)
