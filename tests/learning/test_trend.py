"""Accuracy and estimate over time (learning/trend.py)."""

from datetime import timedelta

import pytest

from learning import bkt, trend
from tests.learning.factories import START, attempts_from


def test_trend_per_week_carries_the_estimate():
    outcomes = [False, True, True, True, False, True, True, True, True]
    rows = [
        row._replace(created_at=START + timedelta(days=3 * i))
        for i, row in enumerate(attempts_from(outcomes))
    ]
    rows.append(rows[0]._replace(first_try=False, created_at=START + timedelta(days=1)))
    points = trend.trend(rows, "add")
    assert [p.bucket for p in points] == ["2025-W02", "2025-W03", "2025-W04", "2025-W05"]
    assert [(p.correct, p.attempts) for p in points] == [(2, 3), (1, 2), (2, 2), (2, 2)]
    assert points[-1].estimate == pytest.approx(bkt.bkt_estimate(outcomes))
    assert points[0].estimate == pytest.approx(bkt.bkt_estimate(outcomes[:3]))
    assert trend.trend(rows, "div") == []
    assert len(trend.trend(rows, "add", buckets=trend.by_day)) == len(outcomes)
