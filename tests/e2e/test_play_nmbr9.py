"""One whole solo NMBR 9 game in real Chromium: 20 tiles placed by touch, then the count."""

import re

import pytest
from playwright.sync_api import Page, expect

from classroom.models import Attempt
from engine.nmbr9 import GAME, bot_place
from engine.nmbr9.tiles import size
from games import services
from games.models import Move

from .helpers import sign_in_pupil

pytestmark = pytest.mark.django_db(transaction=True)

# The stack's viewBox starts this far before the board and is this much wider
# (games/pages/nmbr9/drawing.py).
VIEW_MARGIN, VIEW_EXTRA = 0.15, 0.5


def tap_cell(page: Page, cx: float, cy: float, board: int) -> None:
    """Tap the stack where the middle of the tile should go (in cells)."""
    svg = page.locator("svg.stack-board")
    box = svg.bounding_box()
    span = board + VIEW_EXTRA
    # The picture keeps its shape: it is centred in the element, as big as fits.
    scale = min(box["width"], box["height"]) / span
    left = (box["width"] - scale * span) / 2
    top = (box["height"] - scale * span) / 2
    svg.tap(
        position={"x": left + (cx + VIEW_MARGIN) * scale, "y": top + (cy + VIEW_MARGIN) * scale}
    )


def place_by_touch(page: Page, table, digit: int, placement, board: int) -> None:
    version = page.locator("#table").get_attribute("data-version")
    for _ in range(placement.rotation):
        page.get_by_role("button", name=re.compile("Turn")).click()
    width, height = size(digit, placement.rotation)
    tap_cell(page, placement.x + width / 2, placement.y + height / 2, board)
    expect(page.locator("svg.stack-board .preview.ok")).to_have_count(1)
    expect(page.locator("[data-hint]")).to_contain_text("It fits!")
    page.get_by_role("button", name="Place it").click()
    expect(page.locator("#table")).not_to_have_attribute("data-version", version)


def type_on_pad(page: Page, value: int) -> None:
    for digit in str(value):
        page.locator(f".n9-count-form .numpad [data-key='{digit}']").click()
    page.get_by_role("button", name="Check").click()


def test_a_pupil_plays_a_whole_solo_game_by_touch(live_server, page, classroom, teacher, pupils):
    lea = pupils[0]
    session = services.start_session(
        classroom,
        teacher,
        game="nmbr9",
        options={"second_chance": False},
        pupils=[lea],
        table_size=1,
        seed=11,
    )
    table = session.tables.get()
    sign_in_pupil(page, live_server.url, classroom.code, lea)
    page.get_by_role("link", name="Play at table 1").click()
    expect(page.get_by_test_id("status")).to_contain_text("Card 1 of 20")
    # Sizes once the game's stylesheet has loaded: the page shows before it does.
    page.wait_for_load_state("load")
    # The arrows that nudge a tile are touch targets: 44 px at least both ways.
    sizes = page.eval_on_selector_all(
        ".n9-nudge .key", "keys => keys.map(k => [k.offsetWidth, k.offsetHeight])"
    )
    assert len(sizes) == 4 and all(w >= 44 and h >= 44 for w, h in sizes), sizes

    for number in range(1, 21):
        table.refresh_from_db()
        state = GAME.from_json(table.state)
        digit = state.card
        expect(page.get_by_test_id("status")).to_contain_text(
            f"Card {number} of 20: place your {digit}!"
        )
        if number == 2:
            # Far from the first tile: the preview says why not, and nothing can be sent.
            tap_cell(page, 1.5, 18, state.board)
            expect(page.locator("svg.stack-board .preview.bad")).to_have_count(1)
            expect(page.locator("[data-hint]")).to_contain_text("must touch")
            expect(page.get_by_role("button", name="Place it")).to_be_disabled()
        placement = bot_place(state.stacks[0], digit, seed=number)
        place_by_touch(page, table, digit, placement, state.board)

    assert Move.objects.filter(table=table, move__type="place").count() == 20
    expect(page.get_by_test_id("status")).to_contain_text("count your points")
    wrong_once = True
    while page.get_by_test_id("count-question").count():
        question = page.get_by_test_id("count-question").inner_text()
        numbers = [int(n) for n in re.findall(r"\d+", question)]
        answer = numbers[0] * numbers[1] if "×" in question else sum(numbers)
        before = page.locator("#table").get_attribute("data-version")
        type_on_pad(page, answer + 1 if wrong_once else answer)
        expect(page.locator("#table")).not_to_have_attribute("data-version", before)
        expect(page.locator(".feedback").first).to_contain_text(
            "Not quite" if wrong_once else "Right"
        )
        wrong_once = False

    table.refresh_from_db()
    final = GAME.from_json(table.state)
    points = GAME.result(final).scores[0]
    expect(page.get_by_test_id("status")).to_contain_text(f"You scored {points} point")
    expect(page.get_by_test_id("computer-score")).to_contain_text("the computer scored")
    attempts = Attempt.objects.filter(pupil=lea, table=table)
    assert attempts.filter(skill="mul").count() >= 1
    assert attempts.filter(correct=False).count() == 1
    assert attempts.filter(correct=True).count() == attempts.count() - 1
