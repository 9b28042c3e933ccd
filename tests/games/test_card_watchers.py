"""Nambarz's and NUM-X's watchers share one page, each with only their own hand in it.

The pupils the turn is not on see the same table; the page is drawn once by
the mover's request with a slot where a hand goes, and each watcher's hand is
kept beside it (games.watching). These read the bytes a tablet is sent, by
push and by poll: another pupil's cards are never in them.

They read Redis as the push service does: they run wherever REDIS_URL is set,
as CI requires."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import live, seating, services, watching
from games.models import Table
from games.views import play
from games.views.tables import poll_token
from tests.conftest import tap_pictures

from .test_nambarz_pages import card_ids, deal, post_move, start, sym  # noqa: F401 (fixture)
from .test_push_pages import NEEDS_REDIS, heard, page_of, tablet
from .test_watching import own_page, poll, same, you_marks

pytestmark = [pytest.mark.django_db, NEEDS_REDIS]
HTMX = {"HTTP_HX_REQUEST": "true"}
HANDS = [[sym(5, 1), sym(2), sym(9)], [sym(9, 1), sym(4)], [sym(6), sym(10)]]


def saved(table) -> Table:
    found = Table.objects.select_related("session").get(pk=table.pk)
    seating.load(found)
    return found


def stamp_of(table) -> str:
    return live.stamp(saved(table))


def signed_in(client_class, pupil):
    client = client_class()
    tap_pictures(client, pupil, pupil.password_pictures)
    return client


def team_seat_table(classroom, teacher, pupils, game: str):
    """Léa and Noah share one seat, each on their own tablet; Inès has the
    other. The table, and each pupil's player."""
    from games import services
    from games.models import GameSession

    session = services.start_session(
        classroom, teacher, game=game, options={}, pupils=pupils[:3], table_size=2,
        tablets=GameSession.Tablets.OWN, team_size=2, seating={p.pk: 1 for p in pupils[:3]},
        seed=5,
    )
    table = session.tables.get()
    return table, {s.pupil_id: s.player for s in table.seats.all()}


def paused_resumed_ended(session, capture):
    """The teacher pauses, resumes, then ends the session: each status in turn,
    its commit's callbacks run (the ring)."""
    from games.models import GameSession

    for status in (GameSession.Status.PAUSED, GameSession.Status.RUNNING,
                   GameSession.Status.ENDED):
        with capture(execute=True):
            services.set_status(session, status)
        yield status


def poll_as(client, table, pupil, language="en"):
    """This pupil's poll of the whole table (no version it already shows), in a language."""
    url = reverse("games:table_poll", args=[table.pk])
    return client.get(
        url, {"t": poll_token(table, pupil.pk, None, pupil.sign_in_generation), "v": "none"},
        HTTP_ACCEPT_LANGUAGE=language, **HTMX,
    )


def tap(client, table, capture, language="en", **fields):
    """A move posted from a tablet, its commit's callbacks run (the watchers'
    page is drawn there, before the ring); the answer's page."""
    with capture(execute=True):
        table.refresh_from_db()
        data = {"version": table.version, "move_id": f"tap-{table.version}", **fields}
        answer = client.post(reverse("games:table_move", args=[table.pk]), data,
                             HTTP_ACCEPT_LANGUAGE=language, **HTMX)
    assert answer.status_code == 200, answer.status_code
    return answer.content.decode()


def check_every_tablet(table, pupils, client, engine, hidden_from, leaked, language="en",
                       pushed=None) -> set[int]:
    """Every pupil's pushed bytes and poll answer: no card hidden from them
    (``hidden_from(state, player)``, found in a page by ``leaked(page,
    hidden)``), no slot left unfilled, and the page their own poll would
    draw; then a second round of polls, which read the kept copy. ``pushed``:
    the pupils who must have been sent a page. Returns who was."""
    found = saved(table)
    state = engine.from_json(found.state)
    stamp = live.stamp(found)
    got_page = set()
    events = heard(table, stamp, [tablet(table, p, language) for p in pupils])
    for pupil, event in zip(pupils, events, strict=True):
        hidden = hidden_from(state, services.player_for(found, pupil, state))
        with translation.override(language):
            expected = own_page(table, pupil)
        assert not leaked(expected, hidden), ("own", pupil.first_name)
        pages = []
        if event.startswith("event: page"):
            got_page.add(pupil.pk)
            sent_stamp, page = page_of(event)
            assert sent_stamp == stamp
            assert you_marks(page) == you_marks(expected)
            pages.append(("push", page))
        answer = poll_as(client, table, pupil, language)
        assert answer.status_code == 200, (pupil.first_name, answer.status_code)
        pages.append(("poll", answer.content.decode()))
        for how, page in pages:
            assert not leaked(page, hidden), (how, pupil.first_name)
            assert watching.OWN_SLOT not in page and "<!--you-class" not in page
            assert without_form_fields(page) == without_form_fields(expected), (
                how, pupil.first_name)
    for pupil in pupils:
        page = poll_as(client, table, pupil, language).content.decode()
        with translation.override(language):
            expected = own_page(table, pupil)
        assert without_form_fields(page) == without_form_fields(expected), (
            "poll again", pupil.first_name)
    if pushed is not None:
        assert got_page == {p.pk for p in pushed}, got_page
    return got_page


def test_each_watcher_is_pushed_the_table_with_only_their_own_hand(
    start, pupil_client, pupils, django_capture_on_commit_callbacks  # noqa: F811
):
    session, table = start(players=3)
    deal(table, HANDS, target=sym(5))
    with django_capture_on_commit_callbacks(execute=True):
        answer = post_move(pupil_client, table, type="match", card=str(sym(5, 1)))
    assert answer.status_code == 200
    stamp = stamp_of(table)
    lea, noah, ines = (tablet(table, pupil) for pupil in pupils[:3])
    events = heard(table, stamp, [lea, noah, ines])
    # Léa's answer carries her page; it is Noah's turn: both hear "changed".
    assert events[:2] == [f"event: changed\ndata: {stamp}\n\n"] * 2
    sent_stamp, page = page_of(events[2])
    assert sent_stamp == stamp
    assert card_ids(page) == {sym(6), sym(10)}  # Inès's cards, and only hers
    assert same(page) == same(own_page(table, pupils[2]))
    assert you_marks(page) == 1 and "csrfmiddlewaretoken" not in page
    assert watching.OWN_SLOT not in page
    # The page they share holds no hand at all.
    raw = watching.copy_for(table.pk, stamp, pupils[2].pk)
    assert raw is not None and card_ids(raw.html) == set()


def test_a_watchers_poll_takes_the_shared_page_with_their_hand(
    start, pupil_client, client, pupils, django_capture_on_commit_callbacks  # noqa: F811
):
    session, table = start(players=3)
    deal(table, HANDS, target=sym(5))
    with django_capture_on_commit_callbacks(execute=True):
        post_move(pupil_client, table, type="match", card=str(sym(5, 1)))
    # Léa's own poll (she is not the mover here) keeps the page for her too.
    play._keep_watchers_page(None, saved(table))
    for pupil, hand in ((pupils[0], {sym(2), sym(9)}), (pupils[2], {sym(6), sym(10)})):
        page = poll(client, table, pupil).content.decode()
        assert card_ids(page) == hand
        assert same(page) == same(own_page(table, pupil))
    # Noah, whose turn it is, is drawn his own page with his forms.
    noah = poll(client, table, pupils[1]).content.decode()
    assert card_ids(noah) == {sym(9, 1), sym(4)} and "csrfmiddlewaretoken" in noah


def test_a_pupil_whose_wrong_calculation_is_in_the_log_gets_their_own_page(
    start, pupil_client, client, pupils, django_capture_on_commit_callbacks  # noqa: F811
):
    session, table = start(players=3)
    deal(table, HANDS, target=sym(5))
    post_move(pupil_client, table, type="match", card=str(sym(5, 1)))
    noah = signed_in(pupil_client.__class__, pupils[1])
    wrong = post_move(noah, table, type="calculate", cards=f"{sym(9, 1)},{sym(4)}", ops="-",
                      results="6").content.decode()
    assert "is not 6" in wrong
    with django_capture_on_commit_callbacks(execute=True):
        post_move(noah, table, type="calculate", cards=f"{sym(9, 1)},{sym(4)}", ops="-",
                  results="5")
    stamp = stamp_of(table)
    # Inès's turn: Léa watches and shares the page, whose log leaves out
    # Noah's wrong step; Noah reads it in his log, so his page is his own.
    assert watching.copy_for(table.pk, stamp, pupils[0].pk) is not None
    assert watching.copy_for(table.pk, stamp, pupils[1].pk) is None
    events = heard(table, stamp, [tablet(table, pupils[1])])
    assert events == [f"event: changed\ndata: {stamp}\n\n"]
    page = poll(client, table, pupils[1]).content.decode()
    assert "is not 6" in page and same(page) == same(own_page(table, pupils[1]))
    lea = poll(client, table, pupils[0]).content.decode()
    assert "is not 6" not in lea and same(lea) == same(own_page(table, pupils[0]))


def test_a_kept_page_whose_slot_lacks_a_watchers_hand_is_not_served():
    html = f'<div hx-get="?t={watching.TOKEN_SLOT}">{watching.OWN_SLOT}</div>'
    assert not watching.store(1, "1r", {7: 0, 8: 1}, html, own={0: "<p>mine</p>"})
    assert watching.store(1, "1r", {7: 0, 8: 1}, html, own={0: "<p>a</p>", 1: "<p>b</p>"})
    mine = watching.copy_for(1, "1r", 8)
    assert mine is not None and watching.personal(mine, "T").endswith("<p>b</p></div>")
    # A piece holding a form's fields is one request's: nothing is kept.
    assert not watching.store(2, "1r", {7: 0}, html, own={0: "<!--move-fields-slot-->"})
    assert watching.copy_for(2, "1r", 7) is None


# --------------------------------------------------------------------------- NUM-X

NUMX_HANDS = [["blue7", "red7", "green3"], ["blue5", "yellow9", "red9", "green12"],
              ["green2", "blue10"]]


def numx_table(classroom, teacher, pupils, hands):
    from .conftest import one_table
    from .test_numx_pages import deal as numx_deal

    session, table = one_table(classroom, teacher, pupils[:3], game="numx", options={})
    numx_deal(table, hands)
    return table


def without_form_fields(page: str) -> str:
    """``same``, without what a form's fields hold for one request."""
    page = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">', "", page)
    return same(re.sub(r'name="move_id" value="[0-9a-f]+"', 'name="move_id"', page))


def numx_cards(html: str) -> set[str]:
    from .test_numx_pages import card_ids as numx_card_ids

    return numx_card_ids(html)


def test_numx_watchers_are_pushed_the_table_with_their_own_hand_and_seat(
    classroom, teacher, pupils, client, django_capture_on_commit_callbacks
):
    from .test_numx_pages import post_move as numx_move
    from .test_numx_pages import tablet as numx_tablet

    table = numx_table(classroom, teacher, pupils, NUMX_HANDS)
    lea = numx_tablet(client.__class__, pupils[0])
    with django_capture_on_commit_callbacks(execute=True):
        answer = numx_move(lea, table, type="trick", cards="blue7,red7")
    assert answer.status_code == 200
    stamp = stamp_of(table)
    events = heard(table, stamp, [tablet(table, pupil) for pupil in pupils[:3]])
    assert events[:2] == [f"event: changed\ndata: {stamp}\n\n"] * 2  # the mover, Noah's turn
    _sent, page = page_of(events[2])
    assert numx_cards(page) & {"blue5", "yellow9", "red9", "green12", "green3"} == set()
    assert {"green2", "blue10"} <= numx_cards(page)
    assert same(page) == same(own_page(table, pupils[2]))
    assert 'class="nx-seat you"' in page and page.count(" you\"") == 1
    assert "<!--you-class" not in page and you_marks(page) == 1
    # Léa's poll (not as the mover) takes it too, with her one card.
    play._keep_watchers_page(None, saved(table))
    mine = poll(client, table, pupils[0]).content.decode()
    assert "green3" in numx_cards(mine) and "green2" not in numx_cards(mine)
    assert same(mine) == same(own_page(table, pupils[0]))


def test_a_numx_pupil_with_a_rainbow_to_add_or_a_lost_turn_gets_their_own_page(
    classroom, teacher, pupils, client, django_capture_on_commit_callbacks
):
    from .test_numx_pages import post_move as numx_move
    from .test_numx_pages import tablet as numx_tablet

    hands = [NUMX_HANDS[0], NUMX_HANDS[1], ["rainbow7", "red13"]]
    table = numx_table(classroom, teacher, pupils, hands)
    lea, ines = (numx_tablet(client.__class__, pupils[i]) for i in (0, 2))
    with django_capture_on_commit_callbacks(execute=True):
        numx_move(lea, table, type="trick", cards="blue7,red7")
    stamp = stamp_of(table)
    # Inès may add her Rainbow: a form of her own, on a page of her own.
    assert watching.copy_for(table.pk, stamp, pupils[2].pk) is None
    page = poll(client, table, pupils[2]).content.decode()
    assert 'data-testid="add-rainbow"' in page
    assert without_form_fields(page) == without_form_fields(own_page(table, pupils[2]))
    with django_capture_on_commit_callbacks(execute=True):
        numx_move(ines, table, type="rainbow", card="rainbow7", trick="0", size="2")
    stamp = stamp_of(table)
    # Noah lost his turn to it: his page says so, and is his own.
    assert watching.copy_for(table.pk, stamp, pupils[1].pk) is None
    noah = poll(client, table, pupils[1]).content.decode()
    assert "You lost your turn" in noah and same(noah) == same(own_page(table, pupils[1]))


# The page is kept when the move commits, before its answer is drawn: this
# commits for real (a test's transaction would hold the commit back).
@pytest.mark.django_db(transaction=True)
def test_the_mover_made_a_watcher_is_answered_with_the_shared_page_and_their_hand_only(
    start, pupil_client, pupils  # noqa: F811
):
    session, table = start(players=3)
    deal(table, HANDS, target=sym(5))
    answer = post_move(pupil_client, table, type="match", card=str(sym(5, 1)))
    page = answer.content.decode()
    # One draw, for Inès's tablet and Léa's answer: Noah plays now.
    assert [t.name for t in answer.templates].count("games/nambarz/_table.html") == 1
    assert card_ids(page) == {sym(2), sym(9)}  # Léa's cards, and only hers
    assert 'data-testid="feedback"' in page and you_marks(page) == 1
    assert watching.OWN_SLOT not in page and watching.FEEDBACK_SLOT not in page
    assert "csrfmiddlewaretoken" not in page
    without_feedback = re.sub(r'<p class="feedback[^"]*" data-testid="feedback".*?</p>', "", page)
    assert without_form_fields(without_feedback) == without_form_fields(own_page(table, pupils[0]))
