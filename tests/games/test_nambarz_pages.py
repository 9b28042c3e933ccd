"""Nambarz on the pages: a pupil lays a card, a calculation typed step by step,
refusals a child can read, hidden hands (in the bytes), bots, evidence, French."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from classroom.models import Attempt, Opportunity
from engine.nambarz import bot_moves
from engine.nambarz.cards import cards_of
from games import live, services
from games.models import GameSession, Table
from games.pages import engine_of
from games.pages.nambarz.drawing import ANIMALS, card
from tests.conftest import tap_pictures

from .conftest import one_table

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
ENGINE = engine_of("nambarz")
CARDS = cards_of(12)


def sym(number: int, copy: int = 0) -> int:
    """The id of a symbol card."""
    return (number - 1) * 4 + copy


def drw(number: int, animal: int = 0, copy: int = 0) -> int:
    """The id of a drawing card (animal 0 or 1 of that number)."""
    return 40 + (number - 1) * 4 + animal * 2 + copy


def joker(kind: str) -> int:
    return next(c.id for c in CARDS if c.joker == kind)


@pytest.fixture
def start(classroom, teacher, pupils):
    """A Nambarz table: Léa is player 0, Noah player 1 (or a computer)."""

    def _start(players=2, bot_level="", options=None, tablets=GameSession.Tablets.OWN, seed=5):
        return one_table(
            classroom, teacher, pupils[:players], game="nambarz", options=options or {},
            players=2 if bot_level else players, bot_level=bot_level, tablets=tablets, seed=seed,
        )

    return _start


def state_of(table):
    table.refresh_from_db()
    return ENGINE.from_json(table.state)


def deal(table, hands, target, current=0):
    """Put chosen hands and a chosen target on the table; the rest stays in the pile."""
    state = state_of(table)
    used = {c for hand in hands for c in hand} | {target}
    pile = tuple(c for c in range(len(state.cards)) if c not in used)
    state = replace(state, hands=tuple(tuple(h) for h in hands), pile=pile,
                    discard=(target,), current=current, pending="", drawn=None,
                    retrying=False)
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    return state


def post_move(client, table, language="en", **fields):
    table.refresh_from_db()
    data = {"version": table.version, "move_id": f"tap-{table.version}", **fields}
    return client.post(reverse("games:table_move", args=[table.pk]), data, **HTMX,
                       HTTP_ACCEPT_LANGUAGE=language)


def page_of(client, table, **headers):
    return client.get(reverse("games:table_play", args=[table.pk]), **headers)


def card_ids(html: str) -> set[int]:
    return {int(n) for n in re.findall(r'data-card="(\d+)"', html)}


def test_a_pupil_lays_a_card_of_the_same_number(start, pupil_client):
    session, table = start()
    deal(table, [[sym(5, 1), sym(2), sym(9)], [sym(7), sym(4)]], target=sym(5))
    page = page_of(pupil_client, table).content.decode()
    assert "Your turn!" in page
    assert card_ids(page) == {sym(5, 1), sym(2), sym(9)}
    answer = post_move(pupil_client, table, type="match", card=str(sym(5, 1))).content.decode()
    assert "Léa M. laid the 5: the same number." in answer
    state = state_of(table)
    assert state.discard[-1] == sym(5, 1) and state.current == 1
    assert sym(5, 1) not in state.hands[0]


def test_a_calculation_of_three_cards_typed_step_by_step(start, pupil_client, pupils):
    session, table = start()
    hand = [sym(3), sym(3, 1), sym(1), sym(10)]
    deal(table, [hand, [sym(7), sym(4)]], target=sym(8))
    answer = post_move(
        pupil_client, table, type="calculate",
        cards=f"{sym(3)},{sym(3, 1)},{sym(1)}", ops="*,-", results="9,8",
    ).content.decode()
    assert "Léa M. calculated with 3 cards: 3 × 3 = 9, 9 − 1 = 8." in answer
    state = state_of(table)
    assert state.hands[0] == (sym(10),) and state.discard[-1] == sym(1)
    attempts = list(
        Attempt.objects.filter(pupil=pupils[0])
        .order_by("pk")
        .values_list("skill", "operands", "correct")
    )
    assert attempts[:2] == [("mul", [3, 3], True), ("sub", [9, 1], True)]
    assert {"multi_step", "left_to_right"} <= {a[0] for a in attempts}
    # The turn's opportunity says the pupil used × and −.
    used = Opportunity.objects.filter(pupil=pupils[0]).order_by("-pk").first()
    assert used is not None and used.used == ["mul", "sub"]


def test_a_wrong_result_keeps_the_cards_and_counts_as_an_attempt(start, pupil_client, pupils):
    session, table = start()
    hand = [sym(3), sym(3, 1), sym(1), sym(10)]
    deal(table, [hand, [sym(7), sym(4)]], target=sym(8))
    answer = post_move(
        pupil_client, table, type="calculate",
        cards=f"{sym(3)},{sym(3, 1)},{sym(1)}", ops="*,-", results="6,5",
    ).content.decode()
    assert "Not quite: 3 × 3 is not 6. Your cards are still in your hand: try again." in answer
    assert 'data-retrying="1"' in answer
    state = state_of(table)
    assert set(state.hands[0]) == set(hand) and state.current == 0 and state.retrying
    assert list(Attempt.objects.filter(skill="mul").values_list("correct", "first_try")) == [
        (False, True)
    ]
    # She multiplied, and laid the subtraction she typed after the slip.
    assert Opportunity.objects.filter(pupil=pupils[0]).latest("pk").used == ["mul", "sub"]
    # Noah's page says nothing of the cards Léa tried.
    noah = pupil_client.__class__()
    tap_pictures(noah, pupils[1], pupils[1].password_pictures)
    other = page_of(noah, table).content.decode()
    assert "is not 6" not in other and "3 × 3" not in other


def test_right_steps_that_miss_the_target_count_and_the_cards_stay(start, pupil_client, pupils):
    """A miss is no refusal: the steps typed right are evidence (and the
    operations used), the miss is the plan's mistake, the pupil tries again."""
    session, table = start()
    hand = [sym(3), sym(3, 1), sym(1), sym(10)]
    deal(table, [hand, [sym(7), sym(4)]], target=sym(8))
    answer = html.unescape(post_move(
        pupil_client, table, type="calculate",
        cards=f"{sym(1)},{sym(3)},{sym(3, 1)}", ops="+,*", results="4,12",
    ).content.decode())
    assert ("Your calculation makes 12, but the target is 8. "
            "Your cards are still in your hand: try again.") in answer
    assert 'data-retrying="1"' in answer
    state = state_of(table)
    assert set(state.hands[0]) == set(hand) and state.current == 0 and state.retrying
    assert list(Attempt.objects.order_by("pk").values_list("skill", "correct")) == [
        ("add", True), ("mul", True), ("multi_step", False), ("left_to_right", False)]
    chance = Opportunity.objects.filter(pupil=pupils[0]).latest("pk")
    assert chance.used == ["add", "mul"]


@pytest.mark.parametrize(
    "target, cards, ops, results, said",
    [
        # 8 matches the target 8: alone, not inside a calculation.
        (sym(8), [sym(8, 1), sym(4)], "-", "4",
         "The 8 matches the target by its number: it can't be inside a calculation. "
         "Lay it alone!"),
        (drw(8), [drw(3), sym(5)], "+", "8",
         "In a calculation, use only number cards, or only animal cards."),
        (drw(8), [drw(3), drw(5)], "+", "8",
         "The 3 bee matches the target by its animal: it can't be inside a calculation. "
         "Lay it alone!"),
        (sym(3), [sym(6), sym(2), sym(1)], "/,*", "3,3", "2 + 1 already makes 3: use fewer cards."),
    ],
)
def test_a_broken_rule_is_refused_in_words_and_the_cards_stay(
    start, pupil_client, target, cards, ops, results, said
):
    session, table = start()
    hand = list(cards) + [sym(10, 3)]
    deal(table, [hand, [sym(7), sym(4, 2)]], target=target)
    before = state_of(table)
    answer = post_move(
        pupil_client, table, type="calculate", cards=",".join(map(str, cards)), ops=ops,
        results=results,
    ).content.decode()
    notes = [html.unescape(n) for n in re.findall(r'<p class="note[^>]*>([^<]*)<', answer)]
    assert notes == [said]
    assert state_of(table) == before
    # Said under the calculation being corrected, not in the column beside
    # the board (static/js/announce.js says it at once).
    form = answer[answer.index('data-testid="build"'):answer.index('data-testid="lay-calculation"')]
    assert 'data-testid="note"' in form
    assert "form-note-slot" not in answer


@pytest.mark.parametrize(
    "fields, said",
    [
        ({"type": "calculate", "cards": "1", "ops": "", "results": ""},
         "Tap the cards of your hand first."),
        ({"type": "calculate", "cards": "1,2", "ops": "^", "results": "3"},
         "Tap an operation between each two cards."),
        ({"type": "calculate", "cards": "1,2", "ops": "+", "results": "²"},
         "Type the result of every step with the keypad."),
        ({"type": "calculate", "cards": "9" * 5000, "ops": "+", "results": "1"},
         "Tap the cards of your hand first."),
        ({"type": "match", "card": "abc"}, "Tap the cards of your hand first."),
        ({"type": "match", "card": "99999"}, "Something was missing"),
        ({"type": "joker", "card": str(sym(2))}, "That card is not a joker."),
    ],
)
def test_forged_forms_get_a_clear_note_and_change_nothing(start, pupil_client, fields, said):
    session, table = start()
    deal(table, [[sym(1), sym(2), sym(9)], [sym(7), sym(4)]], target=sym(5))
    before = state_of(table)
    response = post_move(pupil_client, table, **fields)
    assert response.status_code == 200
    assert said in response.content.decode()
    assert state_of(table) == before


def test_draw_shows_the_drawn_card_and_whether_it_can_go(start, pupil_client):
    session, table = start()
    state = deal(table, [[sym(1), sym(2)], [sym(7), sym(4)]], target=sym(5))
    # The pile's top is the next card drawn: make it a 5.
    pile = tuple(c for c in state.pile if c != sym(5, 2)) + (sym(5, 2),)
    table.state = replace(state, pile=pile).to_json()
    table.save(update_fields=["state"])
    answer = post_move(pupil_client, table, type="draw").content.decode()
    assert "You drew the 5." in answer
    assert "It can go on the target now: lay it, or pass." in answer
    assert 'data-testid="pass"' in answer and 'data-testid="draw"' not in answer
    answer = post_move(pupil_client, table, type="match", card=str(sym(1))).content.decode()
    assert "You drew the 5: play it now, or pass." in answer
    answer = post_move(pupil_client, table, type="match", card=str(sym(5, 2))).content.decode()
    assert "Léa M. laid the 5: the same number." in answer


def test_a_joker_says_what_it_does(start, pupil_client):
    session, table = start()
    replay = joker("replay")
    deal(table, [[replay, sym(2), sym(9)], [sym(7), sym(4)]], target=sym(5))
    page = page_of(pupil_client, table).content.decode()
    assert "Play again: lay another card on the same target." in page
    answer = post_move(pupil_client, table, type="joker", card=str(replay)).content.decode()
    assert "Léa M. played a joker. Play again" in answer
    assert "Play again on the same target!" in answer


def test_each_pupil_sees_only_their_own_hand_in_the_bytes(start, client, pupils):
    session, table = start()
    lea_hand, noah_hand = [sym(1), sym(2), drw(3)], [sym(7), drw(4, 1), joker("replay")]
    deal(table, [lea_hand, noah_hand], target=sym(5))
    lea = client
    tap_pictures(lea, pupils[0], pupils[0].password_pictures)
    noah = client.__class__()
    tap_pictures(noah, pupils[1], pupils[1].password_pictures)
    lea_page = page_of(lea, table).content.decode()
    noah_page = page_of(noah, table).content.decode()
    assert card_ids(lea_page) == set(lea_hand)
    assert card_ids(noah_page) == set(noah_hand)
    # Not in a data attribute, not in a title: Noah's cards are nowhere in Léa's bytes.
    for name in ("7", "4 mouse", "fish", "“again” joker"):
        assert f'aria-label="{name}"' not in lea_page
    assert ">owl<" not in lea_page and ">JOKER<" not in lea_page
    # The poll of each tablet, after a move, holds the same.
    post_move(lea, table, type="draw")
    poll = re.search(r'hx-get="([^"]+poll[^"]+)"', noah_page).group(1).replace("&amp;", "&")
    polled = noah.get(poll.split("&v=")[0], **HTMX).content.decode()
    assert card_ids(polled) == set(noah_hand)
    teacher_view = page_of(client, table)  # Léa's client again: her own hand only
    assert card_ids(teacher_view.content.decode()) <= set(state_of(table).hands[0])


def test_the_teacher_and_the_projector_see_no_hand(start, teacher_client, teacher):
    session, table = start()
    deal(table, [[sym(1), sym(2)], [sym(7), sym(4)]], target=sym(5))
    live_page = teacher_client.get(reverse("games:session_live", args=[session.pk])).content
    projector = teacher_client.get(reverse("games:table_projector", args=[table.pk])).content
    for page in (live_page.decode(), projector.decode()):
        assert "data-card=" not in page
        assert 'data-testid="target"' in page
        assert "2 cards" in page


def animal_picture(page: str) -> dict[str, str]:
    """The animal pictures of a page's drawing cards, by animal id: what is
    drawn in the disc, less the name (a picture is told by its shapes)."""
    found = re.findall(
        r'<g class="animal animal-\w+" data-animal="(\w+)"(.*?)<text x="40" y="102"', page, re.S
    )
    return {
        animal: re.sub(r'aria-label="[^"]*"|<title>[^<]*</title>', "", drawn)
        for animal, drawn in found
    }


def test_every_animal_is_a_picture_a_child_names_without_reading():
    """Not every child of 6 reads: the disc of a drawing card shows its animal,
    a different picture for each; an animal without a picture keeps its letter."""
    pictures = {}
    for animal in ANIMALS:
        shown = card({"id": 40, "number": 3, "family": "drawing", "animal": animal})
        drawn = render_to_string("games/nambarz/_card.html", {"c": shown})
        assert list(animal_picture(drawn)) == [animal], animal
        assert f'role="img" aria-label="{shown["animal_name"]}"' in drawn
        assert 'class="nc-letter"' not in drawn
        pictures[animal] = animal_picture(drawn)[animal]
    assert len(set(pictures.values())) == len(ANIMALS) == 10
    unknown = render_to_string("games/nambarz/_card.html", {"c": card(
        {"id": 40, "number": 3, "family": "drawing", "animal": "zebra"})})
    assert animal_picture(unknown) == {}
    assert '<text x="40" y="77" text-anchor="middle" class="nc-letter">Z</text>' in unknown


def test_the_hand_the_target_and_the_teacher_s_pages_show_the_animals(start, pupil_client,
                                                                      teacher_client):
    session, table = start()
    deal(table, [[drw(5, 1), sym(2)], [sym(7), sym(4)]], target=drw(3))
    hand = page_of(pupil_client, table).content.decode()
    assert set(animal_picture(hand)) == {"A7", "abeille"}  # her snail, the target's bee
    for view, pk in (("games:table_projector", table.pk), ("games:session_live", session.pk)):
        teacher_page = teacher_client.get(reverse(view, args=[pk])).content.decode()
        assert set(animal_picture(teacher_page)) == {"abeille"}, view  # the target only


def test_a_shared_tablet_hides_the_hand_off_turn(start, pupil_client, pupils):
    session, table = start(tablets=GameSession.Tablets.SHARED)
    deal(table, [[sym(1), sym(2)], [sym(7), sym(4)]], target=sym(5), current=0)
    page = page_of(pupil_client, table).content.decode()
    assert "Pass the tablet to Léa M." in page
    assert card_ids(page) == {sym(1), sym(2)}
    post_move(pupil_client, table, type="draw")
    page = post_move(pupil_client, table, type="pass").content.decode()
    assert "Pass the tablet to Noah B." in page
    assert card_ids(page) == {sym(7), sym(4)}


def test_bots_play_to_the_end_of_a_round_and_the_ranks_show(start, pupil_client, settings):
    session, table = start(players=1, bot_level="strategist")
    state = deal(table, [[sym(5, 1)], [sym(7), sym(4), sym(9)]], target=sym(5))
    answer = post_move(pupil_client, table, type="match", card=str(sym(5, 1))).content.decode()
    assert "Léa M. has no cards left: place 1!" in answer
    assert 'data-testid="round-end"' in answer
    assert "40 points" in answer and "You win!" in answer
    assert ENGINE.result(state_of(table)) is not None
    del state


def test_a_computer_player_moves_on_its_own(start, pupil_client):
    session, table = start(players=1, bot_level="greedy")
    deal(table, [[sym(1), sym(2)], [sym(7), sym(4), sym(9)]], target=sym(5), current=1)
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(minutes=1))
    before = state_of(table)
    assert services.advance(table.pk)
    move = table.moves.get()
    assert move.player == 1 and move.pupil_id is None  # the computer's own move
    assert state_of(table) != before


def test_the_start_form_starts_a_nambarz_game_with_its_options(teacher_client, classroom, pupils):
    url = reverse("games:session_new", args=[classroom.pk])
    page = teacher_client.get(url).content.decode()
    assert "Nambarz: cards in hand, calculate to hit the target" in page
    response = teacher_client.post(url, {
        "game": "nambarz", "table_size": "3", "tablets": "own", "bot_level": "beginner",
        "rounds": "3", "jokers": "8", "young": "on",
        **{f"table_{p.pk}": "1" if p in pupils[:2] else "0" for p in pupils},
    })
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert session.game == "nambarz"
    assert session.options == {"rounds": 3, "jokers": 8, "brackets": False, "young": True}
    state = ENGINE.from_json(Table.objects.get(session=session).state)
    assert state.options.operations == "+-" and state.players == 3


def test_the_start_form_offers_the_readings_rules_leaves_open(teacher_client, classroom, pupils):
    # RULES 3.4 b5 (the strict simplest rule), 3.5 (the last player unpaid,
    # teams, the tie-break): the engine has them, the teacher chooses them.
    url = reverse("games:session_new", args=[classroom.pk])
    page = html.unescape(teacher_client.get(url).content.decode())
    for label in ("Strict simplest calculation", "The last player of a round scores no rank",
                  "Teams of two neighbours", "No tie-break"):
        assert label in page
    post = {"game": "nambarz", "table_size": "4", "tablets": "own", "bot_level": "greedy",
            "rounds": "3", "jokers": "12", "strict_simplest": "on", "last_unpaid": "on",
            "nambarz_teams": "on", "no_tie_break": "on",
            **{f"table_{p.pk}": "1" if p in pupils[:2] else "0" for p in pupils}}
    refused = teacher_client.post(url, {**post, "table_size": "3"})
    assert "Teams in Nambarz need 4 players per table" in html.unescape(
        refused.content.decode())
    assert teacher_client.post(url, post).status_code == 302
    session = GameSession.objects.get()
    assert session.options == {"rounds": 3, "jokers": 12, "brackets": False, "young": False,
                               "strict_simplest": True, "last_paid": False, "teams": True,
                               "tie_break": False}
    table = Table.objects.get(session=session)
    options = ENGINE.from_json(table.state).options
    assert options.strict_simplest and not options.last_paid and options.teams
    assert not options.tie_break
    for view, pk in (("games:table_projector", table.pk), ("games:session_live", session.pk)):
        assert teacher_client.get(reverse(view, args=[pk])).status_code == 200


def test_a_table_of_the_new_options_plays(start, pupil_client):
    session, table = start(options={"teams": True, "strict_simplest": True, "last_paid": False,
                                    "tie_break": False})
    deal(table, [[sym(5, 1), sym(2)], [sym(7), sym(4)]], target=sym(5))
    assert page_of(pupil_client, table).status_code == 200
    answer = post_move(pupil_client, table, type="match", card=str(sym(5, 1))).content.decode()
    assert "Léa M. laid the 5" in html.unescape(answer)


@pytest.mark.parametrize("language,label,not_said", [
    ("en", "Tie-break", "Round 2 of 1"), ("fr", "Départage", "Manche 2 sur 1")])
def test_a_tie_break_round_reads_as_one(start, pupil_client, teacher_client, language, label,
                                         not_said):
    session, table = start()
    state = deal(table, [[sym(1), sym(2)], [sym(7), sym(4)]], target=sym(5))
    state = replace(state, round=2, scores=(40, 40), history=((40, 40),))
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    projector = reverse("games:table_projector", args=[table.pk])
    for page in (page_of(pupil_client, table, HTTP_ACCEPT_LANGUAGE=language),
                 teacher_client.get(projector, HTTP_ACCEPT_LANGUAGE=language)):
        text = html.unescape(page.content.decode())
        assert label in text and not_said not in text


def test_french_tablets_read_french(start, pupil_client):
    session, table = start()
    deal(table, [[sym(1), sym(2)], [sym(7), sym(4)]], target=sym(5))
    page = page_of(pupil_client, table, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "À toi de jouer" in page or "Ton tour" in page
    assert "Piocher une carte" in page


@pytest.mark.parametrize(
    "language, refused, laid",
    [
        ("en", "The 10 snail does not match the 8 hippo: it needs the same number or the same "
         "animal.", "Léa M. laid the 3 hippo: the same animal."),
        # "La carte": one gender for every animal, and no "de" + vowel to elide.
        ("fr", "La carte 10 escargot ne va pas sur la carte 8 hippopotame : il faut le même "
         "nombre ou le même animal.", "Léa M. a posé la carte 3 hippopotame : le même animal."),
    ],
)
def test_a_card_is_named_as_a_child_reads_it(start, pupil_client, language, refused, laid):
    session, table = start()
    deal(table, [[drw(10, 1), drw(3, 1), sym(2)], [sym(7), sym(4)]], target=drw(8, 1))
    speak = {"HTTP_ACCEPT_LANGUAGE": language}
    page = html.unescape(page_of(pupil_client, table, **speak).content.decode())
    snail = "10 snail" if language == "en" else "10 escargot"
    # What a screen reader says for the card's button: its picture's name.
    button = re.search(rf'<button[^>]*data-card="{drw(10, 1)}"[^>]*>.*?</button>', page, re.S)
    assert f'role="img" aria-label="{snail}"' in button.group(0)
    # No "10-snail", nor "8-hippopotame", in what is read (the words and the
    # labels; a signed token in an attribute may hold "1-m").
    read = re.sub(r"<[^>]+>", " ", page[page.index("<body"):])
    read += " ".join(re.findall(r'aria-label="([^"]*)"', page))
    assert not re.search(r"\d-[a-z]", read)
    answer = post_move(pupil_client, table, language, type="match", card=str(drw(10, 1)))
    notes = [html.unescape(n) for n in re.findall(r'<p class="note[^>]*>([^<]*)<',
                                                  answer.content.decode())]
    assert notes == [refused]
    answer = post_move(pupil_client, table, language, type="match", card=str(drw(3, 1)))
    assert laid in html.unescape(answer.content.decode())


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_one_family_rule_is_said_before_a_calculation(start, pupil_client, language):
    # RULES 3.4 b1: said where the pupil builds the calculation, and in the
    # words the picker uses when a card of the other family is tapped.
    session, table = start()
    deal(table, [[drw(9, 1), sym(1), sym(4)], [sym(7), sym(4, 1)]], target=drw(8, 1))
    page = html.unescape(
        page_of(pupil_client, table, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    )
    rule = re.search(r'data-testid="family-rule">([^<]*)<', page).group(1)
    tapped = re.search(r'data-t-no-animal="([^"]*)"', page).group(1)
    if language == "en":
        assert rule == "In a calculation, use only number cards, or only animal cards."
        assert tapped == ("The %(card)s is a number card and the %(first)s an animal card: "
                          "they can't be in the same calculation.")
    else:
        assert rule == ("Dans un calcul, utilise seulement des cartes nombre, "
                        "ou seulement des cartes animal.")
        assert tapped.startswith("La carte %(card)s est une carte nombre et la carte %(first)s")
    # The card's name the picker puts in those words.
    assert f'data-card="{drw(9, 1)}"' in page
    assert re.search(rf'data-card="{drw(9, 1)}"[^>]*data-name="9 (mouse|souris)"', page)


def test_another_pupil_or_teacher_is_refused(start, client, other_teacher, pupils, classroom):
    session, table = start()
    client.force_login(other_teacher)
    assert client.get(reverse("games:session_live", args=[session.pk])).status_code == 404
    assert client.get(reverse("games:table_projector", args=[table.pk])).status_code == 404


def test_the_brackets_variant_joins_any_two_numbers(start, pupil_client, pupils):
    session, table = start(options={"brackets": True})
    deal(table, [[sym(2), sym(3), sym(2, 1), sym(9)], [sym(7), sym(4)]], target=sym(10))
    page = page_of(pupil_client, table).content.decode()
    assert 'data-brackets="1"' in page
    # 2 × (3 + 2): the second and third cards first, then the first with that result.
    answer = post_move(
        pupil_client, table, type="calculate", cards=f"{sym(2)},{sym(3)},{sym(2, 1)}",
        ops="+,*", results="5,10", steps="1-2,0-3",
    ).content.decode()
    assert "Léa M. calculated with 3 cards" in answer
    assert state_of(table).hands[0] == (sym(9),)
    skills = set(Attempt.objects.filter(pupil=pupils[0]).values_list("skill", flat=True))
    assert {"add", "mul", "brackets"} <= skills


def test_without_brackets_the_order_is_left_to_right(start, pupil_client):
    session, table = start()
    deal(table, [[sym(2), sym(3), sym(2, 1), sym(9)], [sym(7), sym(4)]], target=sym(10))
    before = state_of(table)
    answer = post_move(
        pupil_client, table, type="calculate", cards=f"{sym(2)},{sym(3)},{sym(2, 1)}",
        ops="+,*", results="5,10", steps="1-2,0-3",
    ).content.decode()
    assert "Calculate from left to right, in the order of your cards." in html.unescape(answer)
    assert state_of(table) == before


def test_a_draw_when_a_calculation_was_possible_is_evidence(start, pupil_client, pupils):
    """The turn's opportunity says × and − could make the target; a draw uses none."""
    session, table = start()
    deal(table, [[sym(3), sym(3, 1), sym(1)], [sym(7), sym(4)]], target=sym(8), current=1)
    # Noah passes the turn to Léa: her turn starts, and its opportunity is noted.
    noah = pupil_client.__class__()
    tap_pictures(noah, pupils[1], pupils[1].password_pictures)
    post_move(noah, table, type="draw")
    post_move(noah, table, type="pass")
    post_move(pupil_client, table, type="draw")
    chance = Opportunity.objects.filter(pupil=pupils[0]).latest("pk")
    assert chance.game == "nambarz"
    assert chance.could["mul"] and chance.could["sub"]
    assert chance.used == []


def test_nambarz_calculations_reach_the_skill_report(start, pupil_client, teacher_client, pupils,
                                                     classroom):
    from classroom.reports.services import recompute_pupils

    session, table = start()
    deal(table, [[sym(3), sym(3, 1), sym(1), sym(10)], [sym(7), sym(4)]], target=sym(8))
    post_move(pupil_client, table, type="calculate",
              cards=f"{sym(3)},{sym(3, 1)},{sym(1)}", ops="*,-", results="9,8")
    recompute_pupils([pupils[0].pk])
    report = teacher_client.get(reverse("reports:pupil_report", args=[pupils[0].pk]))
    page = report.content.decode()
    assert report.status_code == 200
    assert "Nambarz" in page
    assert "3 × 3 = 9" in page or "Multiplication" in page


def test_a_replay_joker_laid_as_the_last_card_leaves_a_draw_button(start, pupil_client):
    # RULES 3.6: the pupil must then draw. With no card in hand the page once
    # showed "Your turn!" and no button at all: the table waited for ever.
    session, table = start()
    replay = joker("replay")
    deal(table, [[replay], [sym(7), sym(4)]], target=sym(5))
    answer = post_move(pupil_client, table, type="joker", card=str(replay)).content.decode()
    assert state_of(table).pending == "replay" and state_of(table).hands[0] == ()
    assert "Your joker was your last card: draw a card." in answer
    assert 'data-testid="draw"' in answer
    french = page_of(pupil_client, table, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Ton joker était ta dernière carte : pioche une carte." in french
    assert 'data-testid="draw"' in french
    drew = post_move(pupil_client, table, type="draw").content.decode()
    assert 'class="note error"' not in drew and len(state_of(table).hands[0]) == 1


# --------------------------------------------------------------------------- kept pieces


def test_kept_hands_reach_only_the_pupil_who_holds_them(start, client, pupils, monkeypatch):
    """A pupil's cards, prompt and forms are drawn once per process for what
    they show (presenter.hand_html) and served again while they show the
    same: through a whole game no tablet gets another pupil's cards, and
    each page's forms carry that page's own tap id."""
    from games.pages import base

    drawn: list[str] = []
    plain = base.render_to_string
    monkeypatch.setattr(base, "render_to_string",
                        lambda name, context=None: drawn.append(name) or plain(name, context))
    session, table = start(players=3, seed=11)
    tablets = [client]
    tap_pictures(client, pupils[0], pupils[0].password_pictures)
    for pupil in pupils[1:3]:
        tablets.append(client.__class__())
        tap_pictures(tablets[-1], pupil, pupil.password_pictures)
    served = 0
    for _move in range(40):
        state = state_of(table)
        if state.over:
            break
        for player, tablet in enumerate(tablets):
            page = page_of(tablet, table).content.decode()
            hands_drawn = drawn.count("games/nambarz/_hand_zone.html")
            again = page_of(tablet, table).content.decode()
            assert drawn.count("games/nambarz/_hand_zone.html") == hands_drawn  # kept
            served += 1
            assert card_ids(page) == card_ids(again) == set(state.hands[player]), player
            taps = set(re.findall(r'name="move_id" value="([^"]+)"', page))
            if player == state.current:
                assert len(taps) == 1  # every form of the page posts the page's own tap
                assert taps.isdisjoint(re.findall(r'name="move_id" value="([^"]+)"', again))
        move = bot_moves(state, state.current, "greedy", table.version)[0]
        outcome = services.play(table.pk, pupils[state.current], move, table.version,
                                f"kept-{table.version}")
        assert outcome.status == "applied", outcome
        table.refresh_from_db()
    assert served > 30
    assert drawn.count("games/nambarz/_hand_zone.html") < served
