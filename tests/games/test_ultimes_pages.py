"""The track of ultimate numbers on the pages: a pupil types the sum, taps the
square reached and the square it sends to; refusals, bots, evidence, French."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.urls import reverse

from classroom.models import Attempt
from games import live, services
from games.models import GameSession, Move
from games.pages import engine_of
from tests.conftest import tap_pictures

from .conftest import one_table

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
ENGINE = engine_of("ultimes")


@pytest.fixture
def start(classroom, teacher, pupils):
    """An ultimes table: Léa is player 0, Noah player 1 (or a computer)."""

    def _start(players=2, bot_level="", options=None, tablets=GameSession.Tablets.OWN, seed=3):
        return one_table(
            classroom, teacher, pupils[:players], game="ultimes",
            options=options or {"second_chance": False, "mark_ultimates": False},
            players=2 if bot_level else players, bot_level=bot_level, tablets=tablets, seed=seed,
        )

    return _start


def state_of(table):
    table.refresh_from_db()
    return ENGINE.from_json(table.state)


def set_state(table, **changes):
    """Put the table in a chosen spot of a game (dice, positions, whose turn)."""
    state = replace(state_of(table), **changes)
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    return state


def post_move(client, table, htmx=True, headers=None, **fields):
    table.refresh_from_db()
    data = {"version": table.version, "move_id": f"tap-{table.version}", **fields}
    return client.post(
        reverse("games:table_move", args=[table.pk]),
        data,
        **(HTMX if htmx else {}),
        **(headers or {}),
    )


def page_of(client, table, **headers):
    return client.get(reverse("games:table_play", args=[table.pk]), **headers)


def test_a_pupil_plays_a_whole_turn_sum_reach_send(start, pupil_client):
    session, table = start()
    set_state(table, turn=0, phase="sum", dice=(3, 4), positions=(10, 0))
    page = page_of(pupil_client, table).content.decode()
    assert "Your turn!" in page
    assert page.count('class="sq ') == 100
    assert "How much do the dice make?" in page
    assert 'data-testid="dice"' in page

    answer = post_move(pupil_client, table, type="sum", value="7").content.decode()
    assert "Right: the dice make 7!" in answer
    assert "Tap the square your pawn reaches" in answer
    assert answer.count('role="button" tabindex="0"') == 100  # every square is a button now

    answer = post_move(pupil_client, table, type="reach", square="17").content.decode()
    assert "Right: the pawn reaches 17!" in answer
    assert "Where does square 17 send it?" in answer
    assert 'data-testid="stay"' in answer

    answer = post_move(pupil_client, table, type="send", square="19").content.decode()
    assert "Right: the pawn goes to 19!" in answer
    assert "17 is an ultimate number" in answer
    assert "Noah B. is playing." in answer
    state = state_of(table)
    assert state.positions == (19, 0) and state.turn == 1
    steps = list(Attempt.objects.order_by("pk").values_list("skill", "operands", "correct"))
    assert steps == [("add", [3, 4], True), ("add", [10, 7], True), ("primes", [17], True)]


def test_an_ordinary_square_is_answered_with_the_stay_button(start, pupil_client):
    session, table = start()
    set_state(table, turn=0, phase="send", dice=(3, 3), total=6, reached=6, positions=(0, 0))
    page = page_of(pupil_client, table).content.decode()
    assert "It stays on 6" in page
    answer = post_move(pupil_client, table, type="send", square="6").content.decode()
    assert "6 is neither ultimate nor a power" in answer
    assert state_of(table).positions[0] == 6


def test_a_wrong_answer_is_friendly_shows_the_right_value_and_play_goes_on(start, pupil_client):
    session, table = start()
    set_state(table, turn=0, phase="sum", dice=(5, 6), positions=(20, 0))
    answer = post_move(pupil_client, table, type="sum", value="10").content.decode()
    assert "Not quite: the dice make 11, not 10." in answer
    assert 'class="feedback-box wrong"' in answer
    assert state_of(table).phase == "reach"
    answer = post_move(pupil_client, table, type="reach", square="30").content.decode()
    assert "Not quite: the pawn reaches 31, not 30." in answer
    answer = post_move(pupil_client, table, type="send", square="31").content.decode()
    assert "Not quite: the pawn goes to 37, not 31." in answer
    assert state_of(table).positions[0] == 37
    assert list(Attempt.objects.values_list("correct", flat=True)) == [False, False, False]


def test_the_movers_feedback_stops_where_the_next_turn_begins(start, pupil_client):
    # The next player's roll is in the log and the status, not in the box about the mover's move.
    session, table = start()
    set_state(table, turn=0, phase="send", dice=(5, 6), total=11, reached=31, positions=(20, 0))
    answer = post_move(pupil_client, table, type="send", square="31").content.decode()
    box = re.search(r'data-testid="feedback">(.*?)</div>\s*</div>', answer, re.S).group(1)
    assert "Not quite: the pawn goes to 37, not 31." in box
    assert "rolled" not in box
    assert "Noah B. rolled" in answer  # the log still tells it


def test_a_second_chance_asks_again_without_giving_the_answer(start, pupil_client):
    session, table = start(options={"second_chance": True, "mark_ultimates": False})
    set_state(table, turn=0, phase="sum", dice=(5, 6), positions=(20, 0))
    answer = post_move(pupil_client, table, type="sum", value="10").content.decode()
    assert "Try once more" in answer
    assert "11" not in re.sub(r"<svg.*?</svg>", "", answer, flags=re.S).split("Try once more")[1]
    assert state_of(table).phase == "sum"
    answer = post_move(pupil_client, table, type="sum", value="11").content.decode()
    assert "Right: the dice make 11!" in answer
    assert list(Attempt.objects.order_by("pk").values_list("first_try", "correct")) == [
        (True, False),
        (False, True),
    ]


def test_a_move_out_of_turn_gets_a_note_and_nothing_changes(start, client, pupils):
    session, table = start()
    set_state(table, turn=0, phase="sum", dice=(2, 2))
    noah = pupils[1]
    tap_pictures(client, noah, noah.password_pictures)
    page = page_of(client, table).content.decode()
    assert "Léa M. is playing." in page and "How much do the dice make?" not in page
    answer = post_move(client, table, type="sum", value="4").content.decode()
    assert "it is not your turn" in answer
    assert not Move.objects.exists() and not Attempt.objects.exists()


@pytest.mark.parametrize(
    "phase, fields, words",
    [
        ("sum", {"type": "sum", "value": "x"}, "Type the sum of the dice"),
        ("sum", {"type": "sum", "value": ""}, "Type the sum of the dice"),
        ("sum", {"type": "sum", "value": "-3"}, "Type the sum of the dice"),
        ("sum", {"type": "sum", "value": "²"}, "Type the sum of the dice"),
        ("sum", {"type": "sum", "value": "٣"}, "Type the sum of the dice"),
        ("sum", {"type": "sum", "value": "9" * 100_000}, "from 0 to 999"),
        ("sum", {"type": "sum", "value": "1000"}, "from 0 to 999"),
        ("sum", {"type": "reach", "square": "5"}, "First type the sum of the dice"),
        ("sum", {"type": "dice", "count": "2"}, "First type the sum of the dice"),
        ("reach", {"type": "reach", "square": "100"}, "from 0 to 99"),
        ("reach", {"type": "reach", "square": "1e3"}, "Tap a square of the track"),
        ("reach", {"type": "send", "square": "12"}, "First tap the square your pawn reaches"),
        ("dice", {"type": "dice", "count": "3"}, "Choose one die or two dice"),
        ("dice", {"type": "dice", "count": "two"}, "Choose one die or two dice"),
        ("sum", {"type": "delete-everything"}, "Something was missing"),
        ("sum", {}, "Something was missing"),
    ],
)
def test_forged_and_malformed_forms_get_a_clear_note_and_change_nothing(
    start, pupil_client, phase, fields, words
):
    session, table = start()
    extra = {"total": 5} if phase == "reach" else {}
    set_state(
        table,
        turn=0,
        phase=phase,
        dice=() if phase == "dice" else (2, 3),
        passed_99=(phase == "dice", False),
        positions=(90, 0),
        **extra,
    )
    before = state_of(table).to_json()
    response = post_move(pupil_client, table, **fields)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'class="note error"' in page and words in page
    assert not Move.objects.exists() and not Attempt.objects.exists()
    assert state_of(table).to_json() == before


def test_a_pupil_at_another_table_a_teacher_elsewhere_and_strangers_are_refused(
    start, client, pupils, other_teacher
):
    session, table = start()
    ines = pupils[2]
    tap_pictures(client, ines, ines.password_pictures)
    assert page_of(client, table).status_code == 404
    assert post_move(client, table, type="sum", value="5").status_code == 404
    client.logout()
    client.force_login(other_teacher)
    assert client.get(reverse("games:table_projector", args=[table.pk])).status_code == 404
    assert client.get(reverse("games:session_live", args=[session.pk])).status_code == 404
    client.logout()
    assert page_of(client, table).url == reverse("classroom:join")
    assert post_move(client, table, type="sum", value="5").status_code == 302
    assert client.get(reverse("games:table_projector", args=[table.pk])).status_code == 302
    assert not Move.objects.exists()


def _let_the_bot_move(table):
    type(table).objects.filter(pk=table.pk).update(updated_at="2000-01-01T00:00:00Z")
    return services.advance(table.pk)


def test_a_computer_player_plays_its_whole_turn_through_advance(start, pupil_client):
    session, table = start(players=1, bot_level="greedy")
    set_state(table, turn=1, phase="sum", dice=(1, 2), positions=(0, 0))
    assert services.advance(table.pk) is False  # too soon: the children must see it coming
    assert _let_the_bot_move(table) is True
    state = state_of(table)
    assert state.positions == (0, 5) and state.turn == 0  # 3 is ultimate: on to 5
    assert [m.move["type"] for m in Move.objects.order_by("number")] == ["sum", "reach", "send"]
    assert not Attempt.objects.exists()  # a bot's answers are no pupil's evidence
    page = page_of(pupil_client, table).content.decode()
    assert "Your turn!" in page
    assert "3 is an ultimate number: Computer 1 jumps on to the next one, 5." in page
    assert "Right:" not in page  # the log tells what the computer did, not that it was right


def test_every_tap_is_evidence_on_add_sub_primes_and_powers(start, pupil_client, pupils):
    session, table = start()
    # 95 + 7 goes past 99: back 3 to 96, an ordinary square.
    set_state(table, turn=0, phase="sum", dice=(3, 4), positions=(95, 0))
    post_move(pupil_client, table, type="sum", value="7")
    post_move(pupil_client, table, type="reach", square="96")
    answer = post_move(pupil_client, table, type="send", square="96").content.decode()
    assert "95 + 7 goes 3 past 99: Léa M. counts back to 96." in answer
    # 10 + 6 = 16 = 2 × 2 × 2 × 2: back to 2.
    set_state(table, turn=0, phase="sum", dice=(3, 3), positions=(10, 0))
    post_move(pupil_client, table, type="sum", value="6")
    post_move(pupil_client, table, type="reach", square="16")
    answer = post_move(pupil_client, table, type="send", square="2").content.decode()
    assert "16 = 2 × 2 × 2 × 2, a power of 2" in answer
    rows = {
        (a.skill, tuple(a.operands), a.expected, a.correct)
        for a in Attempt.objects.filter(pupil=pupils[0], game="ultimes", session=session)
    }
    assert rows == {
        ("add", (3, 4), "7", True),
        ("sub", (99, 3), "96", True),
        ("primes", (96,), "96", True),
        ("add", (3, 3), "6", True),
        ("add", (10, 6), "16", True),
        ("powers", (16,), "2", True),
    }


def test_after_passing_99_the_pupil_chooses_one_die_or_two(start, pupil_client):
    session, table = start()
    set_state(table, turn=0, phase="dice", dice=(), passed_99=(True, False), positions=(96, 0))
    page = page_of(pupil_client, table).content.decode()
    assert 'data-testid="dice-1"' in page and 'data-testid="dice-2"' in page
    answer = post_move(pupil_client, table, type="dice", count="1").content.decode()
    state = state_of(table)
    assert len(state.dice) == 1 and state.phase == "reach"  # one die: no sum to type
    assert "plays with one die" in answer
    assert "Tap the square your pawn reaches" in answer
    assert "count back" in answer


def test_landing_on_99_shows_the_winner(start, pupil_client, client, pupils):
    session, table = start()
    set_state(table, turn=0, phase="sum", dice=(2, 4), positions=(93, 40))
    post_move(pupil_client, table, type="sum", value="6")
    answer = post_move(pupil_client, table, type="reach", square="99").content.decode()
    assert 'data-testid="winner"' in answer and "You win!" in answer
    assert "The game is over!" in answer
    table.refresh_from_db()
    assert table.finished
    noah = pupils[1]
    tap_pictures(client, noah, noah.password_pictures)
    page = page_of(client, table).content.decode()
    assert "Léa M. wins!" in page
    assert post_move(client, table, type="sum", value="3").status_code == 200
    assert Move.objects.count() == 2


def test_the_track_marks_what_the_teacher_chose_and_its_legend_follows(start, pupil_client):
    both = {"second_chance": False, "mark_ultimates": True, "mark_elevated": True}
    session, table = start(options=both)
    page = page_of(pupil_client, table).content.decode()
    assert page.count('class="sq ultimate') == 27  # 0, 1 and the primes
    assert page.count('class="sq elevated') == 10
    assert "↩2" in page and "↩0" in page
    legend = page[page.index('class="legend"'):page.index("</ul>", page.index('class="legend"'))]
    assert "<svg" in legend.split("Ultimate number: jump")[0]
    assert "A power of an ultimate number: back to that number." in legend

    session, table = start(options={**both, "mark_elevated": False})
    page = page_of(pupil_client, table).content.decode()
    assert page.count('class="sq ultimate') == 27 and 'class="sq elevated' not in page
    legend = page[page.index('class="legend"'):page.index("</ul>", page.index('class="legend"'))]
    assert "On a power of an ultimate number, go back to that number." in legend
    assert "↩" not in legend  # no picture of a mark the track does not show

    session, table = start(options={"second_chance": False, "mark_ultimates": False})
    page = page_of(pupil_client, table).content.decode()
    assert 'class="sq ultimate' not in page and "↩2" not in page
    legend = page[page.index('class="legend"'):page.index("</ul>", page.index('class="legend"'))]
    assert "On an ultimate number (0, 1 or a prime), jump on to the next one." in legend
    assert legend.count("<svg") == 1  # only the finish square, which is always drawn


def test_the_shared_tablet_asks_to_pass_the_tablet(start, pupil_client):
    session, table = start(tablets=GameSession.Tablets.SHARED)
    set_state(table, turn=1, phase="sum", dice=(2, 2))
    page = page_of(pupil_client, table).content.decode()
    assert "Pass the tablet to Noah B." in page
    answer = post_move(pupil_client, table, type="sum", value="4").content.decode()
    assert "Right: the dice make 4!" in answer
    assert Attempt.objects.get().pupil.first_name == "Noah"


def test_the_poll_sends_the_new_table_after_a_move(
    start, pupil_client, client, django_capture_on_commit_callbacks
):
    from games.views.tables import poll_token

    session, table = start()
    set_state(table, turn=0, phase="sum", dice=(2, 2))
    token = poll_token(table, table.seats.get(player=1).pupil_id, None)
    url = reverse("games:table_poll", args=[table.pk])
    first = client.get(url, {"t": token, "v": "x"}, **HTMX)
    assert first.status_code == 200 and 'id="table"' in first.content.decode()
    stamp = live.stamp(table)
    assert client.get(url, {"t": token, "v": stamp}, **HTMX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        post_move(pupil_client, table, type="sum", value="4")
    moved = client.get(url, {"t": token, "v": stamp}, **HTMX)
    assert moved.status_code == 200 and "Léa M." in moved.content.decode()


def test_the_teacher_sees_the_track_live_and_on_the_projector(start, teacher_client, pupils):
    from django.test import Client

    session, table = start()
    set_state(table, turn=0, phase="sum", dice=(2, 2))
    tablet = Client()
    tap_pictures(tablet, pupils[0], pupils[0].password_pictures)
    post_move(tablet, table, type="sum", value="5")
    live_page = teacher_client.get(reverse("games:session_live", args=[session.pk]))
    text = live_page.content.decode()
    assert 'data-testid="live-table-1"' in text and 'class="board track' in text
    assert "Léa M.: Not quite: the dice make 4, not 5." in text
    projector = teacher_client.get(reverse("games:table_projector", args=[table.pk]))
    assert projector.status_code == 200
    text = projector.content.decode()
    assert "Table 1" in text and "ultimes.css" in text and "looks for the square" in text


def test_the_pupil_page_renders_in_french(start, pupil_client):
    session, table = start()
    for phase, extra in [
        ("sum", {"dice": (2, 5)}),
        ("reach", {"dice": (2, 5), "total": 7}),
        ("send", {"dice": (2, 5), "total": 7, "reached": 7}),
        ("dice", {"dice": (), "passed_99": (True, False)}),
    ]:
        set_state(table, turn=0, phase=phase, **extra)
        response = page_of(pupil_client, table, HTTP_ACCEPT_LANGUAGE="fr")
        assert response.status_code == 200
        page = response.content.decode()
        assert 'lang="fr"' in page and "À toi de jouer !" in page
        assert not re.search(r'(x|y|cx|cy|width|height|r)="\d+,\d', page)
    answer = post_move(
        pupil_client, table, headers={"HTTP_ACCEPT_LANGUAGE": "fr"}, type="dice", count="2"
    )
    assert answer.status_code == 200


def test_when_the_teacher_ends_the_game_the_tablet_says_so(start, pupil_client):
    session, table = start()
    set_state(table, turn=0, phase="sum", dice=(2, 2))
    services.set_status(session, GameSession.Status.ENDED)
    page = page_of(pupil_client, table).content.decode()
    assert "The game is over!" in page and "How much do the dice make?" not in page
    post_move(pupil_client, table, type="sum", value="4")
    # The teacher's end is the table's one move: the pupil's came too late.
    assert [m.move["type"] for m in Move.objects.all()] == ["end"]


@pytest.mark.usefixtures("eager_tasks")
def test_a_table_played_to_the_end_brings_the_class_report_up_to_date(
    start, pupil_client, classroom, django_capture_on_commit_callbacks
):
    from classroom.reports import services as reports

    session, table = start()
    assert reports.class_report(classroom).updated_at is None
    set_state(table, turn=0, phase="sum", dice=(2, 4), positions=(93, 40))
    with django_capture_on_commit_callbacks(execute=True):
        post_move(pupil_client, table, type="sum", value="6")
        post_move(pupil_client, table, type="reach", square="99")
    table.refresh_from_db()
    assert table.finished and session.status == GameSession.Status.RUNNING
    report = reports.class_report(classroom)
    assert report.updated_at is not None
    lea = next(row for row in report.rows if row.pupil.first_name == "Léa")
    assert any(cell.summary.attempts for cell in lea.cells)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", ["every table has finished", "game over", "Final result", "wins",
                "won · square 99", "place 2 of 2 · square 40"]),
        ("fr", ["toutes les tables ont fini", "partie terminée", "Résultat final", "gagne",
                "a gagné · case 99", "place 2 sur 2 · case 40"]),
    ],
)
def test_the_reports_say_how_a_finished_table_ended(
    start, pupil_client, teacher, pupils, language, said
):
    import html

    from django.test import Client

    session, table = start()
    set_state(table, turn=0, phase="sum", dice=(2, 4), positions=(93, 40))
    post_move(pupil_client, table, type="sum", value="6")
    post_move(pupil_client, table, type="reach", square="99")
    teacher_client = Client(HTTP_ACCEPT_LANGUAGE=language)
    teacher_client.force_login(teacher)

    def read(url: str) -> str:
        return html.unescape(teacher_client.get(url).content.decode())

    # The teacher has not ended the session, but every table's game is over.
    assert session.status == GameSession.Status.RUNNING
    report = read(reverse("reports:session_report", args=[session.pk]))
    ranking = re.search(r'data-testid="ranking-1">(.*?)</table>', report, re.S).group(1)
    rows = re.findall(r"<tr.*?</tr>", ranking.split("<tbody>")[1], re.S)
    assert "Léa M." in rows[0] and ">99<" in rows[0] and said[3] in rows[0]
    assert "Noah B." in rows[1] and ">40<" in rows[1] and said[3] not in rows[1]
    assert all(words in report for words in said[:3])
    assert read(reverse("reports:pupil_report", args=[pupils[0].pk])).count(said[4]) == 1
    assert said[5] in read(reverse("reports:pupil_report", args=[pupils[1].pk]))


def test_the_session_report_tells_two_computers_apart_as_the_game_did(
    classroom, teacher, pupil_client, pupils
):
    from django.test import Client

    # The tablets and the projector say "Computer 1" and "Computer 2"
    # (games.seating.player_names): the report names them the same way.
    session, table = one_table(
        classroom, teacher, pupils[:1], game="ultimes",
        options={"second_chance": False, "mark_ultimates": False}, players=3,
        bot_level="greedy", seed=3,
    )
    set_state(table, turn=0, phase="sum", dice=(2, 4), positions=(93, 40, 20))
    post_move(pupil_client, table, type="sum", value="6")
    post_move(pupil_client, table, type="reach", square="99")
    table.refresh_from_db()
    assert table.finished
    teacher_client = Client()
    teacher_client.force_login(teacher)
    page = teacher_client.get(reverse("games:table_projector", args=[table.pk]))
    assert page.status_code == 200, page.status_code
    page = page.content.decode()
    assert "Computer 1" in page and "Computer 2" in page
    report = teacher_client.get(reverse("reports:session_report", args=[session.pk]))
    report = report.content.decode()
    ranking = re.search(r'data-testid="ranking-1">(.*?)</table>', report, re.S).group(1)
    rows = re.findall(r"<tr.*?</tr>", ranking.split("<tbody>")[1], re.S)
    assert "Léa M." in rows[0]
    assert sorted(re.search(r"Computer \d", row).group(0) for row in rows[1:]) == [
        "Computer 1", "Computer 2"]
    players = report.split("</table>")[1]
    assert "Computer 1" in players and "Computer 2" in players
    assert "Computer player" not in report
