"""Counting guesses in the cache, so limits hold across web processes.

``take`` counts a guess before it is checked: a limit read first and counted
after the check let 80 guesses sent at once all be checked. Each count is one
atomic step on every cache Numbo runs on: Redis (SET NX + INCR in one MULTI),
the in-memory cache (its add and incr hold its lock) and the file cache, whose
add and incr are a read then a write, so they run under an exclusive lock on a
file beside the cache's files (every process sharing that cache shares it).
"""

from __future__ import annotations

import fcntl
import threading
import time
from contextlib import contextmanager, suppress
from pathlib import Path

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

# Gives a try back only while its count lives: a DECR on an expired key would
# make a key with no expiry.
_GIVE_BACK = """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end
return 0
"""

_in_process = threading.Lock()


def hits(key: str) -> int:
    return _count_of(cache.get(_full(key)))


def take(key: str, window_seconds: int) -> int:
    """Count one guess under ``key`` for a window of ``window_seconds`` from
    the first; returns the count with this one, so that exactly ``limit``
    guesses see a count of ``limit`` or less, however many arrive at once."""
    full = _full(key)
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        stored = backend.make_and_validate_key(full)
        client = backend._cache.get_client(stored, write=True)
        with client.pipeline(transaction=True) as pipe:
            pipe.set(stored, 0, ex=window_seconds, nx=True)
            pipe.incr(stored)
            return int(pipe.execute()[1])
    if isinstance(backend, LocMemCache):
        if backend.add(full, 1, timeout=window_seconds):
            return 1
        try:
            return backend.incr(full)
        except ValueError:  # expired between add and incr: a new window
            return take(key, window_seconds)
    with _file_lock(backend):
        count, until = _entry(backend.get(full))
        now = time.time()
        if until <= now:
            count, until = 0, now + window_seconds
        count += 1
        backend.set(full, (count, until), timeout=max(1, int(until - now) + 1))
        return count


# The older name: wrong class codes are counted after the check (a wrong code
# costs no password hash), and the count is as atomic as take's.
record = take


def give_back(key: str) -> None:
    """Uncount one guess taken with ``take`` (the right password: a teacher
    signing in many times a day must not run into the limit)."""
    full = _full(key)
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        stored = backend.make_and_validate_key(full)
        backend._cache.get_client(stored, write=True).eval(_GIVE_BACK, 1, stored)
        return
    if isinstance(backend, LocMemCache):
        with suppress(ValueError):  # expired: nothing to give back
            backend.decr(full)
        return
    with _file_lock(backend):
        count, until = _entry(backend.get(full))
        now = time.time()
        if until > now and count > 0:
            backend.set(full, (count - 1, until), timeout=max(1, int(until - now) + 1))


def _full(key: str) -> str:
    return f"throttle:{key}"


def _count_of(value) -> int:
    return _entry(value)[0] if isinstance(value, (tuple, list)) else (value or 0)


def _entry(value) -> tuple[int, float]:
    """A file-cache count: (count, until when its window lasts)."""
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return int(value[0]), float(value[1])
    return 0, 0.0


@contextmanager
def _file_lock(backend):
    """One count at a time, between threads and between processes."""
    directory = Path(getattr(backend, "_dir", settings.VAR_DIR))
    directory.mkdir(parents=True, exist_ok=True)
    with _in_process, open(directory / "throttle.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
