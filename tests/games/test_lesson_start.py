"""'Start these tables': the start form opened from a plan of the class report
is filled in (game, options, pupils, seats, computer players), the teacher may
change anything, and a plan that cannot be trusted gets a message, never an
error page. Only the plan's own teacher and class."""

import re

import pytest
from django.core import signing
from django.urls import reverse

from classroom.models import Classroom, Pupil
from classroom.reports import lessons
from engine.practice import GameSetup
from games.models import GameSession
from learning.table_plan import plan

pytestmark = pytest.mark.django_db


def plan_url(classroom, teacher, pupils, skill="mul", mixed=False, masters=(), setup=None,
             reasons=None):
    setup = setup or lessons.practice_choice(skill).chosen.setup
    paired = dict(zip((p.pk for p in pupils), (m.pk for m in masters), strict=False))
    tables = plan("need", [p.pk for p in pupils], mixed=mixed, partners=paired,
                  reasons=reasons)
    return lessons.start_url(classroom, teacher, skill, setup, tables)


def selected(page: str, name: str) -> str:
    """The value the page's <select name=...> shows."""
    block = re.search(rf'<select name="{name}".*?</select>', page, re.S).group(0)
    return re.search(r'<option value="([^"]*)"[^>]*selected', block).group(1)


def checked(page: str, name: str) -> list[str]:
    return re.findall(rf'<input type="(?:radio|checkbox)" name="{name}" value="([^"]*)"'
                      r'[^>]*checked', page)


def ticked(page: str, name: str) -> bool:
    """Whether the page's checkbox ``name`` (which posts "on") is ticked."""
    box = re.search(rf'<input type="checkbox" name="{name}"[^>]*>', page).group(0)
    return " checked" in box


def value(page: str, name: str) -> str:
    return re.search(rf'<input type="[a-z]+" name="{name}" value="([^"]*)"', page).group(1)


def test_the_plan_fills_the_start_form_in(teacher_client, teacher, classroom, pupils):
    lea, noah, ines = pupils
    page = teacher_client.get(plan_url(classroom, teacher, [lea, noah])).content.decode()
    assert "Tables to practise multiplication" in page
    assert value(page, "practice") == "mul"
    assert checked(page, "game") == ["numberquest"]
    assert checked(page, "preset") == ["custom"]
    assert checked(page, "operations") == ["+", "*"]
    assert (value(page, "dice"), value(page, "lo"), value(page, "hi")) == ("4", "20", "42")
    assert selected(page, "bot_level") == "beginner"
    assert selected(page, "table_size") == "2"
    assert selected(page, f"table_{lea.pk}") == selected(page, f"table_{noah.pk}") == "1"
    assert selected(page, f"table_{ines.pk}") == "0"  # not in the group: not playing
    assert "Usually about" in page  # how long the planned variant lasts


NAMBARZ_PLUS_MINUS = GameSetup.of("nambarz", rounds=1, jokers=4, brackets=False, young=True)


def test_a_nambarz_plan_fills_in_nambarz_and_its_options(
    teacher_client, teacher, classroom, pupils
):
    """A set-up of another game than Number Quest (the report's second
    proposal) opens the form on that game, its own options ticked."""
    lea, noah, ines = pupils
    url = plan_url(classroom, teacher, [lea, noah], skill="sub", setup=NAMBARZ_PLUS_MINUS)
    page = teacher_client.get(url).content.decode()
    assert "Tables to practise subtraction" in page
    assert checked(page, "game") == ["nambarz"]
    assert selected(page, "jokers") == "4"
    assert selected(page, "rounds") == "1"
    assert ticked(page, "young")
    assert not ticked(page, "brackets")
    assert selected(page, f"table_{lea.pk}") == selected(page, f"table_{noah.pk}") == "1"
    # Accepted as shown, the tables play Nambarz with + and − and 4 jokers.
    response = teacher_client.post(reverse("games:session_new", args=[classroom.pk]), {
        "game": "nambarz", "rounds": "1", "jokers": "4", "young": "on", "table_size": 2,
        "team_size": 1, "tablets": "own", "bot_level": "beginner", "practice": "sub",
        f"table_{lea.pk}": "1", f"table_{noah.pk}": "1", f"table_{ines.pk}": "0",
    })
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert (session.game, session.practice_skill) == ("nambarz", "sub")
    assert session.options == {"rounds": 1, "jokers": 4, "brackets": False, "young": True}
    state = session.tables.get().state
    assert state["options"]["operations"] == "+-" and state["options"]["jokers"] == 4


@pytest.mark.parametrize("setup, shown", [
    (GameSetup.of("ultimes", second_chance=False, mark_ultimates=True, mark_elevated=True),
     ("track_marks", ["both"])),
    (GameSetup.of("numx", mode="family"), ("numx_mode", ["family"])),
])
def test_a_plan_of_the_track_or_num_x_fills_in_their_options(
    teacher_client, teacher, classroom, pupils, setup, shown
):
    page = teacher_client.get(
        plan_url(classroom, teacher, pupils[:2], setup=setup)
    ).content.decode()
    assert checked(page, "game") == [setup.game]
    assert checked(page, shown[0]) == shown[1]


def test_started_as_planned_the_session_practises_the_skill(
    teacher_client, teacher, classroom, pupils
):
    lea, noah, ines = pupils
    teacher_client.get(plan_url(classroom, teacher, [lea, noah]))
    # What the filled-in form posts when the teacher accepts it.
    response = teacher_client.post(reverse("games:session_new", args=[classroom.pk]), {
        "game": "numberquest", "preset": "custom", "dice": 4, "operations": ["+", "*"],
        "lo": 20, "hi": 42, "table_size": 2, "team_size": 1, "tablets": "own",
        "bot_level": "beginner", "practice": "mul",
        f"table_{lea.pk}": "1", f"table_{noah.pk}": "1", f"table_{ines.pk}": "0",
    })
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert session.practice_skill == "mul"
    assert session.options["operations"] == "+*" and session.options["lo"] == 20
    table = session.tables.get()
    assert {s.pupil_id for s in table.seats.all()} == {lea.pk, noah.pk}


def test_each_table_keeps_its_computer_level_from_the_plan_to_its_seats(
    teacher_client, teacher, classroom, pupils
):
    """Léa and Noah need help (a beginner computer), Inès avoids × (a medium
    one): the form shows each table's level, and the seats get it."""
    lea, noah, ines = pupils
    reasons = {lea.pk: "needs_help", noah.pk: "needs_help", ines.pk: "avoids"}
    page = teacher_client.get(
        plan_url(classroom, teacher, [lea, ines, noah], reasons=reasons)
    ).content.decode()
    assert selected(page, "bot_level") == "beginner"  # the group's, for any other table
    assert (selected(page, "level_1"), selected(page, "level_2")) == ("beginner", "beginner")
    # Léa and Inès share table 1 (the gentler level), Noah alone at table 2.
    reasons[noah.pk] = "avoids"
    page = teacher_client.get(
        plan_url(classroom, teacher, [lea, ines, noah], reasons=reasons)
    ).content.decode()
    assert (selected(page, "level_1"), selected(page, "level_2")) == ("beginner", "greedy")
    assert "Computer players, table by table" in page
    response = teacher_client.post(reverse("games:session_new", args=[classroom.pk]), {
        "game": "numberquest", "preset": "custom", "dice": 4, "operations": ["+", "*"],
        "lo": 20, "hi": 42, "table_size": 2, "team_size": 1, "tablets": "own",
        "bot_level": "beginner", "practice": "mul", "level_1": "beginner", "level_2": "greedy",
        f"table_{lea.pk}": "1", f"table_{ines.pk}": "1", f"table_{noah.pk}": "2",
    })
    assert response.status_code == 302
    table = GameSession.objects.get().tables.get(number=2)
    seats = {s.pupil_id: s.bot_level for s in table.seats.all()}
    assert seats == {noah.pk: "", None: "greedy"}
    # A level the form does not offer is the form's error, never a 500.
    response = teacher_client.post(reverse("games:session_new", args=[classroom.pk]), {
        "game": "numberquest", "preset": "classic", "table_size": 2, "team_size": 1,
        "tablets": "own", "bot_level": "beginner", "level_2": "god",
        f"table_{lea.pk}": "1", f"table_{ines.pk}": "1", f"table_{noah.pk}": "2",
    })
    assert response.status_code == 200 and GameSession.objects.count() == 1


def test_the_teacher_may_change_everything(teacher_client, teacher, classroom, pupils):
    lea, noah, ines = pupils
    response = teacher_client.post(reverse("games:session_new", args=[classroom.pk]), {
        "game": "numberquest", "preset": "classic", "table_size": 3, "team_size": 1,
        "tablets": "own", "bot_level": "", "practice": "mul",
        f"table_{lea.pk}": "1", f"table_{noah.pk}": "1", f"table_{ines.pk}": "1",
    })
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert session.options["preset"] == "classic" and session.table_size == 3
    assert session.tables.get().seats.count() == 3


def test_a_mixed_plan_seats_a_master_and_a_pupil_as_one_team(
    teacher_client, teacher, classroom, pupils
):
    lea, noah, ines = pupils
    page = teacher_client.get(
        plan_url(classroom, teacher, [noah, ines], mixed=True, masters=[lea])
    ).content.decode()
    assert selected(page, "team_size") == "2"
    assert selected(page, f"table_{lea.pk}") == selected(page, f"table_{noah.pk}") == "1"
    assert selected(page, f"table_{ines.pk}") == "2"


def test_a_forged_plan_gets_a_message_and_the_usual_form(teacher_client, classroom, pupils):
    url = reverse("games:session_new", args=[classroom.pk])
    for forged in ("nonsense", "a" * 5000, "e30:1tZ:abc", "%00"):
        response = teacher_client.get(url, {"plan": forged})
        page = response.content.decode()
        assert response.status_code == 200
        assert "This link to start tables is broken" in page
        assert checked(page, "preset") == ["classic"]
        assert "Tables to practise" not in page


def test_a_signed_plan_of_the_wrong_shape_is_refused_too(
    teacher_client, teacher, classroom, pupils
):
    url = reverse("games:session_new", args=[classroom.pk])
    good = {"c": classroom.pk, "t": teacher.pk, "k": "mul", "g": "numberquest",
            "o": {"preset": "classic"}, "s": {str(pupils[0].pk): 1}, "ts": 2, "tm": 1,
            "b": "beginner"}
    for wrong in ({"s": "all"}, {"s": {"x": 1}}, {"s": {"1": 99}}, {"k": "magic"},
                  {"g": "chess"}, {"ts": True}, {"b": "god"}, {"o": []}, {"s": {"²": 1}},
                  {"l": []}, {"l": {"1": "god"}}, {"l": {"99": "beginner"}},
                  {"l": {"²": "greedy"}}):
        token = signing.dumps({**good, **wrong}, salt=lessons.SALT)
        page = teacher_client.get(url, {"plan": token}).content.decode()
        assert "This link to start tables is broken" in page, wrong
    # Options the game refuses are the form's to say, as a teacher's would be.
    token = signing.dumps({**good, "o": {"preset": "custom", "dice": 9}}, salt=lessons.SALT)
    assert teacher_client.get(url, {"plan": token}).status_code == 200


def test_an_old_plan_is_refused_with_a_message(
    teacher_client, teacher, classroom, pupils, monkeypatch
):
    url = plan_url(classroom, teacher, pupils[:2])
    monkeypatch.setattr(lessons, "MAX_AGE", -1)
    page = teacher_client.get(url).content.decode()
    assert "more than two weeks old" in page


def test_another_teacher_is_refused(client, teacher, other_teacher, classroom, pupils):
    url = plan_url(classroom, teacher, pupils[:2])
    client.force_login(other_teacher)
    # Not their class: the page does not exist for them.
    assert client.get(url).status_code == 404
    # Their own class with this plan: refused, and nobody of the plan shows.
    theirs = Classroom.objects.create(teacher=other_teacher, name="CM2", school_year="2026-2027")
    Pupil.objects.create(classroom=theirs, first_name="Zoé", initial="A", avatar="cat",
                         picture_password="sun,moon,star")
    own_url = url.replace(f"/classes/{classroom.pk}/", f"/classes/{theirs.pk}/")
    page = client.get(own_url).content.decode()
    assert "made for another class" in page
    assert "Léa" not in page and "Tables to practise" not in page


def test_a_seat_for_a_pupil_of_another_class_is_dropped(
    teacher_client, teacher, classroom, pupils, other_teacher
):
    theirs = Classroom.objects.create(teacher=other_teacher, name="CM2", school_year="2026-2027")
    stranger = Pupil.objects.create(classroom=theirs, first_name="Zoé", initial="A",
                                    avatar="cat", picture_password="sun,moon,star")
    page = teacher_client.get(
        plan_url(classroom, teacher, [pupils[0], stranger])
    ).content.decode()
    assert f"table_{stranger.pk}" not in page and "Zoé" not in page
    assert selected(page, f"table_{pupils[0].pk}") == "1"
