"""NUM-X on the pages: the secret first choice, tricks, actions, the
out-of-turn Rainbow, the hand-out, the count; refusals a child can read,
hidden cards checked in the bytes, bots, evidence, French, permissions."""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from classroom.models import Attempt
from classroom.reports.filters import ReportFilters
from classroom.reports.services import class_report
from engine.numx import bot_moves, waiting_on
from engine.numx.cards import deck
from engine.numx.count import start_count
from engine.numx.state import NumxState
from engine.numx.tricks import Trick
from games import live, services
from games.models import GameSession, Table
from games.pages import engine_of
from games.pages.numx.words import event_text as said_in_log
from tests.conftest import tap_pictures

from .conftest import one_table

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
ENGINE = engine_of("numx")


@pytest.fixture
def start(classroom, teacher, pupils):
    """A NUM-X table: Léa is player 0, Noah player 1, Inès player 2 (or computers)."""

    def _start(players=2, pupils_seated=None, bot_level="", options=None,
               tablets=GameSession.Tablets.OWN, seed=5):
        seated = pupils[: pupils_seated if pupils_seated is not None else players]
        return one_table(
            classroom, teacher, seated, game="numx", options=options or {},
            players=players, bot_level=bot_level, tablets=tablets, seed=seed,
        )

    return _start


def state_of(table) -> NumxState:
    table.refresh_from_db()
    return ENGINE.from_json(table.state)


def put(table, state: NumxState) -> NumxState:
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    return state


def deal(table, hands, rows=None, current=0, tricks=(), **more) -> NumxState:
    """A table in play with chosen hands, rows ((card, face up) pairs) and tricks;
    every other card in the pile."""
    state = state_of(table)
    rows = rows or [[] for _ in hands]
    used = {c for h in hands for c in h} | {c for r in rows for c, _ in r}
    used |= {c for t in tricks for c in t.cards}
    pile = tuple(c.id for c in deck(actions=state.actions) if c.id not in used)
    state = replace(
        state, phase="play", hands=tuple(tuple(h) for h in hands),
        rows=tuple(tuple(tuple(e) for e in r) for r in rows), pile=pile, discard=(),
        chosen=(), current=current, tricks=tuple(tricks), passed=(), pending=None,
        blocked=(False,) * state.players, protected=(False,) * state.players, **more,
    )
    return put(table, state)


def post_move(client, table, **fields):
    table.refresh_from_db()
    data = {"version": table.version, "move_id": f"tap-{table.version}-{fields.get('type')}",
            **fields}
    return client.post(reverse("games:table_move", args=[table.pk]), data, **HTMX)


def page_of(client, table, **headers):
    return client.get(reverse("games:table_play", args=[table.pk]), **headers)


def tablet(client_class, pupil):
    other = client_class()
    tap_pictures(other, pupil, pupil.password_pictures)
    return other


def notes(html: str) -> list[str]:
    return [html_lib.unescape(n) for n in re.findall(r'<p class="note[^>]*>([^<]*)<', html)]


def card_ids(html: str) -> set[str]:
    return set(re.findall(r'data-card="([a-z]+\d*)"', html))


def feedback(html: str) -> list[str]:
    return [html_lib.unescape(n) for n in re.findall(
        r'<p class="feedback[^"]*"[^>]*>(?:<span[^>]*>[^<]*</span>)?([^<]*)<', html)]


def poll_of(client, page: str) -> str:
    """What this tablet's poll answers (the full table: no version given)."""
    url = re.search(r'hx-get="([^"]+poll[^"]+)"', page).group(1).replace("&amp;", "&")
    return client.get(url.split("&v=")[0], **HTMX).content.decode()


# --------------------------------------------------------------------------- the secret choice


def test_the_secret_choice_turns_over_together(start, client, pupils):
    session, table = start()
    state = state_of(table)
    lea_hand, noah_hand = state.hands
    lea, noah = tablet(client.__class__, pupils[0]), tablet(client.__class__, pupils[1])
    page = page_of(lea, table).content.decode()
    assert "Choose your first score card: tap one of your cards." in page
    assert card_ids(page) == set(lea_hand)
    old_version_page = page_of(noah, table).content.decode()

    # Léa chooses, then changes her mind: both are hers alone to see.
    post_move(lea, table, type="choose", card=lea_hand[0])
    answer = post_move(lea, table, type="choose", card=lea_hand[1]).content.decode()
    assert "You have chosen. Waiting for Noah B." in html_lib.unescape(answer)
    assert "Noah B.." not in html_lib.unescape(answer)  # a name's initial ends the sentence
    assert state_of(table).chosen == (lea_hand[1], None)
    noah_page = page_of(noah, table).content.decode()
    assert "✓ chosen" in noah_page and card_ids(noah_page) == set(noah_hand)
    for card in lea_hand:
        assert f'"{card}"' not in noah_page and f'"{card}"' not in poll_of(noah, noah_page)

    # Noah's tablet was drawn before Léa chose: his choice still goes through.
    version = re.search(r'name="version" value="(\d+)"', old_version_page).group(1)
    seen = re.search(r'name="seen" value="([^"]*)"', old_version_page).group(1)
    answer = noah.post(reverse("games:table_move", args=[table.pk]), {
        "type": "choose", "card": noah_hand[2], "version": version, "seen": seen,
        "move_id": "noah-choice"}, **HTMX).content.decode()
    assert "The game moved on" not in answer
    state = state_of(table)
    assert state.phase == "play"
    assert state.rows == (((lea_hand[1], True),), ((noah_hand[2], True),))
    assert "The cards turn over together" in html_lib.unescape(answer)
    starter = ["Léa M.", "Noah B."][state.current]
    assert f"{starter} starts." in html_lib.unescape(answer)


# --------------------------------------------------------------------------- tricks


def test_a_trick_a_refusal_in_words_and_the_next_turn(start, client, pupils):
    session, table = start()
    deal(table, [["blue7", "red7", "green3"], ["blue5", "yellow9", "red9", "green12"]])
    lea, noah = tablet(client.__class__, pupils[0]), tablet(client.__class__, pupils[1])
    page = html_lib.unescape(page_of(lea, table).content.decode())
    assert "You start the lap: lay 1 or 2 cards of one number" in page
    answer = post_move(lea, table, type="trick", cards="blue7,green3").content.decode()
    assert notes(answer) == ["All the cards of a trick have the same number."]
    answer = html_lib.unescape(post_move(lea, table, type="trick", cards="blue7,red7").content
                               .decode())
    assert "Léa M. played blue 7 + red 7." in feedback(answer)
    state = state_of(table)
    assert state.current == 1 and state.hands[0] == ("green3",)
    assert [t.cards for t in state.tricks] == [("blue7", "red7")]
    page = html_lib.unescape(page_of(noah, table).content.decode())
    assert "Play higher than 7 with 2 cards" in page
    assert notes(post_move(noah, table, type="trick", cards="blue5").content.decode()) == [
        "Play higher than 7."]
    said = notes(post_move(noah, table, type="trick", cards="yellow9").content.decode())
    assert said == ["Your trick has 1 card, but here a trick has 2 cards (one more with a "
                    "Rainbow, one fewer with a Shadow; 3 to start needs one of them)."]
    # Léa may not play: it is Noah's turn.
    assert notes(post_move(lea, table, type="trick", cards="green3").content.decode()) == [
        "Wait: it is not your turn yet."]
    post_move(noah, table, type="trick", cards="yellow9,red9")
    assert state_of(table).last.cards == ("yellow9", "red9")


def test_a_joker_alone_takes_the_number_the_pupil_says(start, pupil_client):
    session, table = start()
    deal(table, [["joker1", "blue2"], ["blue5", "red9"]])
    page = page_of(pupil_client, table).content.decode()
    assert "Which number is the Joker?" in page
    answer = post_move(pupil_client, table, type="trick", cards="joker1", value="11")
    assert "Léa M. played Joker (the Joker is a 11)." in html_lib.unescape(
        answer.content.decode())
    assert state_of(table).last.value == 11


def test_a_drawn_card_that_can_be_played_is_played_at_once(start, pupil_client):
    session, table = start()
    state = deal(table, [["blue2", "red4"], ["blue5", "red9"]],
                 tricks=[Trick(1, ("green3",), 3, "number")], current=0)
    # The pile's top (its last card) is the card drawn: a 6 that can go on the 3.
    put(table, replace(state, pile=tuple(c for c in state.pile if c != "yellow6") + ("yellow6",)))
    answer = html_lib.unescape(post_move(pupil_client, table, type="draw").content.decode())
    assert "You drew yellow 6: it can be played, play it now." in answer
    assert 'data-must="1"' in answer and 'data-testid="keep"' not in answer
    assert notes(post_move(pupil_client, table, type="trick", cards="red4").content.decode()) \
        == ["Play the card you drew: it can be played."]
    assert notes(post_move(pupil_client, table, type="keep").content.decode()) \
        == ["Play the card you drew: it can be played."]
    answer = post_move(pupil_client, table, type="trick", cards="yellow6").content.decode()
    assert "Léa M. played yellow 6." in html_lib.unescape(answer)


def test_a_drawn_card_that_cannot_be_played_is_kept(start, pupil_client):
    session, table = start()
    state = deal(table, [["blue2", "red4"], ["blue5", "red9"]])
    assert notes(post_move(pupil_client, table, type="pass").content.decode()) == [
        "You start this lap: play a card."]
    put(table, replace(state, tricks=(Trick(1, ("green13",), 13, "number"),),
                       pile=tuple(c for c in state.pile if c != "yellow6") + ("yellow6",)))
    answer = html_lib.unescape(post_move(pupil_client, table, type="draw").content.decode())
    assert "Léa M. kept the card." in answer
    state = state_of(table)
    assert "yellow6" in state.hands[0] and state.current == 1


def test_a_game_of_the_first_rulebook_may_keep_the_drawn_card(start, pupil_client):
    session, table = start(options={"rulebook": 1})
    state = deal(table, [["blue2", "red4"], ["blue5", "red9"]],
                 tricks=[Trick(1, ("green3",), 3, "number")], current=0)
    put(table, replace(state, pile=tuple(c for c in state.pile if c != "yellow6") + ("yellow6",)))
    answer = html_lib.unescape(post_move(pupil_client, table, type="draw").content.decode())
    assert "You drew yellow 6: play it now, or keep it." in answer
    assert 'data-testid="keep"' in answer
    answer = html_lib.unescape(post_move(pupil_client, table, type="keep").content.decode())
    assert "Léa M. kept the card." in answer
    assert "yellow6" in state_of(table).hands[0] and state_of(table).current == 1


def test_a_face_up_score_card_taken_back_and_played(start, pupil_client):
    session, table = start()
    deal(table, [["blue2", "red8"], ["blue5", "red9"]], rows=[[("green8", True),
                                                                ("yellow1", False)], []])
    page = page_of(pupil_client, table).content.decode()
    assert 'data-pick="row" data-row="0" data-card="green8"' in page
    # The face-down card is hidden from its owner too.
    assert "yellow1" not in page and "yellow 1" not in page
    answer = post_move(pupil_client, table, type="trick", cards="red8,green8", from_row="0")
    assert "Léa M. played red 8 + green 8." in html_lib.unescape(answer.content.decode())
    state = state_of(table)
    assert state.rows[0] == (("yellow1", False),) and state.hands[0] == ("blue2",)


# --------------------------------------------------------------------------- action cards


@pytest.mark.parametrize(
    "fields, said, check",
    [
        ({"card": "block1", "target": "1"}, "Léa M. played Block: Noah B. must pass.",
         lambda s: s.blocked[1]),
        ({"card": "flip1", "target": "all"},
         "Léa M. played Flip: the score cards of Léa M. and Noah B. turn over.",
         lambda s: s.rows[1] == (("red3", False),)),
        ({"card": "swipe1", "target": "0", "direction": "right"},
         "Léa M. played Swipe to the right on Léa M.",
         lambda s: s.rows[1][0] == ("green8", True)),
        ({"card": "eclair1", "mine": "0", "theirs": "1:0"},
         "Léa M. played Lightning: a score card swapped with Noah B.",
         lambda s: s.rows[0][0] == ("red3", True)),
        ({"card": "quantique1", "target": "0"},
         "Léa M. played Quantum: Léa M. protected until the end of the lap.",
         lambda s: s.protected[0]),
    ],
)
def test_action_cards_ask_their_target(start, pupil_client, fields, said, check):
    session, table = start()
    deal(table, [["blue2", fields["card"]], ["blue5", "red9"]],
         rows=[[("green8", True)], [("red3", True)]],
         tricks=[Trick(1, ("green3",), 3, "number")])
    page = page_of(pupil_client, table).content.decode()
    assert f'data-action="{fields["card"]}"' in page
    answer = post_move(pupil_client, table, type="action", **fields).content.decode()
    assert said in html_lib.unescape(answer), notes(answer)
    assert check(state_of(table))


def test_an_action_aimed_at_a_protected_player_is_refused(start, pupil_client):
    session, table = start()
    deal(table, [["blue2", "flip1"], ["blue5", "red9"]], rows=[[], [("red3", True)]])
    state = state_of(table)
    put(table, replace(state, protected=(False, True)))
    answer = post_move(pupil_client, table, type="action", card="flip1", target="1")
    assert notes(answer.content.decode()) == ["Quantum protects this player this lap."]


def test_a_malus_makes_its_target_choose(start, client, pupils):
    session, table = start()
    # Malus 5 is (-1, -1): Noah throws away a card and removes a score card.
    deal(table, [["blue2", "malus5"], ["blue5", "red9", "green11"]],
         rows=[[], [("red3", True), ("yellow4", False)]])
    lea, noah = tablet(client.__class__, pupils[0]), tablet(client.__class__, pupils[1])
    post_move(lea, table, type="action", card="malus5", target="1")
    page = html_lib.unescape(page_of(noah, table).content.decode())
    assert "Penalty: tap 1 card of your hand to throw away." in page
    assert notes(post_move(noah, table, type="malus_discard", cards="blue5,red9").content
                 .decode()) == ["Penalty: tap the right number of cards."]
    post_move(noah, table, type="malus_discard", cards="red9")
    page = html_lib.unescape(page_of(noah, table).content.decode())
    assert "Penalty: tap 1 of your score cards to remove." in page
    answer = html_lib.unescape(post_move(noah, table, type="malus_remove", indices="1").content
                               .decode())
    assert "Noah B. removed 1 score card." in answer
    state = state_of(table)
    assert state.hands[1] == ("blue5", "green11") and state.rows[1] == (("red3", True),)
    assert state.pending is None and state.current == 1


def test_a_malus_that_adds_score_cards_lets_the_target_place_them(start, client, pupils):
    session, table = start()
    state = deal(table, [["blue2", "malus4"], ["blue5", "red9"]], rows=[[], [("red3", True)]])
    # Malus 4 is (+1, +1): Noah draws a card into his hand and one for his row.
    put(table, replace(state, pile=tuple(c for c in state.pile if c not in ("green5", "blue9"))
                       + ("green5", "blue9")))
    lea, noah = tablet(client.__class__, pupils[0]), tablet(client.__class__, pupils[1])
    post_move(lea, table, type="action", card="malus4", target="1")
    held = state_of(table).pending.owed[0][3]
    page = page_of(noah, table).content.decode()
    assert 'name="face-' + held[0] + '"' in page
    answer = post_move(noah, table, type="malus_place", offered=",".join(held),
                       **{f"face-{held[0]}": "down", f"end-{held[0]}": "left"})
    assert "Noah B. placed 1 card in their score row." in html_lib.unescape(
        answer.content.decode())
    assert state_of(table).rows[1][0] == (held[0], False)


# --------------------------------------------------------------------------- the Rainbow


def rainbow_table(start, **more):
    """Léa (0) has laid 7 7; it is Noah's (1) turn; Inès (2) holds the Rainbow 7."""
    session, table = start(players=3, **more)
    deal(table, [["green2", "blue10"], ["red9", "green9", "yellow11"], ["rainbow7", "red13"]],
         tricks=[Trick(0, ("blue7", "red7"), 7, "number")], current=1)
    return session, table


def test_the_pupil_who_is_not_playing_adds_a_rainbow(start, client, pupils):
    session, table = rainbow_table(start)
    lea, noah, ines = (tablet(client.__class__, p) for p in pupils)
    ines_page = html_lib.unescape(page_of(ines, table).content.decode())
    assert "Noah B. is playing." in ines_page
    assert "Add my Rainbow 7 to the trick!" in ines_page
    for other in (lea, noah):
        assert 'data-testid="add-rainbow"' not in page_of(other, table).content.decode()
    answer = html_lib.unescape(post_move(ines, table, type="rainbow", card="rainbow7", trick="0",
                                         size="2").content.decode())
    assert "Inès D. added Rainbow 7 to the trick, out of turn!" in answer
    assert "Noah B. lost their turn." in answer
    state = state_of(table)
    assert state.last.cards == ("blue7", "red7", "rainbow7") and state.current == 0
    noah_page = html_lib.unescape(page_of(noah, table).content.decode())
    assert "You lost your turn: Inès D. added a Rainbow out of turn." in noah_page
    assert "Trick completed by Inès D. with a Rainbow" in noah_page


def test_two_taps_at_once_one_wins_the_other_is_told_why(start, client, pupils):
    session, table = rainbow_table(start)
    noah, ines = tablet(client.__class__, pupils[1]), tablet(client.__class__, pupils[2])
    ines_page = page_of(ines, table).content.decode()
    # Noah covers the trick first; Inès's Rainbow, sent from the older page, comes too late.
    post_move(noah, table, type="trick", cards="red9,green9")
    version = re.search(r'name="version" value="(\d+)"', ines_page).group(1)
    seen = re.search(r'name="seen" value="([^"]*)"', ines_page).group(1)
    answer = ines.post(reverse("games:table_move", args=[table.pk]), {
        "type": "rainbow", "card": "rainbow7", "trick": "0", "size": "2", "version": version,
        "seen": seen, "move_id": "ines-rainbow"}, **HTMX).content.decode()
    assert notes(answer) == ["Too late: the trick changed before your Rainbow arrived."]
    assert "rainbow7" in state_of(table).hands[2]


def test_the_player_whose_turn_it_was_hears_of_the_rainbow(start, client, pupils):
    session, table = rainbow_table(start)
    noah, ines = tablet(client.__class__, pupils[1]), tablet(client.__class__, pupils[2])
    noah_page = page_of(noah, table).content.decode()
    post_move(ines, table, type="rainbow", card="rainbow7", trick="0", size="2")
    version = re.search(r'name="version" value="(\d+)"', noah_page).group(1)
    seen = re.search(r'name="seen" value="([^"]*)"', noah_page).group(1)
    answer = html_lib.unescape(noah.post(reverse("games:table_move", args=[table.pk]), {
        "type": "trick", "cards": "red9,green9", "version": version, "seen": seen,
        "move_id": "noah-late"}, **HTMX).content.decode())
    assert notes(answer)[-1] == "Wait: it is not your turn yet."
    assert "You lost your turn: Inès D. added a Rainbow out of turn." in answer
    assert state_of(table).hands[1] == ("red9", "green9", "yellow11")


def test_the_lost_turn_note_goes_when_the_turn_comes_back(start, client, pupils, teacher):
    # Inès's Rainbow jumps over Noah; Léa plays on. When the turn is Noah's
    # again, "You lost your turn" beside "Your turn!" would contradict it.
    session, table = rainbow_table(start)
    lea, noah, ines = (tablet(client.__class__, p) for p in pupils)
    post_move(ines, table, type="rainbow", card="rainbow7", trick="0", size="2")
    noah_page = html_lib.unescape(page_of(noah, table, HTTP_ACCEPT_LANGUAGE="fr").content
                                  .decode())
    assert "Tu as perdu ton tour : Inès D. a ajouté un Arc-en-ciel hors de son tour." \
        in noah_page
    assert "Noah B. a perdu son tour." in noah_page
    teacher_view = client.__class__()
    teacher_view.force_login(teacher)
    projector = html_lib.unescape(teacher_view.get(
        reverse("games:table_projector", args=[table.pk])).content.decode())
    assert "Noah B. lost their turn." in projector and "You lost" not in projector
    post_move(lea, table, type="pass")
    assert state_of(table).current == 1
    noah_page = html_lib.unescape(page_of(noah, table).content.decode())
    assert "Your turn!" in noah_page and "You lost your turn" not in noah_page
    assert "Noah B. lost their turn." in noah_page


def test_a_rainbow_from_a_pupil_who_passed_costs_no_one_a_turn(start, client, pupils, teacher):
    # Léa (0) laid 7 7; Noah (1) passed; Inès (2) plays. Noah adds his Rainbow:
    # play resumes after him, with Inès, whose turn it still is (RULES 4.6).
    session, table = start(players=3)
    deal(table, [["green2", "blue10"], ["rainbow7", "red13"], ["red9", "green9", "yellow11"]],
         tricks=[Trick(0, ("blue7", "red7"), 7, "number")], current=1)
    noah, ines = tablet(client.__class__, pupils[1]), tablet(client.__class__, pupils[2])
    post_move(noah, table, type="pass")
    answer = html_lib.unescape(post_move(noah, table, type="rainbow", card="rainbow7",
                                         trick="0", size="2").content.decode())
    assert "Noah B. added Rainbow 7 to the trick, out of turn!" in answer
    assert "lost their turn" not in answer
    state = state_of(table)
    assert state.current == 2 and state.owner == 1
    for language, yours, lost in (("en", "Your turn!", "lost their turn"),
                                  ("fr", "À toi de jouer !", "perdu")):
        page = html_lib.unescape(page_of(ines, table, HTTP_ACCEPT_LANGUAGE=language).content
                                 .decode())
        assert yours in page and lost not in page
    teacher_view = client.__class__()
    teacher_view.force_login(teacher)
    # The teacher's projector tells the same: the Rainbow, and no lost turn.
    projector = html_lib.unescape(teacher_view.get(
        reverse("games:table_projector", args=[table.pk])).content.decode())
    assert "Noah B. added Rainbow 7 to the trick, out of turn!" in projector
    assert "lost their turn" not in projector


def test_a_computer_not_waited_on_adds_its_rainbow(start, pupil_client):
    session, table = start(players=3, pupils_seated=2, bot_level="greedy")
    deal(table, [["green2", "blue10"], ["red9", "green9", "yellow11"], ["rainbow7", "red13"]],
         tricks=[Trick(0, ("blue7", "red7"), 7, "number")], current=1)
    table.refresh_from_db()
    # Noah, a pupil, is the one the game waits on; the computer owes a move all the same.
    assert services.due_at(table, state_of(table)) is not None
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(minutes=1))
    assert services.advance(table.pk)
    state = state_of(table)
    assert state.last.cards[-1] == "rainbow7" and state.current == 0
    assert table.moves.latest("number").events[0]["kind"] == "rainbow"


def test_no_rainbow_no_server_move(start, pupil_client):
    session, table = start(players=3, pupils_seated=2, bot_level="greedy")
    deal(table, [["green2", "blue10"], ["red9", "green9", "yellow11"], ["blue13", "red13"]],
         tricks=[Trick(0, ("blue7", "red7"), 7, "number")], current=1)
    table.refresh_from_db()
    assert services.due_at(table, state_of(table)) is None


# --------------------------------------------------------------------------- the hand-out


def distribute_table(start):
    session, table = start()
    state = deal(table, [["blue2", "red4"], ["blue5", "red9"]],
                 tricks=[Trick(1, ("green3",), 3, "number"),
                         Trick(0, ("blue6", "shadow6"), 6, "number"),
                         Trick(1, ("red8", "rainbow8", "yellow8"), 8, "number")])
    return session, table, put(table, replace(state, phase="distribute", winner=0, current=0))


def checked(html: str) -> set[tuple[str, str]]:
    """The radio buttons of the hand-out a page has checked, as (name, value)."""
    return set(re.findall(
        r'<input type="radio" name="((?:to|face|end)-[a-z]+\d*)" value="([^"]*)" checked', html))


def test_a_refused_hand_out_keeps_every_choice_and_says_why_by_the_button(start, client, pupils):
    session, table, state = distribute_table(start)
    lea = tablet(client.__class__, pupils[0])
    offered = "blue6,shadow6,red8,rainbow8,yellow8"
    answer = post_move(lea, table, type="distribute", offered=offered, **{
        "to-red8": "1", "face-red8": "down", "end-red8": "left",
        "to-blue6": "1", "end-blue6": "left", "to-yellow8": "1", "to-shadow6": "0",
        "face-rainbow8": "down"})
    page = answer.content.decode()
    assert notes(page) == ["No one may get more than half of the cards: 2 cards each at most."]
    assert checked(page) == {
        ("to-blue6", "1"), ("face-blue6", "up"), ("end-blue6", "left"),
        ("to-shadow6", "0"), ("face-shadow6", "up"), ("end-shadow6", "right"),
        ("to-red8", "1"), ("face-red8", "down"), ("end-red8", "left"),
        ("to-rainbow8", ""), ("face-rainbow8", "down"), ("end-rainbow8", "right"),
        ("to-yellow8", "1"), ("face-yellow8", "up"), ("end-yellow8", "right"),
    }
    # The refusal is said inside the form, just above its button, not at the top.
    form = page[page.index('class="nx-distribute"'):page.index('data-testid="hand-out"')]
    assert 'data-testid="note"' in form
    assert page.count('data-testid="note"') == 1
    # A forged choice falls back to the form's own default; the page then
    # draws the form afresh.
    answer = post_move(lea, table, type="distribute", offered=offered, **{
        "to-red8": "7", "face-red8": "sideways", "to-blue6": "1", "to-yellow8": "1",
        "to-shadow6": "1"})
    page = answer.content.decode()
    assert {("to-red8", ""), ("face-red8", "up"), ("to-shadow6", "1")} <= checked(page)
    assert "form-note-slot" not in page_of(lea, table).content.decode()
    assert checked(page_of(lea, table).content.decode()) >= {("to-red8", ""), ("to-blue6", "")}


def test_the_winner_hands_out_cards_and_the_limits_are_explained(start, client, pupils):
    session, table, state = distribute_table(start)
    lea, noah = tablet(client.__class__, pupils[0]), tablet(client.__class__, pupils[1])
    page = html_lib.unescape(page_of(lea, table).content.decode())
    assert "You win the lap! Hand out the score cards." in page
    # Five eligible cards, two players: 3 cannot be shared with at most half each.
    assert "Hand out 4 cards." in page
    assert "Léa M. hands out the score cards." in html_lib.unescape(
        page_of(noah, table).content.decode())
    offered = "blue6,shadow6,red8,rainbow8,yellow8"
    answer = post_move(lea, table, type="distribute", offered=offered, **{"to-red8": "1"})
    assert notes(answer.content.decode()) == ["Hand out at least 4 cards."]
    answer = post_move(lea, table, type="distribute", offered=offered, **{
        "to-red8": "1", "to-blue6": "1", "to-yellow8": "1", "to-shadow6": "0"})
    assert notes(answer.content.decode()) == [
        "No one may get more than half of the cards: 2 cards each at most."]
    answer = post_move(lea, table, type="distribute", offered=offered, **{
        "to-red8": "1", "face-red8": "down", "to-blue6": "1", "end-blue6": "left",
        "to-shadow6": "0", "to-yellow8": "0"})
    text = html_lib.unescape(answer.content.decode())
    assert ("Léa M. handed out: blue 6 to Noah B., Shadow 6 to Léa M., a card face down to "
            "Noah B., Yellow 8 to Léa M.".replace("Yellow", "yellow")) in text
    state = state_of(table)
    assert state.rows[1] == (("blue6", True), ("red8", False))
    assert state.phase == "play" and state.current == 0 and state.tricks == ()
    # The face-down card is no one's to see: not Noah's, not Léa's.
    for tablet_client in (lea, noah):
        row = page_of(tablet_client, table).content.decode()
        seat = row[row.index('data-testid="seat-1"'):]
        assert "red 8" not in seat and "red8" not in seat
        assert "a card face down" in seat


# --------------------------------------------------------------------------- the count


def count_table(start):
    session, table = start()
    state = deal(table, [[], []], rows=[
        [("blue5", True), ("red5", False), ("rainbow5", True), ("green2", True),
         ("green9", False)],
        [("blue4", True)],
    ])
    return session, table, put(table, start_count(replace(state, current=None)))


def test_the_count_is_typed_group_by_group(start, client, pupils):
    session, table, state = count_table(start)
    lea, noah = tablet(client.__class__, pupils[0]), tablet(client.__class__, pupils[1])
    page = html_lib.unescape(page_of(lea, table).content.decode())
    assert "Group 1 of 2: what are the 5s worth?" in page
    # Every row is face up for the count: Noah sees Léa's cards, all of them.
    assert "red 5" in html_lib.unescape(page_of(noah, table).content.decode())
    answer = html_lib.unescape(post_move(lea, table, type="count_group", value="5",
                                         worth="10").content.decode())
    assert "Léa M.: not quite, the 5s are worth 15 (not 10)." in answer
    assert "Group 2 of 2: what are the green cards left alone worth?" in answer
    answer = post_move(lea, table, type="count_group", colour="green", worth="2").content.decode()
    assert "Léa M.: the green cards left alone are worth 2. Right!" in html_lib.unescape(answer)
    answer = html_lib.unescape(post_move(lea, table, type="count_total", total="17").content
                               .decode())
    assert "Léa M.: the total is 17. Right!" in answer
    assert "Your score: 17 points" in answer
    attempts = list(Attempt.objects.filter(pupil=pupils[0]).order_by("pk")
                    .values_list("skill", "expected", "given", "correct"))
    # 10 is two 5s: a card miscounted, the scoring's mistake, not a product's.
    assert attempts == [("scoring", "15", "10", False),
                        ("scoring", "2", "2", True), ("add", "17", "17", True)]
    # Noah has one card: he types its worth and the game is over.
    post_move(noah, table, type="count_group", colour="blue", worth="4")
    final = html_lib.unescape(page_of(lea, table).content.decode())
    assert "You win!" in final and 'data-testid="scores"' in final
    report = class_report(session.classroom, ReportFilters(game="numx"))
    assert {"scoring", "mul", "add"} <= set(report.skills)


def test_a_count_out_of_order_or_not_typed_is_refused_in_words(start, pupil_client):
    session, table, state = count_table(start)
    answer = post_move(pupil_client, table, type="count_group", value="2", worth="2")
    assert notes(answer.content.decode()) == ["Count the 5s now."]
    answer = post_move(pupil_client, table, type="count_group", value="5", worth="abc")
    assert notes(answer.content.decode()) == ["Type a number with the keypad."]
    answer = post_move(pupil_client, table, type="count_total", total="3")
    assert notes(answer.content.decode()) == ["Count every group first."]
    assert state_of(table) == state


# --------------------------------------------------------------------------- hidden cards


def hidden_cards_table(start):
    """Three hands of every kind of card, face-down score cards, and the red 1
    on top of the pile for Léa to draw."""
    session, table = start(players=3)
    state = deal(
        table,
        [["blue14", "joker1", "flip1"], ["red15", "infini2", "malus3"], ["green16", "numx"]],
        rows=[[("yellow12", False)], [("shadow13", True)], [("rainbow11", False)]],
        tricks=[Trick(2, ("blue3",), 3, "number")],
    )
    put(table, replace(state, pile=state.pile[:-1] + ("red1",)))
    return session, table


def test_no_hidden_card_reaches_another_tablet_or_the_class_screen(
        start, client, teacher_client, pupils):
    session, table = hidden_cards_table(start)
    lea, noah, ines = (tablet(client.__class__, p) for p in pupils)
    post_move(lea, table, type="draw")  # Léa draws the red 1: hers alone to see
    hands = {0: {"blue14", "joker1", "flip1", "red1"}, 1: {"red15", "infini2", "malus3"},
             2: {"green16", "numx"}}
    names = {"blue14": "blue 14", "joker1": "Joker", "flip1": "Flip", "red1": "red 1",
             "red15": "red 15", "infini2": "Infinity", "malus3": "Penalty",
             "green16": "green 16", "numx": "Num-X"}
    face_down = {"yellow12": "yellow 12", "rainbow11": "Rainbow 11"}
    for player, pupil_tablet in ((0, lea), (1, noah), (2, ines)):
        page = page_of(pupil_tablet, table).content.decode()
        for body in (page, poll_of(pupil_tablet, page)):
            # Noah's turn came (Léa's card could not go): his face-up score
            # card may be taken back, so it is a button too.
            assert hands[player] <= card_ids(body) <= hands[player] | {"shadow13"}
            hidden = {c for p, h in hands.items() if p != player for c in h} | set(face_down)
            for card in hidden:
                assert f'"{card}"' not in body, (player, card)
                assert f'aria-label="{names.get(card) or face_down[card]}"' not in body
    live_page = teacher_client.get(reverse("games:session_live", args=[session.pk])).content
    projector = teacher_client.get(reverse("games:table_projector", args=[table.pk])).content
    for body in (live_page, projector):
        for card in set(names) | set(face_down):
            assert f'"{card}"'.encode() not in body, card
            assert f'aria-label="{names.get(card) or face_down[card]}"'.encode() not in body
        assert b'aria-label="Shadow 13"' in body  # a face-up score card is public


def test_a_shared_tablet_hides_the_hand_off_turn(start, pupil_client):
    session, table = start(tablets=GameSession.Tablets.SHARED)
    deal(table, [["blue2", "red4"], ["blue5", "red9"]], current=0)
    page = page_of(pupil_client, table).content.decode()
    assert "Pass the tablet to Léa M." in page
    assert card_ids(page) == {"blue2", "red4"}
    page = post_move(pupil_client, table, type="trick", cards="blue2").content.decode()
    assert "Pass the tablet to Noah B." in page
    assert card_ids(page) == {"blue5", "red9"}


# --------------------------------------------------------------------------- forms and pages


@pytest.mark.parametrize(
    "fields, said",
    [
        ({"type": "trick", "cards": ""}, "Tap the cards first."),
        ({"type": "trick", "cards": "blue99"}, "Tap the cards first."),
        ({"type": "trick", "cards": "x" * 5000}, "Tap the cards first."),
        ({"type": "action", "card": "flip1", "target": "everybody"},
         "Choose who the card is for."),
        ({"type": "action", "card": "flip1"}, "Choose who the card is for."),
        ({"type": "trick", "cards": "blue2", "from_row": "-1"}, "Something was missing"),
        ({"type": "count_total", "total": "²"}, "Type a number with the keypad."),
        ({"type": "distribute", "offered": "blue2", "to-blue2": "Léa"}, "Tap the cards first."),
        ({"type": "rainbow", "card": "rainbow7"}, "Something was missing"),
    ],
)
def test_forged_forms_get_a_clear_note_and_change_nothing(start, pupil_client, fields, said):
    session, table = start()
    before = deal(table, [["blue2", "flip1"], ["blue5", "red9"]])
    response = post_move(pupil_client, table, **fields)
    assert response.status_code == 200
    assert said in html_lib.unescape(response.content.decode())
    assert state_of(table) == before


def test_the_start_form_starts_numx_with_its_mode(teacher_client, classroom, pupils):
    url = reverse("games:session_new", args=[classroom.pk])
    page = teacher_client.get(url).content.decode()
    assert "NUM-X: tricks that climb, then count your score cards" in page
    post = {"game": "numx", "table_size": "3", "tablets": "own", "bot_level": "strategist",
            "numx_mode": "family",
            **{f"table_{p.pk}": "1" if p in pupils[:2] else "0" for p in pupils}}
    refused = teacher_client.post(url, {**post, "numx_teams": "on"})
    assert "Teams in NUM-X need 4 players per table." in refused.content.decode()
    response = teacher_client.post(url, post)
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert session.game == "numx" and session.options == {"mode": "family"}
    state = ENGINE.from_json(Table.objects.get(session=session).state)
    assert state.players == 3 and state.mode == "family" and len(state.hands[0]) == 12


def test_the_french_count_agrees_its_colours_and_spaces_its_colons(start, client, pupils, teacher):
    # "les cartes vertes" (plural, feminine, like "cartes"), and French puts a
    # space before a colon: "Total : 15 + 2 = 17", "Léa M. : 17".
    session, table, state = count_table(start)
    lea = tablet(client.__class__, pupils[0])

    def move(**fields):
        table.refresh_from_db()
        data = {"version": table.version, "move_id": f"tap-{table.version}", **fields}
        return html_lib.unescape(lea.post(reverse("games:table_move", args=[table.pk]), data,
                                          HTTP_ACCEPT_LANGUAGE="fr", **HTMX).content.decode())

    answer = move(type="count_group", value="5", worth="15")
    assert "Groupe 2 sur 2 : combien valent les cartes vertes restées seules ?" in answer
    answer = move(type="count_group", colour="green", worth="2")
    assert "Léa M. : les cartes vertes restées seules valent 2. Juste !" in answer
    answer = move(type="count_total", total="17")
    assert "Total : 15 + 2 = <strong>17</strong>" in answer
    assert "Les cartes vertes restées seules" in answer
    assert not re.search(r"cartes (bleu|rouge|jaune|vert) ", answer)
    assert not re.search(r"\w: ", re.sub(r"<[^>]*>", "", answer).replace("https: ", ""))
    names = {0: "Léa M.", 1: "Noah B."}
    with translation.override("fr"):
        assert [said_in_log({"kind": "counted_group", "player": 0, "data": {
            "step": {"kind": "colour", "key": colour}, "expected": 1, "given": 1,
            "correct": True}}, names) for colour in ("blue", "red", "yellow")] == [
            f"Léa M. : les cartes {c} restées seules valent 1. Juste !"
            for c in ("bleues", "rouges", "jaunes")]
        assert said_in_log({"kind": "revealed", "player": 0, "data": {
            "cards": ["blue7", "red2"], "starter": 1}}, names) == (
            "Les cartes se retournent ensemble : Léa M. : 7 bleu, Noah B. : 2 rouge. "
            "Noah B. commence.")
    teacher_view = client.__class__()
    teacher_view.force_login(teacher)
    live_page = html_lib.unescape(teacher_view.get(
        reverse("games:session_live", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode())
    assert "Léa M. : <strong>" in live_page and "Noah B. : <strong>" in live_page


def test_french_tablets_read_french(start, pupil_client):
    session, table = start()
    deal(table, [["blue2", "red4"], ["blue5", "red9"]])
    page = html_lib.unescape(page_of(pupil_client, table, HTTP_ACCEPT_LANGUAGE="fr").content
                             .decode())
    assert "À toi de jouer !" in page
    assert "Piocher une carte" in page and 'aria-label="2 bleu"' in page


def test_french_puts_no_de_before_a_pupil_s_name(start, pupil_client):
    # A name is data: "de Inès" would need "d'Inès". The French words are
    # turned so that no "de" or "que" comes before a name.
    session, table = start(players=3)
    deal(table, [["blue2", "red4"], ["blue5", "red9"], ["green6"]],
         rows=[[("blue1", True)], [], [("red3", True)]],
         tricks=[Trick(2, ("green3",), 3, "number")], current=0)
    page = html_lib.unescape(page_of(pupil_client, table, HTTP_ACCEPT_LANGUAGE="fr").content
                             .decode())
    assert "Pli posé par Inès D." in page
    assert 'aria-label="Inès D. : cartes de score"' in page
    assert not re.search(r"\b(de|que) (Inès|Léa|Noah)", page)
    names = {0: "Léa M.", 1: "Noah B.", 2: "Inès D."}
    with translation.override("fr"):
        flipped = said_in_log({"kind": "action", "player": 0,
                               "data": {"kind": "flip", "targets": [2]}}, names)
    assert flipped == "Léa M. a joué Flip : les cartes de score se retournent pour Inès D."


def test_the_english_page_names_the_cards_and_the_lap_in_english(start, pupil_client):
    # RULES 4.3's "tour" (the tricks until everyone passes) is a lap in
    # English; Infini and Malus are Infinity and Penalty. French keeps them.
    session, table = start()
    deal(table, [["infini1", "malus1", "blue2"], ["blue5", "red9"]])
    english = html_lib.unescape(page_of(pupil_client, table).content.decode())
    assert "Lap 1 · round 1 of 1" in english and "You start the lap" in english
    assert ">INFINITY<" in english and ">PENALTY<" in english
    assert 'aria-label="Infinity"' in english and 'aria-label="Penalty"' in english
    assert not re.search(r"\b(Tour|tour|Infini|INFINI|Malus|MALUS)\b", english)
    french = html_lib.unescape(page_of(pupil_client, table, HTTP_ACCEPT_LANGUAGE="fr").content
                               .decode())
    assert "Tour 1 · manche 1 sur 1" in french
    assert ">INFINI<" in french and ">MALUS<" in french


def test_another_pupil_or_teacher_is_refused(start, client, other_teacher, pupils):
    session, table = start()
    ines = tablet(client.__class__, pupils[2])  # not at this table
    assert page_of(ines, table).status_code == 404
    assert ines.post(reverse("games:table_move", args=[table.pk]),
                     {"type": "draw", "version": "0"}).status_code == 404
    teacher = client.__class__()
    teacher.force_login(other_teacher)
    assert teacher.get(reverse("games:session_live", args=[session.pk])).status_code == 404
    assert teacher.get(reverse("games:table_projector", args=[table.pk])).status_code == 404
    lea = tablet(client.__class__, pupils[0])
    poll = re.search(r'hx-get="([^"]+poll[^"]+)"', page_of(lea, table).content.decode())
    forged = poll.group(1).replace("&amp;", "&").split("?")[0] + "?t=forged"
    assert ines.get(forged, **HTMX).status_code == 403


def test_computers_and_a_pupil_play_a_whole_game_to_the_count(start, pupils):
    """Every move of the pupil goes through services.play (the bots' choices,
    right counts included); the computers move through advance()."""
    session, table = start(players=3, pupils_seated=1, bot_level="beginner", seed=9)
    for _ in range(600):
        table.refresh_from_db()
        state = ENGINE.from_json(table.state)
        if ENGINE.result(state) is not None:
            break
        if 0 in services.presenter("numx").waiting_on(state):
            moves = bot_moves(state, 0, "greedy", table.version)
            for index, move in enumerate(moves):
                table.refresh_from_db()
                answer = services.play(table.pk, pupils[0], move, table.version,
                                       f"m{table.version}-{index}")
                assert answer.status == "applied", (move, answer.refusal)
        else:
            Table.objects.filter(pk=table.pk).update(
                updated_at=timezone.now() - timedelta(minutes=1))
            assert services.advance(table.pk)
    assert ENGINE.result(state_of(table)) is not None
    assert Attempt.objects.filter(pupil=pupils[0], skill="scoring").exists()


# --------------------------------------------------------------------------- more turns


def test_a_pass_lets_the_trick_stand(start, pupil_client):
    session, table = start()
    deal(table, [["blue2", "red4"], ["blue5", "red9"]],
         tricks=[Trick(1, ("green3",), 3, "number")], current=0)
    answer = html_lib.unescape(post_move(pupil_client, table, type="pass").content.decode())
    assert "Léa M. passed." in answer
    # Noah's trick stood all round: he wins the tour (a virgin one: he picks a card).
    state = state_of(table)
    assert state.phase == "distribute" and state.winner == 1
    assert "Noah B. hands out the score cards." in answer


def test_a_shadow_lets_its_player_add_an_action(start, client, pupils):
    session, table = start()
    deal(table, [["shadow6", "block2", "blue1"], ["blue9", "red9"]],
         tricks=[Trick(1, ("blue5", "red5"), 5, "number")], current=0)
    lea = tablet(client.__class__, pupils[0])
    answer = html_lib.unescape(post_move(lea, table, type="trick", cards="shadow6").content
                               .decode())
    assert "Léa M. laid a Shadow: they may play an action card as well." in answer
    assert "You laid a Shadow: you may play an action card as well, or carry on." in answer
    assert 'data-action="block2"' in answer and ">Carry on<" in answer
    # Only the action card may be tapped now.
    assert re.search(r'data-card="blue1"[^>]*disabled', answer)
    answer = html_lib.unescape(post_move(lea, table, type="pass").content.decode())
    assert state_of(table).current == 1 and state_of(table).pending is None


def test_a_blocked_pupil_passes_or_plays_num_x(start, client, pupils):
    session, table = start()
    state = deal(table, [["blue2", "red4"], ["blue9", "numx"]],
                 tricks=[Trick(0, ("green3",), 3, "number")], current=1)
    put(table, replace(state, blocked=(False, True)))
    noah = tablet(client.__class__, pupils[1])
    page = html_lib.unescape(page_of(noah, table).content.decode())
    assert "You are blocked: pass, or play Num-X." in page
    assert re.search(r'data-card="blue9"[^>]*disabled', page)
    assert notes(post_move(noah, table, type="trick", cards="blue9").content.decode()) == [
        "You are blocked: pass, or play Num-X."]
    answer = html_lib.unescape(post_move(noah, table, type="pass").content.decode())
    assert "Noah B. is blocked and passes." in answer


def test_a_blocked_pupil_without_num_x_is_asked_and_may_only_pass(start, client, pupils,
                                                                  teacher):
    # Rulebook 4: Léa blocks Noah, who holds no Num-X; the turn is his all
    # the same, as it would be with Num-X: he taps Pass, and only that.
    session, table = start(players=3)
    deal(table, [["block1", "blue2", "red4"], ["blue9", "red11"], ["green5", "red13"]],
         tricks=[Trick(2, ("green3",), 3, "number")], current=0)
    lea, noah = tablet(client.__class__, pupils[0]), tablet(client.__class__, pupils[1])
    post_move(lea, table, type="action", card="block1", target="1")
    assert state_of(table).current == 1 and "numx" in state_of(table).pile
    page = html_lib.unescape(page_of(noah, table).content.decode())
    assert "You are blocked: pass, or play Num-X." in page
    assert "You have no Num-X: tap Pass." in page and "Tap Num-X" not in page
    assert 'data-testid="pass"' in page and 'data-testid="draw"' not in page
    assert re.search(r'data-card="blue9"[^>]*disabled', page)
    assert re.search(r'data-card="red11"[^>]*disabled', page)
    french = html_lib.unescape(page_of(noah, table, HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "Tu es bloqué : passe, ou joue Num-X." in french
    assert "Tu n'as pas la carte Num-X : touche Passer." in french and ">Passer<" in french
    # Léa's tablet and the teacher's live view wait on Noah, Num-X or not.
    assert "Noah B. is playing." in html_lib.unescape(page_of(lea, table).content.decode())
    teacher_view = client.__class__()
    teacher_view.force_login(teacher)
    live_page = html_lib.unescape(teacher_view.get(
        reverse("games:session_live", args=[session.pk])).content.decode())
    assert re.search(r'<li class="current">.*?Noah B\.:.*?← turn</li>', live_page)
    assert notes(post_move(noah, table, type="draw").content.decode()) == [
        "You are blocked: pass, or play Num-X."]
    answer = html_lib.unescape(post_move(noah, table, type="pass").content.decode())
    assert "Noah B. is blocked and passes." in answer
    assert state_of(table).current == 2 and not state_of(table).blocked[1]


def test_between_the_x_game_rounds_each_pupil_tops_up_or_redraws(start, client, pupils):
    session, table = start(options={"mode": "x_game"})
    state = deal(table, [["blue2", "red4"], ["blue9"]],
                 rows=[[("green3", True)], [("red6", True)]])
    put(table, replace(state, phase="refill", chosen=(None, None), current=None))
    lea, noah = tablet(client.__class__, pupils[0]), tablet(client.__class__, pupils[1])
    page = html_lib.unescape(page_of(noah, table).content.decode())
    assert "The round is over: keep your cards and top up your hand, or take a new hand?" in page
    post_move(lea, table, type="refill", choice="redraw")
    answer = html_lib.unescape(post_move(noah, table, type="refill", choice="top_up").content
                               .decode())
    assert "Round 2 starts: Léa M. plays first." in answer
    state = state_of(table)
    assert state.round_no == 2 and [len(h) for h in state.hands] == [10, 10]
    assert "blue9" in state.hands[1]


def test_a_pause_and_the_end_close_every_form(start, pupil_client):
    session, table = start(players=3)
    deal(table, [["blue2", "red4"], ["blue5", "red9"], ["rainbow2", "red13"]],
         tricks=[Trick(1, ("green2",), 2, "number")], current=0)
    services.set_status(session, GameSession.Status.PAUSED)
    page = html_lib.unescape(page_of(pupil_client, table).content.decode())
    assert "Paused: wait for your teacher." in page
    assert "data-testid=\"draw\"" not in page and 'class="nx-trick-form' not in page
    answer = post_move(pupil_client, table, type="draw").content.decode()
    assert "The game is paused. Wait for your teacher." in answer
    services.set_status(session, GameSession.Status.RUNNING)
    services.set_status(session, GameSession.Status.ENDED)
    page = html_lib.unescape(page_of(pupil_client, table).content.decode())
    assert "The game is over!" in page and 'data-testid="draw"' not in page


def test_a_shared_tablet_passes_from_pupil_to_pupil_for_the_secret_choice(start, pupil_client):
    session, table = start(tablets=GameSession.Tablets.SHARED)
    hands = state_of(table).hands
    page = page_of(pupil_client, table).content.decode()
    assert "Pass the tablet to Léa M." in page and card_ids(page) == set(hands[0])
    page = post_move(pupil_client, table, type="choose", card=hands[0][0]).content.decode()
    assert "Pass the tablet to Noah B." in page and card_ids(page) == set(hands[1])
    page = post_move(pupil_client, table, type="choose", card=hands[1][0]).content.decode()
    assert state_of(table).phase == "play"


def test_teams_aim_block_and_quantique_at_teams_and_count_together(start, client, pupils):
    session, table = start(players=4, pupils_seated=3, bot_level="greedy",
                           options={"mode": "speed_run", "teams": [[0, 2], [1, 3]]})
    deal(table, [["block1", "quantique1", "blue2"], ["blue5"], ["red9"], ["green11"]])
    page = html_lib.unescape(page_of(tablet(client.__class__, pupils[0]), table).content.decode())
    assert 'data-testid="target-between"' in page and ">The players between you and your " \
        "partner<" in page
    assert 'data-testid="target-team:1"' in page and ">Team 2<" in page
    state = state_of(table)
    put(table, start_count(replace(state, hands=((), (), (), ()), current=None, rows=(
        (("blue5", True),), (("red3", True),), (("red5", False),), (("green4", True),)))))
    # Léa and Inès count their merged row: the two 5s cancel.
    page = html_lib.unescape(page_of(tablet(client.__class__, pupils[2]), table).content.decode())
    assert "Group 1 of 1: what are the 5s worth?" in page
    assert "team 1" in page


def test_family_mode_counts_with_its_two_rules(start, pupil_client):
    session, table = start(options={"mode": "family"})
    state = state_of(table)
    assert not any(c.startswith(("flip", "malus", "block")) for h in state.hands for c in h)
    put(table, start_count(replace(state, phase="play", hands=((), ()), chosen=(), current=None,
                                   rows=((("blue5", True), ("blue9", True)), (("red3", True),)))))
    page = html_lib.unescape(page_of(pupil_client, table).content.decode())
    assert "The cards left alone add up." in page and "X-Trem" not in page
    answer = post_move(pupil_client, table, type="count_group", colour="any", worth="14")
    assert "Léa M.: the cards left alone are worth 14. Right!" in html_lib.unescape(
        answer.content.decode())


# --------------------------------------------------------------------------- kept pieces


def test_one_board_for_every_tablet_and_kept_hands_for_their_holders(start, client, pupils,
                                                                     monkeypatch):
    """The board is drawn once for all the tablets at a table, each marking
    its own seat "(you)"; a pupil's cards and what they may do are drawn once
    per process for what they show (presenter.hand_html). Through a game no
    tablet gets another pupil's cards nor another's "(you)"."""
    from games.pages import base
    from games.pages.numx import presenter

    drawn: list[str] = []
    for module in (base, presenter):
        plain = module.render_to_string
        monkeypatch.setattr(module, "render_to_string",
                            lambda name, context=None, plain=plain: drawn.append(name)
                            or plain(name, context))
    session, table = start(players=3, seed=12)
    tablets = [tablet(client.__class__, p) for p in pupils[:3]]
    served = 0
    for _move in range(120):  # to the end of the count
        state = state_of(table)
        if state.phase == "over":
            break
        boards = drawn.count("games/numx/_board.html")
        for player, pupil_tablet in enumerate(tablets):
            page = page_of(pupil_tablet, table, **HTMX).content.decode()
            hands_drawn = drawn.count("games/numx/_hand.html")
            again = page_of(pupil_tablet, table, **HTMX).content.decode()
            assert drawn.count("games/numx/_hand.html") == hands_drawn  # kept
            served += 1
            # Their own cards, and the face-up score cards they may take back.
            own = set(state.hands[player]) | {c for c, _up in state.rows[player]}
            assert set(state.hands[player]) <= card_ids(page) <= own, player
            assert card_ids(again) == card_ids(page)
            seats = re.findall(r'<li class="nx-seat([^"]*)" data-testid="seat-(\d)"', page)
            assert [int(seat) for classes, seat in seats if " you" in classes] == [player]
            playing = state.phase in ("play", "distribute")
            assert [int(seat) for classes, seat in seats if " current" in classes] == (
                sorted(waiting_on(state)) if playing else [])
            sizes = re.findall(r'data-testid="hand-size-\d"><span class="nx-backs" '
                               r'aria-hidden="true">(?:<i></i>)*</span>(\d+) cards?<', page)
            assert [int(n) for n in sizes] == [len(h) for h in state.hands]
            assert page.count('<span class="muted">(you)</span>') == 1
            assert "nx-you" not in page  # every seat's slot filled
            if "<form" in page:  # every form posts the page's own tap
                taps = set(re.findall(r'name="move_id" value="([^"]+)"', page))
                assert len(taps) == 1 and page.count("<form") == page.count('name="move_id"')
                assert taps.isdisjoint(re.findall(r'name="move_id" value="([^"]+)"', again))
        # One for the three (the tour's winner hands out on a board of its own).
        assert drawn.count("games/numx/_board.html") <= boards + 1 + (
            state.phase == "distribute"), state.phase
        waiting = sorted(waiting_on(state))
        player = waiting[0]
        move = bot_moves(state, player, "greedy", table.version)[0]
        outcome = services.play(table.pk, pupils[player], move, table.version,
                                f"kept-{table.version}")
        assert outcome.status == "applied", outcome
    assert served > 30
    assert drawn.count("games/numx/_hand.html") < served
