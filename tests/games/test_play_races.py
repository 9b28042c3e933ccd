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
    """A track game at its first turn."""
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
    # The pupil's move is not applied: the teacher's end is the only move.
    ended = status == GameSession.Status.ENDED
    assert table.version == (1 if ended else 0)
    assert [m.player for m in table.moves.all()] == ([None] if ended else [])
    assert table.finished == ended


def test_two_tables_finishing_at_once_end_the_session(classroom, teacher, pupils):
    """Each move reads its own table finished and the other still playing;
    the session ends all the same, once both have committed."""
    from dataclasses import replace

    from games import live

    session = services.start_session(
        classroom, teacher, game="ultimes", options={}, pupils=pupils[:2], table_size=1,
        seating={pupils[0].pk: 1, pupils[1].pk: 2}, seed=3,
    )
    game = engine_of("ultimes")
    tables = list(session.tables.order_by("number"))
    for table in tables:
        state = replace(game.from_json(table.state), turn=0, phase="reach", dice=(2, 4),
                        total=6, positions=(93,))
        table.state = state.to_json()
        table.save(update_fields=["state"])
        live.bump(table.pk)
    both = threading.Barrier(2)
    results = {}

    def land_on_99(table, pupil):
        try:
            both.wait(5)
            results[table.pk] = services.play(
                table.pk, pupil, {"type": "reach", "square": 99}, table.version, "tap-99"
            ).status
        finally:
            connections.close_all()

    movers = [threading.Thread(target=land_on_99, args=(t, p))
              for t, p in zip(tables, pupils[:2], strict=True)]
    for mover in movers:
        mover.start()
    for mover in movers:
        mover.join()
    assert sorted(results.values()) == ["applied", "applied"]
    session.refresh_from_db()
    assert session.status == GameSession.Status.ENDED
