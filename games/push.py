"""Push: each tablet hears the moment its table changes, over server-sent events.

A commit rings the table's Redis channel with its new stamp (games.live.ring).
What a tablet's stream then tells it depends on who holds it:

- a pupil who only watches the table (games.watching: their own tablet, not
  their turn) is sent the watchers' page itself, which the move's request drew
  and kept before ringing, made theirs (their token, their "(you)", in a card
  game their own hand in the page's slot for it): the page swaps it in and
  makes no request at all;
- every other tablet (the player whose turn it is, a teacher, a page not
  kept) hears "changed" with the stamp, and polls its table at once, reading
  its own view as it always did.

A stream never carries what its tablet's own poll would not show: the page is
only sent to a pupil the kept page names as a watcher, with no hand but
theirs, in the language their page was drawn in, and not once their sign-in
has ended.

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
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.db import connections
from django.utils import translation

from . import live, poll_tokens, watching

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


def _page_event(stamp: str, html: str) -> str:
    """The watchers' page as an event: its stamp on the first line, then the
    page (each line its own ``data:`` line, as the format wants)."""
    text = f"{stamp}\n{html}".replace("\r\n", "\n").replace("\r", "\n")
    return "event: page\n" + "".join(f"data: {line}\n" for line in text.split("\n")) + "\n"


@dataclass(eq=False)
class Tablet:
    """Who holds a stream, as its poll token says, and the language its page
    is in: what decides whether a ring may bring it the watchers' page."""

    token: str = ""
    said: dict[str, Any] = field(default_factory=dict)  # the token's content
    language: str = ""

    @classmethod
    def of(cls, token: str, said: dict[str, Any], language: str) -> Tablet:
        known = {code for code, _name in settings.LANGUAGES}
        return cls(token, said, language if language in known else "")

    @property
    def watcher_id(self) -> int | None:
        """The pupil this tablet may be sent the watchers' page for: only a
        pupil's tablet, in a language pages are kept in."""
        return self.said.get("p") if self.language else None


def wanted(table_id: int, stamp: str, tablets: list[Tablet]) -> list[str]:
    """The cache keys ``events`` reads for this ring: the table's kept
    watchers' page in each language heard, and each pupil's sign-out mark."""
    if not stamp:
        return []
    pupils = [t for t in tablets if t.watcher_id is not None]
    pages = {watching.key(table_id, t.language) for t in pupils}
    return sorted(pages) + [poll_tokens.signed_out_key(t.watcher_id) for t in pupils]


def events(table_id: int, stamp: str, tablets: list[Tablet], found: dict[str, Any]) -> list[str]:
    """What each tablet hears of a ring, ``found`` mapping ``wanted``'s keys
    to their values: its page when it watches, else "changed"."""
    changed = _event("changed", stamp)
    heard = []
    for tablet in tablets:
        copy = None
        if stamp and tablet.watcher_id is not None:
            mark = found.get(poll_tokens.signed_out_key(tablet.watcher_id))
            if not poll_tokens.ended(tablet.said, mark):
                raw = found.get(watching.key(table_id, tablet.language))
                copy = watching.read_copy(raw, stamp, tablet.watcher_id)
        if copy is None:
            heard.append(changed)
            continue
        with translation.override(tablet.language):
            heard.append(_page_event(stamp, watching.personal(copy, tablet.token)))
    return heard


def _read(keys: list[str], values: list[Any]) -> dict[str, Any]:
    return dict(zip(keys, values, strict=True))


class Hub:
    """One pattern subscription per process and event loop, fanned out to the
    queues of the streams it serves, by table."""

    def __init__(self) -> None:
        self.listeners: dict[int, dict[asyncio.Queue[str], Tablet]] = defaultdict(dict)
        self._task: asyncio.Task | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def add(self, table_id: int, queue: asyncio.Queue[str], tablet: Tablet | None = None) -> None:
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._loop is not loop:
            self._loop = loop
            self._task = loop.create_task(self._run())
        self.listeners[table_id][queue] = tablet or Tablet()

    def discard(self, table_id: int, queue: asyncio.Queue[str]) -> None:
        queues = self.listeners.get(table_id)
        if queues is not None:
            queues.pop(queue, None)
            if not queues:
                del self.listeners[table_id]

    async def _deliver(self, client, table_id: int, stamp: str) -> None:
        listening = list(self.listeners.get(table_id, {}).items())
        if not listening:
            return
        tablets = [tablet for _queue, tablet in listening]
        keys = wanted(table_id, stamp, tablets)
        found = _read(keys, await client.mget(keys)) if keys else {}
        for (queue, _tablet), event in zip(listening, events(table_id, stamp, tablets, found),
                                           strict=True):
            # A full queue: that tablet has rings waiting already, it will poll anyway.
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(event)

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
                    await self._deliver(client, table_id, "")
                async for message in pubsub.listen():
                    if message["type"] != "pmessage":
                        continue
                    table = _text(message["channel"]).rsplit(":", 1)[1]
                    if table.isdigit():
                        await self._deliver(client, int(table), _text(message["data"]))
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


async def async_stream(table_id: int, tablet: Tablet | None = None) -> AsyncIterator[str]:
    """The events one tablet receives, under ASGI."""
    queue: asyncio.Queue[str] = asyncio.Queue(maxsize=QUEUE_SIZE)
    hub.add(table_id, queue, tablet)
    try:
        yield opening()
        loop = asyncio.get_running_loop()
        ends = loop.time() + STREAM_SECONDS
        while loop.time() < ends:
            try:
                yield await asyncio.wait_for(queue.get(), KEEPALIVE)
            except TimeoutError:
                yield ": still here\n\n"
    finally:
        hub.discard(table_id, queue)


def sync_stream(table_id: int, tablet: Tablet | None = None) -> Iterator[str]:
    """The same events under WSGI: a thread and a subscription per stream."""
    tablets = [tablet or Tablet()]
    client = live.redis_client()
    pubsub = client.pubsub(ignore_subscribe_messages=True)
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
                stamp = _text(message["data"])
                keys = wanted(table_id, stamp, tablets)
                found = _read(keys, client.mget(keys)) if keys else {}
                yield events(table_id, stamp, tablets, found)[0]
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
    elif (said := read_poll_token(token := query.get("t", [""])[0], table_id)) is None:
        await _answer(send, 403)
    elif not settings.REDIS_URL:
        await _answer(send, 204)
    else:
        tablet = Tablet.of(token, said, query.get("l", [""])[0])
        await _stream(receive, send, table_id, tablet)


async def _answer(send, status: int) -> None:
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": b""})


async def _stream(receive, send, table_id: int, tablet: Tablet) -> None:
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
        async for chunk in async_stream(table_id, tablet):
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
