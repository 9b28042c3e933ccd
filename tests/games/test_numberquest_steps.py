"""A calculation's steps typed on the tablet and sent together
(static/js/numberquest.js): one request where there were one per step."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import Attempt, Opportunity
from games.models import GameSession, Move, Table

from .conftest import state_of
from .test_play_views import post_move, step_fields

pytestmark = pytest.mark.django_db


def whole_calculation(state, wrong_at=None, ms=("3000", "2000", "1500")):
    """Every number added, left to right, each step's fields once per step."""
    tiles = [f"{value}|{origin}" for value, origin in state.available]
    fields = {"type": "steps", "left": [], "op": [], "right": [], "result": [], "ms": []}
    total = int(tiles[0].split("|")[0])
    left = tiles[0]
    for index, right in enumerate(tiles[1:]):
        total += int(right.split("|")[0])
        fields["left"].append(left)
        fields["op"].append("+")
        fields["right"].append(right)
        fields["result"].append(str(total + (1 if index == wrong_at else 0)))
        fields["ms"].append(ms[index])
        left = f"{total}|local:{index}"
    return fields, total


def test_a_calculation_sent_whole_is_its_steps_and_makes_the_number(start, pupil_client):
    session, table = start()
    # The turn began ten seconds ago: each step's own time fits in it.
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=10))
    fields, total = whole_calculation(state_of(table))
    page = post_move(pupil_client, table, **fields).content.decode()
    assert state_of(table).phase == "place"
    assert page.count('data-testid="feedback">Right: ') == 3
    assert f"You made {total}!" in page
    typed = Attempt.objects.filter(skill="add").order_by("pk")
    assert [a.response_ms for a in typed] == [3000, 2000, 1500]
    assert Move.objects.count() == 1


def test_a_wrong_step_in_a_whole_calculation_ends_there(start, pupil_client):
    session, table = start()
    fields, _total = whole_calculation(state_of(table), wrong_at=1)
    page = post_move(pupil_client, table, **fields).content.decode()
    assert page.count('data-testid="feedback">Right: ') == 1 and 'class="feedback wrong"' in page
    assert [a.correct for a in Attempt.objects.filter(skill="add").order_by("pk")] == [True, False]
    assert state_of(table).current == 1  # the turn is lost, as step by step


def test_a_step_the_rules_refuse_refuses_the_whole_calculation(start, pupil_client):
    session, table = start()
    fields, _total = whole_calculation(state_of(table))
    fields["right"][1] = "99|die:9"  # a number the pupil does not have
    page = post_move(pupil_client, table, **fields).content.decode()
    assert 'class="note error"' in page
    assert not Move.objects.exists() and not Attempt.objects.exists()


@pytest.mark.parametrize(
    "change",
    [
        {"op": ["+"]},  # fewer operations than numbers
        {"ms": ["1"]},  # a time for one step of three
        {"ms": ["1", "2", "-3"]},
        {"result": ["x" * 100_000, "1", "2"]},
        {"left": ["1|a"] * 50, "op": ["+"] * 50, "right": ["1|b"] * 50, "result": ["2"] * 50},
    ],
)
def test_a_forged_whole_calculation_gets_a_message_and_changes_nothing(
    start, pupil_client, change
):
    session, table = start()
    fields, _total = whole_calculation(state_of(table))
    fields.update(change)
    response = post_move(pupil_client, table, **fields)
    assert response.status_code == 200
    assert 'class="note error"' in response.content.decode()
    assert not Move.objects.exists()


def test_the_steps_times_together_are_no_longer_than_the_move(start, pupil_client):
    session, table = start()
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=10))
    fields, _total = whole_calculation(state_of(table), ms=("4000", "9000", "9000"))
    post_move(pupil_client, table, **fields)
    times = [a.response_ms for a in Attempt.objects.filter(skill="add").order_by("pk")]
    assert times[0] == 4000 and 5000 < times[1] < 7000 and times[2] < 1000
    assert sum(times) < 11_000


def test_a_step_thought_over_for_an_hour_still_counts(start, pupil_client):
    """A time is evidence, not a rule: the calculation is taken, the time
    counted as the move's."""
    session, table = start()
    fields, _total = whole_calculation(state_of(table), ms=("3600000", "1", "1"))
    post_move(pupil_client, table, **fields)
    assert state_of(table).phase == "place"
    times = [a.response_ms for a in Attempt.objects.filter(skill="add").order_by("pk")]
    assert times[0] < 60_000


def test_the_page_offers_the_script_its_form(start, pupil_client):
    session, table = start()
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert "js/numberquest.js" in page and "data-undo-local hidden" in page
    # Léa and Noah share the table: Léa's steps go one by one, for Noah to see.
    assert "data-steps-on-tablet" not in page


def kept_then_given_up(state, steps=2):
    """The first ``steps`` of ``whole_calculation`` kept on the tablet, then
    "I can't make a number" tapped: the form sends them with it."""
    fields, _total = whole_calculation(state)
    kept = {name: values[:steps] for name, values in fields.items() if name != "type"}
    return {"type": "cant", **kept}


def test_giving_up_after_steps_kept_on_the_tablet_keeps_them(start, pupil_client):
    session, table = start()
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=10))
    response = post_move(pupil_client, table, **kept_then_given_up(state_of(table)))
    assert response.status_code == 200 and 'class="note error"' not in response.content.decode()
    typed = Attempt.objects.filter(skill="add").order_by("pk")
    assert [(a.correct, a.response_ms) for a in typed] == [(True, 3000), (True, 2000)]
    assert state_of(table).current == 1 and Move.objects.count() == 1


@pytest.mark.parametrize(
    "change",
    [
        {"ms": ["1"]},
        {"result": ["x", "7"]},
        {"op": ["+"] * 9, "left": ["1|a"] * 9, "right": ["1|b"] * 9, "result": ["2"] * 9},
    ],
)
def test_a_forged_give_up_with_steps_changes_nothing(start, pupil_client, change):
    session, table = start()
    fields = {**kept_then_given_up(state_of(table)), **change}
    response = post_move(pupil_client, table, **fields)
    assert response.status_code == 200 and 'class="note error"' in response.content.decode()
    assert not Move.objects.exists() and not Attempt.objects.exists()


def test_a_calculation_sent_with_its_square_places_the_token(start, pupil_client):
    session, table = start()
    fields, total = whole_calculation(state_of(table))
    page = post_move(pupil_client, table, **fields, square=str(total)).content.decode()
    after = state_of(table)
    assert after.owner(total) == 0 and 'class="note error"' not in page
    assert [a.correct for a in Attempt.objects.filter(skill="add")] == [True] * 3
    assert Move.objects.count() == 1


@pytest.mark.parametrize("square", ["x", "", "-3", "9" * 200])
def test_a_forged_square_with_the_steps_changes_nothing(start, pupil_client, square):
    session, table = start()
    fields, _total = whole_calculation(state_of(table))
    page = post_move(pupil_client, table, **fields, square=square).content.decode()
    assert 'class="note error"' in page
    assert not Move.objects.exists() and not Attempt.objects.exists()


def test_a_square_the_steps_did_not_make_refuses_them_all(start, pupil_client):
    session, table = start()
    fields, total = whole_calculation(state_of(table))
    page = post_move(pupil_client, table, **fields, square=str(total + 1)).content.decode()
    assert 'class="note error"' in page and f"Tap the square {total}" in page
    assert not Move.objects.exists() and not Attempt.objects.exists()


def test_a_wrong_step_sent_with_a_square_ends_there_and_places_nothing(start, pupil_client):
    session, table = start()
    fields, total = whole_calculation(state_of(table), wrong_at=2)
    post_move(pupil_client, table, **fields, square=str(total + 1))
    assert not state_of(table).covered and state_of(table).current == 1
    assert [a.correct for a in Attempt.objects.filter(skill="add").order_by("pk")] == [
        True, True, False
    ]


def test_a_calculation_sent_with_its_square_records_the_operations_it_used(
    start, pupil_client, pupils
):
    """The steps and the square in one move: the opportunity of Léa's turn
    must say she added, as it does when the steps and the tap come apart
    (the report's 'avoids addition' reads it)."""
    session, table = start()
    fields, total = whole_calculation(state_of(table))
    post_move(pupil_client, table, **fields, square=str(total))
    assert state_of(table).owner(total) == 0
    assert [a.correct for a in Attempt.objects.filter(skill="add")] == [True] * 3
    lea = Opportunity.objects.filter(table=table, pupil=pupils[0]).order_by("pk")
    assert [o.used for o in lea] == [["add"]]


def test_control_step_by_step_then_the_tap_records_addition(start, pupil_client, pupils):
    """The same calculation one step a request, then the square: passes."""
    session, table = start()
    for number in range(3):
        post_move(pupil_client, table, **step_fields(state_of(table)), move_id=f"s{number}")
    total = state_of(table).result_number()
    post_move(pupil_client, table, type="place", square=str(total), move_id="p")
    assert state_of(table).owner(total) == 0
    lea = Opportunity.objects.filter(table=table, pupil=pupils[0]).order_by("pk")
    assert [o.used for o in lea] == [["add"]]


# ------------------------------------------------------------------ the teacher ends the game


def kept_at_the_end(state, steps=2):
    """The steps a tablet still held when the game ended: it sends them alone."""
    return {**kept_then_given_up(state, steps), "type": "kept"}


def ended_with_steps_kept(start):
    """Léa's turn; her tablet keeps two steps; the teacher ends the game."""
    from games import services

    session, table = start()
    kept = kept_at_the_end(state_of(table))
    version = table.version
    services.set_status(session, GameSession.Status.ENDED)
    return table, {**kept, "version": version}


def test_steps_kept_on_the_tablet_when_the_teacher_ends_the_game_are_recorded(
    start, pupil_client, pupils
):
    table, kept = ended_with_steps_kept(start)
    ended = state_of(table)
    response = post_move(pupil_client, table, **kept)
    page = response.content.decode()
    assert response.status_code == 200 and 'class="note error"' not in page
    assert "Your last steps count: your teacher will see them." in page
    typed = Attempt.objects.filter(skill="add").order_by("pk")
    # The tablet's own times: the seconds since the end say nothing.
    assert [(a.pupil, a.correct, a.response_ms) for a in typed] == [
        (pupils[0], True, 3000), (pupils[0], True, 2000)
    ]
    # The game stays as it ended; the steps are evidence only.
    assert state_of(table) == ended and ended.phase == "over"
    assert Move.objects.get(pupil=pupils[0]).events == []
    # A second sending of the same tap (a double tap, a lost answer) adds nothing.
    assert post_move(pupil_client, table, **kept).status_code == 200
    assert Attempt.objects.filter(skill="add").count() == 2
    # Nor does the same work under another tap id: it is kept once.
    assert post_move(pupil_client, table, **kept, move_id="m9").status_code == 200
    assert Attempt.objects.filter(skill="add").count() == 2


def test_kept_steps_count_in_the_report_read_after_the_end(
    start, pupil_client, pupils, eager_tasks, django_capture_on_commit_callbacks
):
    from classroom.models import PupilSkill

    table, kept = ended_with_steps_kept(start)
    with django_capture_on_commit_callbacks(execute=True):
        post_move(pupil_client, table, **kept)
    assert PupilSkill.objects.get(pupil=pupils[0], skill="add").attempts == 2


def test_steps_of_an_older_board_are_not_recorded_after_the_end(start, pupil_client):
    # Steps a tablet sent with an earlier turn, still in its storage, or a
    # forged version: only the board the end replaced keeps steps.
    table, kept = ended_with_steps_kept(start)
    for version in (kept["version"] - 1, kept["version"] + 1, "", "x"):
        post_move(pupil_client, table, **{**kept, "version": version}, move_id=f"v{version}")
    assert not Attempt.objects.exists()


def test_kept_steps_without_their_times_are_refused(start, pupil_client):
    table, kept = ended_with_steps_kept(start)
    del kept["ms"]
    response = post_move(pupil_client, table, **kept)
    assert 'class="note error"' in response.content.decode()
    assert not Attempt.objects.exists()


def test_only_a_pupils_ended_page_asks_for_the_kept_steps(start, pupil_client, client, teacher):
    table, _kept = ended_with_steps_kept(start)
    url = reverse("games:table_move", args=[table.pk])
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert f'data-ended="{url}"' in page
    client.force_login(teacher)
    projected = client.get(reverse("games:table_projector", args=[table.pk])).content.decode()
    assert "data-ended" not in projected


def test_kept_steps_are_refused_while_the_game_runs_or_is_paused(start, pupil_client):
    from games import services

    session, table = start()
    running = post_move(pupil_client, table, **kept_at_the_end(state_of(table)))
    assert 'class="note error"' in running.content.decode()
    services.set_status(session, GameSession.Status.PAUSED)
    paused = post_move(pupil_client, table, **kept_at_the_end(state_of(table)), move_id="m2")
    assert "paused" in paused.content.decode()
    assert not Attempt.objects.exists() and not Move.objects.exists()


@pytest.mark.parametrize(
    "change",
    [
        {"right": ["99|die:9", "1|die:1"]},  # a number she did not have
        {"ms": ["1"]},
        {"result": ["x" * 100_000, "7"]},
    ],
)
def test_forged_kept_steps_after_the_end_change_nothing(start, pupil_client, change):
    table, kept = ended_with_steps_kept(start)
    ended = state_of(table)
    response = post_move(pupil_client, table, **{**kept, **change})
    assert response.status_code == 200
    assert not Attempt.objects.exists() and not Move.objects.filter(pupil__isnull=False).exists()
    assert state_of(table) == ended


def test_a_pupil_not_at_the_table_cannot_send_steps_after_the_end(start, client, pupils):
    from tests.conftest import tap_pictures

    table, kept = ended_with_steps_kept(start)
    ines = pupils[2]
    tap_pictures(client, ines, ines.password_pictures)
    assert post_move(client, table, **kept).status_code == 404
    assert not Attempt.objects.exists()


def test_an_operation_typed_wrong_is_still_used_in_the_turn(start, pupil_client, pupils):
    """A pupil who adds and gets it wrong added: the turn's chance says so
    (else 'avoids addition' stands beside their wrong additions)."""
    session, table = start()
    fields, _total = whole_calculation(state_of(table), wrong_at=0)
    post_move(pupil_client, table, **fields)
    assert [a.correct for a in Attempt.objects.filter(skill="add")] == [False]
    assert state_of(table).current == 1
    lea = Opportunity.objects.filter(table=table, pupil=pupils[0]).order_by("pk")
    assert [o.used for o in lea] == [["add"]]
