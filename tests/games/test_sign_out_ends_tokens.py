"""Signing a pupil out ends the table tokens their sign-in was handed (issue 14,
item 6): the poll and the push stream refuse them, show no table and no name."""

from __future__ import annotations

import asyncio

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games import live, services
from games.views.tables import poll_token

from .conftest import a_right_step, state_of

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
NAMES = ("Léa", "Noah", "Inès")


def token_on_the_page(client, table) -> str:
    """The poll token the table page handed this tablet."""
    page = client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    return page.split("?t=", 1)[1].split("&", 1)[0].split('"', 1)[0]


def poll(client, table, token, version="none"):
    url = reverse("games:table_poll", args=[table.pk])
    return client.get(url, {"t": token, "v": version}, **HTMX)


def events(client, table, token):
    return client.get(reverse("games:table_events", args=[table.pk]), {"t": token})


def assert_refused(response):
    assert response.status_code == 403
    page = response.content.decode()
    assert "table" not in page and not any(name in page for name in NAMES)


def a_step(table, pupil, capture):
    with capture(execute=True):
        assert services.play(table.pk, pupil, a_right_step(state_of(table)), 0, "t").status \
            == "applied"


def test_not_me_ends_the_tokens_of_that_sign_in(
    start, pupil_client, client, django_capture_on_commit_callbacks
):
    session, table = start()
    token = token_on_the_page(pupil_client, table)
    assert poll(client, table, token).status_code == 200
    table.refresh_from_db()
    current = live.stamp(table)
    assert poll(client, table, token, version=current).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        pupil_client.post(reverse("classroom:pupil_sign_out"))
    # Another device holding the token alone: refused, changed table or not.
    assert_refused(poll(client, table, token))
    assert_refused(poll(client, table, token, version=current))
    assert_refused(events(client, table, token))


def test_sign_out_every_pupil_ends_every_token_of_the_class(
    start, client, teacher_client, classroom, pupils, django_capture_on_commit_callbacks
):
    session, table = start()
    tokens = [poll_token(table, p.pk, None) for p in pupils[:2]]
    for token in tokens:
        assert poll(Client(), table, token).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = teacher_client.post(reverse("classroom:sign_out_all", args=[classroom.pk]))
    assert response.status_code == 302
    for token in tokens:
        assert_refused(poll(Client(), table, token))
        assert_refused(events(Client(), table, token))


def test_archiving_the_class_ends_its_tokens(
    start, teacher_client, classroom, pupils, django_capture_on_commit_callbacks
):
    session, table = start()
    token = poll_token(table, pupils[0].pk, None)
    with django_capture_on_commit_callbacks(execute=True):
        teacher_client.post(reverse("classroom:class_archive", args=[classroom.pk]))
    assert_refused(poll(Client(), table, token))


def test_a_refused_tablet_reloads_and_a_pupil_still_signed_in_there_polls_again(
    start, pupil_client, pupils, django_capture_on_commit_callbacks
):
    """Léa signed in on two tablets taps 'Not me?' on one: the other's token
    ends too, and its page reloads (HX-Refresh) into a new one."""
    from tests.conftest import tap_pictures

    session, table = start()
    other_tablet = Client()
    tap_pictures(other_tablet, pupils[0], pupils[0].password_pictures)
    old = token_on_the_page(other_tablet, table)
    with django_capture_on_commit_callbacks(execute=True):
        pupil_client.post(reverse("classroom:pupil_sign_out"))
    refused = poll(other_tablet, table, old)
    assert refused.status_code == 403 and refused["HX-Refresh"] == "true"
    new = token_on_the_page(other_tablet, table)
    assert new != old and poll(other_tablet, table, new).status_code == 200
    # The tablet signed out itself is sent to sign in again.
    assert pupil_client.get(reverse("games:table_play", args=[table.pk])).status_code == 302


def test_the_database_refuses_the_table_when_the_cache_lost_the_sign_out(
    start, pupil_client, django_capture_on_commit_callbacks
):
    session, table = start()
    token = token_on_the_page(pupil_client, table)
    with django_capture_on_commit_callbacks(execute=True):
        pupil_client.post(reverse("classroom:pupil_sign_out"))
    cache.clear()  # Redis restarted without its data: the sign-out's mark is gone
    assert_refused(poll(Client(), table, token))


def test_the_watchers_shared_page_is_not_handed_to_an_ended_token(
    start, client, pupils, django_capture_on_commit_callbacks, django_assert_num_queries
):
    session, table = start(players=3)
    a_step(table, pupils[0], django_capture_on_commit_callbacks)  # Noah and Inès watch
    inès = poll_token(table, pupils[2].pk, None)
    assert poll(Client(), table, poll_token(table, pupils[1].pk, None)).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        type(pupils[2]).objects.filter(pk=pupils[2].pk).sign_out()
    with django_assert_num_queries(0):
        assert_refused(poll(Client(), table, inès))
    # Noah still takes the shared page without a query.
    with django_assert_num_queries(0):
        assert poll(Client(), table, poll_token(table, pupils[1].pk, None)).status_code == 200


def test_the_push_service_refuses_an_ended_token(
    start, pupils, django_capture_on_commit_callbacks
):
    from config.asgi import application

    session, table = start()
    token = poll_token(table, pupils[0].pk, None)
    with django_capture_on_commit_callbacks(execute=True):
        type(pupils[0]).objects.filter(pk=pupils[0].pk).sign_out()

    async def status() -> int:
        sent: asyncio.Queue = asyncio.Queue()

        async def receive():
            return {"type": "http.disconnect"}

        scope = {
            "type": "http", "method": "GET", "path": f"/tables/{table.pk}/events/",
            "query_string": f"t={token}".encode(), "headers": [(b"host", b"localhost")],
        }
        await application(scope, receive, sent.put)
        return (await sent.get())["status"]

    assert asyncio.run(status()) == 403


def test_a_token_of_the_current_sign_in_still_reads_the_table(
    start, client, pupils, django_capture_on_commit_callbacks
):
    session, table = start()
    with django_capture_on_commit_callbacks(execute=True):
        type(pupils[0]).objects.filter(pk=pupils[0].pk).sign_out()
    pupils[0].refresh_from_db()
    fresh = poll_token(table, pupils[0].pk, None, pupils[0].sign_in_generation)
    assert poll(client, table, fresh).status_code == 200
    # Noah, not signed out, keeps his.
    assert poll(client, table, poll_token(table, pupils[1].pk, None)).status_code == 200


def test_a_teachers_sign_out_ends_the_table_tokens_of_their_projector(
    start, teacher, teacher_client, django_capture_on_commit_callbacks
):
    """The projector's table polls with a token naming the teacher: signing
    out ends it, as it ends the live view's, not 12 hours later."""
    session, table = start()
    page = teacher_client.get(reverse("games:table_projector", args=[table.pk])).content.decode()
    token = page.split("?t=", 1)[1].split("&", 1)[0].split('"', 1)[0]
    other = Client()
    assert poll(other, table, token).status_code == 200  # the token alone is the key
    with django_capture_on_commit_callbacks(execute=True):
        teacher_client.post(reverse("logout"))
    assert_refused(poll(other, table, token))
    assert events(other, table, token).status_code == 403
    # Signed in again: the new page's token reads the table.
    teacher_client.force_login(teacher)
    page = teacher_client.get(reverse("games:table_projector", args=[table.pk])).content.decode()
    token = page.split("?t=", 1)[1].split("&", 1)[0].split('"', 1)[0]
    assert poll(other, table, token).status_code == 200
