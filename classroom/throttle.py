"""Counting wrong guesses in the cache, so limits hold across web processes."""

from __future__ import annotations

from django.core.cache import cache


def hits(key: str) -> int:
    return cache.get(f"throttle:{key}", 0)


def record(key: str, window_seconds: int) -> int:
    full = f"throttle:{key}"
    if cache.add(full, 1, timeout=window_seconds):
        return 1
    try:
        return cache.incr(full)
    except ValueError:  # expired between add and incr
        cache.set(full, 1, timeout=window_seconds)
        return 1
