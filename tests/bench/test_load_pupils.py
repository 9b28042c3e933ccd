"""The load benchmark's card-game pupils (tests/bench/load_pupils.py) play
real tables through the pages, as bench_load.py's tablets do: each reads its
own page, its tap is posted to the move URL as a browser posts the form, and
the table must take most of the taps and move on. A mind that posts what the
page does not offer is caught (the last test checks the check).

The minds read pages only; the tests set tables up through the engine's
state where a page must ask for something a random deal may not bring soon
(a Rainbow to add, cards to hand out, a count, a Malus, a drawn card)."""

from __future__ import annotations

import random
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from engine.nambarz.cards import cards_of
from engine.numx.cards import deck
from engine.numx.count import start_count
from engine.numx.state import Pending
from engine.numx.tricks import Trick
from games import live
from games.pages import engine_of
from tests.conftest import tap_pictures
from tests.games.conftest import one_table

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_pupils  # noqa: E402  (tests/bench is not a package)

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
TAPS = 30
CARDS = cards_of(12)  # Nambarz's deck with 12 jokers
MOST = 0.8  # of the taps, applied and right: the rest refused, late or typed wrong


@pytest.fixture(autouse=True)
def _same_choices_each_run():
    """The minds choose at random, as pupils do: the same choices at each run."""
    kept = random.getstate()
    random.seed(15)
    yield
    random.setstate(kept)


def tablets(pupils) -> list[Client]:
    """One signed-in tablet per pupil, in seat order."""
    found = []
    for pupil in pupils:
        tablet = Client()
        assert tap_pictures(tablet, pupil, pupil.password_pictures).status_code == 302
        found.append(tablet)
    return found


def state_of(table):
    table.refresh_from_db()
    return engine_of(table.session.game).from_json(table.state)


def put(table, state):
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    return state


def tap_once(table, tablet, mind) -> tuple[str, dict | None, str]:
    """The pupil's page read by their mind and its tap posted: ('applied' |
    'wrong' | 'refused' | 'stale' | 'none', the tap, the answer's HTML)."""
    page = tablet.get(reverse("games:table_play", args=[table.pk]))
    assert page.status_code == 200
    tap = mind.next_tap(load_pupils.Page.read(page.content))
    if tap is None:
        return "none", None, ""
    table.refresh_from_db()
    before = table.version
    answer = tablet.post(reverse("games:table_move", args=[table.pk]), tap, **HTMX)
    assert answer.status_code == 200, tap
    text = answer.content.decode()
    table.refresh_from_db()
    if table.version > before:
        # A wrong result typed is applied (the cards stay in the hand): it says so.
        return "wrong" if 'class="feedback wrong"' in text else "applied", tap, text
    if "The game moved on" in text:
        return "stale", tap, text
    return "refused", tap, text


def play(table, pupils, minds, taps=TAPS) -> dict:
    """Each pupil in turn reads their page and taps, until ``taps`` taps
    (or a round where no page asks for anything)."""
    devices = tablets(pupils)
    done: dict = {"applied": [], "wrong": 0, "refused": [], "stale": 0}
    while taps_in(done) < taps:
        tapped = False
        for tablet, mind in zip(devices, minds, strict=True):
            result, tap, text = tap_once(table, tablet, mind)
            if result == "none":
                continue
            tapped = True
            if result == "applied":
                done["applied"].append(tap["type"])
            elif result == "wrong":
                done["wrong"] += 1
            elif result == "refused":
                notes = re.findall(r'<p class="note error"[^>]*>([^<]*)<', text)
                done["refused"].append((tap, notes))
            else:
                done["stale"] += 1
        if not tapped:
            break
    return done


def taps_in(done: dict) -> int:
    return len(done["applied"]) + done["wrong"] + len(done["refused"]) + done["stale"]


def mostly_applied(done: dict) -> bool:
    """At least TAPS taps, most of them applied (a result typed wrong is not)."""
    total = taps_in(done)
    return total >= TAPS and len(done["applied"]) >= MOST * total


# --------------------------------------------------------------------------- Nambarz


def test_nambarz_pupils_play_a_real_table(classroom, teacher, pupils):
    # Three rounds, as the load bench plays: one may be over in 20 taps.
    session, table = one_table(classroom, teacher, pupils, game="nambarz",
                               options={"rounds": 3, "jokers": 12}, seed=11)
    minds = [load_pupils.mind_for("nambarz") for _ in pupils]
    done = play(table, pupils, minds)
    assert mostly_applied(done), done
    state = state_of(table)
    # The game moved on: turns went round, cards left the hands for the discard.
    assert state.turn >= 8 or state.over
    assert len(state.discard) > 4
    laid = [kind for kind in done["applied"] if kind in ("match", "calculate")]
    assert len(laid) >= 5, done["applied"]


def nambarz_table(classroom, teacher, pupils, hands, target, **more):
    """Léa (0) and Noah (1) with chosen hands, the target on the discard."""
    session, table = one_table(classroom, teacher, pupils[:2], game="nambarz",
                               options={}, seed=5)
    state = state_of(table)
    used = {c for hand in hands for c in hand} | {target}
    pile = tuple(c for c in range(len(state.cards)) if c not in used)
    put(table, replace(state, hands=tuple(tuple(h) for h in hands), pile=pile,
                       discard=(target,), current=0, **more))
    return table


def symbol(number: int, copy: int = 0) -> int:
    return (number - 1) * 4 + copy


def test_nambarz_calculates_the_target_when_no_card_matches(classroom, teacher, pupils,
                                                            monkeypatch):
    monkeypatch.setattr(load_pupils, "MISTAKES", 0.0)
    # 3 × 3 − 1 = 8, or 9 − 1 = 8: no card is an 8.
    hand = [symbol(3), symbol(3, 1), symbol(1), symbol(9)]
    table = nambarz_table(classroom, teacher, pupils, [hand, [symbol(7)]], symbol(8))
    result, tap, _ = tap_once(table, tablets(pupils[:1])[0], load_pupils.NambarzMind())
    assert result == "applied" and tap["type"] == "calculate", tap
    state = state_of(table)
    # 9 − 1 or 3 × 3 − 1: both are simplest (no part of them makes 8).
    assert len(state.hands[0]) in (1, 2) and state.current == 1


@pytest.mark.parametrize(("drawn", "then"), [
    (symbol(5, 1), "match"),  # the same number as the target: laid at once
    (symbol(4), "calculate"),  # 9 − 4 = 5: a calculation with the card drawn
    (40 + 2 * 4, "pass"),  # a drawing card: with symbol cards, no calculation
])
def test_nambarz_draws_then_plays_or_passes_the_card_drawn(classroom, teacher, pupils, drawn,
                                                           then, monkeypatch):
    monkeypatch.setattr(load_pupils, "MISTAKES", 0.0)
    # 1 and 9 make no 5, and neither is a 5: the pupil draws.
    table = nambarz_table(classroom, teacher, pupils, [[symbol(1), symbol(9)], [symbol(7)]],
                          symbol(5))
    state = state_of(table)
    put(table, replace(state, pile=tuple(c for c in state.pile if c != drawn) + (drawn,)))
    lea = tablets(pupils[:1])[0]
    mind = load_pupils.NambarzMind()
    taps = [tap_once(table, lea, mind) for _ in range(2)]
    assert [(result, tap["type"]) for result, tap, _ in taps] == [
        ("applied", "draw"), ("applied", then)]
    assert state_of(table).current == 1


def test_nambarz_lays_one_card_on_a_change_joker(classroom, teacher, pupils):
    change = next(c.id for c in CARDS if c.joker == "change_number")
    drawing_card = next(c.id for c in CARDS if c.family == "drawing" and c.number == 4)
    hand = [drawing_card, symbol(6)]
    table = nambarz_table(classroom, teacher, pupils, [hand, [symbol(7)]], change)
    result, tap, _ = tap_once(table, tablets(pupils[:1])[0], load_pupils.NambarzMind())
    # The joker asks for a symbol card: the 6, not the drawing card.
    assert result == "applied" and tap["type"] == "match" and tap["card"] == str(symbol(6))


# --------------------------------------------------------------------------- NUM-X


def test_numx_pupils_play_a_real_table(classroom, teacher, pupils):
    session, table = one_table(classroom, teacher, pupils, game="numx",
                               options={"mode": "speed_run"}, seed=11)
    minds = [load_pupils.mind_for("numx") for _ in pupils]
    done = play(table, pupils, minds)
    assert mostly_applied(done), done
    state = state_of(table)
    # The secret choice was made by all three, then tricks were laid.
    assert done["applied"].count("choose") == 3
    assert state.phase != "choose"
    assert done["applied"].count("trick") >= 5, done["applied"]


def numx_table(classroom, teacher, pupils, hands, tricks=(), current=0, players=3, **more):
    session, table = one_table(classroom, teacher, pupils[:players], game="numx",
                               options={}, seed=5)
    state = state_of(table)
    used = {c for h in hands for c in h} | {c for t in tricks for c in t.cards}
    for row in more.get("rows", ()):
        used |= {c for c, _ in row}
    pile = tuple(c.id for c in deck(actions=state.actions) if c.id not in used)
    more.setdefault("rows", ((),) * players)
    state = replace(
        state, phase="play", hands=tuple(tuple(h) for h in hands), pile=pile, discard=(),
        chosen=(), current=current, tricks=tuple(tricks), passed=(), pending=None,
        blocked=(False,) * players, protected=(False,) * players, **more,
    )
    return table, put(table, state)


def test_numx_adds_its_rainbow_out_of_turn(classroom, teacher, pupils):
    # Léa (0) laid 7 7; it is Noah's (1) turn; Inès (2) holds the Rainbow 7.
    table, _ = numx_table(
        classroom, teacher, pupils,
        [["green2", "blue10"], ["red9", "green9", "yellow11"], ["rainbow7", "red13"]],
        tricks=[Trick(0, ("blue7", "red7"), 7, "number")], current=1,
    )
    ines = tablets(pupils[2:3])[0]
    mind = load_pupils.NumxMind()
    result, tap, _ = tap_once(table, ines, mind)
    assert result == "applied" and tap["type"] == "rainbow", tap
    assert mind.think[1] <= 3.0  # spotted at once
    state = state_of(table)
    assert state.last.cards == ("blue7", "red7", "rainbow7") and state.current == 0


def test_numx_climbs_with_the_lowest_trick_it_can(classroom, teacher, pupils):
    table, _ = numx_table(
        classroom, teacher, pupils,
        [["green2", "blue10"], ["red9", "green9", "blue5", "yellow11", "red11"],
         ["red13", "blue1"]],
        tricks=[Trick(0, ("blue7", "red7"), 7, "number")], current=1,
    )
    noah = tablets(pupils[1:2])[0]
    result, tap, _ = tap_once(table, noah, load_pupils.NumxMind())
    assert result == "applied", tap
    if tap["type"] == "trick":
        assert set(tap["cards"].split(",")) in ({"red9", "green9"}, {"yellow11", "red11"})


def test_numx_hands_out_the_tour_within_the_limits(classroom, teacher, pupils):
    table, state = numx_table(
        classroom, teacher, pupils, [["blue2", "red4"], ["blue5", "red9"]], players=2,
        tricks=[Trick(1, ("green3",), 3, "number"),
                Trick(0, ("blue6", "shadow6"), 6, "number"),
                Trick(1, ("red8", "rainbow8", "yellow8"), 8, "number")],
    )
    put(table, replace(state, phase="distribute", winner=0, current=0))
    result, tap, _ = tap_once(table, tablets(pupils[:1])[0], load_pupils.NumxMind())
    assert result == "applied" and tap["type"] == "distribute", tap
    state = state_of(table)
    assert state.phase == "play" and sum(len(row) for row in state.rows) == 4


def test_numx_answers_a_malus(classroom, teacher, pupils):
    table, state = numx_table(
        classroom, teacher, pupils, [["blue2", "red4"], ["blue5", "red9", "green1"]],
        players=2, rows=((), (("blue8", True), ("red3", False))),
    )
    lea, noah = tablets(pupils[:2])
    for owed, kind in (((1, "discard", 2, ()), "malus_discard"),
                       ((1, "remove", 1, ()), "malus_remove"),
                       ((1, "place", 2, ("green12", "yellow0")), "malus_place")):
        now = state_of(table)
        put(table, replace(now, current=0, pile=tuple(c for c in now.pile if c not in owed[3]),
                           pending=Pending("malus", 0, "malus1", (owed,), True)))
        result, tap, _ = tap_once(table, noah, load_pupils.NumxMind())
        assert result == "applied" and tap["type"] == kind, tap


def test_numx_counts_its_score_cards(classroom, teacher, pupils, monkeypatch):
    monkeypatch.setattr(load_pupils, "MISTAKES", 0.0)
    table, state = numx_table(
        classroom, teacher, pupils, [[], []], players=2, rows=(
            (("blue5", True), ("red5", False), ("rainbow5", True), ("green2", True),
             ("green9", False), ("shadow11", True), ("blue11", True)),
            (("blue4", True),),
        ),
    )
    put(table, start_count(replace(state, current=None)))
    lea, noah = tablets(pupils[:2])
    mind = load_pupils.NumxMind()
    while (result := tap_once(table, lea, mind))[0] != "none":
        assert result[0] == "applied", result[1]
    assert tap_once(table, noah, load_pupils.NumxMind())[0] == "applied"
    state = state_of(table)
    # 5 + 5 + 5, the Shadow 11 (0), the blue 11 alone and the green 2: all typed right.
    assert state.phase == "over" and state.totals[0] == 15 + 0 + 2 + 11
    assert all(
        event["data"]["correct"]
        for events in table.moves.values_list("events", flat=True)
        for event in events if event["kind"].startswith("counted")
    )


# --------------------------------------------------------------------------- the check


class Nonsense:
    """A mind whose taps are not what the page offers: the move its real
    mind chose, sent as another type."""

    def __init__(self, game: str) -> None:
        self.mind = load_pupils.mind_for(game)
        self.think = self.mind.think

    def next_tap(self, page):
        tap = self.mind.next_tap(page)
        return None if tap is None else {**tap, "type": "keep" if "card" in tap else "pass"}


@pytest.mark.parametrize("game", ["nambarz", "numx"])
def test_a_mind_that_posts_nonsense_is_caught(classroom, teacher, pupils, game):
    session, table = one_table(classroom, teacher, pupils, game=game, options={}, seed=11)
    done = play(table, pupils, [Nonsense(game) for _ in pupils])
    assert not mostly_applied(done)


# --------------------------------------------------------------------------- Number Quest


def test_number_quest_alone_with_the_computer_sends_each_calculation_whole(
    classroom, teacher, pupils, monkeypatch
):
    """As the page's script does: the steps typed on the tablet and the tap
    on the square they made, one request, which the table takes as its steps
    and its tap."""
    session, table = one_table(
        classroom, teacher, pupils[:1], game="numberquest", options={"preset": "addition"},
        players=2, bot_level="beginner", seed=4,
    )
    lea = pupils[0]
    table.seats.filter(pupil=lea).update(player=9)
    table.seats.filter(pupil__isnull=True).update(player=1)
    table.seats.filter(pupil=lea).update(player=0)
    dice = (2, 3, 4, 5)  # 14: a free square
    put(table, replace(
        state_of(table), current=0, dice=dice,
        available=tuple((d, f"die:{i}") for i, d in enumerate(dice)),
    ))
    monkeypatch.setattr(load_pupils, "MISTAKES", 0)
    tablet, mind = tablets([lea])[0], load_pupils.mind_for("numberquest")
    result, tap, text = tap_once(table, tablet, mind)
    assert tap["type"] == "steps" and result == "applied"
    assert len(tap["op"]) == len(tap["left"]) == len(tap["ms"]) == 3
    assert mind.think == (8.0, 20.0)  # three steps and a tap
    after = state_of(table)
    assert after.owner(int(tap["square"])) == 0 and after.current == 1


@pytest.mark.parametrize("spare", ["red11", "numx"])
def test_numx_a_blocked_pupil_taps_pass_or_num_x(classroom, teacher, pupils, spare):
    # Rulebook 4: the turn reaches a blocked pupil whatever they hold; the
    # load pupil must tap (Pass, or Num-X if it holds it), or its table stops.
    table, state = numx_table(
        classroom, teacher, pupils, [["blue2", "red4"], ["blue9", spare], ["red13", "blue1"]],
        tricks=[Trick(0, ("green3",), 3, "number")], current=1,
    )
    put(table, replace(state, blocked=(False, True, False), blocked_by=(None, 2, None)))
    result, tap, _ = tap_once(table, tablets(pupils[1:2])[0], load_pupils.NumxMind())
    assert result == "applied" and tap["type"] in ("pass", "trick"), tap
    if spare != "numx":
        assert tap["type"] == "pass"
    assert not state_of(table).blocked[1]
