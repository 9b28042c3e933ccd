"""The school report's job: a ``ReportJob`` of kind SCHOOL with the school's FK.

It runs in two parts, each moving the progress bar: the skills snapshot of
the school's pupils whose evidence is newer than it (``freshness``), batch by
batch, then the figures of each class (``figures.build``), kept as JSON in the
job's ``result``. Run again after a worker was lost, it starts from what is
still stale: the batches already written are not.
"""

from __future__ import annotations

import json

from django.db.models import F
from django.utils import timezone

from classroom.models import Pupil, ReportJob, Teacher
from classroom.reports import jobs, services

from . import figures, freshness

RECOMPUTE_SHARE = 90  # per cent of the bar for the snapshot; the rest for the classes
BATCH = 25  # pupils per step: about a second of work, so the bar moves
RESULT_TYPE = "application/json"


def request(teacher: Teacher) -> tuple[ReportJob, bool]:
    """The school's job under way, or a new one sent to a worker. Returns (job, created)."""
    return jobs.request_job(teacher, None, ReportJob.Kind.SCHOOL, school=teacher.school)


def latest(school) -> ReportJob | None:
    """The school's last report built."""
    return (
        ReportJob.objects.filter(
            school=school, kind=ReportJob.Kind.SCHOOL, status=ReportJob.Status.DONE
        )
        .order_by(F("finished_at").desc(nulls_last=True), "-pk")
        .first()
    )


def under_way(school) -> ReportJob | None:
    return (
        ReportJob.objects.filter(
            school=school, kind=ReportJob.Kind.SCHOOL, status__in=ReportJob.ACTIVE
        )
        .order_by("-pk")
        .first()
    )


def report_of(job: ReportJob) -> figures.SchoolReport:
    data = json.loads(bytes(job.result).decode("utf-8"))
    return figures.load(job.school, data, job.finished_at)


def _record(job: ReportJob, done: int, total: int, percent: int) -> None:
    ReportJob.objects.filter(pk=job.pk).update(
        done=done, total=total, progress=min(99, percent), updated_at=timezone.now()
    )


def run(job: ReportJob) -> None:
    """What the Celery task runs for a claimed SCHOOL job."""
    school = job.school
    pupil_ids = list(
        Pupil.objects.filter(classroom__in=figures.school_classrooms(school)).values_list(
            "pk", flat=True
        )
    )
    total = len(pupil_ids)
    stale = freshness.stale_pupils(pupil_ids)
    done = total - len(stale)

    def after(chunk: list[int]) -> None:
        nonlocal done
        done += len(chunk)
        _record(job, done, total, RECOMPUTE_SHARE * done // total)
        ReportJob.objects.filter(pk=job.pk).update(cursor=chunk[-1])

    _record(job, done, total, RECOMPUTE_SHARE * done // total if total else 0)
    services.recompute_pupils(stale, batch=BATCH, on_batch=after)

    def per_class(index: int, count: int) -> None:
        _record(job, total, total, RECOMPUTE_SHARE + (100 - RECOMPUTE_SHARE) * index // count)

    data = figures.build(school, on_class=per_class)
    jobs.finish(
        job.pk,
        result=json.dumps(data, separators=(",", ":")).encode("utf-8"),
        result_type=RESULT_TYPE,
        result_name="",
        done=total,
        total=total,
    )
