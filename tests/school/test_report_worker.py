"""The school report's job on a real Celery worker over Redis (where REDIS_URL
is set); without Redis the same tests run the same code eagerly, in process.
The job is sent by name (``school.tasks.build_school_report``), as the page sends it."""

from __future__ import annotations

import json
import time

import pytest
from django.db import OperationalError

from classroom.models import PupilSkill, ReportJob, Teacher
from classroom.reports import jobs as class_jobs
from classroom.reports import services
from school import tasks
from school.report import jobs
from tests.school.conftest import adult, pupil
from tests.school.test_report import play

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
# The test waits on the task from its own thread, never from a task: Celery's
# guard against that (a process-wide flag a worker sets) must not refuse it.
WAIT = {"timeout": 60, "disable_sync_subtasks": False}


@pytest.fixture
def job(school, school_classes):
    ce1a, ce1b, _atelier = school_classes
    play(ce1a, pupil(ce1a, "Léa", "M"), "add", right=20, wrong=0)
    play(ce1b, pupil(ce1b, "Noah", "B"), "add", right=2, wrong=18)
    admin = adult("worker-admin@tilleuls.test", school, Teacher.Role.ADMIN)
    created, _ = class_jobs.request_job(
        admin, None, ReportJob.Kind.SCHOOL, send_task=False, school=school
    )
    return created


def test_the_school_job_runs_on_the_worker(worker, job):
    assert tasks.build_school_report.delay(job.pk).get(**WAIT) == "done"
    job.refresh_from_db()
    assert (job.status, job.progress, job.done, job.total) == ("done", 100, 2, 2)
    data = json.loads(bytes(job.result))
    assert [line["name"] for line in data["classes"]] == ["CE1 A", "CE1 B", "Atelier"]
    assert PupilSkill.objects.filter(skill="add").count() == 2
    # A second delivery of the same message finds the job done and does nothing.
    assert tasks.build_school_report.delay(job.pk).get(**WAIT) == "skipped"


def test_a_school_job_that_fails_once_succeeds_on_retry(worker, job, monkeypatch):
    original = services.recompute_pupils
    calls = []

    def flaky(ids, **kwargs):
        calls.append(list(ids))
        if len(calls) == 1:
            raise OperationalError("the database went away")
        return original(ids, **kwargs)

    monkeypatch.setattr(services, "recompute_pupils", flaky)
    assert tasks.build_school_report.delay(job.pk).get(**WAIT) == "done"
    job.refresh_from_db()
    assert len(calls) == 2 and job.attempts == 2 and job.status == "done"


def test_the_page_sends_it_by_name(worker, school, school_classes, job):
    """``jobs.send`` picks the school's task from the kinds school.apps handed in."""
    ReportJob.objects.filter(pk=job.pk).delete()
    admin = Teacher.objects.get(email="worker-admin@tilleuls.test")
    sent, created = jobs.request(admin)  # autocommit: sent at once
    assert created
    for _ in range(300):
        sent.refresh_from_db()
        if not sent.is_active:
            break
        time.sleep(0.1)
    assert sent.status == "done" and sent.celery_task_id
