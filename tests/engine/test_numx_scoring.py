"""NUM-X deck and final count (RULES.md 4.1 and 4.10), with the seed's example."""

from __future__ import annotations

import time
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.numx.cards import CARDS, COLOURS, DEFAULT_MALUS, deck, score_pair
from engine.numx.scoring import count_steps, score

# Elma's 15 score cards in the seed; the colours were lost in the text, so
# these are one colouring that matches every line of the worked example.
ELMA = [(6, "rainbow"), (6, "blue"), (5, "rainbow"), (5, "red"), (5, "green"),
        (3, "shadow"), (3, "yellow"), (3, "blue"), (7, "shadow"), (7, "rainbow"),
        (7, "red"), (7, "green"), (13, "green"), (1, "green"), (16, "red")]


def test_the_deck_holds_the_125_played_cards():
    cards = deck()
    assert len(cards) == 125 and len({c.id for c in cards}) == 125
    kinds = Counter(c.kind for c in cards)
    assert kinds["number"] == 102
    assert (kinds["joker"], kinds["infini"], kinds["numx"]) == (2, 4, 1)
    assert (kinds["flip"], kinds["swipe"], kinds["eclair"], kinds["quantique"],
            kinds["block"], kinds["malus"]) == (2, 2, 2, 2, 3, 5)
    numbers = [c for c in cards if c.is_number]
    assert Counter(c.colour for c in numbers) == {colour: 17 for colour in COLOURS}
    assert {c.value for c in numbers} == set(range(17))
    assert [c.malus for c in cards if c.kind == "malus"] == list(DEFAULT_MALUS)
    assert len(deck(actions=False)) == 109


def test_the_malus_values_can_be_replaced():
    values = [(3, 0), (0, 3), (-1, 2), (2, -2), (0, 0)]
    assert [c.malus for c in deck(values) if c.kind == "malus"] == values


def test_the_seed_example_counts_line_by_line():
    worths = {(s.kind, s.key): (s.rule, s.worth) for s in count_steps(ELMA)}
    assert worths[("value", 6)] == ("rainbow", 12)      # 6R + 6 = 12 (rule 2)
    assert worths[("value", 5)] == ("combi", 15)        # 5+5+5 with Rainbow (rule 3)
    assert worths[("value", 3)] == ("combi", 6)         # 3+3+3 with Shadow = 6
    assert worths[("value", 7)][1] == 0                  # S, R, 7, 7: rules 1 then 4
    assert worths[("colour", "green")] == ("colour", 1)  # 13 and 1 of one colour
    assert worths[("colour", "red")] == ("single", 16)
    # The seed prints 53: its lines add up to 50 (RULES 4.10 calls 53 a typo).
    assert score(ELMA) == 50


def test_rules_one_by_one():
    assert score([(9, "blue"), (9, "red")]) == 0                      # pair
    assert score([(4, "shadow"), (4, "rainbow")]) == 0                # shadow cancels
    assert score([(4, "shadow")]) == 0                                # a shadow never scores
    assert score([(4, "shadow"), (4, "red")]) == 4                    # the red 4 is a single
    assert score([(8, "blue")] * 3) == 24                             # triplet
    assert score([(2, "blue"), (2, "red"), (2, "green"), (2, "yellow")]) == 8
    assert score([(1, "blue"), (1, "red"), (1, "green"), (1, "yellow"), (1, "shadow")]) == 100
    assert score([(0, "blue"), (0, "red"), (0, "green"), (0, "rainbow"), (0, "shadow")]) == 100
    # Four classic cards and nothing else are a quadruplet, not an X-Trem.
    assert score([(5, c) for c in ("blue", "red", "green", "yellow")]) == 20
    assert score([(12, "blue"), (3, "blue"), (10, "rainbow"), (2, "rainbow")]) == 5
    # Rule 5 leaves grouped cards alone: the blue 6 in a pair does not shadow the blue 9.
    assert score([(6, "blue"), (6, "rainbow"), (9, "blue")]) == 21
    assert score([(None, "joker"), (None, "malus"), (7, "red")]) == 7
    assert score([]) == 0


def test_family_counts_with_two_rules():
    row = [(9, "blue"), (9, "red"), (5, "blue"), (8, "blue"), (7, "shadow"), (3, "rainbow"),
           (3, "blue"), (4, "green"), (4, "red"), (4, "blue")]
    # Pairs cancel and a Rainbow doubles; no triplets, no colours: singles add up.
    assert score(row, rules=(2, 4)) == 0 + 5 + 8 + 6 + 12
    steps = count_steps(row, rules=(2, 4))
    assert [s.key for s in steps] == [3, 7, 9, "any"]  # the Shadow 7 is worth 0


_pairs = st.lists(st.sampled_from(sorted({score_pair(c) for c in CARDS}, key=str)),
                  max_size=20, unique=True)


@settings(max_examples=150, deadline=None)
@given(_pairs)
def test_score_is_the_sum_of_the_steps_and_never_negative(row):
    steps = count_steps(row)
    assert score(row) == sum(s.worth for s in steps) >= 0
    # Every numbered card is in one step at most, shadows included.
    counted = [c for s in steps for c in s.cards]
    assert len(counted) == len(set(counted)) <= sum(v is not None for v, _ in row)
    assert score(list(reversed(row))) == score(row)


def test_score_is_quick():
    start = time.perf_counter()
    for _ in range(200):
        score(ELMA)
    assert (time.perf_counter() - start) / 200 < 0.001
