"""Days at the edges of the calendar on a class report, its exports and its
job (issue 31, section 6): a form error, never a 500."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from classroom.models import ReportJob
from classroom.reports import jobs
from classroom.reports.filters import ReportFilterForm, ReportFilters

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

EDGES = [{"to": "9999-12-31"}, {"from": "0001-01-01"}, {"from": "0001-01-01", "to": "9999-12-31"}]


@pytest.mark.parametrize("days", EDGES)
def test_the_report_page_says_the_day_is_out_of_range(teacher_client, classroom, days):
    response = teacher_client.get(reverse("reports:class_report", args=[classroom.pk]), days)
    assert response.status_code == 200
    assert "Choose a day between 1 January 2000 and 31 December 2999." in response.content.decode()


@pytest.mark.parametrize("days", EDGES)
@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf"])
def test_an_export_goes_back_to_the_form_instead(teacher_client, classroom, days, fmt):
    response = teacher_client.get(
        reverse("reports:class_export", args=[classroom.pk, fmt]), days
    )
    assert response.status_code == 302
    page = teacher_client.get(response.url).content.decode()
    assert "Choose a day between" in page


@pytest.mark.parametrize("days", EDGES)
def test_a_prepared_export_asks_for_no_job_with_such_days(
    teacher_client, classroom, days, django_capture_on_commit_callbacks
):
    url = reverse("reports:class_prepare", args=[classroom.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = teacher_client.post(url, {"format": "csv", **days})
        htmx = teacher_client.post(url, {"format": "csv", **days}, HTTP_HX_REQUEST="true")
    assert response.status_code == 302 and "Choose a day between" in (
        teacher_client.get(response.url).content.decode()
    )
    assert htmx.headers["HX-Redirect"] == response.url
    assert not ReportJob.objects.filter(kind="export").exists()


@pytest.mark.parametrize("days", EDGES)
def test_a_job_kept_with_such_days_runs_unfiltered(classroom, teacher, days):
    """A job asked for before the form refused these days still runs."""
    job, _created = jobs.request_job(
        teacher, classroom, ReportJob.Kind.EXPORT, {"format": "csv", "language": "en", **days},
        send_task=False,
    )
    assert jobs.run_job(job.pk) == "done"
    assert ReportFilters.from_params(days) == ReportFilters()


def test_the_days_at_the_edges_of_the_range_are_taken(classroom):
    form = ReportFilterForm({"from": "2000-01-01", "to": "2999-12-31"})
    assert form.is_valid()
    assert ReportFilters(*[form.filters().date_from, form.filters().date_to]).apply(
        classroom.pupils.none()
    ).count() == 0


def test_the_form_error_in_french(classroom):
    with translation.override("fr"):
        form = ReportFilterForm({"to": "9999-12-31"})
        assert not form.is_valid()
        assert form.errors["date_to"] == [
            "Choisissez un jour entre le 1 janvier 2000 et le 31 décembre 2999."
        ]
