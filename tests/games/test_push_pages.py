"""Push sends a watching pupil the watchers' page itself (games.push): drawn
by the mover's request before the ring, made theirs, and only to a pupil the
kept page names as a watcher. Everyone else hears "changed" and polls.

These read Redis as the push service does (``wanted`` then ``events``):
they run wherever REDIS_URL is set, as CI requires."""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.urls import reverse

from classroom.models import Pupil
from games import live, push
from games.models import Table
from games.views.tables import poll_token

from .conftest import a_right_step, state_of
from .test_watching import own_page, same

# The pushed page is read from Redis: wherever REDIS_URL is set, as CI's is.
NEEDS_REDIS = pytest.mark.skipif(
    not settings.REDIS_URL and os.environ.get("NUMBO_REQUIRE_SERVICES") != "1",
    reason="the pushed page is read from Redis: CI runs it",
)
pytestmark = [pytest.mark.django_db, NEEDS_REDIS]
HTMX = {"HTTP_HX_REQUEST": "true"}


def tablet(table, pupil, language="en") -> push.Tablet:
    token = poll_token(table, pupil.pk, None, pupil.sign_in_generation)
    return push.Tablet.of(token, {"t": table.pk, "p": pupil.pk, "g": pupil.sign_in_generation},
                          language)


def heard(table, stamp, tablets) -> list[str]:
    """What each tablet's stream is sent for this ring."""
    keys = push.wanted(table.pk, stamp, tablets)
    values = live.redis_client().mget(keys) if keys else []
    return push.events(table.pk, stamp, tablets, dict(zip(keys, values, strict=True)))


def page_of(event: str) -> tuple[str, str]:
    """The stamp and the page a "page" event carries, as EventSource joins its lines."""
    assert event.startswith("event: page\n"), event[:60]
    data = "\n".join(line.removeprefix("data: ") for line in event.strip("\n").split("\n")[1:])
    stamp, _, html = data.partition("\n")
    return stamp, html


def move(pupil_client, table, capture, tap="tap-1"):
    """Léa's right step posted from her tablet, its commit's callbacks run
    (the watchers' page is drawn there, before the ring)."""
    fields = {**{k: str(v) for k, v in a_right_step(state_of(table)).items()},
              "version": str(table.version), "move_id": tap}
    with capture(execute=True):
        answer = pupil_client.post(reverse("games:table_move", args=[table.pk]), fields, **HTMX)
    assert answer.status_code == 200
    table.refresh_from_db()
    return live.stamp(Table.objects.select_related("session").get(pk=table.pk))


def test_a_watcher_is_sent_the_page_their_own_poll_would_show(
    start, pupil_client, pupils, django_capture_on_commit_callbacks
):
    session, table = start(players=3)
    stamp = move(pupil_client, table, django_capture_on_commit_callbacks)  # Léa plays on
    noah, mia = tablet(table, pupils[1]), tablet(table, pupils[2])
    for pupil, event in zip(pupils[1:3], heard(table, stamp, [noah, mia]), strict=True):
        sent_stamp, page = page_of(event)
        assert sent_stamp == stamp
        assert same(page) == same(own_page(table, pupil))
        # Their own token in the poll and the stream's address; "(you)" once.
        # The token as minted for them (signed within the same second or not).
        payload = poll_token(table, pupil.pk, None, pupil.sign_in_generation).split(":")[0]
        assert f"t={payload}:" in page
        assert page.count("(you)") == 1
        assert "csrfmiddlewaretoken" not in page


def test_the_mover_and_the_player_whose_turn_it_is_hear_changed(
    start, pupil_client, pupils, django_capture_on_commit_callbacks
):
    from games import seating
    from games.views import play

    session, table = start(players=3)
    stamp = move(pupil_client, table, django_capture_on_commit_callbacks)
    # Léa moved and plays on: her answer carries her page.
    lea = tablet(table, pupils[0])
    assert heard(table, stamp, [lea]) == [f"event: changed\ndata: {stamp}\n\n"]
    # Had Noah, who watches, made the move, the page is kept for Inès only:
    # his own answer is on its way and a pushed page would overtake it.
    saved = Table.objects.select_related("session").get(pk=table.pk)
    seating.load(saved)
    play._keep_watchers_page(None, saved, mover_id=pupils[1].pk)
    noah, ines = heard(table, stamp, [tablet(table, pupils[1]), tablet(table, pupils[2])])
    assert noah == f"event: changed\ndata: {stamp}\n\n"
    assert ines.startswith("event: page")


def test_a_ring_of_another_version_a_teacher_or_an_unknown_language_hears_changed(
    start, pupil_client, pupils, teacher, django_capture_on_commit_callbacks
):
    session, table = start(players=3)
    stamp = move(pupil_client, table, django_capture_on_commit_callbacks)
    teacher_tablet = push.Tablet.of(poll_token(table, None, teacher.pk), {"t": table.pk,
                                    "k": teacher.pk}, "en")
    old = heard(table, "0r", [tablet(table, pupils[1])])
    assert old == ["event: changed\ndata: 0r\n\n"]
    assert heard(table, stamp, [teacher_tablet, tablet(table, pupils[1], "xx")]) == [
        f"event: changed\ndata: {stamp}\n\n"
    ] * 2
    # A French page is kept apart from the English one: none is kept yet.
    assert heard(table, stamp, [tablet(table, pupils[1], "fr")]) == [
        f"event: changed\ndata: {stamp}\n\n"
    ]


def test_a_pupil_signed_out_since_is_sent_no_page(
    start, pupil_client, pupils, django_capture_on_commit_callbacks
):
    session, table = start(players=3)
    noah = tablet(table, pupils[1])
    stamp = move(pupil_client, table, django_capture_on_commit_callbacks)
    assert heard(table, stamp, [noah])[0].startswith("event: page")
    with django_capture_on_commit_callbacks(execute=True):
        Pupil.objects.filter(pk=pupils[1].pk).sign_out()
    assert heard(table, stamp, [noah]) == [f"event: changed\ndata: {stamp}\n\n"]


def test_the_page_event_keeps_every_line_of_the_page():
    event = push._page_event("3r", "<div>\r\none\rtwo\n</div>")
    assert page_of(event) == ("3r", "<div>\none\ntwo\n</div>")


def test_no_page_is_drawn_for_a_pupil_alone_against_the_computer(start, pupils):
    """Once Léa banks, the computer plays and she watches: but she is the
    mover, whose answer is on its way, and no one else sits there."""
    from games import seating, watching
    from games.views import play

    session, table = start(players=1, bot_level="beginner")
    table.state = {**table.state, "current": 1}  # the computer's turn: Léa watches
    table.save(update_fields=["state"])
    table = Table.objects.select_related("session").get(pk=table.pk)
    seating.load(table)
    assert play._keep_watchers_page(None, table, mover_id=pupils[0].pk) is None
    assert live.redis_client().get(watching.key(table.pk, "en")) is None
    # Her own poll (no mover) still draws and keeps the page for her.
    assert play._keep_watchers_page(None, table) is not None
    assert live.redis_client().get(watching.key(table.pk, "en")) is not None
