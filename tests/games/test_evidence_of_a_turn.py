"""What a turn is evidence of, beside its steps: how long the pupil took, and
whether a turn the teacher's end cut off was a chance the pupil let go by."""

from datetime import timedelta

import pytest
from django.utils import timezone

from classroom.models import Attempt, Opportunity
from classroom.reports import services as reports
from games import services
from games.models import GameSession, Table

from .conftest import a_right_step, state_of

pytestmark = pytest.mark.django_db


def test_the_first_moves_time_runs_from_the_pupils_turn_not_the_tables_start(start, pupils):
    """The table was laid ten minutes ago, then the game was paused: Léa's
    turn starts again when the teacher resumes it, and her step took
    seconds, not minutes."""
    session, table = start()
    Table.objects.filter(pk=table.pk).update(
        updated_at=timezone.now() - timedelta(minutes=10),
        turn_started_at=timezone.now() - timedelta(minutes=10),
    )
    services.set_status(session, GameSession.Status.PAUSED)
    services.set_status(session, GameSession.Status.RUNNING)
    services.play(table.pk, pupils[0], a_right_step(state_of(table)), 0, "tap-1")
    (attempt,) = Attempt.objects.all()
    assert attempt.response_ms < 60_000


def test_the_whole_classs_tile_time_runs_from_the_card_turned(classroom, teacher, pupils):
    session = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils[:1], table_size=1,
        whole_class=True,
    )
    table = session.tables.get()
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(minutes=10))
    before = timezone.now()
    services.show_next_card(session)
    table.refresh_from_db()
    assert table.updated_at >= before and table.turn_started_at >= before


def test_a_late_pupils_turn_starts_when_they_sit_down(start, pupils):
    session, table = start(players=1, bot_level="greedy")
    Table.objects.filter(pk=table.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
    # Léa leaves her seat to the late pupil, whose turn it is.
    table.seats.filter(pupil=pupils[0]).update(pupil=None, bot_level="greedy")
    before = timezone.now()
    services.seat_late_pupils(session, [pupils[2]])
    table.refresh_from_db()
    assert table.turn_started_at >= before and table.updated_at >= before


def test_a_turn_the_teacher_ended_is_no_chance_missed(start, pupils):
    """Léa's turn had just started (its roll could make a square with every
    operation) when the teacher ended the game: no 'could, didn't'."""
    session, table = start(options={"preset": "classic"})
    services.set_status(session, GameSession.Status.ENDED)
    chance = Opportunity.objects.get(pupil=pupils[0])
    assert chance.cut_off and chance.used == []
    assert list(reports.opportunities_of()(pupils[0].pk)) == []


def test_a_turn_cut_off_after_a_step_still_counts_its_operation(start, pupils):
    session, table = start(options={"preset": "classic"})
    state = state_of(table)
    (a, _), (b, _) = state.available[0], state.available[1]
    services.play(table.pk, pupils[0], {"type": "step", "left": a, "op": "*", "right": b,
                                        "result": a * b}, 0, "tap-1")
    services.set_status(session, GameSession.Status.ENDED)
    (chance,) = reports.opportunities_of()(pupils[0].pk)
    assert chance.used == ["mul"]


def test_a_finished_turn_is_not_cut_off_by_the_end(start, pupils):
    """Léa's turn is over (a wrong step); Noah's is the one the end cuts off."""
    session, table = start(options={"preset": "classic"})
    move = a_right_step(state_of(table))
    services.play(table.pk, pupils[0], {**move, "result": move["result"] + 1}, 0, "tap-1")
    services.set_status(session, GameSession.Status.ENDED)
    assert not Opportunity.objects.get(pupil=pupils[0]).cut_off
    assert Opportunity.objects.get(pupil=pupils[1]).cut_off
