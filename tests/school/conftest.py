"""A school: its administrator, maths lead, teachers and classes of several year groups."""

from __future__ import annotations

import pytest

from classroom.models import Classroom, Pupil, Teacher, YearGroup
from school.models import School


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
