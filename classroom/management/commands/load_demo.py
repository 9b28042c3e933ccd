"""A demo school, its teachers and a class, so `make run` shows something on a
fresh machine: the demo teacher is the school's administrator, a second demo
teacher its maths lead."""

from django.core.management.base import BaseCommand
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


class Command(BaseCommand):
    help = "Create (once) the demo school, its two teachers, a class and its pupils."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="where `make run` serves")

    @transaction.atomic
    def handle(self, *args, **options):
        teacher = self._teacher(DEMO_EMAIL, "Ms Demo", Teacher.Role.ADMIN)
        self._teacher(DEMO_LEAD_EMAIL, "Mr Lead", Teacher.Role.MATHS_LEAD, teacher.school)
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
        site = f"http://localhost:{options['port']}"
        self.stdout.write(
            "Demo ready.\n"
            f"  Teacher: {site}/accounts/login/  {DEMO_EMAIL} / {DEMO_PASSWORD}"
            " (the school's administrator)\n"
            f"  Maths lead: {DEMO_LEAD_EMAIL} / {DEMO_PASSWORD}\n"
            f"  Pupil:   {site}/join/  class code {DEMO_CODE}, "
            "then Léa M. and the pictures sun, moon, star"
        )

    @staticmethod
    def _teacher(email: str, name: str, role: str, school: School | None = None) -> Teacher:
        """The demo teacher of this address, made once; a demo teacher of an
        earlier version (no school) joins the demo school with the role."""
        teacher, created = Teacher.objects.get_or_create(
            email=email, defaults={"display_name": name}
        )
        if created:
            teacher.set_password(DEMO_PASSWORD)
        if teacher.school_id is None:
            teacher.school = school or School.objects.create(name=DEMO_SCHOOL)
            teacher.role = role
        teacher.save()
        return teacher
