"""Nambarz in real Chromium on a 768 x 1024 tablet: a pupil plays a round
against two computers to the end, with a refused calculation and one of three
cards typed step by step; two pupils on their own tablets never get each
other's cards, in the HTML itself."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

import pytest
from playwright.sync_api import expect

from classroom.models import Attempt
from games import live, services
from games.models import Table
from games.pages import engine_of

from .helpers import sign_in_pupil

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = engine_of("nambarz")
SHOTS = os.environ.get("NUMBO_SHOTS")


def sym(number: int, copy: int = 0) -> int:
    return (number - 1) * 4 + copy


def drw(number: int, animal: int = 0, copy: int = 0) -> int:
    return 40 + (number - 1) * 4 + animal * 2 + copy


def deal(table: Table, hands: list[list[int]], target: int) -> None:
    state = ENGINE.from_json(table.state)
    used = {c for hand in hands for c in hand} | {target}
    state = replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        pile=tuple(c for c in range(len(state.cards)) if c not in used),
        discard=(target,),
        current=0,
    )
    Table.objects.filter(pk=table.pk).update(state=state.to_json())
    live.bump(table.pk)


def two_at_a_table(classroom, teacher, lea, noah, hands: list[list[int]], target: int) -> Table:
    """Léa (player 0) and Noah (player 1) at table 1 on their own tablets,
    these hands dealt, Léa to play on this target."""
    session = services.start_session(
        classroom, teacher, game="nambarz", options={}, pupils=[lea, noah], table_size=2,
        seating={lea.pk: 1, noah.pk: 1}, seed=3,
    )
    table = session.tables.get()
    table.seats.filter(pupil=lea).update(player=0)
    table.seats.filter(pupil=noah).update(player=1)
    deal(table, hands, target=target)
    return table


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"nambarz-{name}.png"), full_page=True)


def tap_card(page, card_id: int) -> None:
    page.locator(f'.ncard[data-card="{card_id}"]').click()


def type_result(page, step: int, value: int) -> None:
    page.locator(f'.nz-step input[data-step="{step}"]').click()
    for digit in str(value):
        page.locator(f".nz-play .numpad [data-key='{digit}']").click()


def test_a_pupil_plays_a_round_against_two_computers(
    live_server, page, classroom, teacher, pupils
):
    lea = pupils[0]
    session = services.start_session(
        classroom, teacher, game="nambarz", options={}, pupils=[lea], table_size=3,
        bot_level="beginner", seed=11,
    )
    table = session.tables.first()
    table.seats.filter(pupil=lea).update(player=0)
    # Léa can make the target 8 with 3 × 3 − 1; the first computer lays the
    # 1 that her calculation leaves on top; the second still has two cards.
    deal(table, [[sym(3), sym(3, 1), sym(1)], [sym(1, 1)], [sym(7), sym(4, 1)]], target=sym(8))

    sign_in_pupil(page, live_server.url, classroom.code, lea)
    page.get_by_role("link", name="Play at table 1").click()
    expect(page.get_by_test_id("status")).to_contain_text("Your turn!")
    expect(page.get_by_test_id("target")).to_contain_text("8")
    expect(page.locator(".ncard")).to_have_count(3)
    shot(page, "1-hand")

    # A calculation whose step is right but misses the target: the step
    # counts, the pupil is told, and the cards stay for another try.
    tap_card(page, sym(3))
    tap_card(page, sym(1))
    page.locator('.nz-op[data-step="0"][data-op="+"]').click()
    type_result(page, 0, 4)
    shot(page, "2-missed-built")
    page.get_by_test_id("lay-calculation").click()
    expect(page.get_by_test_id("feedback").first).to_contain_text(
        "Your calculation makes 4, but the target is 8. "
        "Your cards are still in your hand: try again."
    )
    expect(page.locator(".ncard")).to_have_count(3)
    shot(page, "3-missed")

    # Again: 3 × 3 = 9, then 9 − 1 = 8, each result typed on the pad.
    # The missed play comes back (cards picked, the right step typed), with a
    # way to start again; waited for, as the page sets it up after the swap.
    start_again = page.get_by_role("button", name="Start again")
    expect(start_again).to_be_visible()
    start_again.click()
    expect(page.locator(".ncard.picked")).to_have_count(0)
    for card in (sym(3), sym(3, 1), sym(1)):
        tap_card(page, card)
    expect(page.get_by_test_id("lay-calculation")).to_be_disabled()
    page.locator('.nz-op[data-step="0"][data-op="*"]').click()
    type_result(page, 0, 9)
    # The second step starts from the number Léa typed.
    expect(page.locator(".nz-step").nth(1).locator(".nz-num").first).to_have_text("9")
    page.locator('.nz-op[data-step="1"][data-op="-"]').click()
    type_result(page, 1, 8)
    shot(page, "4-calculation")
    page.get_by_test_id("lay-calculation").click()
    expect(page.get_by_test_id("feedback").first).to_contain_text(
        "Léa M. calculated with 3 cards: 3 × 3 = 9, 9 − 1 = 8."
    )

    # The computers play on their own; the round, and the game, end.
    expect(page.get_by_test_id("winner")).to_contain_text("You win!", timeout=15_000)
    expect(page.get_by_test_id("round-end")).to_contain_text("Léa M.: 40 points")
    expect(page.get_by_test_id("status")).to_contain_text("The game is over!")
    shot(page, "5-end")
    steps = list(
        Attempt.objects.filter(pupil=lea, skill__in=["add", "sub", "mul", "div"])
        .order_by("pk")
        .values_list("skill", "operands", "given", "correct")
    )
    # The right step of the calculation that missed the target counts too.
    assert steps == [
        ("add", [3, 1], "4", True), ("mul", [3, 3], "9", True), ("sub", [9, 1], "8", True)
    ]


def test_two_pupils_on_their_own_tablets_never_get_the_other_hand(
    live_server, browser, browser_context_args, classroom, teacher, pupils
):
    lea, noah = pupils[0], pupils[1]
    lea_hand = [sym(2), sym(6, 2), drw(9, 1)]
    noah_hand = [sym(10, 3), drw(7, 0, 1), drw(2, 1, 1)]
    table = two_at_a_table(classroom, teacher, lea, noah, [lea_hand, noah_hand], sym(5))

    pages = {}
    for pupil in (lea, noah):
        context = browser.new_context(**browser_context_args)
        tablet = context.new_page()
        sign_in_pupil(tablet, live_server.url, classroom.code, pupil)
        tablet.get_by_role("link", name="Play at table 1").click()
        expect(tablet.locator(".ncard")).to_have_count(3)
        pages[pupil.pk] = tablet

    def ids(tablet) -> set[int]:
        return {int(n) for n in re.findall(r'data-card="(\d+)"', tablet.content())}

    assert ids(pages[lea.pk]) == set(lea_hand)
    assert ids(pages[noah.pk]) == set(noah_hand)
    # Léa draws: Noah's tablet learns it (poll or push) and still holds only his cards.
    pages[lea.pk].get_by_test_id("draw").click()
    expect(pages[lea.pk].get_by_test_id("drawn")).to_be_visible()
    expect(pages[noah.pk].get_by_test_id("hand-size-0")).to_contain_text("4 cards")
    drawn = ENGINE.from_json(Table.objects.get(pk=table.pk).state).drawn
    noah_html = pages[noah.pk].content()
    assert ids(pages[noah.pk]) == set(noah_hand)
    assert f'data-card="{drawn}"' not in noah_html
    for card in lea_hand:
        assert f'data-card="{card}"' not in noah_html
    lea_html = pages[lea.pk].content()
    assert ids(pages[lea.pk]) == set(lea_hand) | {drawn}
    for card in noah_hand:
        assert f'data-card="{card}"' not in lea_html


def test_the_brackets_variant_in_the_browser(live_server, page, classroom, teacher, pupils):
    lea = pupils[0]
    session = services.start_session(
        classroom, teacher, game="nambarz", options={"brackets": True}, pupils=[lea],
        table_size=2, bot_level="beginner", seed=5,
    )
    table = session.tables.first()
    table.seats.filter(pupil=lea).update(player=0)
    deal(table, [[sym(2), sym(3), sym(2, 1), sym(9)], [sym(7), sym(4, 1)]], target=sym(10))
    sign_in_pupil(page, live_server.url, classroom.code, lea)
    page.get_by_role("link", name="Play at table 1").click()
    for card in (sym(2), sym(3), sym(2, 1)):
        tap_card(page, card)
    # 3 + 2 first: the second and the third card.
    page.locator('.nz-chip[data-slot="a"][data-position="1"]').click()
    page.locator('.nz-op[data-op="+"]').click()
    page.locator('.nz-chip[data-slot="b"][data-position="2"]').click()
    for digit in "5":
        page.locator(f".nz-play .numpad [data-key='{digit}']").click()
    page.get_by_role("button", name="Next step").click()
    # Then 2 × 5: the first card and the result just typed.
    page.locator('.nz-chip[data-slot="a"][data-position="0"]').click()
    page.locator('.nz-op[data-op="*"]').click()
    page.locator('.nz-chip[data-slot="b"][data-position="3"]').click()
    for digit in "10":
        page.locator(f".nz-play .numpad [data-key='{digit}']").click()
    page.get_by_role("button", name="Next step").click()
    expect(page.locator(".nz-step.done")).to_have_count(2)
    shot(page, "6-brackets")
    page.get_by_test_id("lay-calculation").click()
    expect(page.get_by_test_id("feedback").first).to_contain_text("Léa M. calculated with 3 cards")
    expect(page.locator(".ncard")).to_have_count(1)


def test_a_concordance_is_one_tap_and_a_joker_says_what_it_does(
    live_server, page, classroom, teacher, pupils
):
    lea = pupils[0]
    session = services.start_session(
        classroom, teacher, game="nambarz", options={}, pupils=[lea], table_size=2,
        bot_level="beginner", seed=5,
    )
    table = session.tables.first()
    table.seats.filter(pupil=lea).update(player=0)
    replay = next(c.id for c in ENGINE.new({}, 2, 0).cards if c.joker == "replay")
    deal(table, [[replay, drw(7, 1), sym(2)], [sym(9), sym(4, 1)]], target=drw(2, 1))
    sign_in_pupil(page, live_server.url, classroom.code, lea)
    page.get_by_role("link", name="Play at table 1").click()
    page.locator(f'.ncard[data-card="{replay}"]').click()
    expect(page.get_by_test_id("build")).to_contain_text("Play again: lay another card")
    page.get_by_test_id("play-joker").click()
    expect(page.get_by_test_id("feedback").first).to_contain_text("Léa M. played a joker.")
    # 7 and the target 2 share their drawing: one tap lays it.
    tap_card(page, drw(7, 1))
    expect(page.get_by_test_id("feedback").first).to_contain_text("the same animal")
    expect(page.locator(".ncard")).to_have_count(1)


def test_a_replay_joker_laid_as_the_last_card_is_followed_by_a_draw(
    live_server, page, classroom, teacher, pupils
):
    # RULES 3.6: with no card left after a replay joker, the pupil must draw.
    lea = pupils[0]
    session = services.start_session(
        classroom, teacher, game="nambarz", options={}, pupils=[lea], table_size=2,
        bot_level="beginner", seed=5,
    )
    table = session.tables.first()
    table.seats.filter(pupil=lea).update(player=0)
    replay = next(c.id for c in ENGINE.new({}, 2, 0).cards if c.joker == "replay")
    deal(table, [[replay], [sym(9), sym(4, 1)]], target=drw(2, 1))
    sign_in_pupil(page, live_server.url, classroom.code, lea)
    page.get_by_role("link", name="Play at table 1").click()
    page.locator(f'.ncard[data-card="{replay}"]').click()
    page.get_by_test_id("play-joker").click()
    expect(page.get_by_test_id("last-joker")).to_have_text(
        "Your joker was your last card: draw a card."
    )
    draw = page.get_by_test_id("draw")
    assert draw.bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 768
    shot(page, "7-last-joker")
    draw.click()
    expect(page.get_by_test_id("drawn")).to_contain_text("You drew")


def test_a_card_of_the_other_family_stays_out_at_the_tap_and_typed_results_stay(
    live_server, page, classroom, teacher, pupils
):
    lea = pupils[0]
    session = services.start_session(
        classroom, teacher, game="nambarz", options={}, pupils=[lea], table_size=2,
        bot_level="beginner", seed=5,
    )
    table = session.tables.first()
    table.seats.filter(pupil=lea).update(player=0)
    hand = [drw(9, 1), sym(1), drw(4, 1), sym(3), sym(3, 1), sym(10)]
    deal(table, [hand, [sym(9), sym(4, 1)]], target=drw(8, 1))
    sign_in_pupil(page, live_server.url, classroom.code, lea)
    page.get_by_role("link", name="Play at table 1").click()
    expect(page.get_by_test_id("family-rule")).to_have_text(
        "In a calculation, use only number cards, or only animal cards."
    )
    # The 9 mouse, then the 1: the 1 stays out, and Léa is told why before
    # she types anything (RULES 3.4 b1).
    tap_card(page, drw(9, 1))
    symbol_one = page.locator(f'.ncard[data-card="{sym(1)}"]')
    expect(symbol_one).to_have_attribute("aria-disabled", "true")
    symbol_one.click(force=True)
    expect(page.get_by_test_id("why-not")).to_have_text(
        "The 1 is a number card and the 9 mouse an animal card: they can't be in the same "
        "calculation."
    )
    expect(page.locator(".ncard.picked")).to_have_count(1)
    expect(page.locator("[data-pad]")).to_be_hidden()
    # A screen reader names the card, not the badge of its order.
    expect(page.get_by_role("button", name="9 mouse", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    shot(page, "8-other-family")

    # 9 mouse − 4 mouse = 5 misses the target: the pupil is told, tries
    # again, and the 5 stays typed.
    tap_card(page, drw(4, 1))
    page.locator('.nz-op[data-step="0"][data-op="-"]').click()
    type_result(page, 0, 5)
    page.get_by_test_id("lay-calculation").click()
    expect(page.get_by_test_id("feedback").first).to_contain_text(
        "Your calculation makes 5, but the target is 8."
    )
    expect(page.locator('.nz-step input[data-step="0"]')).to_have_value("5")
    expect(page.get_by_test_id("lay-calculation")).to_be_enabled()

    # 3 × 3 = 9 right, 9 − 1 = 7 wrong: the 9 stays, the 7 is typed again.
    page.get_by_role("button", name="Start again").click()
    for card in (sym(3), sym(3, 1), sym(1)):
        tap_card(page, card)
    page.locator('.nz-op[data-step="0"][data-op="*"]').click()
    type_result(page, 0, 9)
    page.locator('.nz-op[data-step="1"][data-op="-"]').click()
    type_result(page, 1, 7)
    page.get_by_test_id("lay-calculation").click()
    expect(page.locator("#table")).to_have_attribute("data-retrying", "1")
    expect(page.locator('.nz-step input[data-step="0"]')).to_have_value("9")
    expect(page.locator('.nz-step input[data-step="1"]')).to_have_value("")
    type_result(page, 1, 8)
    page.get_by_test_id("lay-calculation").click()
    expect(page.get_by_test_id("feedback").first).to_contain_text(
        "Léa M. calculated with 3 cards: 3 × 3 = 9, 9 − 1 = 8."
    )
