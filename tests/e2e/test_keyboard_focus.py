"""Focus is kept after every swap: a pupil's own move, another player's move
on the teacher's live view. It fell to <body> (6-19 Tabs back to the board)."""

import pytest
from playwright.sync_api import expect

from games import services
from games.models import GameSession

from .helpers import WATCH, sign_in_teacher
from .test_play_number_quest import alone_with_the_computer  # noqa: F401
from .test_school_wifi import nambarz_turn  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

FOCUSED = """() => { const el = document.activeElement;
  return el === document.body ? null : [el.tagName, el.textContent.trim().slice(0, 40),
    !!el.closest('#table, #live, #live-grid')]; }"""


def test_after_a_card_laid_with_the_keyboard_focus_is_on_what_the_move_brought(
    page, nambarz_turn  # noqa: F811
):
    draw = page.get_by_role("button", name="Draw a card")
    page.evaluate(WATCH)
    draw.focus()
    version = int(page.locator("#table").get_attribute("data-version"))
    page.keyboard.press("Enter")
    # Read as soon as the answer has settled: focus.js has placed the focus
    # then (its listener came first), and no later swap can have put it back.
    page.wait_for_function(f"() => window.seen['{version + 1}'] !== undefined")
    focused = page.evaluate(FOCUSED)
    assert focused is not None and focused[2], focused


def test_a_pause_just_after_a_move_keeps_what_the_pupil_was_told_and_the_focus(
    page, nambarz_turn  # noqa: F811
):
    """Only the move's answer carries the lines about it: the teacher's pause
    a moment later brings the same board again without them (static/js/feedback.js)."""
    table = nambarz_turn
    page.evaluate(WATCH)
    page.get_by_role("button", name="Draw a card").focus()
    version = int(page.locator("#table").get_attribute("data-version"))
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.seen['{version + 1}'] !== undefined")
    told = page.get_by_test_id("feedback")
    said = told.all_inner_texts()
    assert said
    expect(told.first).to_be_focused()
    services.set_status(table.session, GameSession.Status.PAUSED)
    expect(page.get_by_test_id("status")).to_contain_text("Paused")
    expect(page.locator("#table")).to_have_attribute("data-version", str(version + 1))
    expect(told).to_have_text(said)
    expect(told.first).to_be_focused()


def test_the_live_view_keeps_the_teachers_focus_when_a_table_changes(
    live_server, page, classroom, teacher, pupils
):
    session = services.start_session(
        classroom, teacher, game="ultimes", options={}, pupils=pupils, table_size=3,
        seating={p.pk: 1 for p in pupils}, seed=3,
    )
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/sessions/{session.pk}/")
    page.get_by_role("link", name="Full screen").focus()
    before = page.evaluate(FOCUSED)
    table = session.tables.get()
    from engine.ultimes import bot_moves
    from games.pages import engine_of

    state = engine_of("ultimes").from_json(table.state)
    mover = table.seats.get(player=state.turn).pupil
    services.play(table.pk, mover, bot_moves(state, state.turn)[0], table.version, "t1")
    page.wait_for_timeout(5000)  # the live view refreshes every 2 s
    assert page.evaluate(FOCUSED) == before


def test_space_taps_the_square_offered_as_enter_does(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    """The board's squares are drawn buttons: Space pressed only Enter's half."""
    from classroom.models import Attempt

    from .test_numberquest_square_on_tablet import made_ten

    lea, _errors = made_ten(browser, browser_context_args, live_server, classroom, pupils[0])
    square = lea.get_by_role("button", name="Square 10")
    square.focus()
    scrolled = lea.evaluate("() => window.scrollY")
    lea.keyboard.press(" ")
    expect(lea.get_by_test_id("status")).not_to_contain_text("Your turn!", timeout=8000)
    assert lea.evaluate("() => window.scrollY") == scrolled
    assert Attempt.objects.filter(pupil=pupils[0], skill="add").count() == 3
