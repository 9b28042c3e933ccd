"""Skill reports: the snapshot, the job flow, the pages and the exports."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from classroom.models import Attempt, Opportunity, PupilSkill, ReportJob
from classroom.reports import exports, jobs, services
from classroom.reports.filters import ReportFilters
from games import services as game_services
from games.models import GameSession, Seat, Table
from learning import tally
from learning.records import AttemptRecord, OpportunityRecord

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def played(classroom, teacher, pupils):
    """Two ended games: Léa is good at addition, Noah keeps getting 7 × 8 wrong
    (a verdict needs two games' evidence). Returns the second game."""
    session = GameSession.objects.create(
        classroom=classroom, teacher=teacher, game="numberquest", status="ended"
    )
    table = Table.objects.create(
        session=session, number=1, seed=1, state={}, turn_started_at=timezone.now()
    )
    Seat.objects.create(table=table, player=0, pupil=pupils[0])
    Seat.objects.create(table=table, player=1, pupil=pupils[1])
    earlier = GameSession.objects.create(
        classroom=classroom, teacher=teacher, game="numberquest", status="ended"
    )
    earlier_table = Table.objects.create(
        session=earlier, number=1, seed=2, state={}, turn_started_at=timezone.now()
    )
    start = timezone.now() - timedelta(days=20)

    def attempt(pupil, skill, operands, expected, given, minutes, game="numberquest"):
        first_game = minutes < 4
        return Attempt(
            pupil=pupil,
            session=earlier if first_game else session,
            table=earlier_table if first_game else table,
            game=game,
            skill=skill,
            operands=operands,
            expected=str(expected),
            given=str(given),
            correct=str(expected) == str(given),
            response_ms=4000,
        ), start + timedelta(minutes=minutes)

    rows = [attempt(pupils[0], "add", ["3", "4"], 7, 7, i) for i in range(12)]
    rows += [attempt(pupils[1], "mul", ["7", "8"], 56, 54, i) for i in range(8)]
    rows += [attempt(pupils[1], "add", ["=1", "2"], 3, 3, 100, game="ultimes")]
    Attempt.objects.bulk_create([row for row, _ in rows])
    for (_row, when), saved in zip(rows, Attempt.objects.order_by("pk"), strict=True):
        Attempt.objects.filter(pk=saved.pk).update(created_at=when)
    return session


def test_rows_reach_the_learning_package_as_records(played, pupils):
    """The learning package reads records only: the services make them from rows."""
    noah = pupils[1]
    Opportunity.objects.create(
        pupil=noah, session=played, table=played.tables.get(), game="numberquest",
        roll=[6, 3, 2], could={"div": True}, used=["add"],
    )  # fmt: skip
    attempts = list(services.attempt_records([noah.pk]))
    assert {type(record) for record in attempts} == {AttemptRecord}
    first = attempts[0]
    assert (first.pupil_id, first.skill, first.operands, first.expected, first.given) == (
        noah.pk, "mul", ["7", "8"], "56", "54"
    )
    assert (first.correct, first.first_try, first.response_ms, first.game) == (
        False, True, 4000, "numberquest"
    )
    turns = list(services.opportunities_of()(noah.pk))
    assert turns == [
        OpportunityRecord(noah.pk, [6, 3, 2], {"div": True}, ["add"], turns[0].created_at)
    ]
    streamed = dict(services.masteries([noah.pk], gettext=str))
    assert streamed == tally.summarise(attempts, turns, gettext=str)
    assert streamed[noah.pk].avoidance["div"].could == 1


def test_recompute_writes_one_snapshot_row_per_pupil_and_skill(played, pupils):
    services.recompute_pupils([p.pk for p in pupils])
    lea = {s.skill: s for s in PupilSkill.objects.filter(pupil=pupils[0])}
    noah = {s.skill: s for s in PupilSkill.objects.filter(pupil=pupils[1])}
    assert set(lea) == {"add", "sub", "mul", "div"}
    assert lea["add"].status == "mastered" and lea["add"].first_tries == 12
    assert noah["mul"].status == "needs_help" and noah["mul"].correct_first == 0
    # Idempotent: running again changes nothing, and erased attempts leave no snapshot.
    services.recompute_pupils([p.pk for p in pupils])
    assert PupilSkill.objects.filter(pupil=pupils[0]).count() == 4
    Attempt.objects.filter(pupil=pupils[0], skill="add").delete()
    services.recompute_pupils([pupils[0].pk])
    assert not PupilSkill.objects.filter(pupil=pupils[0], skill="add", first_tries__gt=0)


def test_ending_a_session_updates_its_pupils_mastery(
    classroom, teacher, pupils, django_capture_on_commit_callbacks
):
    session = game_services.start_session(
        classroom,
        teacher,
        game="numberquest",
        options={"preset": "addition"},
        pupils=pupils[:2],
        table_size=2,
        seed=3,
    )
    table = session.tables.get()
    Attempt.objects.create(
        pupil=pupils[0],
        session=session,
        table=table,
        game="numberquest",
        skill="add",
        operands=["2", "3"],
        expected="5",
        given="5",
        correct=True,
    )
    with django_capture_on_commit_callbacks(execute=True):
        game_services.set_status(session, GameSession.Status.ENDED)
    assert PupilSkill.objects.get(pupil=pupils[0], skill="add").first_tries == 1
    assert not PupilSkill.objects.filter(pupil=pupils[1])  # no calculation: "not started"


def test_asking_twice_returns_the_job_under_way(classroom, teacher):
    first, created = jobs.request_job(teacher, classroom, "class_mastery", send_task=False)
    second, created_again = jobs.request_job(teacher, classroom, "class_mastery")
    assert created and not created_again and first.pk == second.pk
    assert ReportJob.objects.count() == 1


def test_a_killed_job_resumes_after_its_cursor(played, classroom, teacher, pupils):
    job, _ = jobs.request_job(teacher, classroom, "class_mastery", send_task=False)
    ordered = sorted(p.pk for p in pupils)
    # A worker died after the first pupil: the job says running, cursor on pupil 1.
    ReportJob.objects.filter(pk=job.pk).update(status="running", cursor=ordered[0], done=1)
    seen = []
    original = services.recompute_pupils

    def spy(ids, **kwargs):
        seen.extend(ids)
        return original(ids, **kwargs)

    services.recompute_pupils = spy
    try:
        assert jobs.run_job(job.pk) == "done"
    finally:
        services.recompute_pupils = original
    job.refresh_from_db()
    assert seen == ordered[1:]
    assert (job.status, job.progress, job.done, job.total) == ("done", 100, 3, 3)
    assert jobs.run_job(job.pk) == "skipped"  # a duplicate delivery does nothing


def test_a_stale_job_is_sent_again(classroom, teacher, django_capture_on_commit_callbacks):
    job, _ = jobs.request_job(teacher, classroom, "class_mastery", send_task=False)
    ReportJob.objects.filter(pk=job.pk).update(
        updated_at=timezone.now() - jobs.STALE_AFTER - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        again, created = jobs.request_job(teacher, classroom, "class_mastery")
    again.refresh_from_db()
    assert not created and again.pk == job.pk and again.status == "done"


def test_refresh_runs_the_job_and_the_page_shows_the_grid(
    played, teacher_client, classroom, django_capture_on_commit_callbacks
):
    url = reverse("reports:class_report", args=[classroom.pk])
    assert "Not computed yet" in teacher_client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = teacher_client.post(reverse("reports:class_refresh", args=[classroom.pk]))
    job = ReportJob.objects.get()
    assert job.status == "done" and response.url == f"{url}?job={job.pk}"
    page = teacher_client.get(response.url).content.decode()
    assert "Who needs help now" in page and "Noah B." in page
    assert (
        "mastered" in page
        and "needs help" in page
        and "0/8 recent" in page
        and "10/10 recent" in page
    )


def test_the_progress_bar_polls_until_done_then_reloads(teacher_client, classroom, teacher):
    job, _ = jobs.request_job(teacher, classroom, "class_mastery", send_task=False)
    url = reverse("reports:job_status", args=[job.pk])
    partial = teacher_client.get(url, headers={"HX-Request": "true"})
    assert 'hx-trigger="every 1s"' in partial.content.decode()
    assert "<progress" in partial.content.decode() and "HX-Refresh" not in partial
    jobs.run_job(job.pk)
    done = teacher_client.get(url, headers={"HX-Request": "true"})
    assert done["HX-Refresh"] == "true" and "every 1s" not in done.content.decode()


def test_filters_narrow_the_report_and_carry_into_exports(played, teacher_client, classroom):
    services.recompute_pupils(classroom.pupils.values_list("pk", flat=True))
    report = services.class_report(classroom, ReportFilters(game="ultimes"))
    noah = next(r for r in report.rows if r.pupil.first_name == "Noah")
    assert {c.skill: c.summary.first_tries for c in noah.cells}["mul"] == 0
    page = teacher_client.get(
        reverse("reports:class_report", args=[classroom.pk]), {"game": "ultimes"}
    ).content.decode()
    assert "export.csv?game=ultimes" in page
    response = teacher_client.get(
        reverse("reports:class_export", args=[classroom.pk, "csv"]), {"game": "ultimes"}
    )
    body = response.content.decode("utf-8")
    lines = list(csv.reader(io.StringIO(body.lstrip("\ufeff"))))
    noah_mul = next(line for line in lines if line[0] == "Noah B." and line[1] == "multiplication")
    assert noah_mul[4] == "0"  # the same numbers as the filtered page


def test_csv_has_a_bom_numbers_and_no_formulas(played, classroom, pupils):
    pupils[2].first_name = "=HYPERLINK(1)"
    pupils[2].save()
    services.recompute_pupils([p.pk for p in pupils])
    content = exports.to_csv(services.class_report(classroom))
    assert content.startswith("\ufeff".encode())
    text = content.decode("utf-8-sig")
    assert "'=HYPERLINK(1) D." in text and ",=HYPERLINK" not in text
    row = next(line for line in csv.reader(io.StringIO(text)) if line[0] == "Léa M.")
    assert row[3] == "12" and row[9] == "99"  # plain numbers, no quotes or % signs
    assert exports.safe_text("-3") == "'-3" and exports.safe_text(-3) == -3


def test_xlsx_and_pdf_exports(played, teacher_client, classroom, pupils):
    from openpyxl import load_workbook

    pupils[2].first_name = "@SUM"
    pupils[2].save()
    services.recompute_pupils([p.pk for p in pupils])
    response = teacher_client.get(reverse("reports:class_export", args=[classroom.pk, "xlsx"]))
    assert response["Content-Disposition"].startswith("attachment;")
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[0][0] == "Pupil" and "'@SUM D." in [v[0] for v in values]
    lea_add = next(v for v in values if v[0] == "Léa M." and v[1] == "addition")
    assert lea_add[4] == 12 and isinstance(lea_add[9], int)
    pdf = teacher_client.get(reverse("reports:class_export", args=[classroom.pk, "pdf"]))
    assert pdf.content.startswith(b"%PDF")
    assert len(re.findall(rb"/Type /Page\b(?!s)", pdf.content)) == 3  # one page per pupil


def test_a_prepared_export_downloads_only_for_its_teacher(
    played, client, teacher, other_teacher, classroom, django_capture_on_commit_callbacks
):
    client.force_login(teacher)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("reports:class_prepare", args=[classroom.pk]),
            {"format": "csv", "game": "numberquest"},
        )
    job = ReportJob.objects.get(kind="export")
    assert job.status == "done"
    assert job.params == {"format": "csv", "language": "en", "game": "numberquest"}
    download = reverse("reports:job_download", args=[job.pk])
    response = client.get(download)
    assert response.status_code == 200 and response.content.startswith("\ufeff".encode())
    client.force_login(other_teacher)
    assert client.get(download).status_code == 404
    assert client.get(reverse("reports:job_status", args=[job.pk])).status_code == 404


def test_a_prepared_export_is_written_in_the_language_of_the_page_that_asked(
    played, teacher_client, classroom, django_capture_on_commit_callbacks
):
    for language in ("fr", "en"):
        teacher_client.post(reverse("set_language"), {"language": language})
        with django_capture_on_commit_callbacks(execute=False):  # no eager run in the request
            teacher_client.post(
                reverse("reports:class_prepare", args=[classroom.pk]), {"format": "csv"}
            )
    french, english = ReportJob.objects.filter(kind="export").order_by("pk")
    assert french.params["language"] == "fr" and english.params["language"] == "en"
    # A worker has no request to read a language from, and its own is English.
    for job in (french, english):
        with translation.override("en"):
            jobs.run_job(job.pk)
        job.refresh_from_db()
    assert french.result_name.startswith("competences-")
    assert english.result_name.startswith("skills-")
    assert bytes(french.result).decode("utf-8-sig").splitlines()[0].count(";") > 3
    assert bytes(english.result).decode("utf-8-sig").splitlines()[0].startswith("Pupil,")


def test_a_large_class_export_is_prepared_by_a_job(teacher_client, classroom, pupils, monkeypatch):
    monkeypatch.setattr(jobs, "EXPORT_INLINE_LIMIT", 2)
    response = teacher_client.get(reverse("reports:class_export", args=[classroom.pk, "pdf"]))
    assert response.status_code == 302 and response.url.startswith(
        reverse("reports:class_report", args=[classroom.pk])
    )


def test_pupil_report_shows_trend_tables_mistakes_and_games(played, teacher_client, pupils):
    page = teacher_client.get(reverse("reports:pupil_report", args=[pupils[1].pk]))
    text = page.content.decode()
    assert "<polyline" in text or "<circle" in text
    assert "7 × 8 = 54 (56)" in text  # as the pupil typed it, then the right answer
    assert "next answer in the table" not in text or "Recent mistakes" in text
    assert "× 7" in text and "0/8" in text  # the table of 7 (and of 8): 0 right of 8
    assert reverse("reports:session_report", args=[played.pk]) in text


def test_session_report_lists_who_played_what(played, teacher_client):
    text = teacher_client.get(reverse("reports:session_report", args=[played.pk])).content.decode()
    assert "Léa M." in text and "Noah B." in text
    assert "3 + 4 = 7" in text and "7 × 8 = 54 (56)" in text and "wrong" in text


def test_the_session_reports_calculations_count_what_the_pupil_typed_not_skill_tags(
    classroom, teacher, pupils
):
    """Inès laid a calculation of 3 cards (2 steps, judged too as several
    steps and left to right) and counted a NUM-X group (its worth is also
    evidence of ×): 3 answers typed, not 6 rows of evidence."""
    session = GameSession.objects.create(
        classroom=classroom, teacher=teacher, game="nambarz", status="ended"
    )
    table = Table.objects.create(
        session=session, number=1, seed=1, state={}, turn_started_at=timezone.now()
    )
    Seat.objects.create(table=table, player=0, pupil=pupils[2])

    def attempt(skill, operands, expected, game="nambarz"):
        return Attempt(pupil=pupils[2], session=session, table=table, game=game, skill=skill,
                       operands=operands, expected=str(expected), given=str(expected),
                       correct=True)

    Attempt.objects.bulk_create([
        attempt("mul", [3, 3], 9), attempt("sub", [9, 1], 8),
        attempt("multi_step", [3, 3, 1], 8), attempt("left_to_right", [3, 3, 1], 8),
        attempt("scoring", ["blue6", "rainbow6"], 12, "numx"), attempt("mul", [6, 2], 12, "numx"),
    ])
    (ines,) = services.session_report(session)[0]["players"]
    assert (ines["calculations"], ines["right"], ines["wrong"], ines["retries"]) == (3, 3, 0, 0)
    (played_row,) = services.games_played(pupils[2])
    assert (played_row["calculations"], played_row["right"]) == (3, 3)


def test_nightly_recompute_covers_every_class_in_use(played, pupils):
    from classroom import tasks

    assert tasks.nightly_recompute.delay().get() == "done"
    job = ReportJob.objects.get(kind="nightly")
    assert job.status == "done" and job.total == 3
    assert PupilSkill.objects.filter(pupil=pupils[1], skill="mul", status="needs_help").exists()


# ------------------------------------------------------------------ permissions


def _report_urls(classroom, pupils, session, job):
    return [
        (reverse("reports:class_report", args=[classroom.pk]), "get"),
        (reverse("reports:class_refresh", args=[classroom.pk]), "post"),
        (reverse("reports:class_prepare", args=[classroom.pk]), "post"),
        (reverse("reports:class_export", args=[classroom.pk, "csv"]), "get"),
        (reverse("reports:class_export", args=[classroom.pk, "xlsx"]), "get"),
        (reverse("reports:class_export", args=[classroom.pk, "pdf"]), "get"),
        (reverse("reports:pupil_report", args=[pupils[0].pk]), "get"),
        (reverse("reports:session_report", args=[session.pk]), "get"),
        (reverse("reports:job_status", args=[job.pk]), "get"),
        (reverse("reports:job_download", args=[job.pk]), "get"),
    ]


@pytest.fixture
def finished_export(teacher, classroom):
    return ReportJob.objects.create(
        teacher=teacher,
        classroom=classroom,
        kind="export",
        key="x",
        status="done",
        result=b"secret",
        result_name="x.csv",
        result_type="text/csv",
    )


def test_another_teacher_gets_not_found(
    client, other_teacher, classroom, pupils, played, finished_export
):
    client.force_login(other_teacher)
    for url, method in _report_urls(classroom, pupils, played, finished_export):
        assert getattr(client, method)(url, {"format": "csv"}).status_code == 404, url
    assert ReportJob.objects.count() == 1


def test_anonymous_visitors_and_pupils_are_sent_to_sign_in(
    client, pupil_client, classroom, pupils, played, finished_export
):
    for visitor in (pupil_client, client):
        for url, method in _report_urls(classroom, pupils, played, finished_export):
            response = getattr(visitor, method)(url, {"format": "csv"})
            assert response.status_code == 302 and reverse("login") in response.url, url
        visitor.logout()
    assert ReportJob.objects.count() == 1


def test_report_links_on_the_class_and_session_pages(teacher_client, classroom, teacher, pupils):
    played = game_services.start_session(
        classroom,
        teacher,
        game="numberquest",
        options={"preset": "addition"},
        pupils=pupils[:2],
        table_size=2,
        seed=3,
    )
    page = teacher_client.get(reverse("classroom:class_detail", args=[classroom.pk]))
    text = page.content.decode()
    assert reverse("reports:class_report", args=[classroom.pk]) in text
    assert reverse("reports:pupil_report", args=[pupils[0].pk]) in text
    live = teacher_client.get(reverse("games:session_live", args=[played.pk])).content.decode()
    assert reverse("reports:session_report", args=[played.pk]) in live


@pytest.mark.parametrize("job", ["²", "9" * 40, "-1", "abc"])
def test_a_forged_job_number_is_ignored_not_an_error(teacher_client, classroom, job):
    url = reverse("reports:class_report", args=[classroom.pk])
    assert teacher_client.get(url, {"job": job}).status_code == 200


def test_a_skill_without_evidence_says_no_evidence_yet_everywhere(
    played, teacher_client, classroom, pupils, monkeypatch
):
    from openpyxl import load_workbook
    from reportlab import platypus

    services.recompute_pupils([p.pk for p in pupils])
    page = teacher_client.get(reverse("reports:class_report", args=[classroom.pk])).content.decode()
    assert "no evidence yet" in page and "not started" not in page
    text = exports.to_csv(services.class_report(classroom)).decode("utf-8-sig")
    lea_div = next(line for line in csv.reader(io.StringIO(text))
                   if line[0] == "Léa M." and line[1] == "division")
    assert lea_div[2] == "no evidence yet" and lea_div[9] == ""  # no "Estimate 30 %"
    sheet = teacher_client.get(reverse("reports:class_export", args=[classroom.pk, "xlsx"]))
    rows = list(load_workbook(io.BytesIO(sheet.content)).active.iter_rows(values_only=True))
    lea_div = next(v for v in rows if v[0] == "Léa M." and v[1] == "division")
    assert lea_div[2] == "no evidence yet" and lea_div[9] is None
    tables = []
    real = platypus.Table
    monkeypatch.setattr(platypus, "Table", lambda data, *a, **k: tables.append(data) or real(
        data, *a, **k))
    teacher_client.get(reverse("reports:class_export", args=[classroom.pk, "pdf"]))
    shown = [[getattr(cell, "text", cell) for cell in row] for row in tables[0]]  # Paragraphs
    lea_div = next(row for row in shown if row[0] == "division")
    assert lea_div[1] == "no evidence yet" and lea_div[4] == "—"
    pupil_page = teacher_client.get(
        reverse("reports:pupil_report", args=[pupils[0].pk])
    ).content.decode()
    assert "no evidence yet" in pupil_page and "30%" not in pupil_page
