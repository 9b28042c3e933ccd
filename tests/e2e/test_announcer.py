"""The play page's polite live region (#announcer, static/js/announce.js), in
real Chromium: it says another player's move and the turn coming back when a
poll brings them, a refusal of the pupil's own move, and nothing of a hand
the pupil may not see."""

from __future__ import annotations

from dataclasses import replace

import pytest
from playwright.sync_api import expect

from games import live, services
from games.models import GameSession
from games.pages import engine_of

from ..games.conftest import one_table
from ..games.test_nambarz_pages import deal, drw, state_of, sym
from .helpers import sign_in_pupil
from .keyboard import focused, press

pytestmark = pytest.mark.django_db(transaction=True)


def open_table(browser, browser_context_args, base_url, code, pupil):
    page = browser.new_context(**browser_context_args).new_page()
    sign_in_pupil(page, base_url, code, pupil)
    page.get_by_role("link", name="Play at table 1").click()
    expect(page.locator("#table")).to_be_visible()
    page.wait_for_load_state("load")
    return page


@pytest.fixture
def quest(classroom, teacher, pupils):
    """Léa and Noah at a Number Quest table, the dice 1 2 3 4; ``current`` plays."""

    def _quest(current: int):
        session, table = one_table(classroom, teacher, pupils[:2], game="numberquest",
                                   options={"preset": "addition"}, seed=3)
        engine = engine_of("numberquest")
        dice = (1, 2, 3, 4)
        state = replace(
            engine.from_json(table.state), current=current, dice=dice, steps=(),
            phase="calculate", retry=None,
            available=tuple((d, f"die:{i}") for i, d in enumerate(dice)),
        )
        table.state = state.to_json()
        table.save(update_fields=["state"])
        live.bump(table.pk)
        return table

    return _quest


def test_another_players_move_and_the_turn_coming_back_are_said(
    live_server, browser, browser_context_args, classroom, pupils, quest
):
    table = quest(current=1)
    lea = open_table(browser, browser_context_args, live_server.url, classroom.code, pupils[0])
    expect(lea.get_by_test_id("status")).to_contain_text("Noah B. is playing.")
    region = lea.locator("#announcer")
    expect(region).to_have_text("")
    shown = lea.locator(".log li").all_inner_texts()
    table.refresh_from_db()
    services.play(table.pk, pupils[1], {"type": "cant"}, table.version, "noah-cant")
    expect(lea.get_by_test_id("status")).to_contain_text("Your turn!", timeout=8000)
    expect(region).to_contain_text("Your turn!")
    lines = lea.locator(".log li").all_inner_texts()
    new = lines[: len(lines) - len(shown)] if lines[-len(shown):] == shown else lines
    # The new lines, oldest first, as they happened, then the turn.
    assert region.inner_text() == " ".join([*reversed(new), "Your turn!"])
    # What Noah could have made, then Léa's roll.
    assert len(new) >= 2 and new[0].startswith("Léa M. rolled"), new
    assert not any(line in region.inner_text() for line in shown)
    # Outside the table: the swap that brought the move left it in place.
    assert lea.evaluate("() => !document.getElementById('announcer').closest('#table')")


def test_a_refusal_of_the_pupils_own_move_is_said(
    live_server, browser, browser_context_args, classroom, pupils, quest
):
    quest(current=0)
    lea = open_table(browser, browser_context_args, live_server.url, classroom.code, pupils[0])
    expect(lea.get_by_test_id("status")).to_contain_text("Your turn!")
    # With the keys: the same die twice, 1 + 1 = 2.
    assert press(lea, "Tab")["name"] == "Go to the board"
    assert press(lea, "Enter")["name"] == "1"
    press(lea, "Enter", "Enter")  # the 1, then +: on to the other number, its first the same 1
    assert press(lea, "Enter")["name"] == "Your result"
    lea.keyboard.type("2")
    press(lea, "Enter")
    note = lea.get_by_test_id("note")
    expect(note).to_be_visible(timeout=8000)
    expect(lea.locator("#announcer")).to_have_text(note.inner_text())
    assert focused(lea)["name"] == "Your result"  # where the pupil corrects it
    # Said once: the announcer is the page's only live region holding it.
    live = "[role=alert], [role=status], [aria-live]"
    holders = lea.locator(live).filter(has_text=note.inner_text())
    assert holders.count() == 1 and holders.get_attribute("id") == "announcer"


def test_another_pupils_draw_is_said_without_the_card(
    live_server, browser, browser_context_args, classroom, teacher, pupils
):
    session, table = one_table(classroom, teacher, pupils[:2], game="nambarz", options={},
                               players=2, seed=5)
    deal(table, [[sym(2), sym(5)], [sym(9), drw(4)]], target=sym(7), current=1)
    lea = open_table(browser, browser_context_args, live_server.url, classroom.code, pupils[0])
    expect(lea.get_by_test_id("status")).to_contain_text("Noah B. is playing.")
    table.refresh_from_db()
    services.play(table.pk, pupils[1], {"type": "draw"}, table.version, "noah-draw")
    expect(lea.locator("#announcer")).to_have_text("Noah B. drew a card.", timeout=8000)
    drawn = state_of(table).drawn
    assert f'data-card="{drawn}"' not in lea.content()


def test_the_end_of_the_game_is_said_as_the_status_says_it(
    live_server, browser, browser_context_args, classroom, pupils, quest
):
    table = quest(current=1)
    lea = open_table(browser, browser_context_args, live_server.url, classroom.code, pupils[0])
    expect(lea.get_by_test_id("status")).to_contain_text("Noah B. is playing.")
    services.set_status(table.session, GameSession.Status.ENDED)
    status = lea.get_by_test_id("status")
    expect(status).to_contain_text("The game is over!", timeout=8000)
    expect(lea.locator("#announcer")).to_contain_text(status.inner_text())
