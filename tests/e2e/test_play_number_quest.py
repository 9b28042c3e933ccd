"""Two pupils, two tablets, one Number Quest table, in real Chromium."""

import re
from dataclasses import replace

import pytest
from playwright.sync_api import expect

from classroom.models import Attempt
from games import live, services
from games.models import GameSession, Move
from games.pages import engine_of

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


# A first-additions game (3 dice, +, squares 6..15) whose roll for who starts
# picks Noah, with a roll no square fits on the way: 6 table turns to the winner.
WHOLE_GAME_SEED = 234


@pytest.fixture
def first_additions_table(classroom, teacher, pupils):
    lea, noah = pupils[0], pupils[1]
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition-3"},
        pupils=[lea, noah], table_size=2, seating={lea.pk: 1, noah.pk: 1}, seed=1,
    )
    table = session.tables.get()
    table.seats.filter(pupil=lea).update(player=9)
    table.seats.filter(pupil=noah).update(player=1)
    table.seats.filter(pupil=lea).update(player=0)
    state = engine_of("numberquest").new(session.options, 2, WHOLE_GAME_SEED)
    table.seed, table.state = WHOLE_GAME_SEED, state.to_json()
    table.save(update_fields=["seed", "state"])
    live.bump(table.pk)
    return table


def test_two_pupils_play_a_whole_first_additions_game_from_the_first_roll_to_the_winner(
    live_server, browser, browser_context_args, classroom, pupils, first_additions_table
):
    table = first_additions_table
    engine = engine_of("numberquest")
    tablets = {
        player: tablet(browser, browser_context_args, live_server, classroom, pupil)
        for player, pupil in enumerate(pupils[:2])
    }
    for page in tablets.values():
        page.get_by_role("link", name="Play at table 1").click()
        page.on("dialog", lambda dialog: dialog.accept())  # "Sure? You lose your turn..."
        # The roll for who starts is on both tablets: Noah rolled higher.
        expect(page.locator(".log")).to_contain_text(re.compile(r"Who starts\?.*Noah B\. starts"))
    # The test follows the game on its own copy of the engine (reading the
    # table while the server writes it would lock the test database).
    state = engine.from_json(table.state)
    turns = 0
    while state.phase != "over":
        turns += 1
        player = state.current
        page, other = tablets[player], tablets[1 - player]
        # The other tablet learns whose turn it is by polling.
        expect(page.get_by_test_id("status")).to_contain_text("Your turn!", timeout=5000)
        expect(other.get_by_test_id("status")).to_contain_text("is playing", timeout=5000)
        version = page.locator("#table").get_attribute("data-version")
        total = sum(state.dice)
        if state.variant.on_board(total) and state.owner(total) is None:
            for _ in range(len(state.dice) - 1):
                add_first_two(page)
            expect(page.locator(".prompt")).to_contain_text(f"Tap the square {total}")
            # A double tap on the square: one token, one move.
            page.locator(f"[data-square='{total}']").dblclick()
            state = engine.apply(state, player, {"type": "calculation", "text": "+".join(
                str(die) for die in state.dice)}).state
            state = engine.apply(state, player, {"type": "place", "square": total}).state
        else:
            page.get_by_role("button", name="I can't make a number").click()
            state = engine.apply(state, player, {"type": "cant"}).state
        expect(page.locator("#table")).not_to_have_attribute("data-version", version)
    assert turns == 6 and state.ended == "chain"
    for page in tablets.values():
        expect(page.get_by_test_id("status")).to_contain_text("The game is over!", timeout=5000)
        expect(page.locator(".player.winner")).to_have_count(1)
        expect(page.locator(".board .sq.chain").first).to_be_visible()
    assert Move.objects.filter(table=table, move__type="place").count() == 5
    for pupil in pupils[:2]:
        assert Attempt.objects.filter(pupil=pupil, skill="add", correct=True).count() >= 2


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
    current = engine_of("numberquest").from_json(table.state).current
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
    # As large as the screen allows, and all of it on the screen, the page's bar still shown.
    box = board.bounding_box()
    assert box["height"] > 560 and box["y"] + box["height"] <= 800, box
    back = page.get_by_role("link", name="Back to all tables").bounding_box()
    assert back["y"] + back["height"] <= 800, back
    assert page.evaluate("document.documentElement.scrollHeight") <= 800
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


@pytest.fixture
def alone_with_the_computer(classroom, teacher, pupils):
    """Léa (player 0) against the computer, her turn, the dice 1 2 3 4 (squares 9..19)."""
    lea = pupils[0]
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition"},
        pupils=[lea], table_size=2, bot_level="beginner", seed=3,
    )
    table = session.tables.get()
    table.seats.filter(pupil=lea).update(player=9)
    table.seats.filter(pupil__isnull=True).update(player=1)
    table.seats.filter(pupil=lea).update(player=0)
    state = engine_of("numberquest").from_json(table.state)
    dice = (1, 2, 3, 4)
    state = replace(
        state, current=0, dice=dice, steps=(), phase="calculate", retry=None,
        available=tuple((d, f"die:{i}") for i, d in enumerate(dice)),
    )
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    return table


def type_step(page, left: str, op: str, right: str, result: str) -> None:
    groups = page.locator("form.calc fieldset.tiles")
    groups.nth(0).locator("label.tile", has_text=re.compile(f"^{left}$")).first.click()
    page.locator("fieldset.ops label.tile", has_text=op).click()
    groups.nth(2).locator("label.tile", has_text=re.compile(f"^{right}$")).last.click()
    for digit in result:
        page.locator(f"form.calc .numpad [data-key='{digit}']").click()
    page.get_by_role("button", name="Check").click()


def tap_the_square_made(page, square: str) -> None:
    """The number made on the tablet: its square offered there, tapped, the turn over."""
    expect(page.locator(".prompt")).to_contain_text(f"You made {square}!", timeout=5000)
    page.get_by_role("button", name=f"Square {square}").click()
    expect(page.get_by_test_id("status")).not_to_contain_text("Your turn!", timeout=5000)


def test_alone_with_the_computer_the_steps_wait_on_the_tablet_until_the_number_is_made(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer
):
    table = alone_with_the_computer
    lea = tablet(browser, browser_context_args, live_server, classroom, pupils[0])
    lea.get_by_role("link", name="Play at table 1").click()
    expect(lea.get_by_test_id("status")).to_contain_text("Your turn!")
    moves = []
    lea.on("request", lambda r: moves.append(r.url) if "/move/" in r.url else None)
    version = lea.locator("#table").get_attribute("data-version")

    type_step(lea, "1", "+", "2", "3")
    expect(lea.locator("ul.steps li")).to_have_count(1)
    expect(lea.locator(".feedback").first).to_contain_text("Right: 1 + 2 = 3.")
    # The step took the 1 and the 2 and gave a 3: three numbers to pick from.
    expect(lea.locator("form.calc fieldset.tiles").nth(0).locator("label.tile")).to_have_count(3)
    lea.get_by_role("button", name="Undo").click()
    expect(lea.locator("ul.steps li")).to_have_count(0)
    expect(lea.locator(".dice svg.die.used")).to_have_count(0)
    expect(lea.locator(".dice")).to_have_attribute("aria-label", "Dice: 1, 2, 3, 4")
    expect(lea.locator("form.calc fieldset.tiles").nth(0).locator("label.tile")).to_have_count(4)
    type_step(lea, "1", "+", "2", "3")
    type_step(lea, "3", "+", "3", "6")
    lea.reload()  # a reload keeps the steps typed so far
    expect(lea.locator("ul.steps li")).to_have_count(2)
    expect(lea.locator(".dice svg.die.used")).to_have_count(3)  # 1, 2 and 3 went into steps
    expect(lea.locator(".dice")).to_have_attribute(
        "aria-label", "Dice: 1 (used), 2 (used), 3 (used), 4"
    )
    assert moves == [] and lea.locator("#table").get_attribute("data-version") == version
    assert not Move.objects.filter(table=table).exists()

    # The last step makes 10, whose square is free: its tap waits here too.
    type_step(lea, "6", "+", "4", "10")
    expect(lea.locator(".prompt")).to_contain_text("You made 10! Tap the square 10 on the board.")
    expect(lea.locator("form.calc fieldset.tiles").first).to_be_hidden()
    assert moves == [] and not Move.objects.filter(table=table).exists()
    # Undo goes back to the calculation; the same step again offers the square.
    lea.get_by_role("button", name="Undo").click()
    expect(lea.locator("form.calc fieldset.tiles").first).to_be_visible()
    expect(lea.locator("svg.board g.sq.tap")).to_have_count(0)
    type_step(lea, "6", "+", "4", "10")
    lea.get_by_role("button", name="Square 10").click()
    expect(lea.get_by_test_id("status")).not_to_contain_text("Your turn!")
    assert len(moves) == 1
    typed = Attempt.objects.filter(pupil=pupils[0], skill="add").order_by("pk")
    assert [(a.operands, a.given, a.correct) for a in typed] == [
        ([1, 2], "3", True), ([3, 3], "6", True), ([6, 4], "10", True)
    ]
    placed = Move.objects.get(table=table, pupil=pupils[0])
    assert placed.move["type"] == "steps" and placed.move["square"] == 10


def test_alone_with_the_computer_a_wrong_step_goes_to_the_server_at_once(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer
):
    lea = tablet(browser, browser_context_args, live_server, classroom, pupils[0])
    lea.get_by_role("link", name="Play at table 1").click()
    type_step(lea, "1", "+", "2", "3")
    type_step(lea, "3", "+", "3", "7")
    expect(lea.locator(".feedback.wrong")).to_contain_text("3 + 3")
    typed = Attempt.objects.filter(pupil=pupils[0], skill="add").order_by("pk")
    assert [(a.given, a.correct) for a in typed] == [("3", True), ("7", False)]


def test_alone_with_the_computer_giving_up_sends_the_steps_kept_on_the_tablet(
    live_server, browser, browser_context_args, classroom, pupils, alone_with_the_computer
):
    table = alone_with_the_computer
    lea = tablet(browser, browser_context_args, live_server, classroom, pupils[0])
    lea.get_by_role("link", name="Play at table 1").click()
    moves = []
    lea.on("request", lambda r: moves.append(r.post_data) if "/move/" in r.url else None)
    type_step(lea, "1", "+", "2", "3")
    expect(lea.locator("ul.steps li")).to_have_count(1)
    # The first time the pupil thinks again (the question is cancelled): nothing sent.
    lea.once("dialog", lambda dialog: dialog.dismiss())
    lea.get_by_role("button", name="I can't make a number").click()
    lea.once("dialog", lambda dialog: dialog.accept())
    lea.get_by_role("button", name="I can't make a number").click()
    expect(lea.get_by_test_id("status")).not_to_contain_text("Your turn!")
    assert len(moves) == 1 and "type=cant" in moves[0] and moves[0].count("op=") == 1
    typed = Attempt.objects.filter(pupil=pupils[0], skill="add")
    assert [(a.operands, a.given, a.correct) for a in typed] == [([1, 2], "3", True)]
    assert Move.objects.filter(table=table).count() >= 1
