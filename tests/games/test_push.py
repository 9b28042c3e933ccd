"""Push: a tablet's event stream rings when its table changes (games.push).

The streams need Redis: they run wherever REDIS_URL is set (CI sets it and
requires it); the embedded default answers 204 and the page keeps polling."""

from __future__ import annotations

import asyncio
import os

import pytest
from django.conf import settings
from django.urls import reverse

from games import live, services
from games.views.tables import poll_token

from .conftest import a_right_step, state_of

pytestmark = pytest.mark.django_db
needs_redis = pytest.mark.skipif(
    not settings.REDIS_URL and os.environ.get("NUMBO_REQUIRE_SERVICES") != "1",
    reason="push needs Redis (REDIS_URL): CI runs it",
)


def events_url(table, pupil_id=None, teacher_id=None, token=None):
    token = token or poll_token(table, pupil_id, teacher_id)
    return reverse("games:table_events", args=[table.pk]) + f"?t={token}"


def test_the_page_names_its_stream_with_the_tablets_own_token(start, pupil_client, pupils):
    session, table = start()
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert f'data-push="{reverse("games:table_events", args=[table.pk])}?t=' in page
    assert "push" in page.split('hx-trigger="', 1)[1].split('"', 1)[0]


def test_a_stream_is_refused_without_the_tables_token(start, client, classroom, teacher, pupils):
    session, table = start()
    other = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "classic"},
        pupils=[pupils[2]], table_size=1,
    ).tables.get()
    assert client.get(events_url(table, token="forged")).status_code == 403
    # A token for another table opens nothing here.
    assert client.get(events_url(table, token=poll_token(other, pupils[2].pk, None))).status_code \
        == 403


@pytest.mark.skipif(bool(settings.REDIS_URL), reason="the embedded default only")
def test_without_redis_the_stream_says_there_is_nothing_to_hear(start, client, pupils):
    session, table = start()
    assert client.get(events_url(table, pupils[0].pk)).status_code == 204


@needs_redis
def test_a_ring_reaches_a_wsgi_stream(start, client, pupils):
    session, table = start()
    response = client.get(events_url(table, pupils[0].pk))
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    events = iter(response.streaming_content)
    assert b"event: ready" in next(events)
    services.play(table.pk, pupils[0], a_right_step(state_of(table)), 0, "tap-1")
    live.ring(table.pk, "1r")  # what the move's commit sends (tests run in one transaction)
    assert next(events) == b"event: changed\ndata: 1r\n\n"
    response.close()


@needs_redis
def test_the_push_service_streams_rings_through_its_process_hub(start, pupils):
    """config.asgi answers a stream in the event loop, outside Django's middleware."""
    from config.asgi import application

    session, table = start()
    token = poll_token(table, pupils[0].pk, None)

    async def listen():
        sent: asyncio.Queue = asyncio.Queue()
        gone = asyncio.Event()

        async def receive():
            await gone.wait()
            return {"type": "http.disconnect"}

        scope = {
            "type": "http", "method": "GET", "path": f"/tables/{table.pk}/events/",
            "query_string": f"t={token}".encode(), "headers": [(b"host", b"localhost")],
        }
        serving = asyncio.create_task(application(scope, receive, sent.put))
        start_message = await asyncio.wait_for(sent.get(), 5)
        assert start_message["status"] == 200
        assert b"event: ready" in (await asyncio.wait_for(sent.get(), 5))["body"]
        heard = None
        for _ in range(50):  # the hub subscribes on its first stream: ring until it hears
            await asyncio.to_thread(live.ring, table.pk, "7r")
            try:
                body = (await asyncio.wait_for(sent.get(), 0.2))["body"]
            except TimeoutError:
                continue
            if body != b"event: changed\ndata: \n\n":  # the hub's hello on subscribing
                heard = body
                break
        gone.set()  # the tablet goes away: the stream ends
        await asyncio.wait_for(serving, 5)
        return heard

    assert asyncio.run(listen()) == b"event: changed\ndata: 7r\n\n"


def test_the_push_service_refuses_a_forged_token_and_a_foreign_host(start, pupils):
    from config.asgi import application

    session, table = start()

    async def status(token: str, host: bytes) -> int:
        sent: asyncio.Queue = asyncio.Queue()

        async def receive():
            return {"type": "http.disconnect"}

        scope = {
            "type": "http", "method": "GET", "path": f"/tables/{table.pk}/events/",
            "query_string": f"t={token}".encode(), "headers": [(b"host", host)],
        }
        await application(scope, receive, sent.put)
        return (await sent.get())["status"]

    good = poll_token(table, pupils[0].pk, None)
    assert asyncio.run(status("forged", b"localhost")) == 403
    assert asyncio.run(status(good, b"evil.example")) == 400
