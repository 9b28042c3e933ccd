"""Two pupils, two tablets, one Number Quest table, in real Chromium."""

import re

import pytest
from playwright.sync_api import expect

from classroom.models import Attempt
from engine.registry import get_game
from games import live, services
from games.models import GameSession, Move

from .helpers import add_first_two, nearly_finished, sign_in_pupil

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def addition_table(classroom, teacher, pupils):
    """Léa (player 0) and Noah (player 1) at an addition table whose chain
    lacks one square; a seed whose rolls fit is searched for."""
    lea, noah = pupils[0], pupils[1]
    for seed in range(200):
        session = services.start_session(
            # The board 4..24 (the addition preset before RULES 0.2): room for a long chain.
            classroom, teacher, game="numberquest",
            options={"preset": "addition", "lo": 4, "hi": 24},
            pupils=[lea, noah], table_size=2, seating={lea.pk: 1, noah.pk: 1}, seed=seed,
        )
        table = session.tables.get()
        table.seats.filter(pupil=lea).update(player=9)
        table.seats.filter(pupil=noah).update(player=1)
        table.seats.filter(pupil=lea).update(player=0)
        try:
            first, second = nearly_finished(table)
        except ValueError:
            session.delete()
            continue
        live.bump(table.pk)
        return table, first, second
    raise AssertionError("no seed fits")


def tablet(browser, browser_context_args, live_server, classroom, pupil):
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    sign_in_pupil(page, live_server.url, classroom.code, pupil)
    return page


def test_two_pupils_play_an_addition_game_to_the_end(
    live_server, browser, browser_context_args, classroom, pupils, teacher, addition_table
):
    table, first, second = addition_table
    lea = tablet(browser, browser_context_args, live_server, classroom, pupils[0])
    noah = tablet(browser, browser_context_args, live_server, classroom, pupils[1])
    lea.get_by_role("link", name="Play at table 1").click()
    noah.get_by_role("link", name="Play at table 1").click()
    expect(lea.get_by_test_id("status")).to_contain_text("Your turn!")
    expect(noah.get_by_test_id("status")).to_contain_text("Léa M. is playing.")

    # The teacher watches the live view on a third screen.
    teacher_context = browser.new_context(**browser_context_args)
    teacher_page = teacher_context.new_page()
    teacher_context.add_cookies([])
    teacher_page.goto(live_server.url + "/accounts/login/")
    teacher_page.get_by_label("Email address").fill(teacher.email)
    teacher_page.get_by_label("Password").fill("correct-horse-42")
    teacher_page.get_by_role("button", name="Sign in").click()
    teacher_page.goto(live_server.url + f"/sessions/{table.session_id}/")

    for _ in range(3):
        add_first_two(lea)
        expect(lea.locator(".feedback").first).to_contain_text("Right:")
    expect(lea.locator(".prompt")).to_contain_text(f"Tap the square {first}")
    # A double tap on the square: one token, one move.
    lea.locator(f"[data-square='{first}']").dblclick()
    expect(lea.get_by_test_id("status")).to_contain_text("Noah B. is playing.")
    assert Move.objects.filter(table=table, move__type="place").count() == 1

    # Noah's tablet sees Léa's move within 2 s of polling, and so does the teacher.
    expect(noah.get_by_test_id("status")).to_contain_text("Your turn!", timeout=5000)
    expect(noah.get_by_test_id("money-0")).not_to_have_text("0")
    expect(teacher_page.get_by_test_id("live-table-1")).to_contain_text(
        f"Léa M. made {first}", timeout=5000
    )

    for _ in range(3):
        add_first_two(noah)
    noah.locator(f"[data-square='{second}']").click()
    expect(noah.get_by_test_id("status")).to_contain_text("The game is over!")
    expect(noah.locator(".player.winner")).to_have_count(1)
    expect(noah.locator(".board .sq.chain").first).to_be_visible()
    expect(lea.get_by_test_id("status")).to_contain_text("The game is over!", timeout=5000)
    assert Attempt.objects.filter(pupil=pupils[0], skill="add", correct=True).count() >= 3
    assert Attempt.objects.filter(pupil=pupils[1], skill="add", correct=True).count() >= 3


def test_a_stale_tab_is_refreshed_not_broken(
    live_server, browser, browser_context_args, classroom, pupils, addition_table
):
    table, first, second = addition_table
    lea = tablet(browser, browser_context_args, live_server, classroom, pupils[0])
    lea.get_by_role("link", name="Play at table 1").click()
    old_tab = lea.context.new_page()
    old_tab.route(re.compile(r".*/poll/.*"), lambda route: route.abort())  # it sleeps
    old_tab.goto(lea.url)
    add_first_two(lea)
    expect(lea.locator(".feedback").first).to_contain_text("Right:")
    add_first_two(old_tab)
    expect(old_tab.locator(".note")).to_contain_text("The game moved on")
    expect(old_tab.locator("ul.steps li")).to_have_count(1)  # it now shows the step made elsewhere
    assert Move.objects.filter(table=table).count() == 1


def test_a_paused_game_says_so(
    live_server, browser, browser_context_args, classroom, pupils, addition_table
):
    table, first, second = addition_table
    lea = tablet(browser, browser_context_args, live_server, classroom, pupils[0])
    lea.get_by_role("link", name="Play at table 1").click()
    services.set_status(table.session, GameSession.Status.PAUSED)
    expect(lea.get_by_test_id("status")).to_contain_text("Paused", timeout=5000)


def test_three_tablets_each_mark_their_own_pupil_while_two_watch(
    live_server, browser, browser_context_args, classroom, pupils, teacher
):
    """Two watchers share one render of the table (games.watching): each still
    sees the move and "(you)" on their own line only."""
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition"},
        pupils=pupils, table_size=3, seating={p.pk: 1 for p in pupils}, seed=5,
    )
    table = session.tables.get()
    seats = {s.pupil_id: s.player for s in table.seats.all()}
    current = get_game("numberquest").from_json(table.state).current
    pages = {}
    for pupil in pupils:
        pages[pupil.pk] = tablet(browser, browser_context_args, live_server, classroom, pupil)
        pages[pupil.pk].get_by_role("link", name="Play at table 1").click()
    playing = next(p for p in pupils if seats[p.pk] == current)
    add_first_two(pages[playing.pk])
    for pupil in pupils:
        page = pages[pupil.pk]
        expect(page.locator("ul.steps li")).to_have_count(1, timeout=5000)
        own = page.locator(".players .player").nth(seats[pupil.pk])
        expect(own).to_contain_text("(you)")
        expect(page.locator(".players")).to_contain_text("(you)")
        assert page.locator(".players").inner_text().count("(you)") == 1


def test_the_projector_shows_the_board_large_and_goes_full_screen(
    live_server, browser, browser_context_args, teacher, addition_table
):
    table, first, second = addition_table
    projector = {"width": 1280, "height": 800}
    context = browser.new_context(**{**browser_context_args, "viewport": projector})
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Email address").fill(teacher.email)
    page.get_by_label("Password").fill("correct-horse-42")
    page.get_by_role("button", name="Sign in").click()
    page.goto(live_server.url + f"/tables/{table.pk}/projector/")
    board = page.locator(".projector .board")
    expect(board).to_be_visible()
    assert board.bounding_box()["height"] > 600  # the whole height of the screen, nearly
    page.get_by_role("button", name="Full screen").click()
    page.wait_for_function("document.fullscreenElement !== null")
    expect(page.locator(".topbar")).to_be_hidden()


def test_a_reload_or_a_second_sign_in_resumes_where_the_game_is(
    live_server, browser, browser_context_args, classroom, pupils, addition_table
):
    table, first, second = addition_table
    lea = tablet(browser, browser_context_args, live_server, classroom, pupils[0])
    lea.get_by_role("link", name="Play at table 1").click()
    add_first_two(lea)
    lea.reload()
    expect(lea.locator("ul.steps li")).to_have_count(1)
    expect(lea.get_by_test_id("status")).to_contain_text("Your turn!")
    other = tablet(browser, browser_context_args, live_server, classroom, pupils[0])
    other.get_by_role("link", name="Play at table 1").click()
    expect(other.locator("ul.steps li")).to_have_count(1)
    add_first_two(other)  # the second tablet carries on the same calculation
    expect(lea.locator("ul.steps li")).to_have_count(2, timeout=5000)
