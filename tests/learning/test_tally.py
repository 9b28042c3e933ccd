"""A pupil's whole summary, one record at a time (learning/tally.py)."""

import random
import subprocess
import sys
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from learning import bkt, tally
from tests.learning.factories import FAST, attempts_from, skill_of, synthetic_attempts, turns


def test_package_imports_without_django():
    code = (
        "import sys, learning.tally, learning.trend; "
        "sys.exit(any(name.startswith('django') for name in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


@FAST
@given(st.lists(st.booleans(), max_size=30), st.lists(st.booleans(), max_size=30))
def test_retries_never_change_the_estimate_or_accuracy(outcomes, retry_outcomes):
    firsts = attempts_from(outcomes)
    # Retries at the same minutes as first tries, and after them: order must not matter.
    retries = attempts_from(retry_outcomes, first_try=False)
    if not firsts and not retries:
        assert tally.summarise([]) == {}
        return
    alone = skill_of(firsts) if firsts else None
    both = skill_of(firsts + retries)
    if alone is None:
        assert both.estimate == bkt.P_INIT and both.status == "not_started"
    else:
        assert both.estimate == alone.estimate
        assert both.accuracy == alone.accuracy
        assert both.last10_right == alone.last10_right
        assert both.status == alone.status
    assert both.retries == len(retries)
    assert both.attempts == len(firsts) + len(retries)


@FAST
@given(st.lists(st.booleans(), min_size=1, max_size=40))
def test_summary_matches_the_plain_bkt_formula(outcomes):
    summary = skill_of(attempts_from(outcomes))
    assert summary.estimate == pytest.approx(bkt.bkt_estimate(outcomes))
    assert summary.first_tries == len(outcomes)
    assert summary.correct_first == sum(outcomes)
    assert summary.last10_total == min(10, len(outcomes))
    assert summary.last10_right == sum(outcomes[-10:])


def test_attempts_are_sorted_by_time_before_tracing():
    outcomes = [False, False, True, True, True]
    rows = attempts_from(outcomes)
    assert skill_of(list(reversed(rows))).estimate == pytest.approx(bkt.bkt_estimate(outcomes))


def test_accumulator_and_stream_match_summarise():
    rng = random.Random(7)
    rows = synthetic_attempts(5, 400, rng)
    opportunities = [o for p in range(5) for o in turns(6, p, pupil=p)]
    expected = tally.summarise(rows, opportunities)
    ordered = sorted(rows, key=lambda row: (row.pupil_id, row.created_at))
    by_pupil = {p: [o for o in opportunities if o.pupil_id == p] for p in range(5)}
    streamed = dict(tally.summarise_stream(ordered, by_pupil.__getitem__))
    assert streamed == expected


def test_accumulator_refuses_rows_out_of_time_order():
    accumulator = tally.MasteryAccumulator(1)
    later, earlier = attempts_from([True, True])[::-1]
    accumulator.add(later)
    with pytest.raises(ValueError, match="created_at order"):
        accumulator.add(earlier)


def test_stream_refuses_pupils_not_grouped():
    rows = attempts_from([True], pupil=1) + attempts_from([True], pupil=2, start=1)
    rows += attempts_from([True], pupil=1, start=2)
    with pytest.raises(ValueError, match="grouped by pupil"):
        list(tally.summarise_stream(rows))


def test_a_class_of_30_with_60000_attempts_is_fast():
    rng = random.Random(2025)
    rows = synthetic_attempts(30, 2000, rng)
    opportunities = [o for p in range(30) for o in turns(100, 30, pupil=p)]
    started = time.perf_counter()
    result = tally.summarise(rows, opportunities)
    elapsed = time.perf_counter() - started
    print(f"\nsummarise: 60,000 attempts, 30 pupils, 3,000 opportunities in {elapsed:.3f} s")
    assert len(result) == 30
    assert sum(s.attempts for p in result.values() for s in p.skills.values()) == 60_000
    assert elapsed < 1.5
