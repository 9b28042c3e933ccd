"""The school report's pages: who may read, build and export it; its job and
progress; its files in both languages; what it says of pupils."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import Attempt, ReportJob, Teacher
from games.models import GameSession, Seat, Table
from school.models import School
from school.report import freshness, jobs
from tests.school.conftest import adult, pupil

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

PAGE = reverse("school:report")
BUILD = reverse("school:report_build")


def play(classroom, pupil_, skill: str, right: int, wrong: int, games: int = 2) -> None:
    """``right`` then ``wrong`` first tries of ``skill`` in ``games`` games (a status needs two)."""
    start = timezone.now() - timedelta(days=10)
    made = []
    for number in range(games):
        session = GameSession.objects.create(
            classroom=classroom, teacher=classroom.teacher, game="numberquest", status="ended"
        )
        table = Table.objects.create(
            session=session, number=1, seed=number, state={}, turn_started_at=start
        )
        Seat.objects.create(table=table, player=0, pupil=pupil_)
        made.append((session, table))
    answers = [True] * right + [False] * wrong
    rows = [
        Attempt(pupil=pupil_, session=made[i % games][0], table=made[i % games][1],
                game="numberquest", skill=skill, operands=["3", "4"], expected="7",
                given="7" if ok else "8", correct=ok, response_ms=3000)
        for i, ok in enumerate(answers)
    ]  # fmt: skip
    Attempt.objects.bulk_create(rows)
    for index, saved in enumerate(Attempt.objects.filter(pupil=pupil_).order_by("pk")):
        Attempt.objects.filter(pk=saved.pk).update(created_at=start + timedelta(minutes=index))


@pytest.fixture
def known(school_classes):
    """Léa masters addition (CE1 A), Noah needs help with it (CE1 B), Zoé has
    not played (Atelier)."""
    ce1a, ce1b, atelier = school_classes
    lea, noah, zoe = pupil(ce1a, "Léa", "M"), pupil(ce1b, "Noah", "B"), pupil(atelier, "Zoé", "K")
    play(ce1a, lea, "add", right=20, wrong=0)
    play(ce1b, noah, "add", right=2, wrong=18)
    return {"Léa": lea, "Noah": noah, "Zoé": zoe}


def signed_in(client, teacher):
    client.force_login(teacher)
    return client


def built(client, django_capture_on_commit_callbacks) -> ReportJob:
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(BUILD)
    assert response.status_code == 302 and response.url == PAGE
    return ReportJob.objects.filter(kind=ReportJob.Kind.SCHOOL).latest("pk")


# ------------------------------------------------------------------ who


def test_the_administrator_builds_and_reads_it(client, admin, known,
                                               django_capture_on_commit_callbacks):
    signed_in(client, admin)
    page = client.get(PAGE).content.decode()
    assert "Not built yet" in page and "Classes side by side" not in page
    job = built(client, django_capture_on_commit_callbacks)
    assert job.status == "done" and job.school == admin.school and job.teacher == admin
    page = client.get(PAGE).content.decode()
    assert "School report of École des Tilleuls" in page
    for shown in ("ages 7-8 (CE1 · Year 3)", "year group not set", "CE1 A", "CE1 B", "Atelier",
                  "Mme Leroy", "M. Petit", "Noah B.", "Who needs help across the school"):
        assert shown in page, shown
    assert "Léa M." not in page  # she needs no help: the report names only who does
    assert reverse("school:report_export", args=["pdf"]) in page


def test_the_maths_lead_reads_and_builds_it_but_exports_nothing(
    client, maths_lead, known, django_capture_on_commit_callbacks
):
    signed_in(client, maths_lead)
    assert built(client, django_capture_on_commit_callbacks).status == "done"
    page = client.get(PAGE).content.decode()
    assert "Noah B." in page
    assert reverse("school:report_export", args=["csv"]) not in page
    assert "administrator exports the school report" in page
    for fmt in ("csv", "xlsx", "pdf"):
        assert client.get(reverse("school:report_export", args=[fmt])).status_code == 403


@pytest.mark.parametrize("who", ["teacher", "lone teacher", "maths lead without a school"])
def test_others_are_refused_everywhere(client, who, school_teacher, admin, known,
                                       django_capture_on_commit_callbacks):
    job = built(signed_in(client, admin), django_capture_on_commit_callbacks)
    stranger = {
        "teacher": school_teacher,
        "lone teacher": adult("alone@elsewhere.test"),
        "maths lead without a school": adult("lead@nowhere.test", None, Teacher.Role.MATHS_LEAD),
    }[who]
    signed_in(client, stranger)
    assert client.get(PAGE).status_code == 403
    assert client.post(BUILD).status_code == 403
    assert client.get(reverse("school:report_job", args=[job.pk]),
                      HTTP_HX_REQUEST="true").status_code == 403  # fmt: skip
    for fmt in ("csv", "xlsx", "pdf"):
        assert client.get(reverse("school:report_export", args=[fmt])).status_code == 403
    assert ReportJob.objects.filter(kind=ReportJob.Kind.SCHOOL).count() == 1


def test_another_schools_administrator_sees_only_their_own_school(
    client, admin, known, django_capture_on_commit_callbacks
):
    job = built(signed_in(client, admin), django_capture_on_commit_callbacks)
    elsewhere = School.objects.create(name="École du Port")
    other = adult("admin@port.test", elsewhere, Teacher.Role.ADMIN)
    signed_in(client, other)
    page = client.get(PAGE).content.decode()
    assert "École du Port" in page and "Not built yet" in page
    assert "Noah B." not in page and "CE1 A" not in page
    assert client.get(reverse("school:report_job", args=[job.pk]),
                      HTTP_HX_REQUEST="true").status_code == 404  # fmt: skip
    # Their exports are of their own school's report: none built yet.
    answer = client.get(reverse("school:report_export", args=["csv"]))
    assert answer.status_code == 302 and answer.url == PAGE
    mine = built(client, django_capture_on_commit_callbacks)
    assert mine.school == elsewhere and json.loads(bytes(mine.result))["classes"] == []


def test_anonymous_goes_to_sign_in(client):
    for url in (PAGE, reverse("school:report_export", args=["csv"])):
        answer = client.get(url)
        assert answer.status_code == 302 and "/accounts/login/" in answer.url
    assert client.post(BUILD).status_code == 302


def test_forged_requests_get_clear_answers(client, admin, known):
    signed_in(client, admin)
    assert client.get(BUILD).status_code == 405
    assert client.post(PAGE).status_code == 405
    assert client.get(reverse("school:report_export", args=["docx"])).status_code == 404
    assert client.get("/school/report/jobs/99999999999999999999/").status_code == 404
    answer = client.get(reverse("school:report_export", args=["csv"]), follow=True)
    assert "Build the school report first" in answer.content.decode()


def test_the_build_form_is_refused_without_its_csrf_token(admin, known):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(admin)
    assert browser.post(BUILD).status_code == 403
    assert not ReportJob.objects.filter(kind=ReportJob.Kind.SCHOOL).exists()


# ------------------------------------------------------------------ the job


def test_the_page_polls_the_job_until_it_is_done(client, admin, known):
    """With the broker away the job waits: the page shows its bar, the poll its
    progress; asking again gives the same job, even to the maths lead."""
    signed_in(client, admin)
    job, created = jobs.request(admin)  # no commit in a test: the task is not sent
    assert created and job.status == "queued"
    page = client.get(PAGE).content.decode()
    poll = reverse("school:report_job", args=[job.pk])
    assert f'hx-get="{poll}"' in page and "Building the school report" in page
    lead = adult("lead2@tilleuls.test", admin.school, Teacher.Role.MATHS_LEAD)
    assert jobs.request(lead) == (job, False)
    answer = client.get(poll, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "HX-Refresh" not in answer
    from classroom.reports.jobs import run_job

    assert run_job(job.pk) == "done"
    answer = client.get(poll, HTTP_HX_REQUEST="true")
    assert answer["HX-Refresh"] == "true" and "3 of 3 pupils" in answer.content.decode()
    assert client.get(poll).status_code == 302  # a full page load goes to the report


def test_a_new_calculation_makes_only_its_pupil_stale(admin, known, school_classes):
    ids = [p.pk for p in known.values()]
    assert set(freshness.stale_pupils(ids)) == {known["Léa"].pk, known["Noah"].pk}
    jobs.run(jobs.request(admin)[0])
    assert freshness.stale_pupils(ids) == []
    play(school_classes[2], known["Zoé"], "sub", right=1, wrong=0, games=1)
    Attempt.objects.filter(pupil=known["Zoé"]).update(created_at=timezone.now())
    assert freshness.stale_pupils(ids) == [known["Zoé"].pk]


def test_an_erased_pupil_is_not_named_by_the_last_report(
    client, admin, known, django_capture_on_commit_callbacks
):
    built(signed_in(client, admin), django_capture_on_commit_callbacks)
    assert "Noah B." in client.get(PAGE).content.decode()
    known["Noah"].delete()
    assert "Noah B." not in client.get(PAGE).content.decode()


# ------------------------------------------------------------------ the files


def rows_of(answer) -> list[list[str]]:
    text = answer.content.decode("utf-8-sig")
    delimiter = ";" if text.splitlines()[0].count(";") > 3 else ","
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def test_the_csv_has_the_pages_numbers(client, admin, known, school_classes,
                                       django_capture_on_commit_callbacks):
    built(signed_in(client, admin), django_capture_on_commit_callbacks)
    answer = client.get(reverse("school:report_export", args=["csv"]))
    assert answer["Content-Type"].startswith("text/csv")
    assert 'filename="school-report-ecole-des-tilleuls-' in answer["Content-Disposition"]
    head, *rows = rows_of(answer)
    assert head[:5] == ["Year group", "Class", "Teacher", "Pupils", "Skill"]
    by = {(row[1], row[4]): dict(zip(head, row, strict=True)) for row in rows}
    assert by[("CE1 A", "addition")]["mastered"] == "1"
    assert by[("CE1 B", "addition")]["needs help"] == "1"
    assert by[("CE1 B", "addition")]["Need help"] == "Noah B."
    assert by[("Atelier", "addition")]["no evidence yet"] == "1"
    assert by[("Atelier", "addition")]["Year group"] == "year group not set"
    # One row per class and skill: a spreadsheet sums a year group's.
    assert len(rows) == len(school_classes) * 4


def test_a_french_csv_and_a_class_named_like_a_formula(client, admin, known, school_classes,
                                                       django_capture_on_commit_callbacks):
    school_classes[2].name = "=HYPERLINK(1)"
    school_classes[2].save()
    built(signed_in(client, admin), django_capture_on_commit_callbacks)
    answer = client.get(reverse("school:report_export", args=["csv"]), HTTP_ACCEPT_LANGUAGE="fr")
    head, *rows = rows_of(answer)
    assert head[:5] == ["Niveau", "Classe", "Enseignant·e", "Élèves", "Compétence"]
    assert "'=HYPERLINK(1)" in {row[1] for row in rows}
    assert "niveau non indiqué" in {row[0] for row in rows}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_xlsx_has_three_sheets_and_the_pdf_builds(client, admin, known, language,
                                                      django_capture_on_commit_callbacks):
    from openpyxl import load_workbook

    built(signed_in(client, admin), django_capture_on_commit_callbacks)
    answer = client.get(reverse("school:report_export", args=["xlsx"]),
                        HTTP_ACCEPT_LANGUAGE=language)  # fmt: skip
    book = load_workbook(io.BytesIO(answer.content))
    assert book.sheetnames == (
        ["Year groups", "Classes", "Need help"] if language == "en"
        else ["Niveaux", "Classes", "Ont besoin d'aide"]
    )  # fmt: skip
    helped = list(book.worksheets[2].iter_rows(min_row=2, values_only=True))
    assert [(row[1], row[2]) for row in helped] == [("CE1 B", "Noah B.")]
    years = list(book.worksheets[0].iter_rows(min_row=2, values_only=True))
    assert years[0][1:3] == (2, 2)  # CE1 A and CE1 B, Léa and Noah
    assert years[-1][1:3] == (1, 1)  # the class whose year group nobody set, Zoé
    pdf = client.get(reverse("school:report_export", args=["pdf"]), HTTP_ACCEPT_LANGUAGE=language)
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_the_french_page(client, admin, known, django_capture_on_commit_callbacks):
    built(signed_in(client, admin), django_capture_on_commit_callbacks)
    page = client.get(PAGE, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    for said in ("Bilan de l'école", "Niveaux et compétences", "Les classes côte à côte",
                 "Qui a besoin d'aide dans l'école", "niveau non indiqué", "a besoin d'aide"):
        assert said in page.replace("&#x27;", "'"), said
