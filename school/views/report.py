"""The school report's pages: the report, building it, its progress, its files.

Who: the school's administrator and maths lead read it and build it
(``roles.sees_whole_school``); the administrator alone takes its files away
(``roles.manages_school``: "the administrator may also export them"). Every
other signed-in adult is refused with a 403, whatever job id or format they
try; a job of another school is not found.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from classroom import roles
from classroom.models import ReportJob

from ..report import exports, jobs


def _whole_school(request):
    if not roles.sees_whole_school(request.user):
        raise PermissionDenied
    return request.user.school


@login_required
@require_GET
def report(request):
    school = _whole_school(request)
    built = jobs.latest(school)
    return render(
        request,
        "school/report/page.html",
        {
            "school": school,
            "report": jobs.report_of(built) if built else None,
            "job": jobs.under_way(school),
            "may_export": roles.manages_school(request.user),
            "formats": exports.FORMATS,
        },
    )


@login_required
@require_POST
def build(request):
    """Build the report in the background; asking while it runs gives back the
    job under way (whoever of the school asked for it)."""
    _whole_school(request)
    job, _created = jobs.request(request.user)
    job.refresh_from_db()
    if request.htmx:
        return _job_response(request, job)
    return redirect("school:report")


@login_required
@require_GET
def job_status(request, pk: int):
    school = _whole_school(request)
    job = get_object_or_404(ReportJob, pk=pk, school=school, kind=ReportJob.Kind.SCHOOL)
    if not request.htmx:
        return redirect("school:report")
    return _job_response(request, job)


def _job_response(request, job: ReportJob) -> HttpResponse:
    response = render(request, "school/report/_job.html", {"job": job})
    if job.status == ReportJob.Status.DONE:
        # The figures behind the bar are new: reload the page that polled, as
        # the class report does.
        response["HX-Refresh"] = "true"
    return response


@login_required
@require_GET
def export(request, fmt: str):
    school = _whole_school(request)
    if not roles.manages_school(request.user):
        raise PermissionDenied
    if fmt not in exports.FORMATS:
        raise Http404
    built = jobs.latest(school)
    if built is None:
        messages.info(
            request, _("Build the school report first: the files show the last one built.")
        )
        return redirect("school:report")
    content, content_type, name = exports.render(jobs.report_of(built), fmt)
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response
