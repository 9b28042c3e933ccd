"""The watchers' page: rendered once per move, each watcher's copy the same as
their own render would be."""

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from games import services, watching
from games.models import GameSession, Table
from games.pages import engine_of
from games.views.tables import poll_token, table_context

from .conftest import a_right_step, one_table, state_of

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def poll(client, table, pupil, version="0r"):
    url = reverse("games:table_poll", args=[table.pk])
    return client.get(url, {"t": poll_token(table, pupil.pk, None), "v": version}, **HTMX)


def own_page(table, pupil) -> str:
    """The page this pupil's poll rendered before pages were shared."""
    found = Table.objects.select_related("session").prefetch_related("seats__pupil")
    table = found.get(pk=table.pk)
    state = engine_of(table.session.game).from_json(table.state)
    player = services.player_for(table, pupil, state)
    context = table_context(table, player=player, pupil=pupil)
    return render_to_string(f"games/{table.session.game}/_table.html", context)


def same(page: str) -> str:
    """A page without what differs between two renders for one pupil: the
    token's signing time, and the comments that mark the other players."""
    page = re.sub(r"\?t=[^&\"]+", "?t=TOKEN", page)
    return re.sub(r"<!--you:\d-->", "", page)


def you_marks(page: str) -> int:
    return page.count("(you)")


def a_step(table, pupil, capture):
    with capture(execute=True):
        outcome = services.play(table.pk, pupil, a_right_step(state_of(table)), 0, "tap-1")
    assert outcome.status == "applied"


def test_watchers_share_one_render_and_each_copy_is_their_own_page(
    start, client, pupils, django_capture_on_commit_callbacks, django_assert_num_queries
):
    session, table = start(players=3)
    a_step(table, pupils[0], django_capture_on_commit_callbacks)  # Léa plays on: 1 and 2 watch
    first = poll(client, table, pupils[1])
    assert first.status_code == 200
    with django_assert_num_queries(0):
        second = poll(client, table, pupils[2])
    assert second.status_code == 200
    for pupil, answer in ((pupils[1], first), (pupils[2], second)):
        page = answer.content.decode()
        assert same(page) == same(own_page(table, pupil))
        assert you_marks(page) == 1
        assert poll_token(table, pupil.pk, None).split(":")[0] in page
        assert "csrfmiddlewaretoken" not in page


def test_the_player_whose_turn_it_is_never_gets_the_watchers_page(
    start, client, pupils, django_capture_on_commit_callbacks
):
    session, table = start(players=3)
    a_step(table, pupils[0], django_capture_on_commit_callbacks)
    poll(client, table, pupils[1])  # a watcher's poll keeps the page
    table.refresh_from_db()
    stamp = f"{table.version}r"
    assert watching.copy_for(table.pk, stamp, pupils[2].pk) is not None
    assert watching.copy_for(table.pk, stamp, pupils[0].pk) is None
    page = poll(client, table, pupils[0]).content.decode()
    assert "Your turn!" in page and 'name="type" value="step"' in page
    assert "csrfmiddlewaretoken" in page and you_marks(page) == 1


def test_an_older_version_or_a_pupil_of_another_table_gets_no_copy(
    start, client, pupils, django_capture_on_commit_callbacks
):
    session, table = start(players=3)
    a_step(table, pupils[0], django_capture_on_commit_callbacks)
    poll(client, table, pupils[1])
    assert watching.copy_for(table.pk, "0r", pupils[2].pk) is None
    assert watching.copy_for(table.pk + 1, "1r", pupils[2].pk) is None
    assert watching.copy_for(table.pk, "1r", 999_999) is None


@pytest.mark.parametrize(
    "how",
    [
        {"tablets": GameSession.Tablets.SHARED},
        {"options": {"preset": "addition", "turn_seconds": 60}},
    ],
    ids=["shared tablet", "timed turns"],
)
def test_no_page_is_shared_on_a_shared_tablet_or_with_a_clock(
    start, client, pupils, django_capture_on_commit_callbacks, how
):
    session, table = start(players=3, **how)
    a_step(table, pupils[0], django_capture_on_commit_callbacks)
    assert poll(client, table, pupils[1]).status_code == 200
    assert watching.copy_for(table.pk, "1r", pupils[2].pk) is None


def test_a_page_holding_a_form_is_never_kept():
    html = f'<div hx-get="?t={watching.TOKEN_SLOT}"><input name="csrfmiddlewaretoken"></div>'
    assert not watching.store(1, "1r", {1: 1}, html)


def test_seating_a_late_pupil_forgets_the_kept_page(
    classroom, teacher, pupils, client, django_capture_on_commit_callbacks
):
    session, table = one_table(
        classroom, teacher, pupils[:2], game="numberquest", options={"preset": "addition"},
        players=3, bot_level="greedy", ordered=False,
    )
    current = state_of(table).current
    playing = table.seats.get(player=current).pupil
    watcher = next(p for p in pupils[:2] if p != playing)
    a_step(table, playing, django_capture_on_commit_callbacks)
    poll(client, table, watcher)
    assert watching.copy_for(table.pk, "1r", watcher.pk) is not None
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_late_pupils(session, [pupils[2]])  # takes the computer's seat
    assert watching.copy_for(table.pk, "1r", watcher.pk) is None


def test_track_watchers_share_one_render_too(classroom, teacher, pupils, client):
    session, table = one_table(
        classroom, teacher, pupils, game="ultimes", options={}, seed=3, ordered=False
    )
    state = engine_of("ultimes").from_json(table.state)
    playing = table.seats.get(player=state.turn).pupil
    watchers = [p for p in pupils if p != playing]
    first = poll(client, table, watchers[0], version="").content.decode()
    second = poll(client, table, watchers[1], version="").content.decode()
    for pupil, page in ((watchers[0], first), (watchers[1], second)):
        assert same(page) == same(own_page(table, pupil))
        assert you_marks(page) == 1
    assert watching.copy_for(table.pk, "0r", playing.pk) is None


def test_a_page_holding_the_tap_id_or_a_spoilt_record_is_not_served(settings):
    html = f'<div hx-get="?t={watching.TOKEN_SLOT}">tap-123</div>'
    assert not watching.store(1, "1r", {1: 1}, html, tap_id="tap-123")
    assert watching.store(1, "1r", {1: 1}, html, tap_id="other")
    client = watching.live.redis_client()
    key = watching.key(1, "en")
    if client is not None:
        client.set(key, "not json\n<div></div>")
    else:
        watching.cache.set(key, "not json\n<div></div>")
    assert watching.copy_for(1, "1r", 1) is None


FEEDBACK = re.compile(
    r'<p class="(?:note|feedback)[^"]*" data-testid="(?:note|feedback)"[^>]*>.*?</p>'
)


def drawn_tables(response, game: str) -> int:
    """How many times the request drew the table's page."""
    return [t.name for t in response.templates].count(f"games/{game}/_table.html")


# The page is kept when the move commits, before its answer is drawn: these
# commit for real (a test's transaction would hold the commit back).
@pytest.mark.django_db(transaction=True)
def test_a_move_that_makes_the_mover_a_watcher_is_answered_with_the_watchers_page(
    start, pupil_client, pupils
):
    """Léa gives up her turn: her page is now the one Inès and she share
    while Noah plays. Her request draws it once, for Inès and for her answer,
    with the lines about her move where her own page has them."""
    from .test_play_views import post_move

    session, table = start(players=3)
    answer = post_move(pupil_client, table, type="cant")
    page = answer.content.decode()
    assert answer.status_code == 200 and drawn_tables(answer, "numberquest") == 1
    lines = FEEDBACK.findall(page)
    assert lines and all('data-testid="feedback"' in line for line in lines)
    assert same(FEEDBACK.sub("", page)) == same(own_page(table, pupils[0]))
    assert you_marks(page) == 1 and watching.FEEDBACK_SLOT not in page
    # The token's own part: its signature carries the second it was made in,
    # which may tick between the answer and this line.
    assert poll_token(table, pupils[0].pk, None).split(":")[0] in page
    # The watchers' copy has no feedback, nor its slot.
    kept = poll(Client(), table, pupils[2]).content.decode()
    assert you_marks(kept) == 1 and not FEEDBACK.findall(kept)
    assert watching.FEEDBACK_SLOT not in kept


@pytest.mark.django_db(transaction=True)
def test_a_move_after_which_the_mover_plays_on_draws_their_own_page(start, pupil_client, pupils):
    from .test_play_views import post_move, step_fields

    session, table = start(players=3)
    answer = post_move(pupil_client, table, **step_fields(state_of(table)))
    # Léa's turn goes on: her page (a form) and the watchers' are two draws.
    assert drawn_tables(answer, "numberquest") == 2
    assert "Your turn!" in answer.content.decode()
