"""Bayesian Knowledge Tracing (learning/bkt.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from learning import bkt
from tests.learning.factories import FAST


def test_parameters_are_sane():
    # Non-degenerate BKT (Baker et al. 2008): a right answer is evidence of knowing.
    assert bkt.P_GUESS < 0.5 and bkt.P_SLIP < 0.5 and 1 - bkt.P_SLIP > bkt.P_GUESS
    # Wrong answers only ever lower estimates that start above this floor.
    assert bkt.P_INIT > bkt.BKT_WRONG_FLOOR
    assert bkt.bkt_update(bkt.BKT_WRONG_FLOOR, False) == pytest.approx(bkt.BKT_WRONG_FLOOR)


@FAST
@given(st.floats(0, 1))
def test_a_right_answer_never_lowers_the_estimate(estimate):
    assert bkt.bkt_update(estimate, True) >= estimate


@FAST
@given(st.floats(0, 1))
def test_estimate_stays_between_0_and_1(estimate):
    for correct in (True, False):
        assert 0.0 <= bkt.bkt_update(estimate, correct) <= 1.0


@FAST
@given(st.lists(st.booleans(), max_size=60))
def test_each_step_from_the_start_moves_the_right_way(outcomes):
    estimate = bkt.P_INIT
    for correct in outcomes:
        after = bkt.bkt_update(estimate, correct)
        assert 0.0 <= after <= 1.0
        if correct:
            assert after >= estimate
        else:
            assert after <= estimate
        estimate = after


@FAST
@given(st.floats(0.115, 1))
def test_a_wrong_answer_never_raises_an_estimate_above_the_floor(estimate):
    assert bkt.bkt_update(estimate, False) <= estimate
