"""The school's Celery tasks: thin, idempotent, retried as the class reports' are
(the leavers' erasure each night by CELERY_BEAT_SCHEDULE, the school report's job)."""

from __future__ import annotations

from celery import shared_task

from classroom.tasks import OPTIONS, JobTask

from . import leavers


@shared_task(**OPTIONS)
def erase_leavers(now: str | None = None) -> int:
    """Erase the pupils whose school's retention days are over; how many.
    ``now`` (ISO 8601) stands in for the clock: a test's frozen time, or a
    catch-up by hand. Erasing twice is harmless: an erased pupil is gone."""
    return sum(erased.count for erased in leavers.erase_due(leavers.moment(now) if now else None))


@shared_task(base=JobTask, bind=True, **OPTIONS)
def build_school_report(self: JobTask, job_id: int) -> str:
    """A school report job by its ReportJob id (school.report.jobs.run)."""
    return self.run_job(job_id)
