"""School wifi drops: a move tapped while the tablet is offline, or while the
server does not answer, is kept, said in a child's words and sent by itself
when the connection is back; nothing is lost and nothing counts twice."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Move

from .helpers import add_first_two, sign_in_pupil, sign_in_teacher
from .test_play_nambarz import deal, drw, sym
from .test_play_number_quest import first_additions_table  # noqa: F401
from .test_reports_on_tablet import reported  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def nambarz_turn(live_server, page, classroom, teacher, pupils):
    """Léa's Nambarz turn on her tablet: the 7 bee lays on the 2 bee in one tap."""
    lea = pupils[0]
    session = services.start_session(
        classroom, teacher, game="nambarz", options={}, pupils=[lea], table_size=2,
        bot_level="beginner", seed=5,
    )
    table = session.tables.first()
    table.seats.filter(pupil=lea).update(player=0)
    deal(table, [[drw(7, 1), sym(2), sym(5)], [sym(9), sym(4, 1)]], target=drw(2, 1))
    sign_in_pupil(page, live_server.url, classroom.code, lea)
    page.get_by_role("link", name="Play at table 1").click()
    # The page's scripts first: a key pressed before them posts the form
    # without htmx, and a whole new page comes back (focus on <body>).
    expect(page).to_have_url(re.compile(rf"/tables/{table.pk}/$"))
    page.wait_for_load_state("load")
    return table


def pupil_moves(table) -> int:
    return Move.objects.filter(table=table, pupil__isnull=False).count()


def test_a_card_laid_offline_goes_by_itself_when_the_wifi_is_back(page, nambarz_turn):
    table = nambarz_turn
    page.context.set_offline(True)
    page.locator(f'.ncard[data-card="{drw(7, 1)}"]').click()
    strip = page.locator("#connection")
    expect(strip).to_contain_text("No connection. Your move is kept")
    page.wait_for_timeout(2500)  # a retry fails while offline: still kept
    assert pupil_moves(table) == 0
    page.context.set_offline(False)
    expect(page.get_by_test_id("feedback").first).to_contain_text("the same animal", timeout=3000)
    expect(strip).to_contain_text("Your move has arrived.")
    expect(strip).to_be_hidden(timeout=5000)
    assert pupil_moves(table) == 1


def test_a_card_laid_while_the_server_restarts_goes_once_it_answers(page, nambarz_turn):
    table = nambarz_turn
    answers = []

    def restarting(route):
        answers.append(route.request.url)
        if len(answers) <= 2:  # the proxy's answer while the web processes restart
            route.fulfill(status=503, body="Service Unavailable")
        else:
            route.continue_()

    page.route("**/move/", restarting)
    page.locator(f'.ncard[data-card="{drw(7, 1)}"]').click()
    expect(page.locator("#connection")).to_contain_text("No connection")
    expect(page.get_by_test_id("feedback").first).to_contain_text("the same animal", timeout=8000)
    assert len(answers) == 3 and pupil_moves(table) == 1


def test_a_number_quest_step_sent_offline_arrives_once(
    live_server, browser, browser_context_args, classroom, pupils, first_additions_table  # noqa: F811
):
    """At a table of two each step goes to the server as it is checked."""
    table = first_additions_table
    context = browser.new_context(**browser_context_args)
    noah = context.new_page()
    sign_in_pupil(noah, live_server.url, classroom.code, pupils[1])
    noah.get_by_role("link", name="Play at table 1").click()
    expect(noah.get_by_test_id("status")).to_contain_text("Your turn!")
    context.set_offline(True)
    version = noah.locator("#table").get_attribute("data-version")
    with pytest.raises(AssertionError):  # the step cannot arrive while offline...
        add_first_two(noah)
    expect(noah.locator("#connection")).to_contain_text("No connection. Your move is kept")
    assert noah.locator("#table").get_attribute("data-version") == version
    context.set_offline(False)  # ...and arrives, once, when the wifi is back
    expect(noah.locator("#table")).not_to_have_attribute("data-version", version, timeout=3000)
    assert pupil_moves(table) == 1


def test_a_teachers_button_tapped_offline_is_said_not_sent(
    live_server, page, teacher, classroom, reported  # noqa: F811
):
    # Only pupils' moves are kept and sent again: a teacher's button that could
    # not go must say so, not that the game will catch up.
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(f"{live_server.url}/classes/{classroom.pk}/report/")
    prepare = page.get_by_role("button", name="CSV", exact=True)
    page.context.set_offline(True)
    prepare.click()
    strip = page.locator("#connection")
    expect(strip).to_contain_text("that was not sent. Try again when the wifi is back.")
    page.context.set_offline(False)
    prepare.click()
    expect(page.locator("#jobs")).not_to_be_empty(timeout=8000)
