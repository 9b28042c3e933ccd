"""A Nambarz turn on a 768 x 1024 tablet in real Chromium: the calculation row,
the keypad and "Lay my calculation" are on the first screen (no scroll) on a
first turn, in the middle of a calculation and with a full log (issue 31, 5)."""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from django.db.models import F
from django.utils import timezone
from playwright.sync_api import expect

from games import live, services
from games.models import Table
from games.pages import engine_of

from .helpers import sign_in_pupil
from .test_play_nambarz import deal, drw, sym, tap_card, type_result

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = engine_of("nambarz")
SHOTS = os.environ.get("NUMBO_SHOTS")
SCREEN = 1024

# Léa makes the target 8 with 3 × 3 − 1; her other cards make a full hand.
LEA = [sym(3), sym(3, 1), sym(1), sym(6), drw(9, 1), sym(10), drw(2, 0)]
OTHERS = [[sym(7), sym(4, 1), drw(5, 1), sym(2, 2), drw(6, 0), sym(9), drw(10, 1)],
          [sym(7, 1), sym(4, 2), drw(5, 0), sym(2, 3), drw(6, 1), sym(9, 1), drw(10, 0)],
          [sym(7, 2), sym(4, 3), drw(4, 1), sym(5, 2), drw(1, 1), sym(9, 2), drw(7, 1)]]


def deal_turn(table: Table, hands: list[list[int]], target: int) -> None:
    """Léa's fresh turn on these hands (nothing drawn, no joker pending)."""
    deal(table, hands, target)
    table.refresh_from_db()
    state = replace(ENGINE.from_json(table.state), pending="", drawn=None, retrying=False)
    # A new turn is a new version: the calculation the tablet kept for the
    # last one does not come back after a reload (static/js/drafts.js).
    Table.objects.filter(pk=table.pk).update(state=state.to_json(), version=F("version") + 1)
    live.bump(table.pk)


def bottoms(page) -> dict[str, float]:
    """How far down the screen each part of the turn ends (y + height), in
    CSS pixels from the top of the page as it loaded (no scroll)."""
    return page.evaluate(
        """() => {
            const parts = {
                row: ".nz-play .nz-build", pad: ".nz-play .nz-pad",
                button: "[data-testid=lay-calculation]", hand: "[data-testid=hand]",
            };
            const found = {};
            for (const [name, selector] of Object.entries(parts)) {
                const el = document.querySelector(selector);
                if (!el || !el.getClientRects().length) continue;
                const r = el.getBoundingClientRect();
                found[name] = Math.round(r.top + window.scrollY + r.height);
            }
            return found;
        }"""
    )


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"nambarz-fit-{name}.png"))


def fits(page, name: str, parts: tuple[str, ...]) -> dict[str, float]:
    shot(page, name)
    measured = bottoms(page)
    print(name, measured)  # the figures, for the report (pytest -s)
    for part in parts:
        assert part in measured, (name, part, measured)
        assert measured[part] <= SCREEN, (name, part, measured)
    return measured


def fill_the_log(table: Table, lea) -> None:
    """Léa draws and passes, the computers play, until the log is full."""
    for number in range(24):
        table.refresh_from_db()
        state = ENGINE.from_json(table.state)
        if state.over or table.version >= 10:
            return
        if state.current == 0:
            move = {"type": "pass"} if state.pending == "drawn" else {"type": "draw"}
            services.play(table.pk, lea, move, table.version, f"fill-{number}")
        else:
            Table.objects.filter(pk=table.pk).update(
                updated_at=timezone.now() - timedelta(minutes=1),
                turn_started_at=timezone.now() - timedelta(minutes=1))
            services.advance(table.pk)


def test_the_calculation_and_its_button_are_on_the_first_screen(
    live_server, page, classroom, teacher, pupils
):
    lea = pupils[0]
    session = services.start_session(
        classroom, teacher, game="nambarz", options={"rounds": 3}, pupils=[lea], table_size=4,
        bot_level="greedy", seed=11,
    )
    table = session.tables.get()
    table.seats.filter(pupil=lea).update(player=0)
    deal_turn(table, [LEA, *OTHERS], target=sym(8))
    sign_in_pupil(page, live_server.url, classroom.code, lea)
    page.get_by_role("link", name="Play at table 1").click()
    expect(page.get_by_test_id("status")).to_contain_text("Your turn!")

    # A first turn: two cards tapped, the row and its button appear.
    tap_card(page, sym(3))
    tap_card(page, sym(3, 1))
    expect(page.get_by_test_id("lay-calculation")).to_be_visible()
    fits(page, "1-first-turn", ("row", "button"))

    # Mid-calculation: the first step typed, the second one on the keypad.
    tap_card(page, sym(1))
    page.locator('.nz-op[data-step="0"][data-op="*"]').click()
    type_result(page, 0, 9)
    page.locator('.nz-op[data-step="1"][data-op="-"]').click()
    page.locator('.nz-step input[data-step="1"]').click()
    expect(page.locator(".nz-play .nz-pad")).to_be_visible()
    fits(page, "2-mid-calculation", ("row", "pad", "button"))

    # A full log: the computers have played a few turns.
    fill_the_log(table, lea)
    table.refresh_from_db()
    deal_turn(table, [LEA, *OTHERS], target=sym(8))
    page.reload()
    expect(page.get_by_test_id("status")).to_contain_text("Your turn!")
    expect(page.locator(".log li")).to_have_count(6)
    for card in (sym(3), sym(3, 1), sym(1)):
        tap_card(page, card)
    page.locator('.nz-op[data-step="0"][data-op="*"]').click()
    page.locator('.nz-step input[data-step="0"]').click()
    expect(page.locator(".nz-play .nz-pad")).to_be_visible()
    fits(page, "3-full-log", ("row", "pad", "button"))
    # A big hand (two rows of cards) and a calculation of four cards (three steps).
    deal_turn(table, [LEA + [sym(2), sym(4), sym(5)], *OTHERS], target=sym(8))
    page.reload()
    expect(page.locator(".ncard")).to_have_count(10)
    for card in (sym(3), sym(3, 1), sym(1), sym(2)):
        tap_card(page, card)
    page.locator('.nz-op[data-step="0"][data-op="*"]').click()
    page.locator('.nz-step input[data-step="0"]').click()
    expect(page.locator(".nz-play .nz-pad")).to_be_visible()
    expect(page.locator(".nz-step")).to_have_count(3)
    fits(page, "4-big-hand", ("row", "pad", "button"))
    page.get_by_role("button", name="Start again").click()
    for card in (sym(3), sym(3, 1), sym(1)):
        tap_card(page, card)
    page.locator('.nz-op[data-step="0"][data-op="*"]').click()
    page.locator('.nz-step input[data-step="0"]').click()

    # And the calculation still goes through from there.
    for digit in "9":
        page.locator(f".nz-play .numpad [data-key='{digit}']").click()
    page.locator('.nz-op[data-step="1"][data-op="-"]').click()
    type_result(page, 1, 8)
    page.get_by_test_id("lay-calculation").click()
    expect(page.get_by_test_id("feedback").first).to_contain_text(
        "Léa M. calculated with 3 cards: 3 × 3 = 9, 9 − 1 = 8."
    )

    # On a 320 px phone the turn scrolls, but nothing runs off the side.
    deal_turn(table, [LEA, *OTHERS], target=sym(8))
    page.set_viewport_size({"width": 320, "height": 640})
    page.reload()
    expect(page.get_by_test_id("status")).to_contain_text("Your turn!")
    for card in (sym(3), sym(3, 1), sym(1)):
        tap_card(page, card)
    page.locator('.nz-op[data-step="0"][data-op="*"]').click()
    page.locator('.nz-step input[data-step="0"]').click()
    expect(page.locator(".nz-play .nz-pad")).to_be_visible()
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "nambarz-fit-5-phone.png"), full_page=True)
    wide = page.evaluate("""() => [...document.querySelectorAll("body *")]
        .filter(e => e.getBoundingClientRect().right > 320)
        .map(e => e.tagName + "." + e.className)""")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320, wide

    # In French (the longer sentences), the biggest case still fits.
    page.set_viewport_size({"width": 768, "height": 1024})
    page.get_by_role("button", name="FR", exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    deal_turn(table, [LEA + [sym(2), sym(4), sym(5)], *OTHERS], target=sym(8))
    page.goto(live_server.url + f"/tables/{table.pk}/")
    expect(page.locator(".ncard")).to_have_count(10)
    for card in (sym(3), sym(3, 1), sym(1), sym(2)):
        tap_card(page, card)
    page.locator('.nz-op[data-step="0"][data-op="*"]').click()
    page.locator('.nz-step input[data-step="0"]').click()
    expect(page.locator(".nz-play .nz-pad")).to_be_visible()
    fits(page, "6-big-hand-french", ("row", "pad", "button"))
