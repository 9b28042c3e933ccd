"""Push: each tablet hears the moment its table changes, over server-sent events.

A commit rings the table's Redis channel with its new stamp (games.live.ring).
A tablet holds one event stream (``table_events``); on each ring it polls its
table at once, with the stamp it has, and so reads its own view as it always
did (the watchers' shared render, the hidden hands, the tokens all stay where
they were). The stream only carries stamps: nothing a pupil may not see.

The poll stays as the fallback: without Redis (the embedded default) there is
no stream and tablets poll every 2 s; while a stream is open the page polls only
every 20 s, and at 2 s again as soon as the stream drops.

Under ASGI (gunicorn with uvicorn workers, as the web image runs) the streams
are answered by ``serve_events`` in the event loop, outside Django's middleware
(config.asgi), and one Redis subscription per process feeds them all (``Hub``).
Under WSGI
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
from urllib.parse import parse_qs

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


def let_go_of_the_database() -> None:
    """A stream waits for minutes and reads nothing from the database: the
    connection its request's middleware opened goes back at once, or a school's
    open streams would hold more connections than PostgreSQL allows. (One
    inside a transaction is a test's, which the test still needs.)"""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


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


# --------------------------------------------------------------------------- ASGI


async def serve_events(scope, receive, send, table_id: int) -> None:
    """A tablet's event stream answered straight from the ASGI server (config.asgi):
    the same checks as the ``table_events`` view, without Django's middleware."""
    from django.http.request import split_domain_port, validate_host

    from .poll_tokens import read as read_poll_token

    headers = dict(scope.get("headers") or [])
    domain, _port = split_domain_port(headers.get(b"host", b"").decode("latin-1"))
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        await _answer(send, 400)
    elif read_poll_token(query.get("t", [""])[0], table_id) is None:
        await _answer(send, 403)
    elif not settings.REDIS_URL:
        await _answer(send, 204)
    else:
        await _stream(receive, send, table_id)


async def _answer(send, status: int) -> None:
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": b""})


async def _stream(receive, send, table_id: int) -> None:
    await send({
        "type": "http.response.start",
        "status": 200,
        "headers": [
            (b"content-type", b"text/event-stream"),
            (b"cache-control", b"no-cache"),
            (b"x-accel-buffering", b"no"),
            # The signed token in the address is the only key (no cookie):
            # pages on another origin than PUSH_URL's may listen.
            (b"access-control-allow-origin", b"*"),
        ],
    })

    async def relay() -> None:
        async for chunk in async_stream(table_id):
            await send({"type": "http.response.body", "body": chunk.encode(), "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    tasks = {asyncio.ensure_future(relay()), asyncio.ensure_future(gone())}
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            log.warning("push: a stream ended with %r", task.exception())
