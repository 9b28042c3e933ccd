"""A pupil's 'My games' (/me/): what they can play now, each game told apart."""

import pytest
from django.urls import reverse

from games import services
from games.models import GameSession, Table

pytestmark = pytest.mark.django_db


def buttons(client) -> list[str]:
    page = client.get(reverse("classroom:pupil_home")).content.decode()
    return [part.split("</a>")[0] for part in page.split('class="btn big game-button')[1:]]


def test_my_games_tells_each_game_apart_and_offers_no_game_that_is_over(
    start, classroom, teacher, pupils, pupil_client
):
    table_game, _table = start()
    whole = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils[:2], table_size=1,
        whole_class=True, seed=2,
    )
    at_table = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils[:2], table_size=2,
        seating={pupils[0].pk: 1, pupils[1].pk: 1}, seed=3,
    )
    paused, _table = start()
    services.set_status(paused, GameSession.Status.PAUSED)
    ended, _table = start()
    services.set_status(ended, GameSession.Status.ENDED)
    over, _table = start()
    Table.objects.filter(session=over).update(finished=True)

    shown = buttons(pupil_client)
    assert len(shown) == 4  # neither the ended game nor the finished table
    paused_row, at_table_row, whole_row, first_row = shown  # newest first
    assert "Number Quest" in paused_row and "paused" in paused_row
    assert "NMBR 9" in whole_row and "Play with the whole class" in whole_row
    assert "NMBR 9" in at_table_row and "Play at table 1" in at_table_row
    assert "paused" not in first_row
    # Two Number Quests listed: each says when it started; the NMBR 9s too.
    assert all("started at" in row for row in shown)
    assert whole_row != at_table_row and paused_row != first_row
    assert at_table.pk and whole.pk and table_game.pk


def test_one_game_needs_no_start_time(start, pupil_client):
    start()
    (row,) = buttons(pupil_client)
    assert "Play at table 1" in row and "started at" not in row


def test_after_every_game_ends_the_pupil_is_told_none_is_on_now(start, pupil_client):
    # "No game yet" read as if they had never played.
    session, _table = start()
    services.set_status(session, GameSession.Status.ENDED)
    page = pupil_client.get(reverse("classroom:pupil_home")).content.decode()
    assert buttons(pupil_client) == []
    assert "No game to play right now. Your teacher will start one." in page
