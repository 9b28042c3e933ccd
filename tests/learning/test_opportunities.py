"""Avoiding an operation (learning/opportunities.py)."""

import pytest

from learning import opportunities, tally
from tests.learning.factories import step, turns


@pytest.mark.parametrize(
    ("could", "used", "avoids"),
    [(9, 1, True), (5, 0, True), (4, 0, False), (10, 2, False), (10, 1, True)],
)
def test_avoidance_rule(could, used, avoids):
    result = opportunities.avoidance(turns(could, used))
    assert result["div"] == opportunities.Avoidance("div", could, used, used / could, avoids)
    assert result["add"].avoids is False and result["add"].rate == 1.0
    assert result["mul"] == opportunities.Avoidance("mul", 0, 0, None, False)


def test_avoidance_shows_even_with_perfect_accuracy():
    rows = [step("div", 12, 3, 4, 4, minute=i, game=1 + i % 2) for i in range(10)]
    pupil = tally.summarise(rows, turns(9, 1))[1]
    assert pupil.skills["div"].status == "mastered"
    assert pupil.avoidance["div"].avoids
    assert opportunities.explain(pupil.avoidance["div"]) == (
        "avoids division: divided in only 1 of 9 turns where dividing would help"
    )
    assert opportunities.explain(opportunities.avoidance(turns(6, 0))["div"]) == (
        "avoids division: has not divided in 6 turns where dividing would help"
    )
    assert opportunities.why_avoided(opportunities.avoidance(turns(10, 1))["div"]) == (
        "divided in only 1 of 10 turns where dividing would help"
    )
    assert opportunities.explain(opportunities.avoidance(turns(3, 0))["div"]) == (
        "division: not known yet, 3 of the 5 turns needed so far"
    )
    assert opportunities.explain(opportunities.avoidance(turns(6, 0))["add"]) == (
        "uses addition: added 6 of 6 times it could"
    )


def test_opportunities_alone_make_a_pupil():
    assert tally.summarise([], turns(5, 0, pupil=9))[9].avoidance["div"].avoids
