"""What pupils type in the track game and in NMBR 9 reaches the skill reports."""

import pytest

from classroom.reports.filters import ReportFilters
from classroom.reports.services import class_report
from engine.nmbr9 import GAME as NMBR9
from engine.nmbr9 import bot_moves as nmbr9_bot_moves
from engine.ultimes import GAME as ULTIMES
from engine.ultimes import bot_moves as ultimes_bot_moves
from games import services

pytestmark = pytest.mark.django_db


def play_out(table, pupil, game, bot_moves, turns):
    """The pupil plays right answers (the bot's) for a few turns or to the end."""
    for _ in range(turns):
        table.refresh_from_db()
        state = game.from_json(table.state)
        if game.result(state) is not None:
            return
        for index, move in enumerate(bot_moves(state, 0, 0)):
            table.refresh_from_db()
            answer = services.play(table.pk, pupil, move, table.version, f"{table.version}-{index}")
            assert answer.status == "applied", answer.refusal


def test_the_track_game_feeds_sums_primes_and_powers(classroom, teacher, pupils):
    session = services.start_session(
        classroom, teacher, game="ultimes", options={}, pupils=pupils[:1], table_size=1, seed=5
    )
    play_out(session.tables.get(), pupils[0], ULTIMES, ultimes_bot_moves, turns=40)
    report = class_report(classroom, ReportFilters(game="ultimes"))
    assert {"add", "primes"} <= set(report.skills)
    row = next(r for r in report.rows if r.pupil == pupils[0])
    counted = {cell.summary.skill: cell.summary.attempts for cell in row.cells}
    assert counted["add"] > 0 and counted["primes"] > 0


def test_nmbr9_counting_feeds_multiplication_and_addition(classroom, teacher, pupils):
    session = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils[:1], table_size=1, seed=5
    )
    play_out(session.tables.get(), pupils[0], NMBR9, nmbr9_bot_moves, turns=40)
    report = class_report(classroom, ReportFilters(game="nmbr9"))
    assert {"mul", "add"} <= set(report.skills)
    row = next(r for r in report.rows if r.pupil == pupils[0])
    counted = {cell.summary.skill: cell.summary.attempts for cell in row.cells}
    assert counted["mul"] >= 2 and counted["add"] >= 1
