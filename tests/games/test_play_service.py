"""games.services.play: the one path a move takes."""

import pytest

from classroom.models import Attempt, Opportunity
from games import services
from games.models import GameSession, Move
from games.pages import engine_of

from .conftest import a_right_step, state_of

pytestmark = pytest.mark.django_db


def test_a_right_step_is_applied_logged_and_recorded(start, pupils):
    session, table = start()
    state = state_of(table)
    move = a_right_step(state)
    result = services.play(table.pk, pupils[0], move, 0, "tap-1")
    assert result.status == "applied"
    table.refresh_from_db()
    assert table.version == 1
    assert Move.objects.get(table=table).move == move
    attempt = Attempt.objects.get()
    assert (attempt.pupil, attempt.skill, attempt.correct, attempt.first_try) == (
        pupils[0],
        "add",
        True,
        True,
    )
    assert attempt.operands == [move["left"], move["right"]]
    assert attempt.response_ms is not None


def test_a_wrong_step_is_evidence_and_passes_the_turn(start, pupils):
    session, table = start()
    move = a_right_step(state_of(table))
    move["result"] += 1
    result = services.play(table.pk, pupils[0], move, 0, "tap-1")
    assert result.status == "applied"
    assert any(e["kind"] == "wrong_step" for e in result.events)
    # The step, and the calculation it cut short.
    assert [(a.skill, a.correct) for a in Attempt.objects.order_by("pk")] == [
        ("add", False), ("multi_step", False)
    ]
    assert state_of(table).current == 1


def test_a_double_tap_is_applied_once_and_answered_twice(start, pupils):
    session, table = start()
    move = a_right_step(state_of(table))
    first = services.play(table.pk, pupils[0], move, 0, "tap-1")
    second = services.play(table.pk, pupils[0], move, 0, "tap-1")
    assert (first.status, second.status) == ("applied", "replayed")
    assert second.events == first.events
    assert Move.objects.count() == 1 and Attempt.objects.count() == 1


def test_a_stale_tablet_changes_nothing(start, pupils):
    session, table = start()
    state = state_of(table)
    services.play(table.pk, pupils[0], a_right_step(state), 0, "tap-1")
    result = services.play(table.pk, pupils[0], a_right_step(state), 0, "tap-2")
    assert result.status == "stale"
    assert Move.objects.count() == 1


def test_a_move_out_of_turn_is_refused_and_nothing_is_written(start, pupils):
    session, table = start()
    result = services.play(table.pk, pupils[1], a_right_step(state_of(table)), 0, "tap-1")
    assert result.status == "refused" and result.refusal.code == "not_your_turn"
    assert not Move.objects.exists() and not Attempt.objects.exists()
    table.refresh_from_db()
    assert table.version == 0


@pytest.mark.parametrize(
    "move",
    [
        {"type": "step", "left": 999, "op": "+", "right": 1, "result": 1000},
        {"type": "step", "left": "x", "op": "+", "right": 1, "result": 2},
        {"type": "place", "square": 24},
        {"type": "bank", "balance": 10},
        {"type": "hack"},
        "not a dict",
    ],
)
def test_forged_moves_are_refused_whole(start, pupils, move):
    session, table = start()
    result = services.play(table.pk, pupils[0], move, 0, "tap-1")
    assert result.status == "refused"
    assert not Move.objects.exists() and not Attempt.objects.exists()


def test_a_pupil_from_another_table_cannot_move(start, pupils):
    session, table = start()
    result = services.play(table.pk, pupils[2], a_right_step(state_of(table)), 0, "tap-1")
    assert result.status == "refused" and result.refusal.code == "not_seated"


def _let_the_bot_move(table):
    type(table).objects.filter(pk=table.pk).update(updated_at="2000-01-01T00:00:00Z")
    return services.advance(table.pk)


def test_the_move_log_replays_to_the_same_state(start, pupils):
    session, table = start(players=1, bot_level="greedy")
    engine = engine_of("numberquest")
    for _ in range(3):
        for move in engine.bot_moves(state_of(table), 0, "beginner", 1):
            assert services.play(table.pk, pupils[0], move, table.version, "").status == "applied"
            table.refresh_from_db()
        assert _let_the_bot_move(table)
        table.refresh_from_db()
    replayed = engine.new(session.options, 2, table.seed)
    for logged in Move.objects.filter(table=table).order_by("number"):
        replayed = engine.apply(replayed, logged.player, logged.move).state
    assert replayed.to_json() == state_of(table).to_json()
    assert Move.objects.filter(table=table).count() == table.version


def test_a_bot_moves_only_after_the_pause(start, pupils):
    session, table = start(players=1, bot_level="greedy")
    state = state_of(table)
    services.play(table.pk, pupils[0], {"type": "cant"}, 0, "tap-1")
    assert state_of(table).current == 1
    assert services.advance(table.pk) is False  # too soon: children must see it coming
    assert _let_the_bot_move(table) is True
    after = state_of(table)
    assert after.current == 0 and after.turn > state.turn
    assert Attempt.objects.count() == 0  # a bot's steps are no pupil's evidence


def test_a_computers_whole_turn_rings_its_table_once(
    start, pupils, monkeypatch, django_capture_on_commit_callbacks
):
    """The computer's moves commit together: the tablets can only see the
    turn's end, so one ring, with the last stamp and what is due next."""
    from games import live

    session, table = start(players=1, bot_level="greedy")
    services.play(table.pk, pupils[0], {"type": "cant"}, 0, "tap-1")
    heard = []
    publish = live.publish
    monkeypatch.setattr(
        live, "publish", lambda *args, **kwargs: heard.append(args) or publish(*args, **kwargs)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert _let_the_bot_move(table) is True
    after = type(table).objects.get(pk=table.pk)
    moves = Move.objects.filter(table=table, pupil=None).count()
    assert moves >= 2  # its steps, its square, its bank: each a move in the log
    assert [(table_id, stamp) for table_id, stamp, _due in heard] == [
        (table.pk, live.stamp(after))
    ]


def test_a_timed_turn_runs_out_on_the_server(start, pupils):
    session, table = start(options={"preset": "addition", "turn_seconds": 30})
    assert services.advance(table.pk) is False
    type(table).objects.filter(pk=table.pk).update(
        turn_started_at=table.turn_started_at.replace(year=2000)
    )
    assert services.advance(table.pk) is True
    assert state_of(table).current == 1


def test_pause_refuses_moves_and_end_finishes_every_table(start, pupils):
    session, table = start()
    services.set_status(session, GameSession.Status.PAUSED)
    result = services.play(table.pk, pupils[0], a_right_step(state_of(table)), 0, "tap-1")
    assert result.status == "closed"
    services.set_status(session, GameSession.Status.RUNNING)
    services.set_status(session, GameSession.Status.ENDED)
    table.refresh_from_db()
    assert table.finished and state_of(table).phase == "over"


def test_a_roll_records_which_operations_could_make_a_free_square(start, pupils):
    session, table = start(options={"preset": "classic"})
    opportunity = Opportunity.objects.get(pupil=pupils[0])
    assert set(opportunity.could) == {"add", "sub", "mul", "div"}
    assert opportunity.could["add"] is True
    assert opportunity.roll == list(state_of(table).dice)


def test_late_pupils_take_a_bot_seat(start, pupils):
    session, table = start(players=1, bot_level="greedy")
    services.seat_late_pupils(session, [pupils[2]])
    assert table.seats.filter(pupil=pupils[2]).exists()
    assert not table.seats.filter(pupil__isnull=True).exists()


def test_erasing_a_pupil_erases_their_moves_and_attempts(start, pupils):
    from classroom.privacy import erase_pupil, pupil_data

    session, table = start()
    services.play(table.pk, pupils[0], a_right_step(state_of(table)), 0, "tap-1")
    data = pupil_data(pupils[0])
    assert data["records"]["classroom.Attempt"][0]["skill"] == "add"
    erase_pupil(pupils[0])
    assert not Attempt.objects.exists() and not Move.objects.filter(pupil__isnull=False).exists()


def test_the_erase_page_names_the_pupil_as_the_class_does_and_says_what_goes(
    start, pupils, teacher_client
):
    from django.urls import reverse

    from classroom.models import Pupil

    Pupil.objects.create(classroom=pupils[0].classroom, first_name="Léa", initial="M")
    session, table = start()
    services.play(table.pk, pupils[0], a_right_step(state_of(table)), 0, "tap-1")
    url = reverse("classroom:pupil_erase", args=[pupils[0].pk])
    page = teacher_client.get(url).content.decode()
    assert "Erase Léa M. (1)?" in page and 'class="pic big"' in page
    erased = page.split('data-testid="erased">')[1].split("</ul>")[0]
    assert "1 calculation<" in erased and "1 move in 1 game" in erased
    assert "their skills report" in erased
    assert ": " not in erased  # no table names and counts
    french = teacher_client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "1 calcul<" in french and "1 coup dans 1 partie" in french
    answer = teacher_client.post(url, follow=True).content.decode()
    assert "Léa M. (1) and everything recorded about them are erased." in answer


def test_on_a_shared_tablet_any_pupil_of_the_table_plays_for_whose_turn_it_is(start, pupils):
    session, table = start(tablets=GameSession.Tablets.SHARED)
    services.play(table.pk, pupils[0], {"type": "cant"}, 0, "tap-1")  # Léa's turn ends
    assert state_of(table).current == 1
    move = a_right_step(state_of(table))
    assert services.play(table.pk, pupils[0], move, 1, "tap-2").status == "applied"
    attempt = Attempt.objects.get()
    assert attempt.pupil == pupils[1]  # the evidence is Noah's: it was his turn


def test_the_shared_tablet_asks_to_pass_the_tablet(start, pupil_client, pupils):
    from django.urls import reverse

    session, table = start(tablets=GameSession.Tablets.SHARED)
    services.play(table.pk, pupils[0], {"type": "cant"}, 0, "tap-1")
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert "Pass the tablet to Noah B." in page


def test_a_move_after_the_turns_time_ran_out_is_not_applied(start, pupils):
    """No poll ran advance() in time: play() itself ends the turn first."""
    session, table = start(options={"preset": "addition", "turn_seconds": 30})
    type(table).objects.filter(pk=table.pk).update(
        turn_started_at=table.turn_started_at.replace(year=2000)
    )
    result = services.play(table.pk, pupils[0], a_right_step(state_of(table)), 0, "tap-late")
    assert result.status == "late"
    assert state_of(table).current == 1
    assert not Attempt.objects.exists()
    assert not Move.objects.filter(move_id="tap-late").exists()


def test_a_pupil_alone_with_the_computer_is_never_asked_to_pass_the_tablet(
    start, pupil_client, pupils
):
    from django.urls import reverse

    session, table = start(players=1, bot_level="greedy", tablets=GameSession.Tablets.SHARED)
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert "Your turn!" in page and "Pass the tablet" not in page


@pytest.mark.usefixtures("eager_tasks")
def test_pausing_a_game_brings_its_pupils_reports_up_to_date(
    start, pupils, django_capture_on_commit_callbacks
):
    from classroom.models import PupilSkill

    session, table = start()
    services.play(table.pk, pupils[0], a_right_step(state_of(table)), 0, "tap-1")
    assert not PupilSkill.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.set_status(session, GameSession.Status.PAUSED)
    assert PupilSkill.objects.filter(pupil=pupils[0], skill="add").exists()


def test_a_poll_at_a_table_erased_while_a_move_was_due_is_a_404(start, pupils, client):
    """The stamp in the cache said the computer's move was due; the table is
    gone (its class erased): nothing to move, nothing to show, no error."""
    from django.urls import reverse

    from games import live
    from games.views.tables import poll_token

    session, table = start(players=1, bot_level="greedy")
    token = poll_token(table, pupils[0].pk, None, pupils[0].sign_in_generation)
    live.publish(table.pk, live.stamp(table), 1.0)  # due since 1970
    pk = table.pk
    table.delete()
    assert services.advance(pk) is False
    answer = client.get(reverse("games:table_poll", args=[pk]), {"t": token, "v": "0"})
    assert answer.status_code == 404


@pytest.mark.parametrize("kind", ["end", "timeout"])
def test_a_pupil_cannot_send_the_servers_own_moves(start, pupils, kind):
    # The engines take "end" and "timeout" from any player (the server sends
    # them); no form posts them, and the move path refuses them whatever comes.
    session, table = start()
    move = {"type": kind, "reason": "teacher"}
    result = services.play(table.pk, pupils[0], move, 0, "tap-1")
    assert result.status == "refused"
    assert result.refusal.code == "unknown_move"
    table.refresh_from_db()
    assert table.version == 0 and not Move.objects.exists()
    assert state_of(table).phase != "over"
