"""The teacher's one-screen start form, for each game."""

import pytest
from django.urls import reverse

from games.models import GameSession

pytestmark = pytest.mark.django_db

COMMON = {"table_size": 2, "tablets": "own", "bot_level": "greedy", "preset": "classic"}


def start(teacher_client, classroom, **data):
    url = reverse("games:session_new", args=[classroom.pk])
    return teacher_client.post(url, {**COMMON, **data})


def test_the_form_offers_the_three_games(teacher_client, classroom, pupils):
    page = teacher_client.get(reverse("games:session_new", args=[classroom.pk])).content.decode()
    for game in ("numberquest", "ultimes", "nmbr9"):
        assert f'value="{game}"' in page


@pytest.mark.parametrize(
    ("marks", "ultimates", "elevated"),
    [("none", False, False), ("ultimates", True, False), ("both", True, True), ("", False, False)],
)
def test_a_race_to_99_marks_what_the_teacher_chose(
    teacher_client, classroom, pupils, marks, ultimates, elevated
):
    response = start(teacher_client, classroom, game="ultimes", track_marks=marks)
    session = GameSession.objects.get()
    assert response.status_code == 302
    assert session.game == "ultimes"
    assert session.options == {
        "second_chance": False, "mark_ultimates": ultimates, "mark_elevated": elevated,
    }
    table = session.tables.first()
    assert table.state["options"]["mark_ultimates"] is ultimates
    assert table.state["options"]["mark_elevated"] is elevated


def test_nmbr9_at_tables_of_two(teacher_client, classroom, pupils):
    start(teacher_client, classroom, game="nmbr9", nmbr9_mode="tables", second_chance="on")
    session = GameSession.objects.get()
    assert session.game == "nmbr9" and not session.whole_class
    assert session.options == {"second_chance": True}
    assert sorted(t.seats.count() for t in session.tables.all()) == [2, 2]


def test_nmbr9_for_the_whole_class_gives_everyone_the_same_deck(
    teacher_client, classroom, pupils
):
    response = start(teacher_client, classroom, game="nmbr9", nmbr9_mode="whole_class")
    session = GameSession.objects.get()
    # The teacher lands on the screen that turns the cards.
    assert response.url == reverse("games:session_cards", args=[session.pk])
    live = teacher_client.get(reverse("games:session_live", args=[session.pk])).content.decode()
    assert "NMBR 9" in live and reverse("games:session_cards", args=[session.pk]) in live
    tables = list(session.tables.all())
    assert session.whole_class and session.cards_shown == 1
    assert len(tables) == len(pupils)
    assert len({t.seed for t in tables}) == 1
    assert all(t.seats.count() == 1 and t.seats.get().pupil_id for t in tables)


def test_an_unknown_game_is_refused_with_a_message(teacher_client, classroom, pupils):
    response = start(teacher_client, classroom, game="chess")
    assert response.status_code == 200
    assert response.context["form"].errors["game"]
    assert not GameSession.objects.exists()
