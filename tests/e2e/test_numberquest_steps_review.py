"""static/js/numberquest.js (steps kept on the tablet) through its corners, in
real Chromium, from a review's probes: the local Undo hidden until a step is
kept, a step thought over for eleven minutes, a network error, a refusal, a
pupil taking the computer's seat mid-calculation."""

from dataclasses import replace

import pytest
from playwright.sync_api import expect

from classroom.models import Attempt
from games import live, services
from games.models import Move
from games.pages import engine_of

from .test_play_number_quest import (  # noqa: F401
    alone_with_the_computer,
    tablet,
    tap_the_square_made,
    type_step,
)

pytestmark = pytest.mark.django_db(transaction=True)

# performance.now() the test can move on: a pupil who thinks for minutes.
SHIFTABLE_CLOCK = """
(() => {
  const real = performance.now.bind(performance);
  let shift = 0;
  performance.now = () => real() + shift;
  window.__think = (ms) => { shift += ms; };
})();
"""


def at_the_table(browser, browser_context_args, live_server, classroom, pupil):
    page = tablet(browser, browser_context_args, live_server, classroom, pupil)
    page.context.add_init_script(SHIFTABLE_CLOCK)
    page.get_by_role("link", name="Play at table 1").click()
    expect(page.get_by_test_id("status")).to_contain_text("Your turn!")
    return page


def test_the_local_undo_is_hidden_while_no_step_is_kept(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    lea = at_the_table(browser, browser_context_args, live_server, classroom, pupils[0])
    expect(lea.locator("[data-undo-local]")).to_be_hidden()


def test_a_pupil_who_thinks_eleven_minutes_over_a_step_can_finish(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    lea = at_the_table(browser, browser_context_args, live_server, classroom, pupils[0])
    lea.evaluate("window.__think(11 * 60 * 1000)")
    type_step(lea, "1", "+", "2", "3")
    expect(lea.locator("ul.steps li")).to_have_count(1)
    type_step(lea, "3", "+", "3", "6")
    type_step(lea, "6", "+", "4", "10")
    tap_the_square_made(lea, "10")
    assert Move.objects.get(pupil=pupils[0]).move["square"] == 10


def test_a_network_error_then_the_same_tap_again_sends_a_good_calculation(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    lea = at_the_table(browser, browser_context_args, live_server, classroom, pupils[0])
    type_step(lea, "1", "+", "2", "3")
    type_step(lea, "3", "+", "3", "6")
    failed = []

    def once(route):
        if not failed:
            failed.append(route.request.post_data)
            route.abort()
        else:
            route.continue_()

    lea.route("**/move/", once)
    type_step(lea, "6", "+", "4", "10")
    lea.get_by_role("button", name="Square 10").click()
    lea.wait_for_timeout(500)
    assert failed and not Move.objects.exists()
    lea.get_by_role("button", name="Square 10").click()
    expect(lea.get_by_test_id("status")).not_to_contain_text("Your turn!")
    typed = Attempt.objects.filter(pupil=pupils[0], skill="add").order_by("pk")
    assert [(a.operands, a.given) for a in typed] == [([1, 2], "3"), ([3, 3], "6"), ([6, 4], "10")]
    assert Move.objects.get(pupil=pupils[0]).move["square"] == 10


def test_a_refused_last_step_brings_the_kept_steps_back(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    lea = at_the_table(browser, browser_context_args, live_server, classroom, pupils[0])
    type_step(lea, "1", "+", "2", "3")
    type_step(lea, "3", "+", "3", "6")
    type_step(lea, "6", "+", "6", "12")  # the same tile twice: the server refuses
    expect(lea.locator(".note.error")).to_contain_text("two different", timeout=5000)
    assert not Move.objects.exists()
    expect(lea.locator("ul.steps li")).to_have_count(2)
    type_step(lea, "6", "+", "4", "10")
    tap_the_square_made(lea, "10")
    assert Move.objects.filter(pupil=pupils[0]).count() == 1


def test_a_late_pupil_taking_the_computers_seat_keeps_the_steps_shown(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    table = alone_with_the_computer
    lea = at_the_table(browser, browser_context_args, live_server, classroom, pupils[0])
    type_step(lea, "1", "+", "2", "3")
    expect(lea.locator("ul.steps li")).to_have_count(1)
    services.seat_late_pupils(table.session, [pupils[1]])
    expect(lea.locator("form.calc:not([data-steps-on-tablet])")).to_have_count(1, timeout=8000)
    expect(lea.locator("ul.steps li")).to_have_count(1)
    # The kept step goes with the rest when the calculation is done, and its
    # square is tapped here as before.
    type_step(lea, "3", "+", "3", "6")
    type_step(lea, "6", "+", "4", "10")
    tap_the_square_made(lea, "10")
    assert Attempt.objects.filter(pupil=pupils[0], skill="add").count() == 3


def test_after_a_second_try_one_undo_shows_at_a_time(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    """The server holds the right steps before a wrong one; the steps kept on
    the tablet after it are undone first, by the tablet's own Undo."""
    table = alone_with_the_computer
    session = table.session
    session.options = {**session.options, "second_chance": True}
    session.save(update_fields=["options"])
    state = engine_of("numberquest").from_json(table.state)
    second = replace(state, options=replace(state.options, second_chance=True), chances=1)
    table.state = second.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    lea = at_the_table(browser, browser_context_args, live_server, classroom, pupils[0])
    type_step(lea, "1", "+", "2", "3")
    type_step(lea, "3", "+", "3", "7")  # wrong: sent, the first step kept by the server
    expect(lea.locator(".feedback.wrong")).to_be_visible(timeout=5000)
    undo = lea.get_by_role("button", name="Undo", exact=True)
    expect(undo).to_have_count(1)  # the server's
    type_step(lea, "3", "+", "3", "6")  # kept on the tablet
    expect(lea.locator("ul.steps li")).to_have_count(2)
    expect(undo.locator("visible=true")).to_have_count(1)
    expect(lea.get_by_role("button", name="Start again")).to_be_hidden()
    undo.locator("visible=true").click()  # the tablet's: the kept step goes
    expect(lea.locator("ul.steps li")).to_have_count(1)
    expect(lea.get_by_role("button", name="Start again")).to_be_visible()
    assert Move.objects.filter(table=table).count() == 1


def test_steps_kept_when_the_teacher_ends_the_game_are_recorded(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    table = alone_with_the_computer
    lea = at_the_table(browser, browser_context_args, live_server, classroom, pupils[0])
    type_step(lea, "1", "+", "2", "3")
    type_step(lea, "3", "+", "3", "6")
    expect(lea.locator("ul.steps li")).to_have_count(2)
    assert not Attempt.objects.exists()  # kept on the tablet, nothing sent yet
    services.set_status(table.session, table.session.Status.ENDED)
    expect(lea.get_by_test_id("status")).to_contain_text("The game is over!", timeout=8000)
    # The note on the page (the live region says it too).
    said = lea.get_by_test_id("note").filter(
        has_text="Your last steps count: your teacher will see them."
    )
    expect(said).to_be_visible()
    typed = Attempt.objects.filter(pupil=pupils[0], skill="add").order_by("pk")
    for _wait in range(50):
        if typed.count() == 2:
            break
        lea.wait_for_timeout(100)
    assert [(a.operands, a.given, a.correct) for a in typed] == [
        ([1, 2], "3", True), ([3, 3], "6", True)
    ]
    # Sent once: the tablet forgets them.
    lea.wait_for_function("sessionStorage.getItem('numbo.numberquest.steps') === null")
    # The next poll (2 s) finds the page it shows: the line stays for the pupil to read.
    lea.wait_for_timeout(2500)
    expect(said).to_be_visible()
    # Steps of an older board left in storage are sent and refused: nothing more.
    lea.evaluate(
        """sessionStorage.setItem('numbo.numberquest.steps', JSON.stringify({
          at: document.getElementById('table').dataset.ended + '@0', id: 'old',
          steps: [{left: '1|die:0', op: '+', right: '4|die:3', result: 5, ms: 900}]}))"""
    )
    lea.reload()
    expect(lea.get_by_test_id("status")).to_contain_text("The game is over!")
    lea.wait_for_function("sessionStorage.getItem('numbo.numberquest.steps') === null")
    assert typed.count() == 2
    assert engine_of("numberquest").from_json(
        type(table).objects.get(pk=table.pk).state
    ).phase == "over"
