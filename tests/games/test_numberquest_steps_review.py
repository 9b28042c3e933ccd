"""Number Quest's steps sent together (move "steps") through its corners,
from a review's probes: the engine against the steps one by one over random
rolls and options, forged fields, double taps, stale and paused tables, a
pupil not at the table, CSRF, a turn run out, second chances, French, times
the tablet measured."""

import random
from dataclasses import replace
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from classroom.models import Attempt
from engine.core import IllegalMove
from engine.numberquest import GAME
from games import services
from games.models import GameSession, Move, Table
from tests.conftest import tap_pictures

from .conftest import state_of
from .test_numberquest_steps import whole_calculation
from .test_play_views import post_move

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- engine


def _rolled(state, dice, **extra):
    return replace(
        state, dice=dice, available=tuple((d, f"die:{i}") for i, d in enumerate(dice)),
        steps=(), phase="calculate", retry=None, current=0, **extra,
    )


def _random_typed(rng, state, count):
    """Up to ``count`` steps from the available numbers, mostly right."""
    pool = [v for v, _ in state.available]
    typed = []
    for _ in range(count):
        if len(pool) < 2:
            break
        a = pool.pop(rng.randrange(len(pool)))
        b = pool.pop(rng.randrange(len(pool)))
        op = rng.choice(state.variant.operations)
        if op == "-" and a < b:
            a, b = b, a
        if op == "/" and (b == 0 or a % b):
            op = "+"
        exact = {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0}[op]
        given = exact if rng.random() < 0.8 else exact + 1
        typed.append({"left": a, "op": op, "right": b, "result": given})
        pool.append(exact)
    return typed


@pytest.mark.parametrize("options", [
    {"preset": "addition"},
    {"second_chance": True},
    {"fractions": True},
    {"second_chance": True, "fractions": True},
])
def test_engine_steps_are_exactly_the_steps_one_by_one(options):
    """Random rolls, random mostly-right calculations, with or without a
    second chance already spent or pending: "steps" gives the state, events and
    attempts (but ms) the same steps give one by one, or refuses what one of
    them would have refused and changes nothing."""
    rng = random.Random(5)
    base = GAME.new(options, 2, 3)
    for _ in range(400):
        dice = tuple(rng.randint(1, 6) for _ in range(len(base.dice)))
        state = _rolled(base, dice)
        if rng.random() < 0.3 and state.options.second_chance:
            first = _random_typed(rng, state, 1)
            if first:
                first[0]["result"] += 1  # a try_again first: a retry pending
                try:
                    state = GAME.apply(state, 0, {"type": "step", **first[0]}).state
                except IllegalMove:
                    continue
        if state.phase != "calculate" or state.current != 0:
            continue
        typed = _random_typed(rng, state, len(state.available) - 1)
        if not typed:
            continue
        one_by_one, events, attempts, refusal = state, [], [], None
        for one in typed:
            try:
                outcome = GAME.apply(one_by_one, 0, {"type": "step", **one})
            except IllegalMove as error:
                refusal = error
                break
            one_by_one = outcome.state
            events += outcome.events
            attempts += outcome.attempts
            if not outcome.attempts[0].correct:
                break
        move = {"type": "steps", "steps": [{**one, "ms": 1000} for one in typed]}
        if refusal is not None:
            with pytest.raises(IllegalMove) as raised:
                GAME.apply(state, 0, move)
            assert raised.value.code == refusal.code
            continue
        together = GAME.apply(state, 0, move)
        assert together.state == one_by_one
        assert list(together.events) == events
        assert [replace(a, ms=None) for a in together.attempts] == attempts
        assert sum(a.first_try for a in together.attempts) == sum(a.first_try for a in attempts)


@pytest.mark.parametrize("one", [
    {"left": 6, "op": ["+"], "right": 4, "result": 10},
    {"left": {"a": 1}, "op": "+", "right": 4, "result": 10},
    {"left": 6, "op": "+", "right": 4, "result": 10, "ms": 1.5},
    {"left": 6, "op": "+", "right": 4, "result": 10, "ms": "10"},
    {"left": 6, "op": "+", "right": 4, "result": [10]},
    {"left": "6/0", "op": "+", "right": 4, "result": 10},
])
def test_engine_odd_step_shapes_are_illegal_moves_not_crashes(one):
    state = _rolled(GAME.new({"fractions": True}, 2, 3), (6, 4, 3, 1))
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "steps", "steps": [one]})


def test_engine_steps_after_the_number_is_made_are_refused_not_applied_in_place_phase():
    """Three dice, two steps allowed: a third can never run in the place phase."""
    state = _rolled(GAME.new({"preset": "addition"}, 2, 3), (1, 2, 3, 4))
    state = GAME.apply(state, 0, {"type": "step", "left": 1, "op": "+", "right": 2,
                                  "result": 3}).state
    move = {"type": "steps", "steps": [
        {"left": 3, "op": "+", "right": 3, "result": 6},
        {"left": 6, "op": "+", "right": 4, "result": 10},
        {"left": 10, "op": "+", "right": 10, "result": 20},
    ]}
    with pytest.raises(IllegalMove) as raised:
        GAME.apply(state, 0, move)
    assert raised.value.code == "malformed"


# --------------------------------------------------------------------------- the server


@pytest.fixture
def alone(classroom, teacher, pupils):
    """Léa (player 0) against the computer, her turn, the dice 1 2 3 4."""

    def _alone(options=None, team=False):
        chosen = pupils[:2] if team else pupils[:1]
        session = services.start_session(
            classroom, teacher, game="numberquest", options=options or {"preset": "addition"},
            pupils=chosen, table_size=2, bot_level="beginner", seed=3,
            team_size=2 if team else 1,
        )
        table = session.tables.get()
        table.seats.filter(pupil__isnull=False).update(player=9)
        table.seats.filter(pupil__isnull=True).update(player=1)
        table.seats.filter(pupil__isnull=False).update(player=0)
        state = _rolled(state_of(table), (1, 2, 3, 4))
        table.state = state.to_json()
        table.updated_at = timezone.now() - timedelta(seconds=30)
        table.save(update_fields=["state"])
        Table.objects.filter(pk=table.pk).update(
            updated_at=timezone.now() - timedelta(seconds=30)
        )
        table.refresh_from_db()
        return session, table

    return _alone


def _steps_fields(ms=("3000", "2000", "1500"), wrong_at=None):
    fields = {"type": "steps", "left": ["1|die:0", "3|local:0", "6|local:1"],
              "op": ["+", "+", "+"], "right": ["2|die:1", "3|die:2", "4|die:3"],
              "result": ["3", "6", "10"], "ms": list(ms)}
    if wrong_at is not None:
        fields["result"][wrong_at] = str(int(fields["result"][wrong_at]) + 1)
    return fields


@pytest.fixture
def as_pupil(pupils):
    """A separate signed-in Client per pupil."""
    made = {}

    def _as(index):
        if index not in made:
            made[index] = _signed_in_client(pupils[index])
        return made[index]

    return _as


def _signed_in_client(pupil):
    client = Client()
    response = tap_pictures(client, pupil, pupil.password_pictures)
    assert response.status_code == 302
    return client


def test_the_page_offers_steps_on_the_tablet_only_when_alone(alone, as_pupil):
    session, table = alone()
    page = as_pupil(0).get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert "data-steps-on-tablet" in page


def test_a_team_seat_against_the_computer_is_not_alone(alone, as_pupil):
    session, table = alone(team=True)
    assert table.seats.filter(player=0, pupil__isnull=False).count() == 2
    page = as_pupil(0).get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert "Your turn!" in page and "data-steps-on-tablet" not in page


def test_in_french_the_page_gives_the_script_the_french_right_line(alone, as_pupil):
    session, table = alone()
    client = as_pupil(0)
    with override("fr"):
        page = client.get(
            reverse("games:table_play", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="fr"
        ).content.decode()
    assert 'lang="fr"' in page
    assert 'data-right="Juste' in page
    assert 'data-made="Tu as fait %(n)s' in page and 'data-square="Case %(n)s"' in page


def test_a_double_tap_of_a_whole_calculation_is_applied_once(alone, as_pupil):
    session, table = alone()
    client = as_pupil(0)
    first = post_move(client, table, move_id="tap1", **_steps_fields())
    assert "You made 10!" in first.content.decode()
    again = post_move(client, table, move_id="tap1", **_steps_fields())
    assert again.status_code == 200
    assert Move.objects.filter(table=table).count() == 1
    assert Attempt.objects.filter(skill="add").count() == 3


def test_a_whole_calculation_from_an_old_board_is_stale(alone, as_pupil):
    session, table = alone()
    Table.objects.filter(pk=table.pk).update(version=table.version + 1)
    page = post_move(as_pupil(0), table, **_steps_fields()).content.decode()
    assert "The game moved on" in page
    assert not Move.objects.filter(table=table).exists() and not Attempt.objects.exists()


def test_a_whole_calculation_in_a_paused_game_is_not_applied(alone, as_pupil):
    session, table = alone()
    GameSession.objects.filter(pk=session.pk).update(status=GameSession.Status.PAUSED)
    page = post_move(as_pupil(0), table, **_steps_fields()).content.decode()
    assert "paused" in page
    assert not Move.objects.filter(table=table).exists() and not Attempt.objects.exists()


def test_a_pupil_not_at_the_table_cannot_send_a_whole_calculation(alone, as_pupil):
    session, table = alone()
    response = post_move(as_pupil(2), table, **_steps_fields())
    assert response.status_code == 404
    assert not Move.objects.filter(table=table).exists() and not Attempt.objects.exists()


def test_a_whole_calculation_after_the_turn_ran_out_is_late(alone, as_pupil):
    session, table = alone(options={"preset": "addition", "turn_seconds": 30})
    state = state_of(table)
    assert state.deadline == 30
    Table.objects.filter(pk=table.pk).update(turn_started_at=timezone.now() - timedelta(minutes=5))
    page = post_move(as_pupil(0), table, **_steps_fields()).content.decode()
    assert "Time was up" in page
    assert not Attempt.objects.exists()
    assert state_of(table).current == 1


def test_csrf_is_checked_on_a_whole_calculation(alone, pupils):
    session, table = alone()
    signer = _signed_in_client(pupils[0])
    client = Client(enforce_csrf_checks=True)
    client.cookies = signer.cookies
    response = client.post(
        reverse("games:table_move", args=[table.pk]),
        {"version": table.version, "move_id": "m1", **_steps_fields()},
    )
    assert response.status_code == 403
    assert not Move.objects.filter(table=table).exists()


def test_forged_fields_each_give_a_message(alone, as_pupil):
    session, table = alone()
    client = as_pupil(0)
    for change in (
        {"ms": ["", "1", "2"]},
        {"ms": ["1.5", "1", "2"]},
        {"ms": ["１", "1", "2"]},  # a full-width digit
        {"left": ["3|local:0", "3|local:0", "6|local:1"], "right": ["3|local:0"] * 3},
        {"op": ["^", "+", "+"]},
        {"result": ["3", "6", "1" * 41]},
    ):
        fields = {**_steps_fields(), **change}
        page = post_move(client, table, **fields).content.decode()
        assert 'class="note error"' in page, change
    assert not Move.objects.filter(table=table).exists() and not Attempt.objects.exists()


def test_a_wrong_step_second_chance_then_the_rest_records_first_try_once(alone, as_pupil):
    session, table = alone(options={"preset": "addition", "second_chance": True})
    client = as_pupil(0)
    post_move(client, table, **_steps_fields(wrong_at=1))
    assert state_of(table).retry is not None
    table.refresh_from_db()
    fields = {"type": "steps", "left": ["3|step:0", "6|local:0"], "op": ["+", "+"],
              "right": ["3|die:2", "4|die:3"], "result": ["6", "10"], "ms": ["10", "10"]}
    post_move(client, table, move_id="m2", **fields)
    assert state_of(table).phase == "place"
    typed = Attempt.objects.filter(skill="add").order_by("pk")
    assert [(a.given, a.correct, a.first_try) for a in typed] == [
        ("3", True, True), ("7", False, True), ("6", True, False), ("10", True, True)
    ]
    # One slip put right on its second chance is the step's mistake alone:
    # the plan made a number of every die.
    whole = Attempt.objects.exclude(skill="add")
    assert [(a.skill, a.correct, a.first_try) for a in whole] == [("multi_step", True, True)]


# --------------------------------------------------------------------------- defects


def test_a_pupil_who_thought_eleven_minutes_can_still_finish(alone, as_pupil):
    session, table = alone()
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(minutes=12))
    page = post_move(as_pupil(0), table, **_steps_fields(ms=("660000", "2000", "1500")))
    assert "You made 10!" in page.content.decode()


def test_the_steps_times_together_are_no_longer_than_the_move(alone, as_pupil):
    session, table = alone()
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=10))
    post_move(as_pupil(0), table, **_steps_fields(ms=("9000", "9000", "9000")))
    typed = Attempt.objects.filter(skill="add")
    assert typed.count() == 3
    assert sum(a.response_ms for a in typed) <= 11_000


def test_steps_sent_together_where_others_watch_are_taken(start, pupils):
    """The page keeps steps on the tablet only for a pupil alone at the table,
    but a pupil who sat down meanwhile must not cost the one typing their kept
    steps: the server takes a calculation sent whole at any table."""
    session, table = start()  # Léa and Noah, two humans
    client = _signed_in_client(pupils[0])
    fields, _total = whole_calculation(state_of(table))
    post_move(client, table, **fields)
    assert Move.objects.filter(table=table).count() == 1


def test_an_eager_task_inside_a_transaction_keeps_the_connection(eager_tasks, pupils):
    """config/celery.py's task_prerun close_old_connections also runs for eager
    tasks (no Redis: the embedded default), in the web process."""
    from django.db import transaction

    from classroom.tasks import recompute_pupils

    with transaction.atomic():
        recompute_pupils.delay([pupils[0].pk])
        assert connection.connection is not None
        assert Attempt.objects.count() == 0
