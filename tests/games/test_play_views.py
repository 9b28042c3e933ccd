"""The pages around a table: what pupils and teachers see and may do."""

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from classroom.models import Attempt, Pupil
from games.models import GameSession, Move, Table
from games.pages import engine_of
from tests.conftest import tap_pictures

from .conftest import a_right_step, state_of

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def post_move(client, table, htmx=True, **fields):
    data = {"version": table.version, "move_id": fields.pop("move_id", "m1"), **fields}
    return client.post(reverse("games:table_move", args=[table.pk]), data, **(HTMX if htmx else {}))


def step_fields(state, **override):
    move = a_right_step(state)
    (a, oa), (b, ob) = state.available[0], state.available[1]
    fields = {
        "type": "step",
        "left": f"{a}|{oa}",
        "op": "+",
        "right": f"{b}|{ob}",
        "result": move["result"],
    }
    fields.update(override)
    return fields


def test_the_pupil_sees_their_table_and_plays_a_step(start, pupil_client, pupils):
    session, table = start()
    page = pupil_client.get(reverse("games:table_play", args=[table.pk]))
    assert page.status_code == 200
    assert "Your turn!" in page.content.decode()
    assert page.content.decode().count('class="sq') == 100
    response = post_move(pupil_client, table, **step_fields(state_of(table)))
    assert response.status_code == 200
    assert "Right:" in response.content.decode()
    assert Attempt.objects.get().correct


def test_home_lists_the_pupils_table(start, pupil_client):
    session, table = start()
    home = pupil_client.get(reverse("classroom:pupil_home")).content.decode()
    assert reverse("games:table_play", args=[table.pk]) in home


def test_home_names_each_game_in_words_and_a_picture(start, pupil_client, classroom, teacher,
                                                     pupils):
    from games import services

    session, table = start()
    track = services.start_session(
        classroom, teacher, game="ultimes", options={}, pupils=[pupils[0]], table_size=1
    ).tables.get()
    home = pupil_client.get(reverse("classroom:pupil_home")).content.decode()
    for game, title, shown in (("numberquest", "Number Quest", table),
                               ("ultimes", "The track of ultimate numbers", track)):
        href = reverse("games:table_play", args=[shown.pk])
        button = re.search(rf'<a class="btn big game-button" href="{href}">(.*?)</a>', home, re.S)
        assert button, f"no button for {game}"
        assert f"games.svg#{game}" in button.group(1) and title in button.group(1)


def test_a_wrong_result_shows_the_right_one(start, pupil_client):
    session, table = start()
    state = state_of(table)
    right = a_right_step(state)["result"]
    response = post_move(pupil_client, table, **step_fields(state, result=right + 1))
    assert f"= {right}" in response.content.decode()


def test_a_wrong_step_is_told_apart_from_a_right_one(start, pupil_client):
    session, table = start()
    good = post_move(pupil_client, table, **step_fields(state_of(table))).content.decode()
    assert 'class="feedback"' in good and "Right: " in good
    assert 'class="feedback wrong"' not in good
    table.refresh_from_db()
    state = state_of(table)
    right = a_right_step(state)["result"]
    wrong = post_move(
        pupil_client, table, move_id="m2", **step_fields(state, result=right + 1)
    ).content.decode()
    assert 'class="feedback wrong"' in wrong and "Not quite: " in wrong


def test_the_dice_a_step_used_look_used(start, pupil_client):
    session, table = start()
    page = post_move(pupil_client, table, **step_fields(state_of(table))).content.decode()
    assert page.count('class="die used"') == 2
    assert page.count('class="die"') == 2
    assert page.count("(used)") == 2


def test_once_the_number_is_made_i_cant_make_a_number_is_gone(start, pupil_client):
    session, table = start()
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert 'value="cant"' in page
    while state_of(table).phase == "calculate":
        page = post_move(
            pupil_client, table, move_id=f"m{table.version}", **step_fields(state_of(table))
        ).content.decode()
    assert state_of(table).phase == "place"
    assert "Tap the square" in page and "Undo" in page
    assert 'value="cant"' not in page



@pytest.mark.parametrize(
    "fields",
    [
        {"type": "step", "left": "1|die:0", "op": "+", "right": "1|die:0", "result": "2"},
        {"type": "step", "left": "", "op": "+", "right": "", "result": "2"},
        {"type": "step", "left": "3|die:0", "op": "+", "right": "2|die:1", "result": "x" * 100_000},
        {"type": "step", "left": "3|die:0", "op": "^", "right": "2|die:1", "result": "5"},
        {"type": "place", "square": "-4"},
        {"type": "delete-everything"},
        {},
    ],
)
def test_forged_and_malformed_forms_get_a_message_and_change_nothing(start, pupil_client, fields):
    session, table = start()
    response = post_move(pupil_client, table, **fields)
    assert response.status_code == 200
    assert 'class="note error"' in response.content.decode()
    assert not Move.objects.exists()


def test_a_double_tap_places_one_move(start, pupil_client):
    session, table = start()
    fields = step_fields(state_of(table), move_id="same-tap")
    post_move(pupil_client, table, **fields)
    post_move(pupil_client, table, **{**fields, "version": 0})
    assert Move.objects.count() == 1


def test_each_answer_to_a_move_names_what_became_of_it(start, pupil_client):
    """A tablet that sent a move again after the wifi dropped reads whether it
    counts from the answer, not from its words."""
    session, table = start()
    state = state_of(table)
    fields = step_fields(state, move_id="kept-tap")
    assert post_move(pupil_client, table, **fields)["Numbo-Move"] == "applied"
    # The first sending arrived but its answer was lost: the same tap again.
    assert post_move(pupil_client, table, **fields)["Numbo-Move"] == "replayed"
    stale = post_move(pupil_client, table, **step_fields(state, move_id="other-tap"))
    assert stale["Numbo-Move"] == "stale"
    table.refresh_from_db()
    wrong = {"type": "place", "square": "-4"}
    assert post_move(pupil_client, table, **wrong)["Numbo-Move"] == "refused"
    assert Move.objects.count() == 1


def test_a_stale_tab_gets_the_new_board_and_a_note(start, pupil_client):
    session, table = start()
    state = state_of(table)
    post_move(pupil_client, table, **step_fields(state, move_id="a"))
    response = post_move(pupil_client, table, **step_fields(state, move_id="b"))
    assert "The game moved on" in response.content.decode()
    assert Move.objects.count() == 1


def test_without_htmx_a_move_redirects_back_to_the_table(start, pupil_client):
    session, table = start()
    response = post_move(pupil_client, table, htmx=False, **step_fields(state_of(table)))
    assert response.status_code == 302
    assert response.url == reverse("games:table_play", args=[table.pk])


def poll(client, table, version, token=None):
    from games.views.tables import poll_token

    token = token or poll_token(table, table.seats.first().pupil_id, None)
    url = reverse("games:table_poll", args=[table.pk])
    return client.get(url, {"t": token, "v": version}, **HTMX)


def test_an_unchanged_poll_is_answered_without_the_database(
    start, client, django_assert_num_queries
):
    from games.views.tables import poll_token

    session, table = start()
    token = poll_token(table, table.seats.first().pupil_id, None)
    poll(client, table, "0r", token)  # the first poll fills the cache
    with django_assert_num_queries(0):
        assert poll(client, table, "0r", token).status_code == 204


def test_a_poll_after_a_move_returns_the_new_board(
    start, client, pupils, django_capture_on_commit_callbacks
):
    from games import services

    session, table = start()
    assert poll(client, table, "0r").status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        services.play(table.pk, pupils[0], a_right_step(state_of(table)), 0, "t")
    response = poll(client, table, "0r")
    assert response.status_code == 200 and 'data-version="1"' in response.content.decode()


def test_a_forged_poll_token_is_refused(start, client):
    session, table = start()
    assert poll(client, table, 0, token="forged").status_code == 403


def test_the_teacher_starts_a_session_in_one_screen(teacher_client, classroom, pupils):
    url = reverse("games:session_new", args=[classroom.pk])
    assert teacher_client.get(url).status_code == 200
    data = {
        "game": "numberquest",
        "preset": "classic",
        "dice": 4,
        "operations": ["+"],
        "lo": 1,
        "hi": 100,
        "table_size": 2,
        "tablets": "own",
        "bot_level": "greedy",
        "turn_seconds": "",
        "pupils_bank": "",
        "time_limit_minutes": "",
    }
    response = teacher_client.post(url, data)
    session = GameSession.objects.get()
    assert response.url == reverse("games:session_live", args=[session.pk])
    # three pupils at tables of two: two tables, the lone pupil gets a computer player
    assert session.tables.count() == 2
    assert sorted(t.seats.count() for t in session.tables.all()) == [2, 2]


def test_a_custom_variant_that_cannot_finish_is_refused_with_the_reason(
    teacher_client, classroom, pupils
):
    data = {
        "game": "numberquest",
        "preset": "custom",
        "dice": 2,
        "operations": ["+"],
        "lo": 1,
        "hi": 40,
        "table_size": 2,
        "tablets": "own",
    }
    response = teacher_client.post(reverse("games:session_new", args=[classroom.pk]), data)
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert not GameSession.objects.exists()


def test_the_live_view_shows_each_table_and_marks_a_stuck_pupil(start, teacher_client, pupils):
    from games import services

    session, table = start()
    for tap in range(3):
        state = state_of(table)
        pupil = pupils[state.current]
        move = a_right_step(state)
        move["result"] += 1
        services.play(table.pk, pupil, move, table.version, f"t{tap}")
        table.refresh_from_db()
    page = teacher_client.get(reverse("games:session_live", args=[session.pk])).content.decode()
    assert 'data-testid="live-table-1"' in page
    assert "Not quite" in page
    assert "seems stuck" not in page
    # the pupil whose turn it is now got three steps wrong in a row
    current = pupils[state_of(table).current]
    Attempt.objects.filter(pupil=current).update(correct=False)
    for _ in range(3 - Attempt.objects.filter(pupil=current).count()):
        Attempt.objects.create(
            pupil=current,
            session=session,
            table=table,
            game="numberquest",
            skill="add",
            expected="5",
            given="6",
            correct=False,
        )
    # Written here, not by moves: the live view's cards of this version must go.
    cache.clear()
    page = teacher_client.get(reverse("games:session_live", args=[session.pk])).content.decode()
    assert "seems stuck: three wrong steps in a row" in page


def test_pause_resume_end_from_the_live_view(start, teacher_client):
    session, table = start()
    url = reverse("games:session_control", args=[session.pk])
    teacher_client.post(url, {"action": "pause"})
    session.refresh_from_db()
    assert session.status == "paused"
    teacher_client.post(url, {"action": "resume"})
    teacher_client.post(url, {"action": "end"})
    session.refresh_from_db()
    assert session.status == "ended"


def test_only_a_whole_class_game_goes_back_to_its_cards(start, teacher_client):
    # The cards page sends back_to=cards; anything else, or a game at tables, goes to the live view.
    session, table = start()
    url = reverse("games:session_control", args=[session.pk])
    answer = teacher_client.post(url, {"action": "pause", "back_to": "cards"})
    assert answer.url == reverse("games:session_live", args=[session.pk])
    answer = teacher_client.post(url, {"action": "resume", "back_to": "https://elsewhere.test/"})
    assert answer.url == reverse("games:session_live", args=[session.pk])


def test_the_projector_shows_one_table(start, teacher_client):
    session, table = start()
    page = teacher_client.get(reverse("games:table_projector", args=[table.pk]))
    assert page.status_code == 200 and "Table 1" in page.content.decode()


# --------------------------------------------------------------------------- who may see what


def test_another_teacher_is_refused_every_game_page(start, client, other_teacher, classroom):
    session, table = start()
    client.force_login(other_teacher)
    assert client.get(reverse("games:session_new", args=[classroom.pk])).status_code == 404
    assert client.get(reverse("games:session_live", args=[session.pk])).status_code == 404
    assert (
        client.post(
            reverse("games:session_control", args=[session.pk]), {"action": "end"}
        ).status_code
        == 404
    )
    assert client.get(reverse("games:table_projector", args=[table.pk])).status_code == 404
    session.refresh_from_db()
    assert session.status == "running"


def test_anonymous_visitors_are_refused_every_game_page(start, client, classroom):
    session, table = start()
    for url in [
        reverse("games:session_new", args=[classroom.pk]),
        reverse("games:session_live", args=[session.pk]),
        reverse("games:table_projector", args=[table.pk]),
    ]:
        assert reverse("login") in client.get(url).url
    assert client.get(reverse("games:table_play", args=[table.pk])).url == reverse("classroom:join")
    assert post_move(client, table, type="cant").status_code == 302
    assert not Move.objects.exists()


def test_a_pupil_not_at_the_table_is_refused(start, client, pupils):
    session, table = start()  # Léa and Noah play; Inès does not
    ines = pupils[2]
    tap_pictures(client, ines, ines.password_pictures)
    assert client.get(reverse("games:table_play", args=[table.pk])).status_code == 404
    assert post_move(client, table, type="cant").status_code == 404
    assert client.get(reverse("games:session_live", args=[session.pk])).status_code == 302
    assert not Move.objects.exists()


def test_the_board_svg_stays_valid_in_french(start, pupil_client):
    import re

    session, table = start()
    page = pupil_client.get(
        reverse("games:table_play", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert 'lang="fr"' in page
    assert not re.search(r'(x|y|cx|cy|width|height|r)="\d+,\d', page)
    assert re.search(r' x="\d+\.\d"', page)


def test_a_timed_turn_shows_the_seconds_the_server_counts(start, pupil_client):
    from datetime import timedelta

    from django.utils import timezone

    session, table = start(options={"preset": "addition", "turn_seconds": 30})
    table.turn_started_at = timezone.now() - timedelta(seconds=12)
    table.save(update_fields=["turn_started_at"])
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    left = int(page.split('data-countdown="', 1)[1].split('"', 1)[0])
    assert 16 <= left <= 18


def test_an_untimed_turn_shows_no_countdown(start, pupil_client):
    session, table = start()
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert "data-countdown" not in page


def test_a_move_after_the_end_says_the_game_is_over(start, pupil_client):
    from games import services

    session, table = start()
    services.set_status(session, GameSession.Status.ENDED)
    table.refresh_from_db()
    response = post_move(pupil_client, table, **step_fields(state_of(table)))
    assert "The game is over." in response.content.decode()
    assert not Attempt.objects.exists()


def test_a_superscript_digit_is_a_clear_note_not_an_error(start, pupil_client):
    session, table = start()
    response = post_move(pupil_client, table, **step_fields(state_of(table), result="²"))
    assert response.status_code == 200
    assert "Type a number with the keypad." in response.content.decode()
    assert not Attempt.objects.exists()


@pytest.mark.parametrize("version", ["²", "9" * 5000, "-1", ""])
def test_a_forged_version_is_a_stale_board_not_an_error(start, pupil_client, version):
    session, table = start()
    data = {"version": version, "move_id": "v1", **step_fields(state_of(table))}
    response = pupil_client.post(reverse("games:table_move", args=[table.pk]), data, **HTMX)
    assert response.status_code == 200
    assert not Move.objects.exists()


@pytest.mark.parametrize("move_id", ["a\x00b", "x" * 5000, "<script>", "é"])
def test_a_forged_tap_id_is_not_an_error(start, pupil_client, move_id):
    session, table = start()
    response = post_move(pupil_client, table, move_id=move_id, **step_fields(state_of(table)))
    assert response.status_code == 200
    assert "Right:" in response.content.decode()
    assert Move.objects.get().move_id.startswith("server-")


def test_a_late_move_on_a_timed_turn_says_the_time_was_up(start, pupil_client):
    session, table = start(options={"preset": "addition", "turn_seconds": 30})
    type(table).objects.filter(pk=table.pk).update(
        turn_started_at=table.turn_started_at.replace(year=2000)
    )
    response = post_move(pupil_client, table, **step_fields(state_of(table)))
    assert "Time was up" in response.content.decode()
    assert not Attempt.objects.exists()


def test_seat_late_pupils_seats_only_those_who_signed_in_after_the_start(
    start, teacher_client, pupils
):
    from datetime import timedelta

    from classroom.models import Pupil

    session, table = start(players=1, bot_level="greedy")
    before = session.created_at - timedelta(minutes=5)
    Pupil.objects.filter(pk=pupils[1].pk).update(signed_in_at=before)  # left out on purpose
    url = reverse("games:session_control", args=[session.pk])
    page = teacher_client.post(url, {"action": "seat_late"}, follow=True).content.decode()
    assert "No pupil has signed in since the game started." in page
    Pupil.objects.filter(pk=pupils[2].pk).update(signed_in_at=session.created_at + timedelta(1))
    page = teacher_client.post(url, {"action": "seat_late"}, follow=True).content.decode()
    assert "Seated: Inès D." in page and "Inès D.." not in page
    seated = set(table.seats.exclude(pupil=None).values_list("pupil_id", flat=True))
    assert seated == {pupils[0].pk, pupils[2].pk}


def test_the_tablet_shows_the_roll_for_who_starts_bots_included(start, pupil_client):
    session, table = start(players=1, bot_level="greedy")
    state = state_of(table)
    first_roll = state.events[0]
    assert first_roll.kind == "first_roll" and state.current == first_roll.player
    assert {player for player, _ in first_roll.data["rounds"][0]} == {0, 1}  # the bot rolled
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert "Who starts?" in page and " starts." in page


def test_a_pupil_seated_late_reaches_every_tablet_at_the_next_poll(
    start, client, pupils, django_capture_on_commit_callbacks
):
    from games import services
    from games.live import stamp

    session, table = start(players=1, bot_level="greedy")
    seen = stamp(table)
    assert poll(client, table, seen).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_late_pupils(session, [pupils[2]])
    table.refresh_from_db()
    assert stamp(table) != seen  # no move was made: only the seating changed
    response = poll(client, table, seen)
    assert response.status_code == 200 and "Inès" in response.content.decode()
    assert poll(client, table, stamp(table)).status_code == 204


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_computers_steps_in_the_log_say_who_made_them_not_right(
    start, pupil_client, pupils, language
):
    from games import services

    session, table = start(players=1, bot_level="greedy")
    services.play(table.pk, pupils[0], {"type": "cant"}, 0, "tap-0")
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=5))
    assert services.advance(table.pk)
    table.refresh_from_db()
    computer = engine_of("numberquest").from_json(table.state)
    assert computer.current == 0
    pupil_client.cookies["django_language"] = language
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    log = page.split('<ul class="log"', 1)[1].split("</ul>", 1)[0]
    said = "Computer 1: " if language == "en" else "Ordinateur 1 : "
    assert re.search(said + r"\d+ [+−×÷] \d+ = \d+\.", log), log
    assert "Right: " not in log and "Juste : " not in log


def test_an_ended_game_says_why_and_who_won(start, pupil_client, settings):
    from dataclasses import replace

    from django.utils import translation

    from games import live, services

    session, table = start()
    page = reverse("games:table_play", args=[table.pk])
    services.set_status(session, GameSession.Status.ENDED)
    text = pupil_client.get(page).content.decode()
    assert "Your teacher ended the game." in text and "Nobody earned any money." in text

    state = state_of(table)
    for balances, said in (((110, 40), "Léa M. wins with 110!"),
                           ((110, 110), "A tie at 110: Léa M. and Noah B.!")):
        table.state = replace(state, balances=balances, ended="chain").to_json()
        table.save(update_fields=["state"])
        live.bump(table.pk)
        text = pupil_client.get(page).content.decode()
        assert said in text and 'data-testid="winners"' in text
        assert "Squares 9 and 19 are joined by a chain of tokens." in text  # the board's ends
    with translation.override("fr"):
        text = pupil_client.get(page, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Égalité à 110 : Léa M. et Noah B. !" in text


def test_an_ended_game_says_it_is_over_once(start, pupil_client):
    from games import services

    session, table = start()
    services.set_status(session, GameSession.Status.ENDED)
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert page.count("The game is over!") == 1


@pytest.mark.parametrize("game", ["nambarz", "numx"])
def test_a_late_pupil_who_would_sit_alone_at_a_game_for_two_is_told_so(
    classroom, teacher, teacher_client, pupils, game
):
    """NAMBARZ and NUM-X need two players: a late pupil with no one to sit
    with made a table of one, which the game refused (a 500)."""
    from games import services

    from .conftest import one_table

    session, table = one_table(classroom, teacher, pupils[:2], game=game, options={})
    Pupil.objects.filter(pk=pupils[2].pk).update(signed_in_at=session.created_at + timedelta(1))
    url = reverse("games:session_control", args=[session.pk])

    response = teacher_client.post(url, {"action": "seat_late"}, follow=True)

    page = response.content.decode()
    assert response.status_code == 200
    assert "Inès D. is still waiting: this game needs at least 2 players at a table." in page
    assert session.tables.count() == 1 and not table.seats.filter(pupil=pupils[2]).exists()
    page = teacher_client.post(url, {"action": "seat_late"}, follow=True,
                               HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Inès D. attend encore : ce jeu se joue à 2 joueurs au moins par table." in page
    # Once a second pupil comes, the two sit together.
    late = Pupil.objects.create(classroom=classroom, first_name="Zoé", initial="K", avatar="owl",
                                picture_password="sun,moon,star",
                                signed_in_at=session.created_at + timedelta(1))
    assert services.seat_late(session) == [pupils[2], late]
    assert session.tables.count() == 2


def test_late_pupils_too_few_for_a_numx_game_of_teams_wait_for_the_table_of_four(
    classroom, teacher, teacher_client, pupils
):
    """Teams of two need every seat of a table of four, which the game's
    options say (not its count of players): two late pupils wait, and the
    teacher is told the game's real least, not a 500."""
    from games import services

    from .conftest import one_table

    def pupil(first: str, initial: str) -> Pupil:
        return Pupil.objects.create(classroom=classroom, first_name=first, initial=initial,
                                    avatar="owl", picture_password="sun,moon,star")

    four = [pupils[0], pupils[1], pupil("Zoé", "K"), pupil("Adam", "R")]
    session, table = one_table(classroom, teacher, four, game="numx",
                               options={"teams": [[0, 2], [1, 3]]})
    later = session.created_at + timedelta(1)
    Pupil.objects.filter(pk=pupils[2].pk).update(signed_in_at=later)
    url = reverse("games:session_control", args=[session.pk])

    response = teacher_client.post(url, {"action": "seat_late"}, follow=True)

    page = response.content.decode()
    assert response.status_code == 200
    assert "Inès D. is still waiting: this game needs at least 4 players at a table." in page
    assert session.tables.count() == 1
    assert services.fewest_players(session) == 4
