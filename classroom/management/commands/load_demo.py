"""A demo teacher and class, so `make run` shows something on a fresh machine."""

from django.core.management.base import BaseCommand
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


class Command(BaseCommand):
    help = "Create (once) the demo teacher, a class and its pupils."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="where `make run` serves")

    @transaction.atomic
    def handle(self, *args, **options):
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
        site = f"http://localhost:{options['port']}"
        self.stdout.write(
            "Demo ready.\n"
            f"  Teacher: {site}/accounts/login/  {DEMO_EMAIL} / {DEMO_PASSWORD}\n"
            f"  Pupil:   {site}/join/  class code {DEMO_CODE}, "
            "then Léa M. and the pictures sun, moon, star"
        )
