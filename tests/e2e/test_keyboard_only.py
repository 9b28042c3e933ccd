"""The keyboard alone, as a pupil with a switch or a teacher without a mouse
uses it: Tab, Shift+Tab, Enter, Space, the arrows and typing, never a click.
After each action the focus is where a user expects it, and the main control
of each page is a few Tabs away (the bounds below)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from playwright.sync_api import Page, expect

from classroom.models import Attempt, Pupil
from engine.ultimes import bot_moves
from games import live, services
from games.models import GameSession, Move
from games.pages import engine_of

from ..games.test_nambarz_pages import deal, drw, sym
from .keyboard import focused, follow, press, tab_to, tab_until
from .test_play_number_quest import alone_with_the_computer  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

# The top bar a pupil's page opens with: the skip link, Numbo, "Not me?", EN, FR.
TOP_BAR = 5


def sign_in_by_keys(page: Page, base_url: str, code: str, pupil: Pupil) -> None:
    """The class code typed, the name and the three pictures tapped with the keys."""
    page.goto(base_url + "/join/")
    assert tab_to(page, "Class code", most=6) <= 5
    page.keyboard.type(code)
    assert follow(page) is None
    expect(page.get_by_role("heading", name="Tap your name")).to_be_visible()
    names = Pupil.objects.filter(classroom__code=code).count()
    assert tab_to(page, pupil.short_name, most=4 + names) <= 4 + names
    follow(page)
    for count, picture in enumerate(pupil.password_pictures):
        expect(page.locator(".dots")).to_have_attribute(
            "aria-label", f"{count} of 3 pictures tapped"
        )
        # The skip link, then the pad: the top bar's four stops are passed by.
        # Once taken, the pages that follow start at the pad (their address
        # keeps its #main).
        now = press(page, "Tab")
        if now["name"] == "Skip to content":
            press(page, "Enter")
            now = press(page, "Tab")
        assert now["tag"] == "button", now  # the first picture
        if now["name"] != picture:
            assert tab_to(page, picture, most=11) <= 11
        follow(page)
    expect(page.get_by_role("heading", name=f"Hello {pupil.first_name}!")).to_be_visible()


def to_the_table(page: Page, game: str) -> dict:
    """From the pupil's home to the game's table, then "Go to the board": the
    focus on the table's main control, two presses from the top of the page."""
    assert tab_to(page, re.compile(f"^{re.escape(game)}.*Play at table 1"), most=TOP_BAR + 2) <= 6
    assert follow(page) is None
    expect(page.locator("#table")).to_be_visible()
    assert press(page, "Tab")["name"] == "Go to the board"
    now = press(page, "Enter")
    assert now is not None and now["table"], now
    return now


def version_of(page: Page) -> str:
    return page.locator("#table").get_attribute("data-version")


def moved(page: Page, version: str) -> None:
    expect(page.locator("#table")).not_to_have_attribute("data-version", version, timeout=8000)
    page.wait_for_timeout(300)  # the focus is set once the new table has settled


# ------------------------------------------------------------------ the teacher


def test_a_teacher_sets_up_a_class_starts_a_game_and_opens_its_report(
    live_server, page, teacher
):
    page.goto(live_server.url + "/accounts/login/")
    assert focused(page)["name"] == "Email address"  # the form's first field waits
    page.keyboard.type(teacher.email)
    assert press(page, "Tab")["name"] == "Password"
    page.keyboard.type("correct-horse-42")
    follow(page)
    expect(page.get_by_role("heading", name="My classes")).to_be_visible()

    assert tab_to(page, "New class", most=8) <= 7
    follow(page)
    expect(page.get_by_role("heading", name="New class")).to_be_visible()
    if (focused(page) or {}).get("name") != "Name":
        assert tab_to(page, "Name", most=8) <= 7
    page.keyboard.type("CE1 Keys")
    # Past the school year, the year group and the two choices.
    assert tab_to(page, "Save", most=5) <= 5
    follow(page)

    expect(page.get_by_label("Pupils, one a line")).to_be_visible()
    if (focused(page) or {}).get("name") != "Pupils, one a line":
        assert tab_to(page, "Pupils, one a line", most=8) <= 7
    page.keyboard.type("Léa Martin\nNoah B.\nInès")
    assert press(page, "Tab")["name"] == "Check the list"
    follow(page)
    expect(page.get_by_test_id("preview")).to_contain_text("Léa M.")
    assert tab_to(page, "Add 3 pupils", most=12) <= 11
    follow(page)
    expect(page.get_by_text("3 pupils added.")).to_be_visible()

    assert tab_to(page, "Start a game", most=12) <= 11
    follow(page)
    expect(page.get_by_role("heading", name=re.compile("Start a game"))).to_be_visible()
    assert tab_to(page, re.compile("^Number Quest"), most=8) <= 7
    # The games are one radio group: an arrow picks the next one.
    now = press(page, "ArrowDown")
    assert now["name"].startswith("The track of ultimate numbers"), now
    expect(page.locator("input[name=game][value=ultimes]")).to_be_checked()
    assert tab_to(page, "Start the game", most=25) <= 20
    follow(page)
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    session = GameSession.objects.get(classroom__name="CE1 Keys")
    assert session.game == "ultimes"

    # The live view redraws a table that changed without taking the focus.
    assert tab_to(page, "Report", most=14) <= 12
    table = session.tables.first()
    state = engine_of("ultimes").from_json(table.state)
    mover = table.seats.get(player=state.turn).pupil
    services.play(table.pk, mover, bot_moves(state, state.turn)[0], table.version, "k1")
    expect(page.locator("main")).to_contain_text(mover.short_name)
    page.wait_for_timeout(4500)  # two refreshes of the live view
    assert focused(page)["name"] == "Report"
    follow(page)
    report = page.get_by_role("heading", name=re.compile("^The track of ultimate numbers"))
    expect(report).to_be_visible()


# ------------------------------------------------------------------ the pupils


def test_number_quest_a_whole_turn_with_the_keys(
    live_server, page, classroom, pupils, alone_with_the_computer  # noqa: F811
):
    """Dice 1 2 3 4: 1 + 2, 3 + 3, 4 + 6, then the square 10. Each tile of a
    row is a Tab stop; Enter picks it and goes on to the next row."""
    sign_in_by_keys(page, live_server.url, classroom.code, pupils[0])
    now = to_the_table(page, "Number Quest")
    assert now["type"] == "radio" and now["name"] == "1", now  # the first number

    def step(left: str, right: str, result: str, right_tabs: int) -> dict:
        now = focused(page)
        if now["name"] != left:
            tab_to(page, left, most=4)
        now = press(page, "Enter")
        assert now["type"] == "radio" and now["name"] == "+", now  # on to the operations
        now = press(page, "Enter")
        assert now["type"] == "radio", now  # on to the other number
        for _ in range(right_tabs):
            now = press(page, "Tab")
        assert now["name"] == right, now
        now = press(page, "Enter")
        assert now["name"] == "Your result", now
        page.keyboard.type(result)
        return press(page, "Enter")

    now = step("1", "2", "3", right_tabs=1)
    # The step kept on the tablet: the focus is on the first number of the next one.
    assert now["type"] == "radio" and now["name"] == "3", now
    expect(page.locator(".steps")).to_contain_text("1 + 2 = 3")
    now = step("3", "3", "6", right_tabs=2)
    assert now["type"] == "radio" and now["name"] == "4", now
    now = step("4", "6", "10", right_tabs=1)
    # The number made: the focus is on its square, which Space taps. The
    # Enter that checked the step, let go on the square, did not tap it.
    assert now["name"] == "Square 10" and now["role"] == "button", now
    page.wait_for_timeout(300)
    expect(page.locator(".prompt")).to_contain_text("You made 10!")
    assert not Move.objects.filter(table=alone_with_the_computer, pupil=pupils[0]).exists()
    version = version_of(page)
    press(page, " ")
    moved(page, version)
    expect(page.get_by_test_id("status")).not_to_contain_text("Your turn!")
    assert Move.objects.filter(table=alone_with_the_computer, move__type="steps").count() == 1
    assert Attempt.objects.filter(pupil=pupils[0], skill="add").count() == 3
    now = focused(page)
    assert now is not None and now["table"], now  # on what the move brought


@pytest.fixture
def track_turn(classroom, teacher, pupils):
    """Léa against the computer, her pawn on 10, her turn to add the dice 4 and 4."""
    session = services.start_session(
        classroom, teacher, game="ultimes",
        options={"second_chance": False, "mark_ultimates": False},
        pupils=[pupils[0]], table_size=2, bot_level="beginner", seed=3,
    )
    table = session.tables.get()
    table.seats.filter(pupil=pupils[0]).update(player=9)
    table.seats.filter(pupil__isnull=True).update(player=1)
    table.seats.filter(pupil=pupils[0]).update(player=0)
    engine = engine_of("ultimes")
    state = replace(engine.from_json(table.state), turn=0, phase="sum", dice=(4, 4),
                    positions=(10, 0))
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    return table


def test_the_track_the_sum_typed_then_the_square_reached_by_its_number(
    live_server, page, classroom, pupils, track_turn
):
    sign_in_by_keys(page, live_server.url, classroom.code, pupils[0])
    now = to_the_table(page, "The track of ultimate numbers")
    assert now["name"] == "The sum of the dice", now
    version = version_of(page)
    page.keyboard.type("8")
    press(page, "Enter")
    moved(page, version)
    # Where the pawn stands: the track's one Tab stop, not its hundred squares.
    now = focused(page)
    assert now["square"] == "10" and now["role"] == "button", now
    expect(page.get_by_test_id("feedback")).to_contain_text("Right")
    expect(page.locator("#announcer")).to_contain_text("Right")
    assert page.locator("svg.track g.sq.tap[tabindex='0']").count() == 1
    # The arrows go as the track is drawn: 11 is left of 10, 28 above 11.
    assert press(page, "ArrowRight")["square"] == "10"  # the end of its row
    assert press(page, "ArrowLeft")["square"] == "11"
    assert press(page, "ArrowUp")["square"] == "28"
    assert press(page, "ArrowDown", "ArrowDown")["square"] == "8"
    page.keyboard.type("18")
    assert focused(page)["square"] == "18"
    version = version_of(page)
    press(page, "Enter")
    moved(page, version)
    expect(page.get_by_text("Where does square 18 send it?")).to_be_visible()
    now = focused(page)
    assert now["square"] == "18", now  # where the pawn is now
    version = version_of(page)
    press(page, " ")  # it stays on 18
    moved(page, version)
    expect(page.get_by_test_id("status")).not_to_contain_text("Your turn!")
    assert [m.move["type"] for m in Move.objects.filter(table=track_turn, pupil=pupils[0])
            .order_by("number")] == ["sum", "reach", "send"]
    now = focused(page)
    assert now is not None and now["table"], now


def test_nmbr9_the_tile_moved_with_the_arrows_and_placed_with_enter(
    live_server, page, classroom, teacher, pupils
):
    session = services.start_session(
        classroom, teacher, game="nmbr9", options={"second_chance": False},
        pupils=[pupils[0]], table_size=1, seed=11,
    )
    table = session.tables.get()
    sign_in_by_keys(page, live_server.url, classroom.code, pupils[0])
    now = to_the_table(page, "NMBR 9")
    assert now["name"].endswith("Turn"), now
    press(page, "Enter")  # a quarter turn
    assert focused(page)["name"].endswith("Turn")
    # The stack's name says it in words, then how the keys place the tile.
    assert tab_until(page, lambda now: "Enter places it" in now["name"], most=6) <= 5
    press(page, "ArrowDown")  # the tile comes onto the stack, in the middle
    expect(page.locator("svg.stack-board .preview.ok")).to_have_count(1)
    expect(page.get_by_role("button", name="Place it")).to_be_enabled()
    version = version_of(page)
    press(page, "Enter")
    moved(page, version)
    expect(page.get_by_test_id("status")).to_contain_text("Card 2 of 20")
    assert Move.objects.filter(table=table, move__type="place", move__rotation=1).count() == 1
    now = focused(page)
    assert "Enter places it" in now["name"], now  # ready for the next card


def test_nambarz_a_calculation_built_with_the_keys(live_server, page, classroom, teacher, pupils):
    """3 + 4 on the 7: two cards picked, the operation, the result typed, laid."""
    session = services.start_session(
        classroom, teacher, game="nambarz", options={}, pupils=[pupils[0]], table_size=2,
        bot_level="beginner", seed=5,
    )
    table = session.tables.first()
    table.seats.filter(pupil=pupils[0]).update(player=0)
    deal(table, [[sym(3), drw(9), sym(4), sym(10)], [sym(9), sym(4, 1)]], target=sym(7))
    sign_in_by_keys(page, live_server.url, classroom.code, pupils[0])
    now = to_the_table(page, "Nambarz")
    assert now["card"] == str(sym(3)), now  # the hand's first card
    press(page, "Enter")
    assert tab_until(page, lambda now: now["card"] == str(sym(4)), most=3) == 2
    now = press(page, "Enter")
    assert now["card"] == str(sym(4)), now
    assert tab_to(page, "+", most=4) <= 3  # past the last card, the operations
    now = press(page, "Enter")
    # Picked with the keys: on to the step's result, where the keys type it.
    assert now["tag"] == "input" and now["name"].startswith("Result of this step"), now
    page.keyboard.type("7")
    assert press(page, "Tab")["name"] == "Lay my calculation"
    version = version_of(page)
    press(page, "Enter")
    moved(page, version)
    expect(page.get_by_test_id("feedback").first).to_contain_text("3 + 4 = 7")
    assert Move.objects.filter(table=table, move__type="calculate").count() == 1
    now = focused(page)
    assert now is not None and now["table"], now


def test_numx_the_first_score_card_chosen_with_the_keys(
    live_server, page, classroom, teacher, pupils
):
    session = services.start_session(
        classroom, teacher, game="numx", options={}, pupils=[pupils[0]], table_size=2,
        bot_level="beginner", seed=3,
    )
    table = session.tables.get()
    sign_in_by_keys(page, live_server.url, classroom.code, pupils[0])
    now = to_the_table(page, "NUM-X")
    first = now["card"]
    assert first, now  # the hand's first card
    assert press(page, "Tab")["card"] != first
    now = press(page, "Shift+Tab")
    assert now["card"] == first
    version = version_of(page)
    press(page, "Enter")
    moved(page, version)
    assert Move.objects.filter(table=table, move__type="choose", move__card=first).count() == 1
    now = focused(page)
    assert now is not None and now["table"], now
