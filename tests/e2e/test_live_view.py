"""The teacher's live view in Chromium: a move redraws that table's card
alone (sent out of band), the other cards stay the very same elements."""

import pytest
from django.db.models import F
from playwright.sync_api import expect

from games import live, services
from games.models import Table
from games.pages import engine_of, presenter
from tests.games.conftest import a_right_step

from .helpers import sign_in_teacher

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_move_redraws_only_its_tables_card(live_server, page, classroom, teacher, pupils):
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition"},
        pupils=pupils[:2], table_size=1, seed=4,
    )
    first, second = (Table.objects.get(session=session, seats__pupil=p) for p in pupils[:2])
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/sessions/{session.pk}/")
    moved = page.locator(f"#live-table-{first.pk}")
    kept = page.locator(f"#live-table-{second.pk}")
    expect(moved).to_be_visible()
    kept.evaluate("card => { card.dataset.mark = 'same element'; }")
    moved.evaluate("card => { card.dataset.mark = 'same element'; }")
    state = engine_of("numberquest").from_json(first.state)
    services.play(first.pk, pupils[0], a_right_step(state), first.version, "e2e-1")
    # The poll (every 2 s) brings the new card in place of the old one...
    expect(moved).not_to_have_attribute("data-mark", "same element", timeout=10_000)
    # ... and leaves the other table's card alone, and the page polling.
    assert kept.get_attribute("data-mark") == "same element"
    assert page.locator(".live-table").count() == 2
    token = page.locator("#live").get_attribute("hx-get")
    page.wait_for_timeout(2500)
    assert page.locator("#live").get_attribute("hx-get") == token  # nothing new: a 204


def test_ending_the_game_asks_once_more(live_server, page, classroom, teacher, pupils):
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition"},
        pupils=pupils[:2], table_size=2, seating={p.pk: 1 for p in pupils[:2]}, seed=4,
    )
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/sessions/{session.pk}/")
    # One tap beside Pause only opens the question: the game goes on.
    page.get_by_text("End the game", exact=True).click()
    confirm = page.get_by_role("button", name="Yes, end the game")
    expect(confirm).to_be_visible()
    box = confirm.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    session.refresh_from_db()
    assert session.status == "running"
    # "Keep playing" folds it away again.
    page.get_by_text("Keep playing", exact=True).click()
    expect(confirm).to_be_hidden()
    page.get_by_text("End the game", exact=True).click()
    confirm.click()
    over = page.get_by_text("The game is over. Its calculations are in the reports.")
    expect(over).to_be_visible()
    session.refresh_from_db()
    assert session.status == "ended"


def test_the_whole_class_cards_page_can_pause_and_end(
    live_server, page, classroom, teacher, pupils
):
    session = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils[:2], table_size=1,
        whole_class=True, seed=4,
    )
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/sessions/{session.pk}/cards/")
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_test_id("card-number")).to_contain_text("Paused")
    assert page.url.endswith(f"/sessions/{session.pk}/cards/")
    # Paused, the pupils cannot place: no card is offered to turn.
    expect(page.get_by_role("button", name="Turn the next card")).to_have_count(0)
    expect(page.get_by_text("Paused: resume the game to turn the next card.")).to_be_visible()
    page.get_by_role("button", name="Resume").click()
    page.get_by_text("End the game", exact=True).click()
    page.get_by_role("button", name="Yes, end the game").click()
    expect(page.get_by_test_id("card-number")).to_contain_text("Ended")
    session.refresh_from_db()
    assert session.status == "ended"



def _finished(table) -> None:
    """The table played to its end by the game's own bot, every seat."""
    shown = presenter(table.session.game)
    state = shown.engine.from_json(table.state)
    for turn in range(3000):
        if shown.engine.result(state) is not None:
            break
        waiting = sorted(shown.waiting_on(state))
        player = waiting[turn % len(waiting)]
        for move in shown.bot_moves(state, player, "greedy", turn):
            state = shown.engine.apply(state, player, move).state
    assert shown.engine.result(state) is not None
    Table.objects.filter(pk=table.pk).update(
        state=state.to_json(), finished=True, version=F("version") + 1
    )
    live.bump(table.pk)


@pytest.mark.parametrize("game", ["nambarz", "numx"])
def test_a_finished_card_table_reads_clearly_on_a_tablet_and_a_laptop(
    live_server, page, classroom, teacher, pupils, game
):
    session = services.start_session(
        classroom, teacher, game=game, options={}, pupils=pupils[:3], table_size=2, seed=4,
        bot_level="greedy", seating={pupils[0].pk: 1, pupils[1].pk: 1, pupils[2].pk: 2},
    )
    first = session.tables.order_by("number").first()
    _finished(first)
    sign_in_teacher(page, live_server.url, teacher)
    for width in (768, 1280):
        page.set_viewport_size({"width": width, "height": 1000})
        page.goto(live_server.url + f"/sessions/{session.pk}/")
        card = page.locator(f"#live-table-{first.pk}")
        expect(card.get_by_test_id("table-over")).to_have_text("The game is over.")
        if game == "numx":
            # Not "turned face up for the count": the count is over.
            expect(card.get_by_test_id("board-over")).to_contain_text("wins!")
        # Wide enough for a name, its cards and its place on one line.
        assert card.bounding_box()["width"] >= 320, width
        wrapped = page.evaluate("""() => [...document.querySelectorAll(
              '.mini-board .pname, .mini-board .nz-count, .mini-board .nz-out,'
              + ' .mini-board .nx-points, .mini-board .nx-hand-size')]
            .filter((el) => el.getClientRects().length > 1 || el.getBoundingClientRect().height
              > 1.8 * parseFloat(getComputedStyle(el).fontSize))
            .map((el) => el.textContent)""")
        assert wrapped == [], (width, wrapped)
        assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_live_view_open_while_the_last_table_finishes_says_so(
    live_server, page, classroom, teacher, pupils
):
    from dataclasses import replace

    session = services.start_session(
        classroom, teacher, game="ultimes", options={}, pupils=pupils[:1], table_size=1,
        seed=7,
    )
    table = session.tables.get()
    game = engine_of("ultimes")
    state = replace(game.from_json(table.state), turn=0, phase="sum", dice=(2, 4),
                    positions=(93,))
    Table.objects.filter(pk=table.pk).update(state=state.to_json())
    live.bump(table.pk)
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/sessions/{session.pk}/")
    expect(page.get_by_test_id("session-status")).to_have_text("Playing")
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    table.refresh_from_db()
    services.play(table.pk, pupils[0], {"type": "sum", "value": 6}, table.version, "e2e-sum")
    table.refresh_from_db()
    services.play(table.pk, pupils[0], {"type": "reach", "square": 99}, table.version, "e2e-99")
    # The next poll: the page says the game is over everywhere, with nothing left to pause or end.
    expect(page.get_by_test_id("session-status")).to_have_text(
        "Every table has finished.", timeout=10_000
    )
    expect(page.get_by_role("button", name="Pause")).to_have_count(0)
    expect(page.get_by_test_id("end-game")).to_have_count(0)
    expect(page.get_by_test_id("table-over")).to_have_text("The game is over.")
    session.refresh_from_db()
    assert session.status == "ended"
