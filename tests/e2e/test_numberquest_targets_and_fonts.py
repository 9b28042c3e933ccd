"""Number Quest's board squares as touch targets and its prompts' font, in
real Chromium on a 768 px portrait tablet."""

from dataclasses import replace

import pytest
from playwright.sync_api import expect

from games import live
from games.pages import engine_of

from .test_play_number_quest import alone_with_the_computer, tablet, type_step  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

# Each tappable square's box, and whether the page scrolls sideways.
MEASURE = """(selector) => ({
    squares: Array.from(document.querySelectorAll(selector)).map((square) => {
        const box = square.getBoundingClientRect();
        return [square.dataset.square, Math.round(box.width * 10) / 10,
                Math.round(box.height * 10) / 10];
    }),
    sideways: document.documentElement.scrollWidth > window.innerWidth,
})"""

# The font a box's text is drawn in, beside the page's own.
FONTS = """(selector) => Array.from(document.querySelectorAll(selector)).map((box) => [
    box.textContent.trim().slice(0, 30), getComputedStyle(box).fontFamily,
]).concat([["the page", getComputedStyle(document.body).fontFamily]])"""


def moved_on(table, *moves, **options):
    """Léa's table after her ``moves``, applied as the server would."""
    engine = engine_of("numberquest")
    table.refresh_from_db()
    state = engine.from_json(table.state)
    if options:
        state = replace(state, options=replace(state.options, **options))
    for move in moves:
        state = engine.apply(state, 0, move).state
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    return state


def too_small(measured) -> list:
    return [square for square in measured["squares"] if min(square[1:]) < 44]


def test_every_square_a_pupil_taps_is_44_px_at_768_px_without_scrolling_sideways(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    table = alone_with_the_computer
    lea = tablet(browser, browser_context_args, live_server, classroom, pupils[0])
    lea.get_by_role("link", name="Play at table 1").click()
    # The number made on the tablet: the page makes its square a button.
    type_step(lea, "1", "+", "2", "3")
    type_step(lea, "3", "+", "3", "6")
    type_step(lea, "6", "+", "4", "10")
    expect(lea.get_by_role("button", name="Square 10")).to_be_visible(timeout=5000)
    offered = lea.evaluate(MEASURE, "svg.board g.sq.tap")
    assert len(offered["squares"]) == 1 and not too_small(offered), offered
    assert not offered["sideways"]
    # The server's place phase: every free square is a button (a wrong one is told).
    state = moved_on(table, {"type": "calculation", "text": "1 + 2 + 3 + 4"})
    assert state.phase == "place"
    lea.reload()
    expect(lea.locator(".prompt")).to_contain_text("You made 10!")
    measured = lea.evaluate(MEASURE, "svg.board g.sq.tap")
    assert len(measured["squares"]) == 11, measured  # the squares 9 to 19
    assert not too_small(measured) and not measured["sideways"], measured


def test_the_calculation_and_the_bank_question_use_the_pages_font(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    table = alone_with_the_computer
    lea = tablet(browser, browser_context_args, live_server, classroom, pupils[0])
    lea.get_by_role("link", name="Play at table 1").click()
    fonts = lea.evaluate(FONTS, "form.calc legend, form.calc .tile span, form.calc .key")
    assert len({font for _, font in fonts}) == 1, fonts
    moved_on(
        table,
        {"type": "calculation", "text": "1 + 2 + 3 + 4"},
        {"type": "place", "square": 10},
        pupils_bank=True,
    )
    lea.reload()
    expect(lea.locator(".prompt")).to_contain_text("You had 0 and you earn")
    fonts = lea.evaluate(FONTS, "form.calc .prompt, form.calc .answer")
    assert len({font for _, font in fonts}) == 1, fonts
    # What she must count is not beside the question.
    expect(lea.get_by_test_id("money-0")).to_have_text("0")
