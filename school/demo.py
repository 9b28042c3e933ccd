"""The demo school `make run` shows on a fresh machine (created once): the demo
teacher is the school's administrator, a second demo teacher its maths lead."""

from __future__ import annotations

from django.db import transaction

from classroom.models import Classroom, Pupil, Teacher, YearGroup
from classroom.pictures import AVATARS
from school.models import School

DEMO_EMAIL = "demo@numbo.test"
DEMO_PASSWORD = "numbo-demo"
DEMO_CODE = "DEMO34"
DEMO_SCHOOL = "Numbo demo school"
DEMO_LEAD_EMAIL = "lead@numbo.test"
DEMO_PUPILS = [
    ("Léa", "M"),
    ("Noah", "B"),
    ("Inès", "D"),
    ("Gabriel", "L"),
    ("Jade", "R"),
    ("Louis", "P"),
    ("Emma", "T"),
    ("Adam", "F"),
    ("Chloé", "G"),
    ("Hugo", "V"),
]
PASSWORDS = ["sun,moon,star", "tree,fish,house", "car,apple,flower", "boat,cloud,heart"]


@transaction.atomic
def demo_class() -> Classroom:
    """The demo school's teachers, the class and its pupils, made the first time only."""
    teacher = _teacher(DEMO_EMAIL, "Ms Demo", Teacher.Role.ADMIN)
    _teacher(DEMO_LEAD_EMAIL, "Mr Lead", Teacher.Role.MATHS_LEAD, teacher.school)
    classroom, made = Classroom.objects.get_or_create(
        teacher=teacher,
        code=DEMO_CODE,
        defaults={"name": "CE2 Demo", "year_group": YearGroup.AGE_8},
    )
    if made:
        avatars = list(AVATARS)
        Pupil.objects.bulk_create(
            Pupil(
                classroom=classroom,
                first_name=first,
                initial=initial,
                avatar=avatars[i % len(avatars)],
                picture_password=PASSWORDS[i % len(PASSWORDS)],
            )
            for i, (first, initial) in enumerate(DEMO_PUPILS)
        )
    return classroom


def _teacher(email: str, name: str, role: str, school: School | None = None) -> Teacher:
    """The demo teacher of this address, made once; a demo teacher of an
    earlier version (no school) joins the demo school with the role."""
    teacher, created = Teacher.objects.get_or_create(email=email, defaults={"display_name": name})
    if created:
        teacher.set_password(DEMO_PASSWORD)
    if teacher.school_id is None:
        teacher.school = school or School.objects.create(name=DEMO_SCHOOL)
        teacher.role = role
    teacher.save()
    return teacher
