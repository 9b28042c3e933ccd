"""The school's Celery tasks: thin, idempotent, retried as the class reports' are."""

from __future__ import annotations

from celery import shared_task

from classroom.tasks import OPTIONS, JobTask


@shared_task(base=JobTask, bind=True, **OPTIONS)
def build_school_report(self: JobTask, job_id: int) -> str:
    """A school report job by its ReportJob id (school.report.jobs.run)."""
    return self.run_job(job_id)
