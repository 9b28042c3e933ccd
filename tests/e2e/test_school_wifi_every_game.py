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
from django.conf import settings
from playwright.sync_api import Locator, Page, expect

from classroom.models import Attempt
from engine.nmbr9 import GAME as NMBR9
from engine.nmbr9 import bot_place
from engine.nmbr9.tiles import size
from games import live, services
from games.models import Move, Table
from games.pages import engine_of

from .helpers import sign_in_pupil
from .test_play_nambarz import deal as deal_nambarz
from .test_play_nambarz import drw, sym, two_at_a_table
from .test_play_nmbr9 import tap_cell
from .test_play_number_quest import alone_with_the_computer, type_step  # noqa: F401
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
        lambda page: expect(page.locator('svg.board g.sq[aria-label^="10 · token of player"]'))
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


def alone_against_the_computer(classroom, teacher, pupil, game: str, bot_level: str,
                               seed: int) -> Table:
    """``pupil`` as player 0 at a table of two with a computer."""
    session = services.start_session(
        classroom, teacher, game=game, options={}, pupils=[pupil], table_size=2,
        bot_level=bot_level, seed=seed,
    )
    table = session.tables.first()
    table.seats.filter(pupil=pupil).update(player=0)
    return table


def nambarz(classroom, teacher, pupils) -> tuple[Table, tuple]:
    """Léa against the computer: her 7 bee goes on the 2 bee in one tap."""
    table = alone_against_the_computer(classroom, teacher, pupils[0], "nambarz", "beginner", 5)
    deal_nambarz(table, [[drw(7, 1), sym(2), sym(5)], [sym(9), sym(4, 1)]], target=drw(2, 1))
    return table, (
        lambda page: None,
        lambda page: page.locator(f'.ncard[data-card="{drw(7, 1)}"]'),
        lambda page: expect(page.get_by_test_id("feedback").first)
        .to_contain_text("the same animal"),
    )


def numx(classroom, teacher, pupils) -> tuple[Table, tuple]:
    """Léa against the computer lays blue 7 and red 7 together."""
    table = alone_against_the_computer(classroom, teacher, pupils[0], "numx", "greedy", 4)
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


@pytest.mark.parametrize("turn", ["nambarz"], indirect=True)
def test_a_move_kept_through_a_reload_is_sent_from_the_page_that_comes_back(turn):
    page, table = turn.page, turn.table
    version = turn.version()
    page.context.set_offline(True)
    turn.control(page).click()
    expect(page.locator("#connection")).to_contain_text(OFFLINE)
    refused = []

    def still_down(route):
        refused.append(route.request.url)
        route.abort()

    page.route("**/move/", still_down)  # the pages come back before the moves do
    page.context.set_offline(False)
    page.reload()
    expect(page.locator("#connection")).to_contain_text(OFFLINE)
    assert refused and turn.version() == version and pupil_moves(table) == 0
    page.unroute("**/move/")
    turn.played(page)
    expect(page.locator("#connection")).to_contain_text("Your move has arrived.")
    assert pupil_moves(table) == 1


@pytest.mark.parametrize("turn", ["numberquest"], indirect=True)
def test_a_kept_move_that_can_no_longer_count_says_so(turn):
    page, table = turn.page, turn.table
    turn.ready(page)
    page.context.set_offline(True)
    turn.control(page).click()
    expect(page.locator("#connection")).to_contain_text(OFFLINE)
    services.set_status(table.session, "paused")  # the teacher pauses meanwhile
    page.context.set_offline(False)
    expect(page.locator("#connection")).to_contain_text(
        "Your move has arrived, but it could not be played: the page says why.",
        timeout=BACK_WITHIN_MS,
    )
    expect(page.locator("#table .note")).to_contain_text("The game is paused.")
    assert pupil_moves(table) == 0


def test_steps_kept_at_the_end_of_the_game_arrive_though_the_wifi_drops(
    live_server, page, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    """The teacher ends the game while Léa's steps wait on her tablet: the
    ended page sends them, the wifi drops that moment, and they go by
    themselves 2 s later, recorded once."""
    table = alone_with_the_computer
    at_the_table(page, live_server.url, classroom, pupils[0])
    type_step(page, "1", "+", "2", "3")
    expect(page.locator("ul.steps li")).to_have_count(1)
    sent = []

    def dropped_once(route):
        sent.append(route.request.post_data)
        if len(sent) == 1:
            route.abort()
        else:
            route.continue_()

    page.route("**/move/", dropped_once)
    services.set_status(table.session, table.session.Status.ENDED)
    # The note (the live region says the same words).
    expect(page.get_by_test_id("note")).to_have_text(
        "Your last steps count: your teacher will see them.", timeout=10_000)
    assert len(sent) == 2 and all("type=kept" in body for body in sent)
    assert Attempt.objects.filter(pupil=pupils[0], skill="add").count() == 1


# ---------------------------------------------------------------- typed work


def test_a_number_quest_step_typed_survives_a_reload(live_server, page, classroom, teacher,
                                                      pupils):
    table = numberquest_table(classroom, teacher, pupils[0], pupils[1])
    at_the_table(page, live_server.url, classroom, pupils[0])
    groups = page.locator("form.calc fieldset.tiles")
    groups.nth(0).locator("label.tile", has_text=re.compile("^1$")).click()
    page.locator("fieldset.ops label.tile", has_text="+").click()
    groups.nth(2).locator("label.tile", has_text=re.compile("^2$")).click()
    page.locator("form.calc .numpad [data-key='3']").click()
    page.reload()
    expect(page.locator("form.calc input[name=left][value='1|die:0']")).to_be_checked()
    expect(page.locator("form.calc input[name=op][value='+']")).to_be_checked()
    expect(page.locator("form.calc input[name=right][value='2|die:1']")).to_be_checked()
    expect(page.locator("form.calc input[name=result]")).to_have_value("3")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("ul.steps li")).to_have_text(["1 + 2 = 3"])
    assert pupil_moves(table) == 1


def test_a_sum_typed_on_the_track_survives_a_reload(live_server, page, classroom, teacher,
                                                    pupils):
    table, (ready, control, played) = ultimes(classroom, teacher, pupils)
    at_the_table(page, live_server.url, classroom, pupils[0])
    ready(page)
    page.reload()
    expect(page.locator(".ult-form input[name=value]")).to_have_value("8")
    control(page).click()
    played(page)
    assert pupil_moves(table) == 1


def test_a_tile_turned_and_set_survives_a_reload(live_server, page, classroom, teacher, pupils):
    table, (ready, control, played) = nmbr9(classroom, teacher, pupils)
    at_the_table(page, live_server.url, classroom, pupils[0])
    ready(page)
    form = page.locator("form.n9-place-form")
    chosen = [form.locator(f"input[name={name}]").input_value() for name in ("rotation", "x", "y")]
    page.reload()
    expect(page.locator("[data-hint]")).to_contain_text("It fits!")
    assert [form.locator(f"input[name={name}]").input_value()
            for name in ("rotation", "x", "y")] == chosen
    control(page).click()
    played(page)
    placed = Move.objects.get(table=table, pupil=pupils[0]).move
    assert [str(placed[name]) for name in ("rotation", "x", "y")] == chosen


def build_five_and_three(page: Page) -> None:
    page.locator(f'.ncard[data-card="{sym(5)}"]').click()
    page.locator(f'.ncard[data-card="{sym(3)}"]').click()
    page.locator('.nz-op[data-step="0"][data-op="+"]').click()
    page.locator(".nz-play .numpad [data-key='8']").click()


def test_a_nambarz_calculation_being_built_survives_a_reload(live_server, page, classroom,
                                                             teacher, pupils):
    table = alone_against_the_computer(classroom, teacher, pupils[0], "nambarz", "beginner", 5)
    deal_nambarz(table, [[sym(5), sym(3), sym(9)], [sym(9, 1), sym(4, 1)]], target=sym(8))
    at_the_table(page, live_server.url, classroom, pupils[0])
    build_five_and_three(page)
    page.reload()
    expect(page.locator(".ncard.picked")).to_have_count(2)
    expect(page.locator('.nz-op[data-step="0"][data-op="+"]')).to_have_attribute(
        "aria-pressed", "true")
    expect(page.locator('.nz-step input[data-step="0"]')).to_have_value("8")
    page.get_by_test_id("lay-calculation").click()
    expect(page.get_by_test_id("feedback").first).to_contain_text("5 + 3 = 8")
    assert pupil_moves(table) == 1


def test_numx_cards_tapped_survive_a_reload(live_server, page, classroom, teacher, pupils):
    table, (ready, control, played) = numx(classroom, teacher, pupils)
    at_the_table(page, live_server.url, classroom, pupils[0])
    ready(page)
    page.reload()
    for card in ("blue7", "red7"):
        expect(page.locator(f'.xcard[data-card="{card}"]')).to_have_attribute(
            "aria-pressed", "true")
    expect(page.locator('.xcard[data-card="green2"]')).to_have_attribute("aria-pressed", "false")
    control(page).click()
    played(page)
    assert pupil_moves(table) == 1


def test_typed_work_never_reaches_the_next_pupil_on_the_tablet(live_server, page, classroom,
                                                               teacher, pupils):
    """Léa builds a calculation from her hand and hands the tablet over
    ("Not me?"): Noah, at the same table, gets nothing of it, not even in
    the tab's storage."""
    lea, noah = pupils[0], pupils[1]
    two_at_a_table(classroom, teacher, lea, noah,
                   [[sym(5), sym(3), sym(9)], [sym(9, 1), sym(4, 1)]], target=sym(8))
    at_the_table(page, live_server.url, classroom, lea)
    build_five_and_three(page)
    kept = page.evaluate("() => sessionStorage.getItem('numbo.draft')")
    assert kept and str(sym(5)) in kept
    page.get_by_role("button", name="Not me?").click()
    at_the_table(page, live_server.url, classroom, noah)
    expect(page.get_by_test_id("status")).to_contain_text("is playing")
    stored = page.evaluate("""() => Object.fromEntries(Object.entries(sessionStorage)
        .filter(([key]) => key.startsWith("numbo.")))""")
    assert stored == {"numbo.pupil": str(noah.pk)}
    expect(page.locator(".ncard.picked")).to_have_count(0)


# ---------------------------------------------------------------- push


@pytest.mark.skipif(not settings.REDIS_URL, reason="push needs Redis (REDIS_URL): CI runs it")
def test_a_re_read_after_a_ring_that_fails_is_tried_again_within_seconds(
    live_server, page, classroom, teacher, pupils
):
    """The stream is live, so the poll runs only every 20 s: a re-read that
    fails after the ring is tried again by itself in 2 s."""
    table = numberquest_table(classroom, teacher, pupils[0], pupils[1])
    at_the_table(page, live_server.url, classroom, pupils[0])
    page.wait_for_function("() => window.numboPollDue && !window.numboPollDue()")
    failed = []

    def once(route):
        if not failed:
            failed.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route(re.compile(r"/tables/\d+/poll/"), once)
    services.set_status(table.session, "paused")
    rung = time.monotonic()
    expect(page.get_by_test_id("status")).to_contain_text("Paused", timeout=8000)
    took = time.monotonic() - rung
    print(f"push: a failed re-read tried again, the page current after {took * 1000:.0f} ms")
    assert len(failed) == 1 and took < 6  # the safety poll would take 20 s
