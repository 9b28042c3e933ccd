"""Fill the database with realistic synthetic classes (seeded): the benchmark's
data, and a demo with reports worth looking at.

Each pupil has a hidden level per operation that rises with practice, so
accuracy improves over the weeks; operands come from dice-like ranges; each
pupil's attempts are spread over game sessions (with their tables and seats,
so every foreign key holds) across the last weeks of school. Rows are written
with bulk_create in batches.

    manage.py fill_synthetic --classes 1 --pupils-per-class 30 --attempts-per-pupil 2000
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from classroom.models import Attempt, Classroom, Pupil, Teacher
from classroom.pictures import AVATARS, PASSWORD_PICTURES
from games.models import GameSession, Seat, Table

FIRST_NAMES = [
    "Léa",
    "Noah",
    "Inès",
    "Adam",
    "Jade",
    "Louis",
    "Emma",
    "Gabriel",
    "Chloé",
    "Raphaël",
    "Alice",
    "Arthur",
    "Lina",
    "Jules",
    "Rose",
    "Hugo",
    "Zoé",
    "Nathan",
    "Anna",
    "Ethan",
    "Mila",
    "Tom",
    "Sarah",
    "Léo",
    "Lou",
    "Sacha",
    "Nina",
    "Paul",
    "Maël",
    "Eva",
]
SESSION_SIZE = 40  # calculations per pupil per game session
PUPILS_PER_TABLE = 2
BATCH = 20_000


def _calculation(rng: random.Random, skill: str) -> tuple[list[int], int]:
    a, b = rng.randint(1, 6) + rng.randint(1, 6), rng.randint(1, 6)
    if skill == "add":
        return [a, b], a + b
    if skill == "sub":
        return [a + b, b], a
    if skill == "mul":
        a, b = rng.randint(1, 10), rng.randint(1, 10)
        return [a, b], a * b
    b, q = rng.randint(1, 10), rng.randint(1, 10)
    return [b * q, b], q


def _wrong(rng: random.Random, skill: str, operands: list[int], right: int) -> int:
    a, b = operands
    roll = rng.random()
    if roll < 0.25 and skill != "add":
        return a + b
    if roll < 0.5:
        return right + rng.choice((-1, 1))
    if roll < 0.65 and skill == "mul":
        return a * (b + 1)
    return max(0, right + rng.randint(-5, 5)) or right + 2


class Command(BaseCommand):
    help = "Fill the database with seeded synthetic classes, pupils, sessions and attempts."

    def add_arguments(self, parser):
        parser.add_argument("--classes", type=int, default=1)
        parser.add_argument("--pupils-per-class", type=int, default=30)
        parser.add_argument("--attempts-per-pupil", type=int, default=2000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--weeks", type=int, default=12)
        parser.add_argument(
            "--teacher", default="synthetic@numbo.test", help="email; created when missing"
        )

    def handle(self, *args, **options):
        rng = random.Random(options["seed"])
        teacher = Teacher.objects.filter(email__iexact=options["teacher"]).first()
        if teacher is None:
            teacher = Teacher.objects.create_user(options["teacher"], None)
        total = 0
        created_at = Attempt._meta.get_field("created_at")
        created_at.auto_now_add = False  # keep the synthetic times (bulk_create would not)
        try:
            for number in range(options["classes"]):
                total += self._fill_class(teacher, number, rng, options)
        finally:
            created_at.auto_now_add = True
        self.stdout.write(f"{options['classes']} classes, {total} attempts")

    def _fill_class(self, teacher, number: int, rng: random.Random, options) -> int:
        size, per_pupil = options["pupils_per_class"], options["attempts_per_pupil"]
        with transaction.atomic():
            classroom = Classroom.objects.create(
                teacher=teacher, name=f"Synthetic {number + 1} (seed {options['seed']})"
            )
            pictures = list(PASSWORD_PICTURES)
            pupils = Pupil.objects.bulk_create(
                Pupil(
                    classroom=classroom,
                    first_name=FIRST_NAMES[i % len(FIRST_NAMES)],
                    initial=chr(65 + (i // len(FIRST_NAMES)) % 26),
                    avatar=rng.choice(list(AVATARS)),
                    picture_password=",".join(rng.sample(pictures, 3)),
                )
                for i in range(size)
            )
        sessions = max(1, per_pupil // SESSION_SIZE)
        now = timezone.now()
        start = now - timedelta(weeks=options["weeks"])
        span = (now - start) / sessions
        # Hidden levels: chance of a right first try, per operation, and how fast it grows.
        levels = {
            p.pk: {
                skill: (rng.uniform(0.35, 0.9), rng.uniform(0.0, 0.6))
                for skill in ("add", "sub", "mul", "div")
            }
            for p in pupils
        }
        pending: list[Attempt] = []
        written = 0
        for s in range(sessions):
            when = start + span * s
            with transaction.atomic():
                session = GameSession.objects.create(
                    classroom=classroom,
                    teacher=teacher,
                    game="numberquest",
                    options={"preset": "mixed"},
                    status=GameSession.Status.ENDED,
                    ended_at=when + timedelta(minutes=30),
                )
                GameSession.objects.filter(pk=session.pk).update(created_at=when)
                tables = Table.objects.bulk_create(
                    Table(
                        session=session,
                        number=t + 1,
                        seed=rng.randrange(2**31),
                        state={},
                        turn_started_at=when,
                        finished=True,
                    )
                    for t in range((len(pupils) + PUPILS_PER_TABLE - 1) // PUPILS_PER_TABLE)
                )
                Seat.objects.bulk_create(
                    Seat(table=tables[i // PUPILS_PER_TABLE], player=i % PUPILS_PER_TABLE, pupil=p)
                    for i, p in enumerate(pupils)
                )
            progress = s / max(1, sessions - 1)
            count = per_pupil // sessions + (1 if s < per_pupil % sessions else 0)
            for i, pupil in enumerate(pupils):
                table = tables[i // PUPILS_PER_TABLE]
                moment = when
                made = 0
                while made < count:
                    made += 1
                    skill = rng.choices(("add", "sub", "mul", "div"), (4, 3, 3, 2))[0]
                    base, growth = levels[pupil.pk][skill]
                    chance = min(0.98, base + growth * progress * (1 - base))
                    operands, right = _calculation(rng, skill)
                    correct = rng.random() < chance
                    first_try = True
                    moment += timedelta(seconds=rng.randint(8, 40))
                    given = right if correct else _wrong(rng, skill, operands, right)
                    step = {
                        "pupil": pupil, "session": session, "table": table,
                        "game": "numberquest", "skill": skill,
                        "operands": [str(x) for x in operands], "expected": str(right),
                    }
                    pending.append(
                        Attempt(
                            **step, given=str(given), correct=correct, first_try=first_try,
                            response_ms=rng.randint(2000, 25000), created_at=moment,
                        )
                    )
                    if not correct and made < count and rng.random() < 0.6:  # a second try
                        made += 1
                        moment += timedelta(seconds=rng.randint(3, 15))
                        pending.append(
                            Attempt(
                                **step, given=str(right), correct=True, first_try=False,
                                response_ms=rng.randint(1500, 9000), created_at=moment,
                            )
                        )
                    if len(pending) >= BATCH:
                        written += self._flush(pending)
        written += self._flush(pending)
        return written

    @staticmethod
    def _flush(pending: list[Attempt]) -> int:
        count = len(pending)
        if count:
            Attempt.objects.bulk_create(pending, batch_size=5000)
            pending.clear()
        return count
