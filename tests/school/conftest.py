"""Schools for the school's tests: one at the year's end (its administrator, a
maths lead, two teachers with a class each, a lone teacher, and another school
with its own administrator and class), and the school report's (teachers and
classes of several year groups)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client
from django.utils import translation

from classroom.models import Classroom, Pupil, Teacher, YearGroup
from school.models import School


@pytest.fixture(autouse=True)
def _english_after():
    yield
    translation.activate("en")


@dataclass
class World:
    school: School
    admin: Teacher
    lead: Teacher
    ana: Teacher  # teaches CE2 B this year
    ben: Teacher  # next year's teacher
    ce2: Classroom
    cm1: Classroom
    other_school: School
    other_admin: Teacher
    other_class: Classroom
    lone: Teacher

    def client(self, teacher: Teacher) -> Client:
        client = Client(raise_request_exception=False)
        client.force_login(teacher)
        return client


def teacher(email: str, name: str, school: School | None, role=Teacher.Role.TEACHER) -> Teacher:
    return Teacher.objects.create_user(
        email, "correct-horse-77", display_name=name, school=school, role=role
    )


def add_pupils(classroom: Classroom, names: list[tuple[str, str, str]]) -> list[Pupil]:
    return [
        Pupil.objects.create(
            classroom=classroom, first_name=first, initial=initial, avatar=avatar,
            picture_password="sun,moon,star",
        )
        for first, initial, avatar in names
    ]


@pytest.fixture
def world(db) -> World:
    school = School.objects.create(name="École Jules Ferry", leavers_kept_days=30)
    other_school = School.objects.create(name="École Voisine")
    admin = teacher("admin@ferry.test", "Mme Admin", school, Teacher.Role.ADMIN)
    lead = teacher("lead@ferry.test", "M. Maths", school, Teacher.Role.MATHS_LEAD)
    ana = teacher("ana@ferry.test", "Mme Ana", school)
    ben = teacher("ben@ferry.test", "M. Ben", school)
    ce2 = Classroom.objects.create(
        teacher=ana, name="CE2 B", school_year="2025-2026", year_group=YearGroup.AGE_8
    )
    cm1 = Classroom.objects.create(
        teacher=ben, name="CM1 A", school_year="2026-2027", year_group=YearGroup.AGE_9
    )
    other_admin = teacher("admin@voisine.test", "Mme Voisine", other_school, Teacher.Role.ADMIN)
    other_class = Classroom.objects.create(teacher=other_admin, name="CP Voisin")
    lone = teacher("lone@alone.test", "M. Seul", None)
    add_pupils(ce2, [("Léa", "M", "cat"), ("Noah", "B", "dog"), ("Inès", "D", "fox")])
    add_pupils(cm1, [("Léa", "M", "owl"), ("Tom", "R", "cat")])
    add_pupils(other_class, [("Zoé", "V", "cat")])
    return World(
        school, admin, lead, ana, ben, ce2, cm1, other_school, other_admin, other_class, lone
    )


def adult(email: str, school=None, role=Teacher.Role.TEACHER, name: str = "") -> Teacher:
    return Teacher.objects.create_user(
        email, "correct-horse-42", school=school, role=role, display_name=name
    )


def pupil(classroom, first_name: str, initial: str = "P") -> Pupil:
    return Pupil.objects.create(
        classroom=classroom, first_name=first_name, initial=initial, avatar="cat",
        picture_password="sun,moon,star",
    )  # fmt: skip


@pytest.fixture
def school(db):
    return School.objects.create(name="École des Tilleuls")


@pytest.fixture
def admin(school):
    return adult("admin@tilleuls.test", school, Teacher.Role.ADMIN, "Mme Dupont")


@pytest.fixture
def maths_lead(school):
    return adult("lead@tilleuls.test", school, Teacher.Role.MATHS_LEAD, "M. Martin")


@pytest.fixture
def school_teacher(school):
    return adult("ce1@tilleuls.test", school, name="Mme Leroy")


@pytest.fixture
def school_classes(school_teacher, school):
    """CE1 A and CE1 B (ages 7-8) and a class whose year group nobody set."""
    other = adult("cm1@tilleuls.test", school, name="M. Petit")
    return [
        Classroom.objects.create(teacher=school_teacher, name="CE1 A", year_group=YearGroup.AGE_7),
        Classroom.objects.create(teacher=school_teacher, name="CE1 B", year_group=YearGroup.AGE_7),
        Classroom.objects.create(teacher=other, name="Atelier"),
    ]


@pytest.fixture
def ours(db) -> School:
    return School.objects.create(name="École des Tilleuls")


@pytest.fixture
def victim(ours):
    """The security walk's school of three pupils, its teacher one of ours."""
    from tests.security.world import build_school

    world = build_school("Victim", ("Wilhelmine", "Théodule", "Eulalie"))
    Teacher.objects.filter(pk=world.teacher.pk).update(school=ours, role=Teacher.Role.TEACHER)
    world.teacher.refresh_from_db()
    return world
