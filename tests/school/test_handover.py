"""Handing a class to next year's teacher: who may, to whom, and the record."""

from __future__ import annotations

import pytest
from django.urls import reverse

from school.models import AuditEntry

pytestmark = pytest.mark.django_db


def url(classroom) -> str:
    return reverse("school:class_hand_over", args=[classroom.pk])


def test_the_teacher_hands_the_class_over_and_stays_as_co_teacher(world):
    client = world.client(world.ana)
    page = client.get(url(world.ce2)).content.decode()
    assert "M. Ben (ben@ferry.test)" in page and "Mme Admin" in page
    assert "Mme Voisine" not in page and "M. Seul" not in page  # other schools'
    response = client.post(url(world.ce2), {"to": world.ben.pk, "keep_as_co_teacher": "on"})
    assert response.status_code == 302
    world.ce2.refresh_from_db()
    assert world.ce2.teacher == world.ben
    assert list(world.ce2.co_teachers.all()) == [world.ana]
    entry = AuditEntry.objects.get()
    assert (entry.kind, entry.school, entry.teacher, entry.classroom) == (
        AuditEntry.Kind.HANDOVER, world.school, world.ana, world.ce2
    )
    assert entry.detail == {
        "from": "Mme Ana <ana@ferry.test>", "to": "M. Ben <ben@ferry.test>",
        "kept_as_co_teacher": True,
    }
    # Still a co-teacher: the class page is still hers to open.
    assert response["Location"] == reverse("classroom:class_detail", args=[world.ce2.pk])


def test_without_the_tick_the_former_teacher_lets_the_class_go(world):
    world.ce2.co_teachers.add(world.ben)  # the new teacher was its co-teacher
    response = world.client(world.ana).post(url(world.ce2), {"to": world.ben.pk})
    assert response["Location"] == reverse("classroom:class_list")
    world.ce2.refresh_from_db()
    assert world.ce2.teacher == world.ben
    assert not world.ce2.co_teachers.exists()  # neither Ana nor Ben, its teacher now


def test_the_administrator_hands_over_any_class_of_the_school(world):
    response = world.client(world.admin).post(url(world.ce2), {"to": world.ben.pk})
    assert response.status_code == 302
    world.ce2.refresh_from_db()
    assert world.ce2.teacher == world.ben
    assert AuditEntry.objects.get().teacher == world.admin


@pytest.mark.parametrize(
    "target", ["other_admin", "lone", "inactive", "forged", "same", "text"]
)
def test_a_teacher_outside_the_school_inactive_or_forged_is_refused(world, target):
    from classroom.models import Teacher

    inactive = Teacher.objects.create_user(
        "gone@ferry.test", "x-horse-1", school=world.school, is_active=False
    )
    value = {
        "other_admin": world.other_admin.pk,
        "lone": world.lone.pk,
        "inactive": inactive.pk,
        "forged": 999999,
        "same": world.ana.pk,
        "text": "ben; DROP TABLE",
    }[target]
    response = world.client(world.ana).post(url(world.ce2), {"to": value})
    assert response.status_code == 200
    assert "That teacher cannot take the class: choose an active teacher of your school." in (
        response.content.decode().replace("&#x27;", "'")
    )
    world.ce2.refresh_from_db()
    assert world.ce2.teacher == world.ana
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("who", ["lead", "ben", "other_admin", "lone"])
def test_who_may_not_hand_over_is_refused(world, who):
    """A maths lead sees the class and runs none; a colleague does not teach
    it; another school's administrator and a lone teacher do not see it."""
    client = world.client(getattr(world, who))
    for response in (client.get(url(world.ce2)), client.post(url(world.ce2), {"to": world.ben.pk})):
        assert response.status_code == (403 if who == "lead" else 404)
    world.ce2.refresh_from_db()
    assert world.ce2.teacher == world.ana and not AuditEntry.objects.exists()


def test_a_co_teacher_runs_the_class_but_does_not_give_it_away(world):
    world.ce2.co_teachers.add(world.ben)
    response = world.client(world.ben).post(url(world.ce2), {"to": world.ben.pk})
    assert response.status_code == 403
    world.ce2.refresh_from_db()
    assert world.ce2.teacher == world.ana


def test_a_lone_teacher_is_told_handing_over_needs_a_school(world):
    from classroom.models import Classroom

    mine = Classroom.objects.create(teacher=world.lone, name="Ma classe")
    page = world.client(world.lone).get(url(mine))
    assert page.status_code == 200 and 'data-testid="no-school"' in page.content.decode()
    response = world.client(world.lone).post(url(mine), {"to": world.ana.pk})
    assert response.status_code == 200
    mine.refresh_from_db()
    assert mine.teacher == world.lone


def test_the_page_reads_in_french(world):
    page = world.client(world.ana).get(url(world.ce2), HTTP_ACCEPT_LANGUAGE="fr")
    text = page.content.decode()
    assert "Confier la classe CE2 B" in text and "L’enseignant de l’an prochain" in text
