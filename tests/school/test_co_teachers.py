"""Co-teachers: the class's teacher (or the school's administrator) chooses
them among the school's teachers, on the class's settings page; they then run
the class. A forged choice (another school's teacher) is refused in words."""

from __future__ import annotations

import pytest
from django.urls import reverse

from classroom.models import Teacher
from school.models import School

from .people import make_teacher

pytestmark = pytest.mark.django_db


def test_the_class_s_teacher_adds_and_removes_a_co_teacher_on_the_settings_page(
    client, ours, victim
):
    assistant = make_teacher("Assistant", ours)
    make_teacher("Gone", ours).__class__.objects.filter(email="gone@school.test").update(
        is_active=False
    )
    client.force_login(victim.teacher)
    settings_page = client.get(reverse("classroom:class_edit", args=[victim.classroom.pk]))
    page = settings_page.content.decode()
    assert "Teacher Assistant" in page and "Teacher Gone" not in page  # active teachers only
    url = reverse("school:co_teachers", args=[victim.classroom.pk])
    response = client.post(url, {"co_teachers": [assistant.pk]})
    assert response.url == reverse("classroom:class_edit", args=[victim.classroom.pk])
    assert list(victim.classroom.co_teachers.all()) == [assistant]
    client.force_login(assistant)
    pupils_add = reverse("classroom:pupils_add", args=[victim.classroom.pk])
    assert client.get(pupils_add).status_code == 200
    # A co-teacher runs the class but does not choose who else does.
    assert client.post(url, {"co_teachers": []}).status_code == 403
    client.force_login(victim.teacher)
    client.post(url, {})
    assert not victim.classroom.co_teachers.exists()
    client.force_login(assistant)
    assert client.get(pupils_add).status_code == 404


def test_the_administrator_chooses_co_teachers_from_the_school_s_classes(client, ours, victim):
    assistant = make_teacher("Assistant", ours)
    client.force_login(make_teacher("Admin", ours, Teacher.Role.ADMIN))
    url = reverse("school:co_teachers", args=[victim.classroom.pk])
    assert url in client.get(reverse("school:classes")).content.decode()
    assert client.post(url, {"co_teachers": [assistant.pk]}).url == reverse("school:classes")
    assert list(victim.classroom.co_teachers.all()) == [assistant]


@pytest.mark.parametrize("forged", ["their", "self", "nonsense", "99999", "huge"])
def test_a_forged_co_teacher_is_refused_in_words(client, ours, victim, forged):
    theirs = make_teacher("Their", School.objects.create(name="Theirs"))
    # "huge": SQLite cannot bind it (OverflowError); it must not reach the query.
    value = {"their": theirs.pk, "self": victim.teacher.pk, "nonsense": "x; drop",
             "99999": 99999, "huge": "9" * 20}[forged]
    client.force_login(victim.teacher)
    response = client.post(reverse("school:co_teachers", args=[victim.classroom.pk]),
                           {"co_teachers": [value]})
    assert response.status_code == 400
    said = ("A teacher ticked is not one of this list" if forged in ("nonsense", "huge")
            else "Select a valid choice")
    assert said in response.content.decode()
    assert not victim.classroom.co_teachers.exists()


def test_a_lone_teacher_s_class_has_no_co_teachers_to_choose(client, victim):
    Teacher.objects.filter(pk=victim.teacher.pk).update(school=None, role=Teacher.Role.TEACHER)
    client.force_login(victim.teacher)
    page = client.get(reverse("classroom:class_edit", args=[victim.classroom.pk])).content
    assert b"co-teachers-title" not in page
    other = make_teacher("Other")
    response = client.post(reverse("school:co_teachers", args=[victim.classroom.pk]),
                           {"co_teachers": [other.pk]})
    assert response.status_code == 400 and not victim.classroom.co_teachers.exists()
