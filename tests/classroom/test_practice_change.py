"""Afterwards: the session report and the pupil report say what a practice
session started from the class report changed for its skill."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.models import Attempt
from games import services
from games.models import GameSession

pytestmark = pytest.mark.django_db


def session_of(classroom, teacher, pupils, practice_skill="", seed=1):
    return services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "classic"}, pupils=pupils,
        table_size=len(pupils), seating={p.pk: 1 for p in pupils}, seed=seed,
        practice_skill=practice_skill,
    )


def multiplications(pupil, session, rights, at):
    Attempt.objects.bulk_create(
        Attempt(pupil=pupil, session=session, table=session.tables.get(), game="numberquest",
                skill="mul", operands=[6, 7], expected="42", given="42" if right else "48",
                correct=right)
        for right in rights
    )
    # In order, a minute apart, from ``at`` on.
    for minute, attempt in enumerate(Attempt.objects.filter(session=session, pupil=pupil)
                                     .order_by("pk")):
        Attempt.objects.filter(pk=attempt.pk).update(created_at=at + timedelta(minutes=minute))


@pytest.fixture
def practised(classroom, teacher, pupils):
    lea, noah, _ines = pupils
    now = timezone.now()
    before = session_of(classroom, teacher, [lea, noah])
    services.set_status(before, GameSession.Status.ENDED)
    multiplications(noah, before, [True] * 4 + [False] * 6, now - timedelta(days=7))
    practice = session_of(classroom, teacher, [lea, noah], practice_skill="mul", seed=2)
    GameSession.objects.filter(pk=practice.pk).update(created_at=now - timedelta(hours=1))
    practice.refresh_from_db()
    multiplications(noah, practice, [True] * 8 + [False] * 2, now - timedelta(minutes=50))
    return practice


def test_the_session_report_says_what_the_practice_changed(teacher_client, practised, pupils):
    lea, noah, _ines = pupils
    page = teacher_client.get(
        reverse("reports:session_report", args=[practised.pk])
    ).content.decode()
    assert "What this practice of multiplication changed" in page
    assert "Multiplication: 4 of the last 10 right before the session of" in page
    assert ", 8 of 10 after" in page
    # Léa typed no × at all: said as such, not as 0 of 0.
    assert "Multiplication: no calculation before the session of" in page


def test_the_pupil_report_says_it_too_in_french(client, teacher, practised, pupils):
    noah = pupils[1]
    client = Client(headers={"accept-language": "fr"})
    client.force_login(teacher)
    page = client.get(reverse("reports:pupil_report", args=[noah.pk])).content.decode()
    assert "Ce que l’entraînement a changé" in page
    assert "Multiplication : 4 justes sur les 10 dernières avant la séance du" in page
    assert "8 sur 10 après" in page


def test_a_session_started_otherwise_says_nothing_of_practice(
    teacher_client, classroom, teacher, pupils
):
    session = session_of(classroom, teacher, pupils[:2])
    page = teacher_client.get(reverse("reports:session_report", args=[session.pk]))
    assert "practice-change" not in page.content.decode()
    pupil_page = teacher_client.get(reverse("reports:pupil_report", args=[pupils[0].pk]))
    assert "practice-change" not in pupil_page.content.decode()


def test_another_teacher_sees_neither(client, other_teacher, practised, pupils):
    client.force_login(other_teacher)
    assert client.get(reverse("reports:session_report", args=[practised.pk])).status_code == 404
    assert client.get(reverse("reports:pupil_report", args=[pupils[1].pk])).status_code == 404
