"""Report jobs: the database row is the truth about a job, not Celery's result
store.

- ``request_job`` returns the queued or running job for the same work when
  there is one (a partial unique constraint makes that hold under races), so
  asking twice never starts two jobs; a job nobody has touched for
  ``STALE_AFTER`` (its message lost, its worker gone) is sent again.
- ``run_job`` is what the Celery task calls: it claims the job, works pupil
  batch by pupil batch and records ``cursor`` (the last pupil id done) and
  progress after each batch is committed. Running it again, after a retry or
  after a worker was killed and the message redelivered (acks_late), resumes
  after the cursor; running a finished job does nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone, translation

from classroom import signals
from classroom.models import Classroom, Pupil, ReportJob

from . import exports, lessons, services
from .filters import ReportFilters

log = logging.getLogger(__name__)

STALE_AFTER = timedelta(minutes=2)
EXPORT_INLINE_LIMIT = 200  # pupils; bigger exports are prepared by a job
CLASS_BATCH = 10  # pupils per step of a class job: a progress bar that moves
NIGHTLY_BATCH = 100


def job_key(kind: str, classroom: Classroom | None, params: dict, school=None) -> str:
    parts = [kind, str(classroom.pk if classroom else "all")]
    if school is not None:
        parts.append(f"school={school.pk}")
    parts += [f"{name}={params[name]}" for name in sorted(params)]
    return "|".join(parts)[:200]


def request_job(
    teacher,
    classroom: Classroom | None,
    kind: str,
    params: dict | None = None,
    *,
    send_task: bool = True,
    school=None,
) -> tuple[ReportJob, bool]:
    """The job for this work: the one already under way, or a new one sent to
    a worker once the transaction commits. Returns (job, created). A school
    report's job is the school's: whoever asks while it runs gets it."""
    params = params or {}
    key = job_key(kind, classroom, params, school)
    active = ReportJob.objects.filter(key=key, status__in=ReportJob.ACTIVE)
    if kind not in (ReportJob.Kind.NIGHTLY, ReportJob.Kind.SCHOOL):
        # Only the teacher who asked sees a job's progress (and its file).
        active = active.filter(teacher=teacher)
    job = active.first()
    if job is not None:
        if send_task and timezone.now() - job.updated_at > STALE_AFTER:
            log.warning("report job %s looks stuck: sending it again", job.pk)
            ReportJob.objects.filter(pk=job.pk).update(updated_at=timezone.now())
            _send_on_commit(job)
        return job, False
    try:
        with transaction.atomic():
            job = ReportJob.objects.create(
                teacher=teacher, classroom=classroom, school=school, kind=kind, params=params,
                key=key,
            )
    except IntegrityError:
        # Someone asked at the same moment: theirs is the job.
        return ReportJob.objects.filter(key=key, status__in=ReportJob.ACTIVE).get(), False
    if send_task:
        _send_on_commit(job)
    return job, True


def _send_on_commit(job: ReportJob) -> None:
    transaction.on_commit(lambda: send(job.pk))


def send(job_id: int) -> None:
    """Hand the job to Celery. A broker that is down leaves the job queued:
    the next request finds it stale and sends it again."""
    kind = _kind(job_id)
    name = "build_export" if kind == ReportJob.Kind.EXPORT else "recompute_class"
    # By name, not by import: classroom.tasks calls this module, and the
    # floors above hand in their own kinds' tasks (``provide_kind``).
    task = current_app.tasks[TASKS.get(kind, f"classroom.tasks.{name}")]
    try:
        result = task.delay(job_id)
    except Exception as error:
        log.exception("could not run report job %s", job_id)
        if task.app.conf.task_always_eager:
            # Run in this process and failed: say so rather than look stuck.
            fail(job_id, f"{type(error).__name__}: {error}")
        return  # broker down: the job stays queued and is sent again when stale
    if result.id:
        ReportJob.objects.filter(pk=job_id, celery_task_id="").update(celery_task_id=result.id)


# kind -> (the Celery task's name, what runs the claimed job): the kinds of
# the floors above classroom, handed in when Django starts (school.apps).
TASKS: dict[str, str] = {}
RUNNERS: dict[str, Callable[[ReportJob], None]] = {}


def provide_kind(kind: str, task_name: str, runner: Callable[[ReportJob], None]) -> None:
    TASKS[kind] = task_name
    RUNNERS[kind] = runner


def _kind(job_id: int) -> str:
    return ReportJob.objects.filter(pk=job_id).values_list("kind", flat=True).first() or ""


# ------------------------------------------------------------------ running


def claim(job_id: int) -> ReportJob | None:
    """Mark the job running; None when it is already finished (a duplicate
    delivery) or gone (the class was deleted)."""
    now = timezone.now()
    claimed = ReportJob.objects.filter(pk=job_id, status__in=ReportJob.ACTIVE).update(
        status=ReportJob.Status.RUNNING, attempts=F("attempts") + 1, updated_at=now
    )
    if not claimed:
        return None
    ReportJob.objects.filter(pk=job_id, started_at__isnull=True).update(started_at=now)
    return ReportJob.objects.get(pk=job_id)


def pupils_of(job: ReportJob):
    if job.classroom_id:
        return Pupil.objects.filter(classroom_id=job.classroom_id)
    return Pupil.objects.filter(classroom__archived_at__isnull=True)


def _progress(job: ReportJob, done: int, total: int, cursor: int | None, share: int = 100):
    percent = min(99, (share * done) // total) if total else 0
    ReportJob.objects.filter(pk=job.pk).update(
        done=done, total=total, cursor=cursor, progress=percent, updated_at=timezone.now()
    )


def finish(job_id: int, **fields) -> None:
    ReportJob.objects.filter(pk=job_id).update(
        status=ReportJob.Status.DONE,
        progress=100,
        finished_at=timezone.now(),
        error="",
        updated_at=timezone.now(),
        **fields,
    )


def fail(job_id: int, error: str) -> None:
    ReportJob.objects.filter(pk=job_id, status__in=ReportJob.ACTIVE).update(
        status=ReportJob.Status.FAILED,
        error=error[:2000],
        finished_at=timezone.now(),
        updated_at=timezone.now(),
    )


def run_recompute(job: ReportJob) -> None:
    """Recompute the snapshot of the job's pupils, resuming after its cursor."""
    pupils = pupils_of(job)
    total = pupils.count()
    todo = pupils.order_by("pk")
    if job.cursor is not None:
        todo = todo.filter(pk__gt=job.cursor)
    ids = list(todo.values_list("pk", flat=True))
    done = total - len(ids)
    batch = NIGHTLY_BATCH if job.kind == ReportJob.Kind.NIGHTLY else CLASS_BATCH

    def after(chunk: list[int]) -> None:
        nonlocal done
        done += len(chunk)
        _progress(job, done, total, chunk[-1])

    _progress(job, done, total, job.cursor)
    services.recompute_pupils(ids, batch=batch, on_batch=after)
    # The next lesson's figures, so the report page finds them in the cache.
    lessons.warm()
    finish(job.pk, done=total, total=total)


def run_export(job: ReportJob) -> None:
    """Build the export file: 90% of the bar for the rows, the rest to write it."""
    classroom = job.classroom
    filters = ReportFilters.from_params(job.params)
    total = classroom.pupils.count()
    done = 0

    def after(chunk: list[int]) -> None:
        nonlocal done
        done += len(chunk)
        _progress(job, done, total, chunk[-1], share=90)

    _progress(job, 0, total, None)
    with translation.override(job.params.get("language") or settings.LANGUAGE_CODE):
        report = services.class_report(classroom, filters, on_batch=after)
        fmt = job.params.get("format", "csv")
        content, content_type, name = exports.render(report, fmt)
    with transaction.atomic():
        finish(job.pk, result=content, result_type=content_type, result_name=name, done=total)
        # The file is made for the teacher who asked: that is the export the
        # school's record keeps (downloading it again hands out the same file).
        signals.pupil_data_handled.send(
            sender=ReportJob, action=signals.CLASS_EXPORT, teacher=job.teacher,
            classroom=classroom, pupil=None, count=len(report.rows),
            detail={**job.params, "prepared": True},
        )


def run_job(job_id: int) -> str:
    job = claim(job_id)
    if job is None:
        return "skipped"
    if job.kind in RUNNERS:
        RUNNERS[job.kind](job)
    elif job.kind == ReportJob.Kind.EXPORT:
        run_export(job)
    else:
        run_recompute(job)
    return "done"


def nightly_job() -> ReportJob:
    """Tonight's recompute of every class still in use, as a job row (the
    nightly task runs it itself: it is already on a worker)."""
    night = {"night": str(timezone.localdate())}
    job, _ = request_job(None, None, ReportJob.Kind.NIGHTLY, night, send_task=False)
    return job
