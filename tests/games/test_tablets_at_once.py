"""Several tablets tapping at the same moment, on whichever database the suite
runs: SQLite in a file under the embedded default (as `make run` keeps it),
PostgreSQL in CI. Each tablet is a thread with its own connection, as each of
a web server's request threads has: no answer is a 500, and a move is applied
once however many taps of it arrive together."""

from __future__ import annotations

import threading
from functools import partial

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from engine.ultimes import bot_moves
from games import services
from games.models import Table
from games.pages import engine_of
from tests.conftest import tap_pictures

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 8


def tablet(pupil) -> Client:
    client = Client(HTTP_HX_REQUEST="true")
    response = tap_pictures(client, pupil, pupil.password_pictures)
    assert response.status_code == 302
    return client


def at_once(calls) -> list[int]:
    """Run every call in a thread of its own, released together; their statuses."""
    start = threading.Barrier(len(calls))
    statuses: list[int] = [0] * len(calls)

    def run(index, call):
        try:
            start.wait(5)
            statuses[index] = call().status_code
        finally:
            connections.close_all()  # the thread's own connection, as a server thread's

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return statuses


def test_three_tablets_and_the_teacher_at_once_never_get_a_500_and_a_move_counts_once(
    classroom, teacher, pupils
):
    session = services.start_session(
        classroom, teacher, game="ultimes", options={}, pupils=pupils, table_size=3,
        seating={p.pk: 1 for p in pupils}, seed=3,
    )
    table = session.tables.get()
    seat_of = {seat.player: seat.pupil for seat in table.seats.all()}
    tablets = {pupil.pk: tablet(pupil) for pupil in pupils}
    watching = Client()
    watching.force_login(teacher)
    engine = engine_of("ultimes")
    move_url = reverse("games:table_move", args=[table.pk])
    page_url = reverse("games:table_play", args=[table.pk])
    live_url = reverse("games:session_live", args=[session.pk])
    for round_ in range(ROUNDS):
        table.refresh_from_db()
        state = engine.from_json(table.state)
        mover = seat_of[state.turn]
        move = bot_moves(state, state.turn, seed=round_)[0]
        form = {**{k: str(v) for k, v in move.items()}, "version": str(table.version)}
        double_tap = {**form, "move_id": f"tap-{round_}"}
        mine = tablets[mover.pk]
        calls = [
            partial(mine.post, move_url, double_tap),
            partial(mine.post, move_url, double_tap),
            partial(watching.get, live_url),
        ]
        for pupil in pupils:
            if pupil != mover:  # out of turn, and looking at the table
                other = tablets[pupil.pk]
                calls.append(partial(other.post, move_url, {**form, "move_id": "x"}))
                calls.append(partial(other.get, page_url))
        statuses = at_once(calls)
        assert all(0 < status < 500 for status in statuses), statuses
        before = table.version
        table.refresh_from_db()
        assert table.version == before + 1, "the double tap was applied once, and only it"
    assert Table.objects.get(pk=table.pk).moves.count() == ROUNDS
