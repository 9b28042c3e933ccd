"""School wifi in each of the five games, in real Chromium: a move tapped while
the tablet is offline, one that meets a 502 while the web processes restart,
one whose answer is slow and is tapped twice, each arrives once (counted in the
move log) and the page is current within 3 s of the network's return; typed
work comes back after a reload, for its pupil only."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest
from playwright.sync_api import Locator, Page, expect

from engine.nmbr9 import GAME as NMBR9
from engine.nmbr9 import bot_place
from engine.nmbr9.tiles import size
from games import live, services
from games.models import Move, Table
from games.pages import engine_of

from .helpers import sign_in_pupil
from .test_play_nambarz import deal as deal_nambarz
from .test_play_nambarz import drw, sym
from .test_play_nmbr9 import tap_cell
from .test_play_numx import deal as deal_numx

pytestmark = pytest.mark.django_db(transaction=True)
OFFLINE = "No connection. Your move is kept"
BACK_WITHIN_MS = 3000


def pupil_moves(table: Table) -> int:
    return Move.objects.filter(table=table, pupil__isnull=False).count()


@dataclass
class Turn:
    """A pupil's turn on her tablet: the taps that send nothing yet, the
    control whose tap sends the move, and what the page says once it counts."""

    page: Page
    table: Table
    ready: Callable[[Page], None]
    control: Callable[[Page], Locator]
    played: Callable[[Page], None]

    def version(self) -> str:
        return self.page.locator("#table").get_attribute("data-version")


# ---------------------------------------------------------------- the five games


def numberquest_table(classroom, teacher, lea, noah) -> Table:
    """Léa and Noah at an addition table; Léa made 10 from 1 2 3 4: the
    square is hers to tap (the board's own button, not a form)."""
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition"},
        pupils=[lea, noah], table_size=2, seating={lea.pk: 1, noah.pk: 1}, seed=3,
    )
    table = session.tables.get()
    table.seats.filter(pupil=lea).update(player=9)
    table.seats.filter(pupil=noah).update(player=1)
    table.seats.filter(pupil=lea).update(player=0)
    engine = engine_of("numberquest")
    dice = (1, 2, 3, 4)
    state = replace(
        engine.from_json(table.state), current=0, dice=dice, steps=(), phase="calculate",
        retry=None, available=tuple((d, f"die:{i}") for i, d in enumerate(dice)),
    )
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    return table


def numberquest_made_ten(table: Table) -> None:
    engine = engine_of("numberquest")
    state = engine.from_json(table.state)
    for left, right in ((1, 2), (3, 3), (6, 4)):
        step = {"type": "step", "left": left, "op": "+", "right": right, "result": left + right}
        state = engine.apply(state, 0, step).state
    assert state.phase == "place"
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)


def numberquest(classroom, teacher, pupils) -> tuple[Table, tuple]:
    table = numberquest_table(classroom, teacher, pupils[0], pupils[1])
    numberquest_made_ten(table)
    return table, (
        lambda page: expect(page.locator(".prompt")).to_contain_text("You made 10!"),
        lambda page: page.get_by_role("button", name="Square 10"),
        lambda page: expect(page.locator('svg.board g.sq[aria-label="10 · covered"]'))
        .to_have_count(1),
    )


def ultimes(classroom, teacher, pupils) -> tuple[Table, tuple]:
    """Léa against the computer, her dice rolled: she types their sum."""
    session = services.start_session(
        classroom, teacher, game="ultimes", options={"second_chance": False}, pupils=[pupils[0]],
        table_size=2, bot_level="greedy", seed=2,
    )
    table = session.tables.get()
    table.seats.filter(pupil=pupils[0]).update(player=0)
    engine = engine_of("ultimes")
    state = replace(engine.from_json(table.state), turn=0, phase="sum", dice=(3, 5))
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)

    def ready(page):
        page.locator(".ult-form .numpad [data-key='8']").click()

    return table, (
        ready,
        lambda page: page.get_by_role("button", name="Check"),
        lambda page: expect(page.get_by_test_id("feedback").first)
        .to_contain_text("Right: the dice make"),
    )


def nmbr9(classroom, teacher, pupils) -> tuple[Table, tuple]:
    """Léa alone with the first card: the tile turned and set where it fits."""
    session = services.start_session(
        classroom, teacher, game="nmbr9", options={"second_chance": False}, pupils=[pupils[0]],
        table_size=1, seed=11,
    )
    table = session.tables.get()

    def ready(page):
        state = NMBR9.from_json(Table.objects.get(pk=table.pk).state)
        placement = bot_place(state.stacks[0], state.card, seed=1)
        page.wait_for_load_state("load")  # the stack is measured once its stylesheet is in
        for _ in range(placement.rotation):
            page.get_by_role("button", name=re.compile("Turn")).click()
        width, height = size(state.card, placement.rotation)
        tap_cell(page, placement.x + width / 2, placement.y + height / 2, state.board)
        expect(page.locator("[data-hint]")).to_contain_text("It fits!")

    return table, (
        ready,
        lambda page: page.get_by_role("button", name="Place it"),
        lambda page: expect(page.get_by_test_id("status")).to_contain_text("Card 2 of 20"),
    )


def nambarz(classroom, teacher, pupils) -> tuple[Table, tuple]:
    """Léa against the computer: her 7 bee goes on the 2 bee in one tap."""
    session = services.start_session(
        classroom, teacher, game="nambarz", options={}, pupils=[pupils[0]], table_size=2,
        bot_level="beginner", seed=5,
    )
    table = session.tables.first()
    table.seats.filter(pupil=pupils[0]).update(player=0)
    deal_nambarz(table, [[drw(7, 1), sym(2), sym(5)], [sym(9), sym(4, 1)]], target=drw(2, 1))
    return table, (
        lambda page: None,
        lambda page: page.locator(f'.ncard[data-card="{drw(7, 1)}"]'),
        lambda page: expect(page.get_by_test_id("feedback").first)
        .to_contain_text("the same animal"),
    )


def numx(classroom, teacher, pupils) -> tuple[Table, tuple]:
    """Léa against the computer lays blue 7 and red 7 together."""
    session = services.start_session(
        classroom, teacher, game="numx", options={}, pupils=[pupils[0]], table_size=2,
        bot_level="greedy", seed=4,
    )
    table = session.tables.get()
    table.seats.filter(pupil=pupils[0]).update(player=0)
    deal_numx(table.pk, [["blue7", "red7", "green2"], ["blue5", "red9"]], rows=[[], []])

    def ready(page):
        page.locator('.xcard[data-card="blue7"]').click()
        page.locator('.xcard[data-card="red7"]').click()

    return table, (
        ready,
        lambda page: page.get_by_test_id("play-trick"),
        lambda page: expect(page.get_by_test_id("feedback").first)
        .to_contain_text("Léa M. played blue 7 + red 7."),
    )


GAMES = {"numberquest": numberquest, "ultimes": ultimes, "nmbr9": nmbr9, "nambarz": nambarz,
         "numx": numx}


def at_the_table(page: Page, base_url: str, classroom, pupil) -> None:
    sign_in_pupil(page, base_url, classroom.code, pupil)
    page.get_by_role("link", name="Play at table 1").click()
    expect(page.locator("#table")).to_be_visible()


@pytest.fixture(params=list(GAMES))
def turn(request, live_server, page, classroom, teacher, pupils) -> Turn:
    table, (ready, control, played) = GAMES[request.param](classroom, teacher, pupils)
    at_the_table(page, live_server.url, classroom, pupils[0])
    return Turn(page, table, ready, control, played)


# ---------------------------------------------------------------- the network


def test_a_move_tapped_offline_arrives_once_when_the_wifi_is_back(turn):
    page, table = turn.page, turn.table
    turn.ready(page)
    version = turn.version()
    page.context.set_offline(True)
    turn.control(page).click()
    strip = page.locator("#connection")
    expect(strip).to_contain_text(OFFLINE)
    page.wait_for_timeout(2500)  # a resend fails while offline: still kept
    expect(strip).to_contain_text(OFFLINE)
    assert pupil_moves(table) == 0 and turn.version() == version

    page.context.set_offline(False)
    back = time.monotonic()
    expect(page.locator("#table")).not_to_have_attribute(
        "data-version", version, timeout=BACK_WITHIN_MS
    )
    print(f"offline: the page current {1000 * (time.monotonic() - back):.0f} ms after the wifi")
    turn.played(page)
    expect(strip).to_contain_text("Your move has arrived.")
    assert pupil_moves(table) == 1


def test_a_move_that_meets_a_502_arrives_once_the_server_answers(turn):
    page, table = turn.page, turn.table
    sent = []

    def restarting(route):
        sent.append(route.request.url)
        if len(sent) == 1:  # the proxy's answer while the web processes restart
            route.fulfill(status=502, body="Bad Gateway")
        else:
            route.continue_()

    turn.ready(page)
    version = turn.version()
    page.route("**/move/", restarting)
    turn.control(page).click()
    expect(page.locator("#connection")).to_contain_text(OFFLINE)
    expect(page.locator("#table")).not_to_have_attribute("data-version", version, timeout=5000)
    turn.played(page)
    assert len(sent) == 2 and pupil_moves(table) == 1


def test_a_slow_answer_tapped_twice_is_one_move(turn):
    page, table = turn.page, turn.table
    held = []
    turn.ready(page)
    version = turn.version()
    page.route("**/move/", lambda route: held.append(route))  # held until let go
    control = turn.control(page)
    control.dblclick()
    expect(page.locator("#connection")).to_contain_text("Sending your move…")
    expect(page.locator("#table .sending").first).to_be_attached()
    control.click(force=True)  # and once more, impatient
    page.wait_for_timeout(300)
    assert len(held) == 1, "a second tap sent the move again"
    held[0].continue_()
    expect(page.locator("#table")).not_to_have_attribute("data-version", version)
    turn.played(page)
    expect(page.locator("#connection")).to_contain_text("Your move has arrived.")
    page.wait_for_timeout(300)
    assert len(held) == 1 and pupil_moves(table) == 1
