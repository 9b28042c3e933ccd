"""The test DESIGN.md asks for: a simulated pupil who is right at + and × and
wrong at ÷ half the time plays real Number Quest games through the engine; the
class report says they need help with ÷, and with nothing else."""

from __future__ import annotations

import itertools

import pytest
from django.utils import timezone

from classroom.models import Attempt
from classroom.reports import services
from engine.numberquest import GAME, bot_moves
from games.models import GameSession, Table

pytestmark = pytest.mark.django_db
GAMES = 6


def play_a_game(seed: int, divisions: itertools.count) -> list:
    """One classic game against a computer player; the pupil (player 0) picks
    the square a greedy player would and types every result, wrongly for every
    other division. Returns the pupil's attempts, as the engine checked them."""
    state = GAME.new({"preset": "classic"}, 2, seed)
    attempts = []
    while GAME.result(state) is None and state.turn < 400:
        player = state.current
        for move in bot_moves(state, player, "greedy", state.turn):
            divides = player == 0 and move["type"] == "step" and move["op"] == "/"
            if divides and next(divisions) % 2:  # every other division typed wrong
                move = {**move, "result": move["result"] + 1}
            outcome = GAME.apply(state, player, move)
            state = outcome.state
            if player == 0:
                attempts.extend(outcome.attempts)
            if state.current != player:
                break  # a wrong step loses the turn
    return attempts


def test_a_pupil_wrong_at_division_half_the_time_needs_help_with_division_only(
    classroom, teacher, pupils
):
    lea = pupils[0]
    divisions = itertools.count()
    rows = []
    for game in range(GAMES):
        session = GameSession.objects.create(
            classroom=classroom, teacher=teacher, game="numberquest", status="ended"
        )
        table = Table.objects.create(
            session=session, number=1, seed=game, state={}, turn_started_at=timezone.now()
        )
        rows += [
            Attempt(pupil=lea, session=session, table=table, game="numberquest", skill=a.skill,
                    operands=[str(v) for v in a.operands], expected=str(a.expected),
                    given=str(a.given), correct=a.correct, first_try=a.first_try)
            for a in play_a_game(100 + game, divisions)
        ]
    Attempt.objects.bulk_create(rows)
    divisions = [r for r in rows if r.skill == "div"]
    assert len(divisions) >= 10 and 0.3 < sum(r.correct for r in divisions) / len(divisions) < 0.7

    services.recompute_pupils([lea.pk])
    report = services.class_report(classroom)
    cells = {cell.skill: cell for cell in next(r for r in report.rows if r.pupil == lea).cells}
    assert cells["div"].status == "needs_help"
    assert cells["div"].summary.sentence.startswith("needs help: ")
    for skill in ("add", "sub", "mul"):
        assert cells[skill].status != "needs_help", cells[skill].summary.sentence
    assert cells["add"].status == cells["mul"].status == "mastered"
    [(pupil, helped)] = report.needs_help
    assert pupil == lea and [cell.skill for cell in helped] == ["div"]
