"""Races between a pupil's move and the teacher's controls, on the real
database: PostgreSQL's row locks, or SQLite's write lock taken at BEGIN
(IMMEDIATE transactions, config/settings.py) on the embedded default."""

import threading
import time

import pytest
from django.db import connections, transaction

from games import services
from games.models import GameSession
from games.pages import engine_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def track_table(classroom, teacher, pupils):
    """A track game (no "end" move: ending it only marks the tables finished)."""
    session = services.start_session(
        classroom, teacher, game="ultimes", options={}, pupils=pupils, table_size=3,
        seating={p.pk: 1 for p in pupils}, seed=3,
    )
    table = session.tables.get()
    state = engine_of("ultimes").from_json(table.state)
    assert state.phase == "sum"
    playing = table.seats.get(player=state.turn).pupil
    return session, table, {"type": "sum", "value": sum(state.dice)}, playing


@pytest.mark.parametrize("status", [GameSession.Status.ENDED, GameSession.Status.PAUSED])
def test_a_move_racing_the_teachers_pause_or_end_is_not_applied_after_it(track_table, status):
    session, table, move, playing = track_table
    held = threading.Event()

    def teacher_presses_the_button():
        try:
            with transaction.atomic():
                services.set_status(session, status)
                held.set()
                time.sleep(0.5)  # the move arrives while the teacher's change commits
        finally:
            connections.close_all()

    teacher = threading.Thread(target=teacher_presses_the_button)
    teacher.start()
    held.wait(5)
    outcome = services.play(table.pk, playing, move, table.version, "tap-race")
    teacher.join()
    table.refresh_from_db()
    assert outcome.status == "closed"
    assert table.version == 0
    assert table.finished == (status == GameSession.Status.ENDED)
