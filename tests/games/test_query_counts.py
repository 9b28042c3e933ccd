"""What a move and a poll may cost in queries, game by game: a school's worth
of tablets repeats them all day, so one query more fails here first.

The limits are today's counts on PostgreSQL and SQLite (the larger of the
two). Raise one only for a reason worth a query on every tap of every pupil;
tests/bench/bench_moves.py --queries lists the SQL of each.
"""

from __future__ import annotations

import importlib

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from classroom.pupil_auth import SESSION_EPOCH, SESSION_PUPIL
from engine.nmbr9 import bot_moves as nmbr9_bot_moves
from games import live, services
from games.models import Table
from games.pages import engine_of, presenter
from games.views.tables import poll_token

from .conftest import a_right_step, one_table, state_of

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}

# A pupil's tap, answered with their new board: the table locked with its
# session (one statement), the move with its attempts and the table's update
# (one statement on PostgreSQL, three on SQLite), the next turn's opportunity
# or the skills used, and the transaction's two statements (BEGIN and COMMIT;
# savepoints inside a test's transaction). The pupil's sign-in is read from
# the cache (classroom.pupil_auth).
MOVE = 6
# The first tap at a table reads its game, its seats and their names.
FIRST_MOVE = MOVE + 3
# The first poll that draws the table after a move: the table with its session.
DRAWN_POLL = 1
# The teacher's live view when nothing moved, its page's token in hand: its
# tables' stamps (none when every stamp is in Redis: tests/games/test_live_view.py).
LIVE_UNCHANGED = 1
# When a table moved: the row of the table that moved, and whether its pupil
# seems stuck (the others' cards are kept).
LIVE_MOVED = LIVE_UNCHANGED + 2


def tablet(pupil) -> Client:
    """A tablet on which this pupil is signed in (the session as sign_in leaves it)."""
    store = importlib.import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_PUPIL] = pupil.pk
    store[SESSION_EPOCH] = pupil.classroom.sign_in_epoch
    store.save()
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
    # The tablet shows the pupil's page before any tap, which reads their
    # sign-in once (classroom.pupil_auth keeps it): the taps measured are
    # those of all day long.
    assert client.get(reverse("classroom:pupil_home")).status_code == 200
    return client


def post(client, table, move: dict) -> str:
    """Post a tap from the board the tablet has (``table`` as last read)."""
    data = {"version": table.version, "move_id": f"tap{table.version}", **move}
    response = client.post(reverse("games:table_move", args=[table.pk]), data, **HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'class="note error"' not in page, page
    return page


def poll(client, table, pupil, stamp: str):
    url = reverse("games:table_poll", args=[table.pk])
    return client.get(url, {"t": poll_token(table, pupil.pk, None), "v": stamp}, **HTMX)


def stamp_of(table) -> str:
    return (live.read(table.pk) or ("",))[0]


def seated(table) -> dict[int, object]:
    return {s.player: s.pupil for s in table.seats.select_related("pupil") if s.pupil_id}


def test_a_number_quest_step_and_the_polls_after_it(
    start, pupils, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    session, table = start(players=3)
    lea = tablet(pupils[0])
    with django_capture_on_commit_callbacks(execute=True):
        post(lea, table, _tiles(a_right_step(state_of(table)), table))
    before = stamp_of(table)
    # The second tap, measured: the table's game and seats are known by now,
    # as they are all day long.
    table.refresh_from_db()
    with django_assert_max_num_queries(MOVE), django_capture_on_commit_callbacks(execute=True):
        post(lea, table, {"type": "cant"})
    noah, ines = tablet(pupils[1]), tablet(pupils[2])
    # Noah plays next: his poll draws his own board; Inès watches and draws the
    # watchers' page.
    with django_assert_max_num_queries(DRAWN_POLL):
        assert poll(ines, table, pupils[2], before).status_code == 200
    with django_assert_max_num_queries(DRAWN_POLL):
        assert poll(noah, table, pupils[1], before).status_code == 200
    with django_assert_max_num_queries(0):
        assert poll(lea, table, pupils[0], stamp_of(table)).status_code == 204


def _tiles(move: dict, table) -> dict:
    """The step as the page's tiles post it: "value|origin"."""
    state = state_of(table)
    tiles = [f"{value}|{origin}" for value, origin in state.available]
    left = next(t for t in tiles if t.split("|")[0] == str(move["left"]))
    right = next(t for t in tiles if t.split("|")[0] == str(move["right"]) and t != left)
    return {**move, "left": left, "right": right}


def test_a_watchers_copy_and_an_unchanged_poll_cost_no_query(
    start, pupils, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    session, table = start(players=3)
    with django_capture_on_commit_callbacks(execute=True):
        services.play(table.pk, pupils[0], a_right_step(state_of(table)), 0, "tap-1")
    noah, ines = tablet(pupils[1]), tablet(pupils[2])
    poll(noah, table, pupils[1], "0r")  # Léa plays on: the first watcher draws the page
    with django_assert_max_num_queries(0):
        assert poll(ines, table, pupils[2], "0r").status_code == 200
    with django_assert_max_num_queries(0):
        assert poll(ines, table, pupils[2], stamp_of(table)).status_code == 204


def test_a_track_answer_and_the_polls_after_it(
    classroom, teacher, pupils, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    session, table = one_table(
        classroom, teacher, pupils[:3], game="ultimes", options={}, seed=3
    )
    shown = presenter("ultimes")
    clients = {player: (tablet(p), p) for player, p in seated(table).items()}
    for turn in range(3):
        table.refresh_from_db()
        state = engine_of("ultimes").from_json(table.state)
        client, pupil = clients[state.turn]
        before = stamp_of(table) or f"{table.version}r"
        for move in shown.bot_moves(state, state.turn, "", 0):
            table.refresh_from_db()
            with (
                # The track's log reads the last moves: one query more.
                django_assert_max_num_queries((MOVE if turn else FIRST_MOVE) + 1),
                django_capture_on_commit_callbacks(execute=True),
            ):
                post(client, table, move)
        # The track's log reads the last moves: one query more than a board.
        watcher, watching_pupil = clients[(state.turn + 1) % 3]
        with django_assert_max_num_queries(DRAWN_POLL + 1):
            assert poll(watcher, table, watching_pupil, before).status_code == 200


def test_an_nmbr9_tile_and_the_polls_after_it(
    classroom, teacher, pupils, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    session, table = one_table(classroom, teacher, pupils[:3], game="nmbr9", options={}, seed=3)
    clients = {player: (tablet(p), p) for player, p in seated(table).items()}
    for player, (client, _pupil) in clients.items():
        before = stamp_of(table) or f"{table.version}r"
        table.refresh_from_db()
        move = nmbr9_bot_moves(engine_of("nmbr9").from_json(table.state), player, 0)[0]
        # The first tap reads the table's game and seats, which the others find kept.
        limit = MOVE if player else FIRST_MOVE
        with django_assert_max_num_queries(limit), django_capture_on_commit_callbacks(execute=True):
            post(client, table, move)
        other, other_pupil = clients[(player + 1) % 3]
        with django_assert_max_num_queries(DRAWN_POLL):
            assert poll(other, table, other_pupil, before).status_code == 200


def test_a_whole_class_tile_and_its_poll(
    classroom, teacher, pupils, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    session = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils[:3], table_size=1,
        whole_class=True, seed=2,
    )
    table = Table.objects.get(session=session, seats__pupil=pupils[0])
    client = tablet(pupils[0])
    state = engine_of("nmbr9").from_json(table.state)
    with django_capture_on_commit_callbacks(execute=True):
        post(client, table, nmbr9_bot_moves(state, 0, 0)[0])  # the seats are known from now on
    with django_capture_on_commit_callbacks(execute=True):
        services.show_next_card(session)
    table.refresh_from_db()
    state = engine_of("nmbr9").from_json(table.state)
    with django_assert_max_num_queries(MOVE), django_capture_on_commit_callbacks(execute=True):
        page = post(client, table, nmbr9_bot_moves(state, 0, 0)[0])
    stamp = page.split("&amp;v=", 1)[1].split('"', 1)[0]
    # The tablet's next poll, with the stamp its answer carried: nothing to draw,
    # and with Redis nothing to read (the move published its version, checked
    # against the session's mark); without it the poll reads the table again.
    with django_assert_max_num_queries(0 if settings.REDIS_URL else DRAWN_POLL):
        assert poll(client, table, pupils[0], stamp).status_code == 204
    # The teacher turns a card: every tablet reads its table once and draws it.
    with django_capture_on_commit_callbacks(execute=True):
        services.show_next_card(session)
    with django_assert_max_num_queries(DRAWN_POLL):
        assert poll(client, table, pupils[0], stamp).status_code == 200


def test_the_teachers_live_view_when_nothing_moved(
    start, teacher_client, django_assert_max_num_queries
):
    session, table = start(players=2)
    url = reverse("games:session_live", args=[session.pk])
    version = teacher_client.get(url, **HTMX).content.decode().split("?v=", 1)[1].split('"', 1)[0]
    with django_assert_max_num_queries(LIVE_UNCHANGED):
        assert teacher_client.get(url, {"v": version}, **HTMX).status_code == 204


def test_the_teachers_live_view_draws_only_the_table_that_moved(
    classroom, teacher, pupils, teacher_client, django_assert_max_num_queries,
    django_capture_on_commit_callbacks,
):
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition"},
        pupils=pupils, table_size=1, seed=4,
    )
    url = reverse("games:session_live", args=[session.pk])
    first = teacher_client.get(url, **HTMX).content.decode()
    version = first.split("?v=", 1)[1].split('"', 1)[0]
    table = Table.objects.get(session=session, seats__pupil=pupils[0])
    with django_capture_on_commit_callbacks(execute=True):
        services.play(table.pk, pupils[0], {"type": "cant"}, 0, "tap-1")
    with django_assert_max_num_queries(LIVE_MOVED):
        again = teacher_client.get(url, {"v": version}, **HTMX)
    assert again.status_code == 200
    assert again.content.decode().count('class="card live-table') == 3
