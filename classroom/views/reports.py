"""Skill reports: the class grid, one pupil, their exports
and the progress of report jobs. A teacher sees only their own."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from learning.opportunities import AVOID_MIN_CHANCES

from .. import roles, roster, selectors, signals
from ..models import ReportJob
from ..reports import exports, jobs, lessons, services
from ..reports.filters import ReportFilterForm, ReportFilters
from .access import exported_classroom, seen_classroom, seen_pupil, teacher_required


def _filters(request) -> tuple[ReportFilterForm, ReportFilters]:
    source = request.POST if request.method == "POST" else request.GET
    form = ReportFilterForm(source)
    filters = form.filters() if form.is_valid() else ReportFilters()
    return form, filters


def _report_url(classroom, filters: ReportFilters, **extra) -> str:
    params = {**filters.as_params(), **extra}
    url = reverse("reports:class_report", args=[classroom.pk])
    return f"{url}?{urlencode(params)}" if params else url


@teacher_required
@require_GET
def class_report(request, pk: int):
    classroom = seen_classroom(request, pk)
    form, filters = _filters(request)
    report = services.class_report(classroom, filters)
    asked = request.GET.get("job", "")
    asked_job = int(asked) if asked.isascii() and asked.isdigit() and len(asked) < 12 else None
    query = urlencode(filters.as_params())
    mixed = request.GET.get("mixed") == "1"
    computed = report.live or report.updated_at
    return render(
        request,
        "classroom/report_class.html",
        {
            "classroom": classroom,
            "report": report,
            "form": form,
            "runs": roles.runs(request.user, classroom.pk),
            "exports": roles.exports(request.user, classroom.pk),
            "filters": filters,
            "query": f"?{query}" if query else "",
            "jobs": selectors.report_jobs_shown(request.user, classroom, asked_job),
            "large": len(report.rows) > jobs.EXPORT_INLINE_LIMIT,
            "formats": ("csv", "xlsx", "pdf"),
            "rules": services.RULES,
            "lessons": lessons.proposals(report, request.user, mixed=mixed) if computed else None,
            "mixed_url": _report_url(classroom, filters, mixed="1") + "#next-lesson",
            "same_url": _report_url(classroom, filters) + "#next-lesson",
        },
    )


@teacher_required
@require_POST
def class_refresh(request, pk: int):
    """Recompute the class's snapshot in the background; asking twice gives
    back the job already under way."""
    classroom = seen_classroom(request, pk)
    job, _created = jobs.request_job(request.user, classroom, ReportJob.Kind.CLASS_MASTERY)
    return _job_answer(request, job, classroom)


@teacher_required
@require_POST
def class_prepare(request, pk: int):
    """An export file built by a job, for big classes or when asked."""
    classroom = exported_classroom(request, pk)
    form, filters = _filters(request)
    fmt = request.POST.get("format", "")
    if fmt not in exports.WRITERS:
        raise Http404
    if not form.is_valid():
        return _refused_filters(request, classroom)
    # The worker has no request: the file is written in the language of the page that asked.
    params = {"format": fmt, "language": get_language(), **filters.as_params()}
    job, _created = jobs.request_job(request.user, classroom, ReportJob.Kind.EXPORT, params)
    return _job_answer(request, job, classroom, filters)


def _refused_filters(request, classroom):
    """Filters the form refuses (a day out of range, the last before the
    first): back to the report, whose form says what is wrong, rather than a
    file of other days than the ones asked for."""
    source = request.POST if request.method == "POST" else request.GET
    asked = {name: source.get(name, "")[:40] for name in ("from", "to", "game")}
    url = reverse("reports:class_report", args=[classroom.pk])
    url = f"{url}?{urlencode({k: v for k, v in asked.items() if v})}"
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _job_answer(request, job, classroom, filters: ReportFilters | None = None):
    job.refresh_from_db()
    if request.htmx:
        return job_status_response(request, job)
    return redirect(_report_url(classroom, filters or ReportFilters(), job=job.pk))


@teacher_required
@require_GET
def class_export(request, pk: int, fmt: str):
    classroom = exported_classroom(request, pk)
    if fmt not in exports.WRITERS:
        raise Http404
    form, filters = _filters(request)
    if not form.is_valid():
        return _refused_filters(request, classroom)
    if classroom.pupils.count() > jobs.EXPORT_INLINE_LIMIT:
        messages.info(
            request, _("This class is large: prepare the file and download it when it is ready.")
        )
        return redirect(_report_url(classroom, filters))
    report = services.class_report(classroom, filters)
    content, content_type, name = exports.render(report, fmt)
    signals.pupil_data_handled.send(
        sender=class_export, action=signals.CLASS_EXPORT, teacher=request.user,
        classroom=classroom, pupil=None, count=len(report.rows),
        detail={"format": fmt, **filters.as_params()},
    )
    return _download(content, content_type, name)


def _download(content: bytes, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _own_job(request, pk: int, classes=roles.classrooms_seen_by) -> ReportJob:
    """One's own job, of a class one still may read (or export): a co-teacher
    taken off the class, a teacher gone to another school, keep nothing of it."""
    return get_object_or_404(
        ReportJob.objects.select_related("classroom"),
        pk=pk,
        teacher=request.user,
        classroom__in=classes(request.user),
    )


@teacher_required
@require_GET
def job_status(request, pk: int):
    return job_status_response(request, _own_job(request, pk))


def job_status_response(request, job: ReportJob):
    context = {"job": job}
    if request.htmx:
        response = render(request, "classroom/reports/_job.html", context)
        if job.status == ReportJob.Status.DONE and job.kind != ReportJob.Kind.EXPORT:
            # The grid behind the bar is new: reload the page that polled.
            response["HX-Refresh"] = "true"
        return response
    return render(request, "classroom/report_job.html", context)


@teacher_required
@require_GET
def job_download(request, pk: int):
    job = _own_job(request, pk, roles.classrooms_exported_by)
    if job.kind != ReportJob.Kind.EXPORT or job.status != ReportJob.Status.DONE:
        raise Http404
    return _download(bytes(job.result), job.result_type, job.result_name)


@teacher_required
@require_GET
def pupil_report(request, pk: int):
    pupil = roster.label_each([seen_pupil(request, pk)])[0]
    report = services.pupil_report(pupil)
    return render(
        request,
        "classroom/report_pupil.html",
        {
            "pupil": pupil,
            "classroom": pupil.classroom,
            "report": report,
            "avoid_min_chances": AVOID_MIN_CHANCES,
            "practice_changes": lessons.pupil_changes(pupil),
        },
    )
