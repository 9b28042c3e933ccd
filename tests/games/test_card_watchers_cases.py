"""Nambarz's shared watchers' page through the game's corners: jokers, a
pupil out, new rounds, teams, a pause, French, shared tablets, computers.

Each case brings a table to a position, then for every pupil at it reads the
bytes their stream is sent (push) and their poll's answer, and checks that
they hold no card of another hand and equal the page their own poll would
have drawn (test_watching.own_page / same)."""

# The tests take the Nambarz table's ``start`` fixture, imported from its page tests.
# ruff: noqa: F811

from __future__ import annotations

from dataclasses import replace

import pytest

from classroom.models import Pupil
from games import live, services
from games.models import GameSession

from .test_card_watchers import (
    check_every_tablet,
    paused_resumed_ended,
    saved,
    signed_in,
    team_seat_table,
)
from .test_card_watchers import tap as move
from .test_nambarz_pages import (  # noqa: F401 (fixture)
    ENGINE,
    card_ids,
    deal,
    drw,
    joker,
    post_move,
    start,
    sym,
)
from .test_push_pages import NEEDS_REDIS

pytestmark = [pytest.mark.django_db, NEEDS_REDIS]
HTMX = {"HTTP_HX_REQUEST": "true"}




def set_state(table, **changes):
    table.refresh_from_db()
    state = replace(ENGINE.from_json(table.state), **changes)
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    return state



def hidden_from(state, player: int) -> set[int]:
    """The other hands, and the card the player whose turn it is drew."""
    hidden = {c for i, h in enumerate(state.hands) if i != player for c in h}
    if state.drawn is not None and state.current != player:
        hidden.add(state.drawn)
    return hidden


def leaked(page: str, hidden: set[int]) -> set[int]:
    return card_ids(page) & hidden


def check(table, pupils, client, language="en", pushed=None):
    return check_every_tablet(table, pupils, client, ENGINE, hidden_from, leaked, language,
                              pushed)


HANDS = [[sym(5, 1), sym(2), sym(9), drw(3)], [sym(9, 1), sym(4), drw(7)], [sym(6), sym(10)]]


def match_the_target(table, tablet, capture) -> None:
    """The first pupil lays the card that matches the target: the plain move."""
    deal(table, HANDS, target=sym(5))
    move(tablet, table, capture, type="match", card=str(sym(5, 1)))


def test_after_a_plain_match(start, pupil_client, client, pupils,
                             django_capture_on_commit_callbacks):
    session, table = start(players=3)
    match_the_target(table, pupil_client, django_capture_on_commit_callbacks)
    check(table, pupils[:3], client, pushed=[pupils[2]])


def test_after_a_draw(start, pupil_client, client, pupils, django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, HANDS, target=sym(8))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="draw")
    assert ENGINE.from_json(saved(table).state).pending == "drawn"
    check(table, pupils[:3], client, pushed=[pupils[1], pupils[2]])


@pytest.mark.parametrize("kind", ["replay", "change_number", "change_any"])
def test_after_a_joker(kind, start, pupil_client, client, pupils,
                       django_capture_on_commit_callbacks):
    session, table = start(players=3)
    hands = [[joker(kind), sym(2), drw(3)], HANDS[1], HANDS[2]]
    deal(table, hands, target=sym(8))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="joker",
         card=str(joker(kind)))
    check(table, pupils[:3], client, pushed=[pupils[1], pupils[2]])


def test_a_replay_joker_as_the_last_card(start, pupil_client, client, pupils,
                                         django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, [[joker("replay")], HANDS[1], HANDS[2]], target=sym(8))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="joker",
         card=str(joker("replay")))
    check(table, pupils[:3], client, pushed=[pupils[1], pupils[2]])


def test_a_pupil_who_is_out_watches(start, pupil_client, client, pupils,
                                    django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, [HANDS[0], HANDS[1], []], target=sym(5))
    set_state(table, out=(2,))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="match",
         card=str(sym(5, 1)))
    check(table, pupils[:3], client, pushed=[pupils[2]])


def test_the_end_of_a_round_deals_new_hands(start, pupil_client, client, pupils,
                                            django_capture_on_commit_callbacks):
    session, table = start(players=3, options={"rounds": 3})
    deal(table, [[sym(5, 1)], HANDS[1], []], target=sym(5))
    set_state(table, out=(2,))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="match",
         card=str(sym(5, 1)))
    state = ENGINE.from_json(saved(table).state)
    assert state.round == 2 and not state.over
    watchers = [p for i, p in enumerate(pupils[:3]) if i != state.current]
    check(table, pupils[:3], client,
          pushed=[p for p in watchers if p != pupils[0]])


def test_the_end_of_the_game(start, pupil_client, client, pupils,
                             django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, [[sym(5, 1)], HANDS[1], []], target=sym(5))
    set_state(table, out=(2,))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="match",
         card=str(sym(5, 1)))
    check(table, pupils[:3], client)


def test_a_wrong_calculation_then_a_right_one(start, pupil_client, client, pupils,
                                              django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, [[sym(7), sym(2), sym(1)], HANDS[1], HANDS[2]], target=sym(5))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="calculate",
         cards=f"{sym(7)},{sym(2)}", ops="-", results="6")
    # Léa retries: Noah and Inès watch, her wrong step is not in their log.
    check(table, pupils[:3], client, pushed=[pupils[1], pupils[2]])
    move(pupil_client, table, django_capture_on_commit_callbacks, type="calculate",
         cards=f"{sym(7)},{sym(2)}", ops="-", results="5")
    check(table, pupils[:3], client, pushed=[pupils[2]])


def test_teams(start, pupil_client, client, pupils, classroom, teacher,
               django_capture_on_commit_callbacks):
    from .conftest import one_table

    zoe = Pupil.objects.create(classroom=classroom, first_name="Zoé", initial="K",
                               avatar="owl", picture_password="sun,tree,car")
    four = [*pupils[:3], zoe]
    session, table = one_table(classroom, teacher, four, game="nambarz",
                               options={"teams": True}, seed=5)
    assert ENGINE.from_json(table.state).options.teams
    deal(table, [HANDS[0], HANDS[1], HANDS[2], [sym(11), drw(11)]], target=sym(5))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="match",
         card=str(sym(5, 1)))
    check(table, four, client, pushed=[pupils[2], zoe])


def test_a_session_paused_resumed_then_ended(start, pupil_client, client, pupils,
                                             django_capture_on_commit_callbacks):
    session, table = start(players=3)
    match_the_target(table, pupil_client, django_capture_on_commit_callbacks)
    for _status in paused_resumed_ended(session, django_capture_on_commit_callbacks):
        check(table, pupils[:3], client)


def test_french(start, pupil_client, client, pupils,
                django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, HANDS, target=sym(8))
    move(pupil_client, table, django_capture_on_commit_callbacks, language="fr", type="draw")
    check(table, pupils[:3], client, language="fr", pushed=[pupils[1], pupils[2]])
    # An English tablet hears "changed" and polls: its own page too.
    check(table, pupils[:3], client, language="en")


def test_a_shared_tablet(start, pupil_client, client, pupils,
                         django_capture_on_commit_callbacks):
    session, table = start(players=3, tablets=GameSession.Tablets.SHARED)
    match_the_target(table, pupil_client, django_capture_on_commit_callbacks)
    check(table, pupils[:3], client, pushed=[])


def test_alone_against_a_computer(start, pupil_client, client, pupils,
                                  django_capture_on_commit_callbacks):
    session, table = start(players=1, bot_level="greedy")
    deal(table, [HANDS[0], HANDS[1]], target=sym(8))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="draw")
    move(pupil_client, table, django_capture_on_commit_callbacks, type="pass")
    check(table, pupils[:1], client)


def test_two_moves_by_other_pupils(start, pupil_client, client, pupils,
                                   django_capture_on_commit_callbacks):
    session, table = start(players=3)
    match_the_target(table, pupil_client, django_capture_on_commit_callbacks)
    noah = signed_in(pupil_client.__class__, pupils[1])
    move(noah, table, django_capture_on_commit_callbacks, type="draw")
    check(table, pupils[:3], client, pushed=[pupils[0], pupils[2]])
    move(noah, table, django_capture_on_commit_callbacks, type="pass")
    check(table, pupils[:3], client, pushed=[pupils[0]])


def test_a_team_seat_on_own_tablets(pupil_client, client, pupils, classroom, teacher,
                                    django_capture_on_commit_callbacks):
    """Léa and Noah share player 0, each on their own tablet; Inès is player 1."""
    table, seats = team_seat_table(classroom, teacher, pupils, "nambarz")
    assert seats[pupils[0].pk] == seats[pupils[1].pk] == 0 and seats[pupils[2].pk] == 1
    deal(table, [HANDS[0], HANDS[2]], target=sym(5))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="match",
         card=str(sym(5, 1)))
    check(table, pupils[:3], client, pushed=[pupils[1]])


def test_two_pupils_and_a_computer(client, pupils, classroom, teacher, pupil_client,
                                   django_capture_on_commit_callbacks):
    from .conftest import one_table

    session, table = one_table(classroom, teacher, pupils[:2], game="nambarz", options={},
                               players=3, bot_level="greedy", seed=5)
    deal(table, [HANDS[0], HANDS[1], HANDS[2]], target=sym(5), current=1)
    noah = signed_in(pupil_client.__class__, pupils[1])
    move(noah, table, django_capture_on_commit_callbacks, type="draw")
    move(noah, table, django_capture_on_commit_callbacks, type="pass")
    # The computer's turn: both pupils watch.
    assert ENGINE.from_json(saved(table).state).current == 2
    check(table, pupils[:2], client, pushed=[pupils[0]])
    with django_capture_on_commit_callbacks(execute=True):
        services.advance(table.pk)
    check(table, pupils[:2], client)


def test_a_wrong_calculation_leaving_the_log(start, pupil_client, client, pupils,
                                             django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, [[sym(7), sym(2), sym(1)], HANDS[1], HANDS[2]], target=sym(5))
    clients = [pupil_client, signed_in(pupil_client.__class__, pupils[1]),
               signed_in(pupil_client.__class__, pupils[2])]
    move(pupil_client, table, django_capture_on_commit_callbacks, type="calculate",
         cards=f"{sym(7)},{sym(2)}", ops="-", results="6")
    move(pupil_client, table, django_capture_on_commit_callbacks, type="draw")
    move(pupil_client, table, django_capture_on_commit_callbacks, type="pass")
    seen = []
    for _ in range(12):
        current = ENGINE.from_json(saved(table).state).current
        move(clients[current], table, django_capture_on_commit_callbacks, type="draw")
        seen.append(check(table, pupils[:3], client))
        move(clients[current], table, django_capture_on_commit_callbacks, type="pass")
        seen.append(check(table, pupils[:3], client))
    # Léa is pushed pages again once her wrong step has left the log.
    assert pupils[0].pk in set().union(*seen[-6:]), seen
