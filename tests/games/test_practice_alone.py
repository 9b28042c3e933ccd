"""A pupil alone: the home says "Let's practise ×!" for the pupil's next skill
and starts, in one tap, a game against the computer set up for it."""

import pytest
from django.test import Client
from django.urls import reverse

from classroom.models import Attempt
from classroom.reports import services as reports
from games import services
from games.models import GameSession, Table
from tests.conftest import tap_pictures

pytestmark = pytest.mark.django_db


def give_evidence(classroom, teacher, pupil, wrong=()):
    """12 first tries each of + − × in two games, right but for ``wrong`` skills
    (7 in 10 wrong there); the skills not given are never tried."""
    sessions = []
    for seed in (1, 2):
        session = services.start_session(
            classroom, teacher, game="numberquest", options={"preset": "classic"},
            pupils=[pupil], table_size=1, seating={pupil.pk: 1}, seed=seed,
        )
        services.set_status(session, GameSession.Status.ENDED)
        sessions.append(session)
    skills = ("add", "sub", *wrong)
    Attempt.objects.bulk_create(
        Attempt(pupil=pupil, session=sessions[i % 2], table=sessions[i % 2].tables.get(),
                game="numberquest", skill=skill, operands=[6, 7], expected="42",
                given="48" if skill in wrong and i % 10 < 7 else "42",
                correct=not (skill in wrong and i % 10 < 7))
        for skill in skills for i in range(12)
    )
    reports.recompute_pupils([pupil.pk])


def signed_in(pupil, language="en"):
    client = Client(headers={"accept-language": language})
    assert tap_pictures(client, pupil, pupil.password_pictures).status_code == 302
    return client


def test_a_pupil_ready_for_times_is_asked_to_practise_it(classroom, teacher, pupils):
    lea = pupils[0]
    give_evidence(classroom, teacher, lea)
    client = signed_in(lea)
    home = client.get(reverse("classroom:pupil_home")).content.decode()
    assert "Let&#x27;s practise ×!" in home or "Let's practise ×!" in home
    assert "multiplying" in home
    response = client.post(reverse("games:practice_alone"))
    session = GameSession.objects.get(practice_skill="mul")
    table = session.tables.get()
    assert response.url == reverse("games:table_play", args=[table.pk])
    assert session.options["operations"] == "+*"
    seats = list(table.seats.order_by("player"))
    assert [s.pupil_id for s in seats] == [lea.pk, None]
    assert seats[1].bot_level == "greedy"  # ready for the next step: a medium computer
    # Tapped again: the same game, not a second one.
    assert client.post(reverse("games:practice_alone")).url == response.url
    assert GameSession.objects.filter(practice_skill="mul").count() == 1
    # A game to play: the home lists it, and asks for nothing else.
    home = client.get(reverse("classroom:pupil_home")).content.decode()
    assert "practice-alone" not in home and "Play at table 1" in home


def test_a_pupil_who_needs_help_gets_a_beginner_computer(classroom, teacher, pupils):
    noah = pupils[1]
    give_evidence(classroom, teacher, noah, wrong=("mul",))
    client = signed_in(noah, "fr")
    home = client.get(reverse("classroom:pupil_home")).content.decode()
    assert "Entraînons-nous : × !" in home and "multiplier" in home
    client.post(reverse("games:practice_alone"))
    table = Table.objects.get(session__practice_skill="mul")
    assert table.seats.get(pupil=None).bot_level == "beginner"


def test_no_evidence_no_call(classroom, teacher, pupils):
    client = signed_in(pupils[2])
    home = client.get(reverse("classroom:pupil_home")).content.decode()
    assert "practice-alone" not in home
    response = client.post(reverse("games:practice_alone"))
    assert response.url == reverse("classroom:pupil_home")
    assert not GameSession.objects.exists()


def test_only_a_signed_in_pupil_may_start_one(client, classroom, teacher, pupils):
    give_evidence(classroom, teacher, pupils[0])
    response = client.post(reverse("games:practice_alone"))
    assert response.status_code in (302, 403)
    assert not GameSession.objects.filter(practice_skill="mul").exists()
    assert client.get(reverse("games:practice_alone")).status_code in (302, 405)


def test_the_teacher_may_switch_playing_alone_off_and_on(
    teacher_client, classroom, teacher, pupils
):
    """The class setting: off, the home proposes nothing and a POST sent
    anyway (an old page, a forged form) starts nothing, with a message; on
    again, the pupil is asked again."""
    lea = pupils[0]
    give_evidence(classroom, teacher, lea)
    edit = reverse("classroom:class_edit", args=[classroom.pk])
    form = teacher_client.get(edit).content.decode()
    assert 'name="pupils_practise_alone"' in form and "practise alone" in form
    fields = {"name": classroom.name, "school_year": classroom.school_year,
              "uses_picture_passwords": "on"}
    assert teacher_client.post(edit, fields).status_code == 302  # the box left unticked
    classroom.refresh_from_db()
    assert classroom.pupils_practise_alone is False

    client = signed_in(lea)
    home = client.get(reverse("classroom:pupil_home")).content.decode()
    assert "practice-alone" not in home and "practise ×" not in home
    response = client.post(reverse("games:practice_alone"), follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse("classroom:pupil_home")
    assert "Your teacher has switched off playing alone for now." in response.content.decode()
    assert not GameSession.objects.filter(practice_skill="mul").exists()

    assert teacher_client.post(edit, {**fields, "pupils_practise_alone": "on"}).status_code == 302
    classroom.refresh_from_db()
    assert classroom.pupils_practise_alone is True
    home = client.get(reverse("classroom:pupil_home")).content.decode()
    assert "practice-alone" in home
    assert client.post(reverse("games:practice_alone")).status_code == 302
    assert GameSession.objects.filter(practice_skill="mul").count() == 1


def test_another_teacher_cannot_switch_it(client, other_teacher, classroom):
    client.force_login(other_teacher)
    edit = reverse("classroom:class_edit", args=[classroom.pk])
    response = client.post(edit, {"name": "Mine", "school_year": classroom.school_year})
    assert response.status_code == 404
    classroom.refresh_from_db()
    assert classroom.pupils_practise_alone is True and classroom.name != "Mine"
