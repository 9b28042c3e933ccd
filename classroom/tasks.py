"""Celery tasks of the reports: thin, idempotent, retried.

Each task calls a service (classroom.reports.jobs / services) and nothing
more. They are acknowledged late (a worker killed mid-job leaves the message to
be delivered again, and the job resumes after its cursor), retried with
exponential backoff on database and broker errors, and a job whose retries
run out is marked failed in its row, where the page reads it.
"""

from __future__ import annotations

from celery import Task, shared_task
from django.db import DatabaseError, InterfaceError
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from classroom.reports import jobs, services

RETRY_ON = (DatabaseError, InterfaceError, BrokerError, RedisConnectionError, RedisTimeoutError)
OPTIONS = {
    "autoretry_for": RETRY_ON,
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 5,
    "acks_late": True,
    "reject_on_worker_lost": True,
}


class JobTask(Task):
    """Marks the job row failed when the task gives up (retries spent, or an
    error no retry can fix)."""

    def run_job(self, job_id: int) -> str:
        # The row is marked inside the task body: Celery stores the failed
        # result before it calls on_failure, so a caller waiting on the result
        # could otherwise read the row while it still says "running".
        try:
            return jobs.run_job(job_id)
        except RETRY_ON as exc:
            if self.request.retries >= self.max_retries:
                jobs.fail(job_id, f"{type(exc).__name__}: {exc}")
            raise
        except Exception as exc:
            jobs.fail(job_id, f"{type(exc).__name__}: {exc}")
            raise

    def on_failure(self, exc, task_id, args, kwargs, einfo):
        # A net for what the body cannot see (a worker lost mid-job).
        if args:
            jobs.fail(args[0], f"{type(exc).__name__}: {exc}")


@shared_task(base=JobTask, bind=True, **OPTIONS)
def recompute_class(self: JobTask, job_id: int) -> str:
    """A class report job (or a nightly one) by its ReportJob id."""
    return self.run_job(job_id)


@shared_task(base=JobTask, bind=True, **OPTIONS)
def build_export(self: JobTask, job_id: int) -> str:
    """An export file, kept in the job row for its teacher to download."""
    return self.run_job(job_id)


@shared_task(**OPTIONS)
def recompute_pupils(pupil_ids: list[int]) -> int:
    """After a game session ends: its pupils' snapshot."""
    return services.recompute_pupils(pupil_ids)


@shared_task(**OPTIONS)
def nightly_recompute() -> str:
    """Every class still in use, each night (CELERY_BEAT_SCHEDULE)."""
    job = jobs.nightly_job()
    return jobs.run_job(job.pk)
