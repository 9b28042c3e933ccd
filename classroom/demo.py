"""The demo teacher and class `make run` shows on a fresh machine (created once)."""

from __future__ import annotations

from django.db import transaction

from classroom.models import Classroom, Pupil, Teacher
from classroom.pictures import AVATARS

DEMO_EMAIL = "demo@numbo.test"
DEMO_PASSWORD = "numbo-demo"
DEMO_CODE = "DEMO34"
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
    """The demo teacher, their class and its pupils, made the first time only."""
    teacher, created = Teacher.objects.get_or_create(
        email=DEMO_EMAIL, defaults={"display_name": "Ms Demo"}
    )
    if created:
        teacher.set_password(DEMO_PASSWORD)
        teacher.save()
    classroom, made = Classroom.objects.get_or_create(
        teacher=teacher, code=DEMO_CODE, defaults={"name": "CE2 Demo"}
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
