"""The last step kept on the tablet while the page offers its square, in real
Chromium: a late pupil, a timed turn, "I can't make a number"."""

import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from classroom.models import Attempt
from games import live, services
from games.models import Table
from games.pages import engine_of

from .test_play_number_quest import alone_with_the_computer, tablet, type_step  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def made_ten(browser, browser_context_args, live_server, classroom, pupil):
    """Léa's whole calculation 1+2, 3+3, 6+4 typed right: 10 is free, the
    page offers its square."""
    lea = tablet(browser, browser_context_args, live_server, classroom, pupil)
    errors = []
    lea.on("pageerror", lambda error: errors.append(str(error)))
    lea.get_by_role("link", name="Play at table 1").click()
    expect(lea.get_by_test_id("status")).to_contain_text("Your turn!")
    made = lea.locator("form.calc fieldset.tiles").nth(0).locator("label.tile")
    type_step(lea, "1", "+", "2", "3")
    # In a timed turn each step goes to the server: the pupil taps the next one
    # on the board the answer brought (taps on the board it replaces are lost).
    expect(made.filter(has_text=re.compile("^3$"))).to_have_count(2)
    type_step(lea, "3", "+", "3", "6")
    expect(made.filter(has_text=re.compile("^6$"))).to_have_count(1)
    type_step(lea, "6", "+", "4", "10")
    expect(lea.locator(".prompt")).to_contain_text("You made 10!", timeout=5000)
    return lea, errors


def timed(table, seconds=60):
    state = engine_of("numberquest").from_json(table.state)
    table.state = replace(state, deadline=seconds).to_json()
    table.turn_started_at = timezone.now()
    table.save(update_fields=["state", "turn_started_at"])
    live.bump(table.pk)


def test_a_late_pupil_sitting_down_while_the_square_is_offered_breaks_nothing(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    table = alone_with_the_computer
    lea, errors = made_ten(browser, browser_context_args, live_server, classroom, pupils[0])
    services.seat_late_pupils(table.session, [pupils[1]])
    expect(lea.locator("form.calc:not([data-steps-on-tablet])")).to_have_count(1, timeout=8000)
    lea.wait_for_timeout(500)
    shown = {
        "prompt": lea.locator(".prompt").count(),
        "square 10 button": lea.get_by_role("button", name="Square 10").count(),
        "errors": errors,
    }
    assert shown == {"prompt": 1, "square 10 button": 1, "errors": []}


def test_in_a_timed_turn_the_steps_go_at_once_and_the_clock_loses_none(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    """Nothing waits on the tablet when a clock can end the turn: each step
    typed right before it is the pupil's work, recorded."""
    table = alone_with_the_computer
    timed(table)
    lea, _errors = made_ten(browser, browser_context_args, live_server, classroom, pupils[0])
    assert lea.locator("form.calc[data-steps-on-tablet]").count() == 0
    lea.wait_for_timeout(300)  # the pupil looks for the square 10 on the board...
    Table.objects.filter(pk=table.pk).update(turn_started_at=timezone.now() - timedelta(minutes=5))
    shown = lea.locator("#table").get_attribute("data-version")
    services.advance(table.pk)  # ...and the turn's time runs out
    # The tablet hears of it (pushed at once with Redis; without it, the next
    # poll also makes the computer's turn, so the page may come back to Léa).
    expect(lea.locator("#table")).not_to_have_attribute("data-version", shown, timeout=8000)
    assert any(m.move.get("type") == "timeout" for m in Table.objects.get(pk=table.pk).moves.all())
    typed = Attempt.objects.filter(pupil=pupils[0], skill="add").order_by("pk")
    assert [(a.operands, a.given) for a in typed] == [([1, 2], "3"), ([3, 3], "6"), ([6, 4], "10")]


def test_i_cant_make_a_number_is_not_offered_once_the_number_is_made(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    """As the server's own place phase: the number made, only its square (or
    Undo) is left; "I can't make a number" comes back with Undo."""
    lea, _errors = made_ten(browser, browser_context_args, live_server, classroom, pupils[0])
    cant = lea.get_by_role("button", name="I can't make a number")
    expect(cant).to_be_hidden()
    lea.get_by_role("button", name="Undo").click()
    expect(cant).to_be_visible()
