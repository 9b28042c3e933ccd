"""The live view's reads (games/selectors.py) and the late pupils' seating
(games.services.seat_late), called as the teacher's views call them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from classroom.models import Attempt, Pupil
from games import selectors, services

pytestmark = pytest.mark.django_db


def test_why_stuck_names_three_wrong_steps_then_a_silence(start, pupils):
    session, table = start()
    table = type(table).objects.prefetch_related("seats").select_related("session").get(pk=table.pk)
    assert selectors.why_stuck(table, 0) == ""
    assert selectors.why_stuck(table, None) == ""  # no one's turn: no one is stuck
    for _ in range(selectors.WRONG_IN_A_ROW):
        Attempt.objects.create(
            pupil=pupils[0], session=session, table=table, game="numberquest",
            skill="add", expected="5", given="6", correct=False,
        )  # fmt: skip
    assert selectors.why_stuck(table, 0) == "three wrong steps in a row"
    assert selectors.why_stuck(table, 1) == ""
    table.turn_started_at -= selectors.SILENCE + timedelta(seconds=1)
    assert selectors.why_stuck(table, 1) == "no move for a while"


def test_seat_late_seats_only_who_signed_in_after_the_start(start, pupils):
    session, table = start(players=1, bot_level="greedy")
    Pupil.objects.filter(pk=pupils[1].pk).update(signed_in_at=session.created_at - timedelta(1))
    assert selectors.late_pupils(session) == []
    assert services.seat_late(session) == []
    Pupil.objects.filter(pk=pupils[2].pk).update(signed_in_at=session.created_at + timedelta(1))
    assert selectors.late_pupils(session) == [pupils[2]]
    assert services.seat_late(session) == [pupils[2]]
    assert selectors.late_pupils(session) == []  # seated now: not late twice
