"""Number Quest's players' list while a pupil counts their money, and the
table's log after an Undo and a computer's turn."""

import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import live, services
from games.models import Table
from games.pages.numberquest.presenter import _standing
from games.views.tables import poll_token
from tests.conftest import tap_pictures

from .conftest import a_right_step, state_of

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
BANK = {"preset": "addition", "pupils_bank": True}
OLD = 37  # the mover's money before the square: anything but 0 tells old from new


def tablet(pupil) -> Client:
    client = Client()
    assert tap_pictures(client, pupil, pupil.password_pictures).status_code == 302
    return client


def balances(page: str) -> list[int]:
    """The money beside each player's name, in the players' order."""
    players = page.split('class="players"', 1)[1].split("</ol>", 1)[0]
    return [int(n) for n in re.findall(r'class="money"[^>]*>(\d+)<', players)]


def summed_square(start):
    """A bank table where the mover can cover the sum of their dice, which they
    made: their money is OLD, and the next move is the tap on the square."""
    for seed in range(40):
        session, table = start(options=BANK, seed=seed)
        state = state_of(table)
        total = sum(state.dice)
        if state.variant.on_board(total):
            break
    state = replace(state, balances=tuple(OLD if p == state.current else 0
                                          for p in range(state.players)))
    table.state = state.to_json()
    table.save(update_fields=["state"])
    text = " + ".join(str(d) for d in state.dice)
    return session, table, state.current, text, total


def test_while_a_pupil_counts_their_money_no_screen_shows_the_new_balance(
    start, pupils, teacher, django_capture_on_commit_callbacks
):
    session, table, mover, text, total = summed_square(start)
    watcher = 1 - mover
    with django_capture_on_commit_callbacks(execute=True):
        services.play(table.pk, pupils[mover], {"type": "calculation", "text": text}, 0, "t1")
    table.refresh_from_db()
    mine = tablet(pupils[mover])
    with django_capture_on_commit_callbacks(execute=True):
        answer = mine.post(
            reverse("games:table_move", args=[table.pk]),
            {"type": "place", "square": total, "version": table.version, "move_id": "t2"},
            **HTMX,
        ).content.decode()
    state = state_of(table)
    assert state.phase == "bank"
    paid = state.bank[1]
    assert f"You had {OLD} and you earn {paid}." in answer
    teacher_client = Client()
    teacher_client.force_login(teacher)
    poll = reverse("games:table_poll", args=[table.pk])
    shown = {
        "the mover's answer": answer,
        "the mover's page": mine.get(reverse("games:table_play", args=[table.pk])).content,
        "the watcher's poll": Client().get(
            poll, {"t": poll_token(table, pupils[watcher].pk, None), "v": "0r"}, **HTMX
        ).content,
        "the projector": teacher_client.get(
            reverse("games:table_projector", args=[table.pk])
        ).content,
    }
    for screen, page in shown.items():
        page = page if isinstance(page, str) else page.decode()
        assert balances(page)[mover] == OLD, screen
    live_view = teacher_client.get(reverse("games:session_live", args=[session.pk])).content
    assert f"<strong>{OLD + paid}</strong>" not in live_view.decode()
    assert f"<strong>{OLD}</strong>" in live_view.decode()

    table.refresh_from_db()
    move = {"type": "bank", "balance": OLD + paid}
    with django_capture_on_commit_callbacks(execute=True):
        assert services.play(table.pk, pupils[mover], move, table.version, "t3").status == "applied"
    page = mine.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert balances(page)[mover] == OLD + paid


def the_log(page: str) -> list[str]:
    log = page.split('<ul class="log"', 1)[1].split("</ul>", 1)[0]
    return re.findall(r"<li>(.*?)</li>", log)


@pytest.mark.parametrize("taken_back", ["undo", "clear"])
def test_a_calculation_undone_and_made_again_is_told_once_at_the_table(
    start, pupils, taken_back, django_capture_on_commit_callbacks
):
    """At a table of pupils each step reaches the server, Undo too: the log
    tells the steps and calculation that stand, as alone with the computer."""
    session, table = start()
    mover = state_of(table).current
    tap = iter(range(100))

    def play(move):
        table.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            outcome = services.play(table.pk, pupils[mover], move, table.version, f"t{next(tap)}")
        assert outcome.status == "applied", outcome

    made = []
    while state_of(table).phase == "calculate":
        made.append(a_right_step(state_of(table)))
        play(made[-1])
    play({"type": taken_back})
    for step in made if taken_back == "clear" else made[-1:]:
        play(step)
    assert state_of(table).phase == "place"
    watcher = pupils[1 - mover]
    page = tablet(watcher).get(reverse("games:table_play", args=[table.pk])).content.decode()
    log = the_log(page)
    made_lines = [line for line in log if " made " in line]
    last = f"Right: {made[-1]['left']} + {made[-1]['right']} = {made[-1]['result']}."
    assert len(made_lines) == 1 and log.count(last) == 1, log


def test_the_log_leaves_out_what_undo_and_start_again_took_back():
    def e(kind, n=None):
        return {"kind": kind, "data": {} if n is None else {"steps": n}, "player": 0}

    s1, s2, s3, made = e("step"), e("step"), e("step"), e("calculated")
    s2b, s3b, made_b = e("step"), e("step"), e("calculated")
    # Kept events may begin mid-turn; an Undo after a redone step; Start again.
    events = [s1, s2, s3, made, e("undo", 2), e("undo", 1), s2b, e("undo", 1), s2b, s3b, made_b]
    assert [x for x in _standing(events) if x["kind"] != "undo"] == [s1, s2b, s3b, made_b]
    rolled = e("rolled")
    events = [s1, made, rolled, s2, e("clear", 0), s3, made_b]
    assert [x for x in _standing(events) if x["kind"] != "clear"] == [s1, made, rolled, s3, made_b]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_computer_counting_its_money_is_told_its_balance_not_praised(
    start, pupil_client, pupils, language
):
    for seed in range(40):
        session, table = start(players=1, bot_level="greedy", options=BANK, seed=seed)
        if state_of(table).current == 0:
            services.play(table.pk, pupils[0], {"type": "cant"}, 0, "tap-0")
        Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=5))
        services.advance(table.pk)
        banked = [e for e in state_of(table).events if e.kind == "banked" and e.player == 1]
        if banked:
            break
    balance = banked[-1].data["balance"]
    live.bump(table.pk)
    pupil_client.cookies["django_language"] = language
    page = pupil_client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    said = {"en": "Computer 1 now has {}.", "fr": "Ordinateur 1 a maintenant {}."}[language]
    assert said.format(balance) in the_log(page)
    assert "Well counted" not in page and "Bien compté" not in page


def test_the_box_about_the_bank_answer_ends_where_the_next_turn_begins(
    start, pupils, django_capture_on_commit_callbacks
):
    # The next player's roll is the log's and the status's news, not part of
    # the green "Well counted!" box about the mover's own answer.
    session, table, mover, text, total = summed_square(start)
    with django_capture_on_commit_callbacks(execute=True):
        services.play(table.pk, pupils[mover], {"type": "calculation", "text": text}, 0, "t1")
        table.refresh_from_db()
        services.play(table.pk, pupils[mover], {"type": "place", "square": total},
                      table.version, "t2")
    table.refresh_from_db()
    paid = state_of(table).bank[1]
    with django_capture_on_commit_callbacks(execute=True):
        answer = tablet(pupils[mover]).post(
            reverse("games:table_move", args=[table.pk]),
            {"type": "bank", "balance": OLD + paid, "version": table.version, "move_id": "t3"},
            **HTMX,
        ).content.decode()
    box = " ".join(re.findall(r'data-testid="feedback"[^>]*>(.*?)</p>', answer, re.S))
    assert "Well counted!" in box
    assert "rolled" not in box
    assert "rolled" in answer  # the log still tells it
