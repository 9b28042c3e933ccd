"""A table's kept stamp never goes back (games.live.publish): commits may
publish in another order than they committed, and the earlier stamp would hide
the later change from every tablet until it expired."""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from classroom.models import Pupil
from games import live, services
from games.models import Table
from games.pages import engine_of

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not settings.REDIS_URL and os.environ.get("NUMBO_REQUIRE_SERVICES") != "1",
        reason="the comparison is Redis's (one script); CI runs it",
    ),
]


def fresh(table) -> Table:
    return Table.objects.select_related("session").get(pk=table.pk)


def test_a_move_published_late_does_not_put_back_an_older_version(start):
    session, table = start()
    table = fresh(table)
    live.publish(table.pk, "6r", None, session=table.session, ring=True)
    assert not live.publish(table.pk, "5r", None, session=table.session, ring=True)
    assert live.read(table.pk) == ("6r", None)
    assert live.publish(table.pk, "7r", 12.5, session=table.session)
    assert live.read(table.pk) == ("7r", 12.5)


def test_a_late_pupils_seat_is_not_hidden_by_a_move_that_published_after_it(
    start, classroom, pupils, django_capture_on_commit_callbacks
):
    """The old race: a move commits (seating 0), a late pupil takes a computer's
    seat (seating 1, published), then the move's publish comes: the tablets
    must still learn of the seat."""
    session, table = start(players=1, bot_level="beginner")  # Léa and a computer
    table = fresh(table)
    late = Pupil.objects.create(classroom=classroom, first_name="Zoé", initial="K",
                                avatar="cat", picture_password="sun,moon,star")
    move_stamp = live.stamp(table)  # what the move's commit read, seating 0
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_late_pupils(session, [late])
    seated = fresh(table)
    assert seated.seating == 1 and live.read(table.pk)[0] == live.stamp(seated)
    live.publish(table.pk, move_stamp, None, session=seated.session, ring=True)
    assert live.read(table.pk)[0] == live.stamp(seated)


def test_a_pause_still_wins_over_a_newer_version_of_the_old_session_mark(
    start, django_capture_on_commit_callbacks
):
    session, table = start()
    table = fresh(table)
    live.publish(table.pk, "3r", None, session=table.session)
    with django_capture_on_commit_callbacks(execute=True):
        services.set_status(session, "paused")
    # A move that read the running session publishes after the pause's commit.
    assert not live.publish(table.pk, "4r", None, session=table.session)
    assert live.read(table.pk) is None


def test_a_token_says_when_the_one_it_replaced_named_the_same_due(start):
    """A turn's time is the same at each move of the turn: its server move is
    put on the schedule once, by the move that set it (services._announce)."""
    session, table = start()
    table = fresh(table)
    first = live.publish(table.pk, "6r", 99.5, session=table.session, ring=True)
    assert first and not first.due_known
    again = live.publish(table.pk, "7r", 99.5, session=table.session, ring=True)
    assert again and again.due_known
    later = live.publish(table.pk, "8r", 120.0, session=table.session, ring=True)
    assert later and not later.due_known
    hidden = live.publish(table.pk, "7r", 120.0, session=table.session, ring=True)
    assert not hidden and not hidden.due_known


def test_the_moves_of_a_timed_turn_schedule_its_end_once(
    start, pupils, monkeypatch, django_capture_on_commit_callbacks
):
    from celery import current_app

    sent = []
    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args, eta, **options: sent.append(eta)
    )
    session, table = start(options={"preset": "addition", "turn_seconds": 30})
    state = engine_of("numberquest").from_json(fresh(table).state)
    (a, _), (b, _) = state.available[0], state.available[1]
    steps = [
        {"type": "step", "left": a, "op": "+", "right": b, "result": a + b},
        {"type": "undo"},
    ]
    for version, move in enumerate(steps):
        with django_capture_on_commit_callbacks(execute=True):
            played = services.play(table.pk, pupils[0], move, version, f"tap-{version}")
        assert played.status == "applied"
    assert len(sent) == 1, sent  # the turn's end, once: the undo kept the turn
