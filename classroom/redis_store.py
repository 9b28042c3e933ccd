"""The process's one Redis client, for the small plain-string keys read on every
request (a pupil's sign-in, a table's version, its seats).

Django's cache builds a new Redis client object and pickles on every call, a
fifth of an unchanged poll's time once; these keys go through one client per
process instead. None in the embedded default (no REDIS_URL): callers then use
Django's cache.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache.backends import redis as _django_redis

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


class RedisCacheClient(_django_redis.RedisCacheClient):
    """Django's, keeping one client object per connection pool: Django's builds
    a new ``redis.Redis`` on every call (a session read was a third of a
    pupil's sign-in check for it). A client is only a handle on its pool, and
    safe to share between threads as the pool is."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(_django_redis.RedisCache):
    """Django's Redis cache with the client above (settings.CACHES)."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
