"""The process's one Redis client, for the small plain-string keys read on every
request (a pupil's sign-in, a table's version, its seats).

Django's cache builds a new Redis client object and pickles on every call, a
fifth of an unchanged poll's time once; these keys go through one client per
process instead. None in the embedded default (no REDIS_URL): callers then use
Django's cache.
"""

from __future__ import annotations

from django.conf import settings

_client = None


def redis_client():
    """The process's Redis client, or None in the embedded default."""
    global _client
    if _client is None and settings.REDIS_URL:
        import redis

        _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5)
    return _client


def key_prefix() -> str:
    """The cache's KEY_PREFIX: two setups sharing a Redis server keep apart."""
    return settings.CACHES["default"].get("KEY_PREFIX", "")
