"""Computer players and clocks move on the server's own schedule (games.tasks),
not only while a tablet polls the table."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from config import celery_app
from games import services, tasks
from games.models import Table

from .conftest import state_of


@pytest.fixture
def sent(monkeypatch):
    """The tasks sent to a (pretend) broker: name, args and when they are due."""
    calls = []
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)

    def send_task(name, args, eta, **options):
        # Sent by name, the task's own ignore_result is unknown to the sender:
        # without it the result backend listens for a result never sent.
        assert options == {"ignore_result": True}
        calls.append((name, args, eta))

    monkeypatch.setattr(celery_app, "send_task", send_task)
    return calls


def give_up_the_turn(table, pupil, version=0):
    return services.play(table.pk, pupil, {"type": "cant"}, version, f"tap-{version}")


def make_quiet(table, seconds):
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))


@pytest.mark.django_db
def test_a_turn_that_leaves_a_bot_to_play_puts_its_move_on_the_schedule(
    start, pupils, sent, django_capture_on_commit_callbacks
):
    session, table = start(players=1, bot_level="greedy")
    with django_capture_on_commit_callbacks(execute=True):
        assert give_up_the_turn(table, pupils[0]).status == "applied"
    assert state_of(table).current == 1
    [(name, args, eta)] = sent
    assert (name, args) == ("games.tasks.advance_table", [table.pk])
    assert 1.0 < (eta - timezone.now()).total_seconds() < 2.0


@pytest.mark.django_db
def test_a_task_come_early_puts_itself_back_on_the_schedule(
    start, pupils, sent, django_capture_on_commit_callbacks
):
    session, table = start(players=1, bot_level="greedy")
    give_up_the_turn(table, pupils[0])
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.advance_table(table.pk) is False
    assert [name for name, _, _ in sent] == ["games.tasks.advance_table"]
    assert state_of(table).current == 1


@pytest.mark.django_db
def test_the_scheduled_task_makes_the_bots_move_with_no_tablet_watching(start, pupils):
    session, table = start(players=1, bot_level="greedy")
    give_up_the_turn(table, pupils[0])
    make_quiet(table, 5)
    assert tasks.advance_table(table.pk) is True
    assert state_of(table).current == 0
    assert tasks.advance_table(123456789) is False  # a table erased since


@pytest.mark.django_db
def test_the_sweep_moves_only_quiet_tables_that_owe_a_move(start, pupils):
    session, table = start(players=1, bot_level="greedy")
    give_up_the_turn(table, pupils[0])
    assert tasks.advance_overdue_tables() == 0  # the bot's own task is on its way
    make_quiet(table, 60)
    assert tasks.advance_overdue_tables() == 1
    assert state_of(table).current == 0
    make_quiet(table, 60)
    assert tasks.advance_overdue_tables() == 0  # Léa's turn: nothing is owed


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_plays_the_bots_turn_while_nobody_polls(start, pupils, worker):
    if worker is None:
        pytest.skip("needs a broker and a worker (REDIS_URL): CI runs it")
    session, table = start(players=1, bot_level="greedy")
    assert give_up_the_turn(table, pupils[0]).status == "applied"
    deadline = time.monotonic() + 15
    while state_of(table).current != 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert state_of(table).current == 0, "the computer player never moved"
