"""The report job on a real Celery worker over Redis (in CI, where REDIS_URL is
set); without Redis the same tests run the same code eagerly, in process."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from classroom import tasks
from classroom.models import Attempt, PupilSkill, ReportJob
from classroom.reports import jobs, services
from games.models import GameSession, Seat, Table

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def job(classroom, teacher, pupils):
    from django.utils import timezone

    session = GameSession.objects.create(
        classroom=classroom, teacher=teacher, game="numberquest", status="ended"
    )
    table = Table.objects.create(
        session=session, number=1, seed=1, state={}, turn_started_at=timezone.now()
    )
    Attempt.objects.bulk_create(
        Attempt(
            pupil=pupil,
            session=session,
            table=table,
            game="numberquest",
            skill="add",
            operands=["2", "2"],
            expected="4",
            given="4" if i % 3 else "5",
            correct=bool(i % 3),
        )
        for pupil in pupils
        for i in range(9)
    )
    for index, pupil in enumerate(pupils):
        Seat.objects.create(table=table, player=index, pupil=pupil)
    created, _ = jobs.request_job(teacher, classroom, "class_mastery", send_task=False)
    return created


def test_the_report_job_runs_on_the_worker(worker, job, pupils):
    assert tasks.recompute_class.delay(job.pk).get(timeout=30) == "done"
    job.refresh_from_db()
    assert (job.status, job.progress, job.done, job.total) == ("done", 100, 3, 3)
    assert PupilSkill.objects.filter(skill="add", first_tries=9).count() == 3
    # A second delivery of the same message finds the job done and does nothing.
    assert tasks.recompute_class.delay(job.pk).get(timeout=30) == "skipped"


def test_a_job_that_fails_once_succeeds_on_retry(worker, job, monkeypatch):
    original = services.recompute_pupils
    calls = []

    def flaky(ids, **kwargs):
        calls.append(list(ids))
        if len(calls) == 1:
            raise OperationalError("the database went away")
        return original(ids, **kwargs)

    monkeypatch.setattr(services, "recompute_pupils", flaky)
    assert tasks.recompute_class.delay(job.pk).get(timeout=30) == "done"
    job.refresh_from_db()
    assert len(calls) == 2 and job.attempts == 2  # retried once, with backoff
    assert job.status == "done" and job.error == ""


def test_a_job_that_keeps_failing_is_marked_failed(worker, job, monkeypatch):
    def broken(ids, **kwargs):
        raise ValueError("a bug, not a hiccup")

    monkeypatch.setattr(services, "recompute_pupils", broken)
    with pytest.raises(ValueError):
        tasks.recompute_class.delay(job.pk).get(timeout=30)
    job.refresh_from_db()
    assert job.status == ReportJob.Status.FAILED and "a bug" in job.error
