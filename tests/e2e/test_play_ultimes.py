"""A pupil plays a whole game of the track of ultimate numbers against the
computer, in real Chromium on a 768 x 1024 tablet."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import pytest
from playwright.sync_api import expect

from classroom.models import Attempt
from engine.ultimes import bot_moves, choose_dice
from games import live, services
from games.models import GameSession, Move, Table
from games.pages import engine_of

from .helpers import sign_in_pupil

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = engine_of("ultimes")
# Set NUMBO_SHOTS=/some/dir to keep a screenshot of each step (to look at the pages).
SHOTS = os.environ.get("NUMBO_SHOTS")


def _play_out(state, limit: int = 8):
    """The game from here with right answers only: (winner, turns, Léa's move types)."""
    turns, kinds = [0] * state.players, []
    while state.phase != "over":
        player = state.turn
        for move in bot_moves(state, player):
            if player == 0:
                kinds.append(move["type"])
            state = ENGINE.apply(state, player, move).state
        turns[player] += 1
        if sum(turns) > limit:
            return None
    return state.winner, turns, kinds


@pytest.fixture
def race_near_99(classroom, teacher, pupils):
    """Léa (player 0) against a computer, her pawn moved close to 99: a seed and
    a start square are searched for where, with right answers, she wins within
    three turns, taps a square where her pawn is sent, and the computer plays
    at most twice. Passing 99 (and choosing the dice) is preferred."""
    lea = pupils[0]

    def race(seed):
        session = services.start_session(
            classroom,
            teacher,
            game="ultimes",
            options={"second_chance": False, "mark_ultimates": True},
            pupils=[lea],
            table_size=2,
            bot_level="greedy",
            seed=seed,
        )
        return session.tables.get()

    chosen = None
    for seed in range(60):
        table = race(seed)
        state = ENGINE.from_json(table.state)
        table.session.delete()
        for start in range(84, 98):
            for other in (12, 40):
                played = _play_out(replace(state, positions=(start, other)))
                if played is None:
                    continue
                winner, turns, kinds = played
                if winner != 0 or turns[0] > 3 or turns[1] > 2 or "send" not in kinds:
                    continue
                if chosen is None or ("dice" in kinds and not chosen[2]):
                    chosen = (seed, (start, other), "dice" in kinds)
        if chosen and chosen[2]:
            break
    assert chosen, "no seed fits"
    seed, positions, _ = chosen
    table = race(seed)
    table.state = replace(ENGINE.from_json(table.state), positions=positions).to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    return table


def _state(table):
    return ENGINE.from_json(Table.objects.get(pk=table.pk).state)


def _shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def test_a_pupil_plays_a_whole_race_to_99_against_the_computer(
    live_server, browser, browser_context_args, classroom, pupils, race_near_99
):
    table = race_near_99
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    sign_in_pupil(page, live_server.url, classroom.code, pupils[0])
    page.get_by_role("link", name="Play at table 1").click()
    board = page.locator("#table")
    expect(board).to_be_visible()

    deadline = time.monotonic() + 30
    step = 0
    while not page.get_by_test_id("winner").is_visible():
        assert time.monotonic() < deadline, "the game did not end in time"
        version = board.get_attribute("data-version")
        status = page.get_by_test_id("status").inner_text()
        if "Your turn!" not in status:
            # The computer plays on the server; the 2 s poll brings its moves.
            expect(board).not_to_have_attribute("data-version", version, timeout=8000)
            continue
        phase = board.get_attribute("data-phase")
        step += 1
        _shot(page, f"{step:02d}-{phase}")
        state = _state(table)
        if phase == "dice":
            page.get_by_test_id(f"dice-{choose_dice(state.positions[0])}").click()
        elif phase == "sum":
            dice = page.get_by_test_id("dice").get_attribute("data-dice").split(",")
            for digit in str(sum(int(d) for d in dice)):
                page.locator(f".ult-form .numpad [data-key='{digit}']").click()
            page.get_by_role("button", name="Check").click()
            expect(page.get_by_test_id("feedback")).to_contain_text("Right: the dice make")
        elif phase == "reach":
            page.locator(f".track [data-square='{state.pawn_move().reached}']").click()
        else:
            pawn = state.pawn_move()
            if pawn.end == pawn.reached:
                page.get_by_test_id("stay").click()
            else:
                page.locator(f".track [data-square='{pawn.end}']").click()
        expect(board).not_to_have_attribute("data-version", version)

    _shot(page, f"{step + 1:02d}-winner")
    expect(page.get_by_test_id("winner")).to_contain_text("You win!")
    expect(page.get_by_test_id("status")).to_contain_text("The game is over!")
    expect(page.locator(".player.winner")).to_contain_text("Léa")
    expect(page.get_by_test_id("position-0")).to_have_text("99")
    assert Table.objects.get(pk=table.pk).finished
    skills = set(Attempt.objects.filter(pupil=pupils[0]).values_list("skill", flat=True))
    assert "add" in skills and Attempt.objects.filter(correct=False).count() == 0
    assert Move.objects.filter(table=table, pupil__isnull=True).exists()  # the computer played


def test_no_serious_accessibility_finding_in_any_phase(
    live_server, page, classroom, pupils, teacher
):
    from .test_accessibility import serious_findings

    lea = pupils[0]
    session = services.start_session(
        classroom,
        teacher,
        game="ultimes",
        options={"second_chance": True, "mark_ultimates": True},
        pupils=[lea],
        table_size=2,
        bot_level="greedy",
        seed=4,
    )
    table = session.tables.get()
    sign_in_pupil(page, live_server.url, classroom.code, lea)
    for phase, changes in [
        ("sum", {"dice": (2, 5)}),
        ("reach", {"dice": (2, 5), "total": 7}),
        ("send", {"dice": (2, 5), "total": 7, "reached": 7}),
        ("dice", {"dice": (), "passed_99": (True, False)}),
    ]:
        state = replace(ENGINE.from_json(table.state), turn=0, phase=phase, **changes)
        Table.objects.filter(pk=table.pk).update(state=state.to_json())
        live.bump(table.pk)
        page.goto(live_server.url + f"/tables/{table.pk}/")
        expect(page.locator("#table")).to_have_attribute("data-phase", phase)
        assert serious_findings(page) == [], phase


def test_the_last_tap_of_a_turn_at_a_table_of_pupils(
    live_server, browser, browser_context_args, classroom, teacher, pupils
):
    """Léa ends her turn on her own tablet: her answer is the page the
    watchers share (drawn once for all), with her verdict where her own page
    has it; Noah's tablet then says it is his turn."""
    session = services.start_session(
        classroom, teacher, game="ultimes",
        options={"second_chance": False, "mark_ultimates": False},
        pupils=pupils[:2], table_size=2, tablets=GameSession.Tablets.OWN,
        seating={pupils[0].pk: 1, pupils[1].pk: 1}, seed=3,
    )
    table = session.tables.get()
    lea_player = table.seats.get(pupil=pupils[0]).player
    positions = (10, 0) if lea_player == 0 else (0, 10)
    state = replace(ENGINE.from_json(table.state), turn=lea_player, phase="send", dice=(3, 4),
                    total=7, reached=17, positions=positions)
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)

    tablets = []
    for pupil in pupils[:2]:
        page = browser.new_context(**browser_context_args).new_page()
        sign_in_pupil(page, live_server.url, classroom.code, pupil)
        page.get_by_role("link", name="Play at table 1").click()
        expect(page.locator("#table")).to_be_visible()
        tablets.append(page)
    lea, noah = tablets
    expect(noah.get_by_test_id("status")).to_contain_text(f"{pupils[0].short_name} is playing.")

    lea.locator(".track [data-square='19']").click()
    feedback = lea.get_by_test_id("feedback")
    expect(feedback).to_contain_text("Right: the pawn goes to 19!")
    expect(feedback).to_have_class("feedback-box right")
    expect(lea.locator(".feedback-box svg.verdict")).to_be_visible()
    expect(lea.get_by_test_id("status")).to_contain_text(f"{pupils[1].short_name} is playing.")
    assert "mover-feedback" not in lea.content()
    _shot(lea, "mover-answered-as-watcher")
    expect(noah.get_by_test_id("status")).to_contain_text("Your turn!", timeout=8000)
    expect(noah.locator(".feedback-box")).to_have_count(0)
