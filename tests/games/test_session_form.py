"""The teacher's one-screen start form, for each game."""

import html
import re

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


def duration_line(teacher_client, classroom, **query):
    url = reverse("games:session_new", args=[classroom.pk])
    response = teacher_client.get(url, {"duration": "1", **query}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def test_the_form_says_how_long_the_chosen_preset_lasts(teacher_client, classroom, pupils):
    page = teacher_client.get(reverse("games:session_new", args=[classroom.pk])).content.decode()
    assert 'id="duration"' in page and "Usually about 1" in page  # classic: 110 turns or so
    line = duration_line(teacher_client, classroom, preset="addition-3")
    assert "<form" not in line and 'id="duration"' in line
    assert "Usually about 2" in line and "minutes" in line and "Warning" not in line


def test_a_custom_board_that_lasts_too_long_is_allowed_with_a_warning(
    teacher_client, classroom, pupils
):
    seed_board = {"preset": "custom", "dice": 4, "lo": 1, "hi": 24, "operations": ["+", "-"]}
    assert "Warning" in duration_line(teacher_client, classroom, **seed_board)
    response = start(teacher_client, classroom, game="numberquest", **seed_board)
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert (session.options["lo"], session.options["hi"]) == (1, 24)


def test_a_board_the_dice_cannot_finish_is_refused_with_the_reason(
    teacher_client, classroom, pupils
):
    impossible = {"preset": "custom", "dice": 2, "lo": 2, "hi": 60, "operations": ["+"]}
    assert "No roll of 2 dice can make 60" in duration_line(teacher_client, classroom, **impossible)
    response = start(teacher_client, classroom, game="numberquest", **impossible)
    assert response.status_code == 200 and not GameSession.objects.exists()


def test_the_alternative_ends_of_the_rules_reach_the_tables(teacher_client, classroom, pupils):
    response = start(
        teacher_client, classroom, game="numberquest", preset="addition-3",
        end_conditions=["colour_full", "board_full"], time_limit_minutes=30,
    )
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert session.options["end_conditions"] == ["colour_full", "board_full"]
    for table in session.tables.all():
        options = table.state["options"]
        assert options["end_conditions"] == ["colour_full", "board_full"]
        assert options["time_limit_minutes"] == 30


@pytest.mark.parametrize(
    ("language", "levels"),
    [
        ("en", ["No computer players", "Computer players: beginner", "Computer players: medium",
                "Computer players: strategist"]),
        # One word for them in every game's start form: "Joueurs ordinateur :
        # moyens" stood next to "Ordinateurs : débutants".
        ("fr", ["Aucun ordinateur", "Ordinateurs : débutants", "Ordinateurs : moyens",
                "Ordinateurs : stratèges"]),
    ],
)
def test_the_computer_players_levels_are_named_alike(
    teacher_client, classroom, pupils, language, levels
):
    page = teacher_client.get(
        reverse("games:session_new", args=[classroom.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    select = re.search(r'<select name="bot_level"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert [html.unescape(o) for o in re.findall(r"<option[^>]*>([^<]*)</option>", select)] == (
        levels
    )
