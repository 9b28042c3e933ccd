"""The record of who did what with pupils' data: written by every action,
read by the administrator only (and a lone teacher, their own)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from classroom.models import Classroom, Pupil, ReportJob
from school import record
from school.models import AuditEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

URL = reverse("school:record")


def test_a_pupil_export_is_recorded_with_the_teacher_and_the_pupil(world):
    lea = world.ce2.pupils.get(first_name="Léa")
    response = world.client(world.ana).get(reverse("classroom:pupil_export", args=[lea.pk]))
    assert response.status_code == 200
    entry = AuditEntry.objects.get()
    assert (entry.kind, entry.school, entry.teacher, entry.teacher_name, entry.classroom) == (
        AuditEntry.Kind.PUPIL_EXPORT, world.school, world.ana, "Mme Ana <ana@ferry.test>",
        world.ce2,
    )
    assert entry.pupil == lea and entry.pupil_count == 1


def test_an_erasure_is_recorded_and_the_pupil_is_never_named_after_it(world):
    lea = world.ce2.pupils.get(first_name="Léa")
    client = world.client(world.ana)
    client.get(reverse("classroom:pupil_export", args=[lea.pk]))
    page = world.client(world.admin).get(URL).content.decode()
    assert "Exported the data of Léa M." in page  # named while she exists
    client.post(reverse("classroom:pupil_erase", args=[lea.pk]))
    assert not Pupil.objects.filter(pk=lea.pk).exists()
    erased = AuditEntry.objects.get(kind=AuditEntry.Kind.PUPIL_ERASED)
    assert (erased.teacher, erased.classroom, erased.pupil, erased.pupil_count) == (
        world.ana, world.ce2, None, 1
    )
    page = world.client(world.admin).get(URL).content.decode()
    assert "Léa" not in page
    assert "Erased a pupil of CE2 B (2025-2026) and everything recorded about them" in page
    assert "Exported the data of a pupil of CE2 B (2025-2026)" in page
    # Nothing in the rows either.
    for entry in AuditEntry.objects.all():
        assert "Léa" not in f"{entry.teacher_name}{entry.classroom_name}{entry.detail}"


def test_a_class_report_export_is_recorded_inline_and_by_a_job(
    world, django_capture_on_commit_callbacks
):
    client = world.client(world.ana)
    response = client.get(reverse("reports:class_export", args=[world.ce2.pk, "csv"]))
    assert response.status_code == 200
    inline = AuditEntry.objects.get()
    assert (inline.kind, inline.teacher, inline.classroom, inline.pupil_count) == (
        AuditEntry.Kind.CLASS_EXPORT, world.ana, world.ce2, 3
    )
    assert inline.detail == {"format": "csv"}
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("reports:class_prepare", args=[world.ce2.pk]), {"format": "xlsx"})
    job = ReportJob.objects.get(kind=ReportJob.Kind.EXPORT)
    assert job.status == ReportJob.Status.DONE
    prepared = AuditEntry.objects.exclude(pk=inline.pk).get()
    assert (prepared.kind, prepared.teacher, prepared.classroom) == (
        AuditEntry.Kind.CLASS_EXPORT, world.ana, world.ce2
    )
    assert prepared.detail["format"] == "xlsx" and prepared.detail["prepared"] is True
    page = world.client(world.admin).get(URL).content.decode()
    assert "Exported the report of CE2 B (2025-2026) (XLSX, 3 pupils)" in page


def test_the_teacher_name_outlives_the_teacher(world):
    lea = world.ce2.pupils.get(first_name="Noah")
    mine = Classroom.objects.create(teacher=world.ben, name="Tmp")
    world.client(world.ben).get(reverse("classroom:pupil_export", args=[lea.pk]))  # not his: 404
    assert not AuditEntry.objects.exists()
    record.write(AuditEntry.Kind.PUPIL_ERASED, teacher=world.ben, classroom=mine, count=1)
    mine.delete()
    world.ben.delete()
    page = world.client(world.admin).get(URL).content.decode()
    assert "M. Ben &lt;ben@ferry.test&gt;" in page
    assert "Erased a pupil of Tmp (" in page


def test_the_administrator_reads_the_schools_record_newest_first_paged_and_filtered(world):
    for _ in range(55):
        record.write(AuditEntry.Kind.PUPIL_EXPORT, teacher=world.ana, classroom=world.ce2, count=1)
    record.write(AuditEntry.Kind.HANDOVER, teacher=world.admin, classroom=world.cm1,
                 detail={"from": "M. Ben", "to": "Mme Ana", "kept_as_co_teacher": False})
    client = world.client(world.admin)
    first = client.get(URL)
    lines = first.context["lines"]
    assert len(lines) == 50 and lines[0]["entry"].kind == AuditEntry.Kind.HANDOVER
    assert "Handed CM1 A (2026-2027) over from M. Ben to Mme Ana" in first.content.decode()
    second = client.get(URL + "?page=2")
    assert len(second.context["lines"]) == 6
    assert client.get(URL + "?page=999").status_code == 200  # the last page, no error
    assert client.get(URL + "?page=abc").status_code == 200
    only = client.get(URL + "?kind=handover").context["lines"]
    assert [line["entry"].kind for line in only] == [AuditEntry.Kind.HANDOVER]
    wrong = client.get(URL + "?kind=<script>")
    assert wrong.status_code == 200 and len(wrong.context["lines"]) == 50
    assert "There is no such kind of entry" in wrong.content.decode()


@pytest.mark.parametrize("who", ["ana", "lead"])
def test_teachers_and_maths_leads_of_the_school_are_refused(world, who):
    record.write(AuditEntry.Kind.PUPIL_EXPORT, teacher=world.ana, classroom=world.ce2, count=1)
    response = world.client(getattr(world, who)).get(URL)
    assert response.status_code == 403
    assert "Mme Ana" not in response.content.decode()


def test_another_schools_administrator_reads_only_their_schools(world):
    record.write(AuditEntry.Kind.PUPIL_EXPORT, teacher=world.ana, classroom=world.ce2, count=1)
    record.write(
        AuditEntry.Kind.PUPIL_EXPORT, teacher=world.other_admin, classroom=world.other_class,
        count=1,
    )
    page = world.client(world.other_admin).get(URL)
    assert [line["entry"].school for line in page.context["lines"]] == [world.other_school]
    assert "CE2 B" not in page.content.decode()


def test_a_lone_teacher_reads_their_own_entries_kept_without_a_school(world):
    mine = Classroom.objects.create(teacher=world.lone, name="Ma classe")
    theirs = Classroom.objects.create(
        teacher=world.lone.__class__.objects.create_user("lone2@alone.test", "x-horse-2"),
        name="Sa classe",
    )
    pupil = Pupil.objects.create(
        classroom=mine, first_name="Paul", initial="S", avatar="cat", picture_password="a,b,c"
    )
    world.client(world.lone).get(reverse("classroom:pupil_export", args=[pupil.pk]))
    entry = AuditEntry.objects.get()
    assert entry.school is None and entry.teacher == world.lone
    record.write(AuditEntry.Kind.PUPIL_EXPORT, teacher=theirs.teacher, classroom=theirs, count=1)
    page = world.client(world.lone).get(URL)
    assert page.status_code == 200
    assert [line["entry"] for line in page.context["lines"]] == [entry]
    assert "Sa classe" not in page.content.decode()
    # A school's administrator does not read entries kept without a school.
    assert not world.client(world.admin).get(URL).context["lines"]


def test_anonymous_visitors_are_sent_to_sign_in(client):
    response = client.get(URL)
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_the_record_reads_in_french(world):
    record.write(AuditEntry.Kind.PUPIL_ERASED, teacher=world.ana, classroom=world.ce2, count=1)
    page = world.client(world.admin).get(URL, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Qui a fait quoi des données des élèves" in page
    said = "A effacé un élève de CE2 B (2025-2026) et tout ce qui était enregistré à son sujet"
    assert said in page.replace("&#x27;", "'")
