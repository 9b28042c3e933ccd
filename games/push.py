"""Push: each tablet hears the moment its table changes, over server-sent events.

A commit rings the table's Redis channel with its new stamp (games.live.ring).
A tablet holds one event stream (``table_events``); on each ring it polls its
table at once, with the stamp it has, and so reads its own view as it always
did (the watchers' shared render, the hidden hands, the tokens all stay where
they were). The stream only carries stamps: nothing a pupil may not see.

The poll stays as the fallback: without Redis (the embedded default) there is
no stream and tablets poll every 2 s; while a stream is open the page polls only
every 20 s, and at 2 s again as soon as the stream drops.

Under ASGI (gunicorn with uvicorn workers, as the web image runs) one Redis
subscription per process feeds every stream it serves (``Hub``). Under WSGI
(``manage.py runserver``, the test server) each stream holds a thread and a
subscription of its own: fine for a few tablets, which is all they serve.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator

from django.conf import settings
from django.db import connections

from . import live

log = logging.getLogger(__name__)

KEEPALIVE = 15.0  # s between comments on a quiet stream: proxies close silent ones
STREAM_SECONDS = 300.0  # then the browser reconnects, and its token is checked again
RETRY_MS = 1000  # how soon a browser reconnects after a drop
QUEUE_SIZE = 8  # rings waiting for one slow stream; more would say nothing new


def _event(name: str, data: str = "") -> str:
    return f"event: {name}\ndata: {data}\n\n"


def _text(data: bytes | str) -> str:
    return data.decode() if isinstance(data, bytes) else data


def opening() -> str:
    # "ready" tells the page the ring is live, so it can slow its poll down.
    return f"retry: {RETRY_MS}\n\n" + _event("ready")


class Hub:
    """One pattern subscription per process and event loop, fanned out to the
    queues of the streams it serves, by table."""

    def __init__(self) -> None:
        self.listeners: dict[int, set[asyncio.Queue[str]]] = defaultdict(set)
        self._task: asyncio.Task | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def add(self, table_id: int, queue: asyncio.Queue[str]) -> None:
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._loop is not loop:
            self._loop = loop
            self._task = loop.create_task(self._run())
        self.listeners[table_id].add(queue)

    def discard(self, table_id: int, queue: asyncio.Queue[str]) -> None:
        queues = self.listeners.get(table_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.listeners[table_id]

    def _deliver(self, table_id: int, stamp: str) -> None:
        for queue in list(self.listeners.get(table_id, ())):
            # A full queue: that tablet has rings waiting already, it will poll anyway.
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(stamp)

    async def _run(self) -> None:
        import redis.asyncio

        while True:  # one connection for the life of the process
            client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
            try:
                pubsub = client.pubsub()
                await pubsub.psubscribe(live.channel_pattern())
                # Rings may have been missed while (re)connecting: every
                # stream re-checks its table.
                for table_id in list(self.listeners):
                    self._deliver(table_id, "")
                async for message in pubsub.listen():
                    if message["type"] != "pmessage":
                        continue
                    table = _text(message["channel"]).rsplit(":", 1)[1]
                    if table.isdigit():
                        self._deliver(int(table), _text(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis restarts: log, wait, subscribe again
                log.warning("push: lost the Redis subscription, subscribing again", exc_info=True)
                await asyncio.sleep(1)
            finally:
                await client.aclose()


hub = Hub()


async def async_stream(table_id: int) -> AsyncIterator[str]:
    """The events one tablet receives, under ASGI."""
    queue: asyncio.Queue[str] = asyncio.Queue(maxsize=QUEUE_SIZE)
    hub.add(table_id, queue)
    try:
        yield opening()
        loop = asyncio.get_running_loop()
        ends = loop.time() + STREAM_SECONDS
        while loop.time() < ends:
            try:
                stamp = await asyncio.wait_for(queue.get(), KEEPALIVE)
            except TimeoutError:
                yield ": still here\n\n"
                continue
            yield _event("changed", stamp)
    finally:
        hub.discard(table_id, queue)


def sync_stream(table_id: int) -> Iterator[str]:
    """The same events under WSGI: a thread and a subscription per stream."""
    # The request's middleware is done: a stream that waits for minutes must
    # not hold a database connection meanwhile.
    connections.close_all()
    pubsub = live.redis_client().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(live.channel(table_id))
    pubsub.get_message(timeout=1.0)  # the confirmation: from here on no ring is missed
    try:
        yield opening()
        ends = time.monotonic() + STREAM_SECONDS
        while time.monotonic() < ends:
            message = pubsub.get_message(timeout=KEEPALIVE)
            if message is None:
                yield ": still here\n\n"
            elif message["type"] == "message":
                yield _event("changed", _text(message["data"]))
    finally:
        pubsub.close()
