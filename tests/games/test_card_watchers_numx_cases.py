"""NUM-X's shared watchers' page through the game's corners: drawn cards,
action cards, a Malus, a blocked player, the hand-out, pause and end, teams,
French, shared tablets, computers. Each case brings a table to a position, then for every pupil
reads what their stream is sent (push) and their poll's answer, and checks
that neither holds a hidden card of another (a hand, a face-down score card,
a drawn card, a Malus's cards) and that both equal the page their own poll
would have drawn."""

# The tests take the NUM-X table's ``start`` fixture, imported from its page tests.
# ruff: noqa: F811

from __future__ import annotations

from dataclasses import replace

import pytest

from classroom.models import Pupil
from engine.numx.tricks import Trick
from games import services
from games.models import GameSession
from games.pages.numx.presenter import PRESENTER as NUMX

from .test_card_watchers import (
    check_every_tablet,
    paused_resumed_ended,
    saved,
    signed_in,
    team_seat_table,
)
from .test_card_watchers import tap as move
from .test_numx_pages import (  # noqa: F401 (fixture)
    ENGINE,
    card_ids,
    deal,
    hidden_cards_table,
    put,
    start,
    state_of,
)
from .test_push_pages import NEEDS_REDIS

pytestmark = [pytest.mark.django_db, NEEDS_REDIS]
HTMX = {"HTTP_HX_REQUEST": "true"}





def hidden_from(state, player: int) -> set[str]:
    """Every card this player must not see now."""
    hidden = {c for i, h in enumerate(state.hands) if i != player for c in h}
    if state.phase not in ("count", "over"):
        hidden |= {c for row in state.rows for c, up in row if not up}
    pending = state.pending
    if pending is not None and pending.kind == "drawn" and pending.player != player:
        hidden.add(pending.card)
    if pending is not None and pending.kind == "malus":
        hidden |= {c for p, _what, _n, held in pending.owed if p != player for c in held}
    if state.phase in ("choose", "refill"):
        hidden |= {c for i, c in enumerate(state.chosen or ()) if i != player and c}
    return hidden


def leaked(page: str, hidden: set[str]) -> set[str]:
    """The hidden cards a page names: by id or by the label a card's picture carries."""
    from collections import Counter

    from engine.numx.cards import CARDS
    from games.pages.numx.drawing import label

    # A label named by one card only (a Malus or a Joker's is shared).
    labels = Counter(label(c) for c in CARDS)
    found = card_ids(page) & hidden
    found |= {c for c in hidden if f'"{c}"' in page}
    found |= {c for c in hidden
              if labels[label(c)] == 1 and f'aria-label="{label(c)}"' in page}
    return found


def check(table, pupils, client, language="en", pushed=None):
    return check_every_tablet(table, pupils, client, ENGINE, hidden_from, leaked, language,
                              pushed)


def watchers_of(table, pupils, mover=None):
    found = saved(table)
    state = ENGINE.from_json(found.state)
    return [p for p in pupils if p != mover
            and NUMX.watching(found, state, services.player_for(found, p, state))]


HANDS = [["blue7", "red7", "green3", "yellow12"], ["blue5", "yellow9", "red9", "green12"],
         ["green2", "blue10", "red11"]]
ROWS = [[("green8", True), ("yellow1", False)], [("red3", True), ("blue4", False)],
        [("rainbow11", False)]]


def play_a_plain_trick(table, tablet, capture) -> None:
    """The first pupil lays a pair of sevens on a dealt table: the plain move."""
    deal(table, HANDS, rows=ROWS)
    move(tablet, table, capture, type="trick", cards="blue7,red7")


def test_a_plain_trick_with_face_down_rows(start, pupil_client, client, pupils,
                                           django_capture_on_commit_callbacks):
    session, table = start(players=3)
    play_a_plain_trick(table, pupil_client, django_capture_on_commit_callbacks)
    check(table, pupils[:3], client, pushed=[pupils[2]])


@pytest.mark.parametrize("rulebook, then", [(2, {"type": "trick", "cards": "yellow6"}),
                                             (1, {"type": "keep"})])
def test_a_drawn_card_to_play_or_keep(start, pupil_client, client, pupils,
                                      django_capture_on_commit_callbacks, rulebook, then):
    # RULES 4.5: a drawn card that can be played is played (games of
    # rulebook 1, stored before, may still keep it).
    session, table = start(players=3, options={"rulebook": rulebook})
    state = deal(table, [["blue2", "red4"], HANDS[1], HANDS[2]], rows=ROWS,
                 tricks=[Trick(1, ("green3",), 3, "number")])
    put(table, replace(state, pile=tuple(c for c in state.pile if c != "yellow6") + ("yellow6",)))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="draw")
    state = state_of(table)
    assert state.pending is not None and state.pending.kind == "drawn"
    check(table, pupils[:3], client, pushed=[pupils[1], pupils[2]])
    move(pupil_client, table, django_capture_on_commit_callbacks, **then)
    check(table, pupils[:3], client, pushed=[pupils[2]])


def test_a_shadow_bonus_pending(start, pupil_client, client, pupils,
                                django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, [["shadow6", "block2", "blue1"], HANDS[1], HANDS[2]], rows=ROWS,
         tricks=[Trick(1, ("green5", "red5"), 5, "number")], current=0)
    move(pupil_client, table, django_capture_on_commit_callbacks, type="trick", cards="shadow6")
    assert state_of(table).pending.kind == "bonus"
    check(table, pupils[:3], client, pushed=[pupils[1], pupils[2]])
    move(pupil_client, table, django_capture_on_commit_callbacks, type="action", card="block2",
         target="1")
    check(table, pupils[:3], client)


def test_an_eclair_swaps_score_cards(start, pupil_client, client, pupils,
                                     django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, [["blue2", "eclair1"], HANDS[1], HANDS[2]],
         rows=[[("green8", True)], [("red3", True), ("blue4", False)], [("rainbow11", False)]],
         tricks=[Trick(1, ("green3",), 3, "number")])
    move(pupil_client, table, django_capture_on_commit_callbacks, type="action",
         card="eclair1", mine="0", theirs="1:0")
    check(table, pupils[:3], client)


def test_a_malus_pending_on_another_pupil(start, pupil_client, client, pupils,
                                          django_capture_on_commit_callbacks):
    session, table = start(players=3)
    state = deal(table, [["blue2", "malus4"], ["blue5", "red9"], HANDS[2]],
                 rows=[[], [("red3", True)], [("rainbow11", False)]])
    put(table, replace(state, pile=tuple(c for c in state.pile if c not in ("green5", "blue9"))
                       + ("green5", "blue9")))
    move(pupil_client, table, django_capture_on_commit_callbacks, type="action", card="malus4",
         target="1")
    state = state_of(table)
    assert state.pending.kind == "malus" and state.pending.owed[0][3]
    check(table, pupils[:3], client, pushed=[pupils[2]])


def test_a_malus_to_discard(start, pupil_client, client, pupils,
                            django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, [["blue2", "malus5"], ["blue5", "red9", "green11"], HANDS[2]],
         rows=[[], [("red3", True), ("yellow4", False)], []])
    move(pupil_client, table, django_capture_on_commit_callbacks, type="action", card="malus5",
         target="1")
    check(table, pupils[:3], client, pushed=[pupils[2]])
    noah = signed_in(pupil_client.__class__, pupils[1])
    move(noah, table, django_capture_on_commit_callbacks, type="malus_discard", cards="red9")
    check(table, pupils[:3], client, pushed=[pupils[0], pupils[2]])


def test_a_blocked_player(start, pupil_client, client, pupils,
                          django_capture_on_commit_callbacks):
    session, table = start(players=3)
    state = deal(table, [["blue2", "red4"], ["blue9", "numx"], HANDS[2]],
                 tricks=[Trick(0, ("green3",), 3, "number")], current=1)
    put(table, replace(state, blocked=(False, True, False)))
    check(table, pupils[:3], client)
    noah = signed_in(pupil_client.__class__, pupils[1])
    move(noah, table, django_capture_on_commit_callbacks, type="pass")
    check(table, pupils[:3], client)


def test_a_protected_player(start, pupil_client, client, pupils,
                            django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, [["blue2", "quantique1", "red4"], HANDS[1], HANDS[2]], rows=ROWS,
         tricks=[Trick(1, ("green3",), 3, "number")])
    move(pupil_client, table, django_capture_on_commit_callbacks, type="action",
         card="quantique1", target="0")
    assert state_of(table).protected[0]
    check(table, pupils[:3], client)


def distribute(start, players=3, virgin=False, **more):
    session, table = start(players=players, **more)
    hands = [["blue2", "red4"], ["blue5", "red9"], ["green2", "blue10"], ["red13"]][:players]
    tricks = ([Trick(1, ("green3",), 3, "number"), Trick(0, ("blue4",), 4, "number")] if virgin
              else [Trick(1, ("green3",), 3, "number"),
                    Trick(0, ("blue6", "shadow6"), 6, "number"),
                    Trick(1, ("red8", "rainbow8", "yellow8"), 8, "number")])
    state = deal(table, hands, rows=[[("yellow1", False)]] + [[] for _ in hands[1:]],
                 tricks=tricks)
    put(table, replace(state, phase="distribute", winner=0, current=0))
    return session, table


def test_the_hand_out(start, pupil_client, client, pupils, django_capture_on_commit_callbacks):
    session, table = distribute(start)
    check(table, pupils[:3], client)
    offered = "blue6,shadow6,red8,rainbow8,yellow8"
    move(pupil_client, table, django_capture_on_commit_callbacks, type="distribute",
         offered=offered, **{"to-red8": "1", "face-red8": "down", "to-blue6": "2",
                             "to-shadow6": "0", "to-yellow8": "1", "to-rainbow8": "2"})
    state = state_of(table)
    assert state.phase == "play", state.phase
    check(table, pupils[:3], client)


def test_a_virgin_tour_hand_out(start, client, pupils):
    session, table = distribute(start, virgin=True)
    check(table, pupils[:3], client)


def test_four_players(start, client, pupil_client, pupils, classroom, teacher,
                      django_capture_on_commit_callbacks):
    from .conftest import one_table

    zoe = Pupil.objects.create(classroom=classroom, first_name="Zoé", initial="K",
                               avatar="owl", picture_password="sun,tree,car")
    four = [*pupils[:3], zoe]
    session, table = one_table(classroom, teacher, four, game="numx", options={}, seed=5)
    deal(table, [*HANDS, ["red13", "blue13"]], rows=[*ROWS, [("green13", False)]])
    move(pupil_client, table, django_capture_on_commit_callbacks, type="trick",
         cards="blue7,red7")
    check(table, four, client, pushed=[pupils[2], zoe])


def test_teams_of_two(start, client, pupil_client, pupils, classroom, teacher,
                      django_capture_on_commit_callbacks):
    from .conftest import one_table

    zoe = Pupil.objects.create(classroom=classroom, first_name="Zoé", initial="K",
                               avatar="owl", picture_password="sun,tree,car")
    four = [*pupils[:3], zoe]
    session, table = one_table(classroom, teacher, four, game="numx",
                               options={"teams": [[0, 2], [1, 3]]}, seed=5)
    deal(table, [*HANDS, ["red13", "blue13"]], rows=[*ROWS, [("green13", False)]])
    move(pupil_client, table, django_capture_on_commit_callbacks, type="trick",
         cards="blue7,red7")
    check(table, four, client, pushed=[pupils[2], zoe])


@pytest.mark.parametrize("mode", ["family", "x_game"])
def test_the_other_modes(mode, start, pupil_client, client, pupils,
                         django_capture_on_commit_callbacks):
    session, table = start(players=3, options={"mode": mode})
    play_a_plain_trick(table, pupil_client, django_capture_on_commit_callbacks)
    check(table, pupils[:3], client, pushed=[pupils[2]])


def test_paused_resumed_ended(start, pupil_client, client, pupils,
                              django_capture_on_commit_callbacks):
    session, table = start(players=3)
    play_a_plain_trick(table, pupil_client, django_capture_on_commit_callbacks)
    for _status in paused_resumed_ended(session, django_capture_on_commit_callbacks):
        check(table, pupils[:3], client)


def test_paused_with_a_rainbow_in_hand(start, pupil_client, client, pupils,
                                       django_capture_on_commit_callbacks):
    """Inès holds a Rainbow 7 that fits: paused, she has no form to add it."""
    session, table = start(players=3)
    deal(table, [["green2", "blue10"], ["red9", "green9", "yellow11"], ["rainbow7", "red13"]],
         tricks=[Trick(0, ("blue7", "red7"), 7, "number")], current=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.set_status(session, GameSession.Status.PAUSED)
    check(table, pupils[:3], client)


def test_french(start, pupil_client, client, pupils, django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, HANDS, rows=ROWS)
    move(pupil_client, table, django_capture_on_commit_callbacks, language="fr", type="trick",
         cards="blue7,red7")
    check(table, pupils[:3], client, language="fr", pushed=[pupils[2]])
    check(table, pupils[:3], client, language="en")


def test_french_hand_out(start, pupil_client, client, pupils):
    session, table = distribute(start)
    check(table, pupils[:3], client, language="fr")


def test_a_shared_tablet(start, pupil_client, client, pupils,
                         django_capture_on_commit_callbacks):
    session, table = start(players=3, tablets=GameSession.Tablets.SHARED)
    play_a_plain_trick(table, pupil_client, django_capture_on_commit_callbacks)
    check(table, pupils[:3], client, pushed=[])


def test_two_pupils_and_a_computer_with_a_rainbow(start, pupil_client, client, pupils,
                                                  django_capture_on_commit_callbacks):
    session, table = start(players=3, pupils_seated=2, bot_level="greedy")
    deal(table, [["green2", "blue10", "blue7", "red7"], ["red9", "green9", "yellow11"],
                 ["rainbow7", "red13"]], current=0)
    move(pupil_client, table, django_capture_on_commit_callbacks, type="trick",
         cards="blue7,red7")
    check(table, pupils[:2], client)
    with django_capture_on_commit_callbacks(execute=True):
        services.advance(table.pk)
    check(table, pupils[:2], client)


def test_the_choice_and_the_count_are_not_shared(start, client, pupils):
    session, table = start(players=3)
    check(table, pupils[:3], client, pushed=[])
    for pupil in pupils[:3]:
        assert watchers_of(table, [pupil]) == []


def test_a_malus_on_everyone_with_cards_held_for_the_second(
        start, pupil_client, client, pupils, django_capture_on_commit_callbacks):
    session, table = start(players=3)
    state = deal(table, [["blue2", "malus4"], ["blue5", "red9"], ["green2", "blue10"]],
                 rows=[[], [("red3", True)], [("rainbow11", False)]])
    move(pupil_client, table, django_capture_on_commit_callbacks, type="action", card="malus4",
         target="all")
    state = state_of(table)
    owed = state.pending.owed
    assert [p for p, *_ in owed if _[0] == "place"] == [1, 2] and owed[-1][3]
    check(table, pupils[:3], client, pushed=[pupils[2]])


def test_a_team_seat_on_own_tablets(pupil_client, client, pupils, classroom, teacher,
                                    django_capture_on_commit_callbacks):
    """Léa and Noah share player 0, each on their own tablet; Inès is player 1."""
    table, seats = team_seat_table(classroom, teacher, pupils, "numx")
    lea = next(p for p in pupils[:3] if seats[p.pk] == 0)
    deal(table, [HANDS[0], HANDS[1]], rows=ROWS[:2],
         current=0)
    client_lea = signed_in(pupil_client.__class__, lea)
    move(client_lea, table, django_capture_on_commit_callbacks, type="trick",
         cards="blue7,red7")
    check(table, pupils[:3], client)


def test_a_computer_hands_out_then_plays(start, pupil_client, client, pupils,
                                         django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Table

    session, table = start(players=3, pupils_seated=2, bot_level="greedy")
    state = deal(table, [["blue2", "red4"], ["blue5", "red9"], ["green2", "blue10", "red13"]],
                 rows=[[("yellow1", False)], [], [("green13", False)]],
                 tricks=[Trick(1, ("green3",), 3, "number"),
                         Trick(2, ("blue6", "shadow6"), 6, "number")])
    put(table, replace(state, phase="distribute", winner=2, current=2))
    check(table, pupils[:2], client)
    for _ in range(3):
        Table.objects.filter(pk=table.pk).update(
            updated_at=timezone.now() - timedelta(minutes=1))
        with django_capture_on_commit_callbacks(execute=True):
            services.advance(table.pk)
        check(table, pupils[:2], client)


def test_a_drawn_card_that_cannot_go_is_kept(start, pupil_client, client, pupils,
                                             django_capture_on_commit_callbacks):
    session, table = hidden_cards_table(start)
    move(pupil_client, table, django_capture_on_commit_callbacks, type="draw")
    check(table, pupils[:3], client, pushed=[pupils[2]])


def test_a_malus_to_discard_on_everyone(start, pupil_client, client, pupils,
                                        django_capture_on_commit_callbacks):
    session, table = start(players=3)
    deal(table, [["blue2", "malus5"], ["blue5", "red9", "green11"], ["green2", "blue10"]],
         rows=[[], [("red3", True), ("yellow4", False)], [("rainbow11", False)]])
    move(pupil_client, table, django_capture_on_commit_callbacks, type="action", card="malus5",
         target="all")
    check(table, pupils[:3], client)
    noah = signed_in(pupil_client.__class__, pupils[1])
    move(noah, table, django_capture_on_commit_callbacks, type="malus_discard", cards="red9")
    check(table, pupils[:3], client)
