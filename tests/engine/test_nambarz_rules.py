"""Nambarz rules, one test per rule of RULES.md 3.2-3.7 and the checked examples."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engine.core import IllegalMove
from engine.nambarz import (
    ANIMALS,
    GAME,
    calculation_bonus,
    deck,
    match_kind,
    missed_calculation,
    rank_points,
    reaches,
    simplest,
)
from tests.engine.nambarz_helpers import calc, card_in_hand, dealt, hand_labels, play

# --------------------------------------------------------------------------- deck (3.2, 3.3)


def test_the_deck_is_92_cards_of_three_families():
    cards = deck()
    assert len(cards) == 92 and [c.id for c in cards] == list(range(92))
    families = Counter(c.family for c in cards)
    assert families == {"symbol": 40, "drawing": 40, "joker": 12}
    assert Counter(c.joker for c in cards if c.joker) == {
        "change_number": 3, "change_drawing": 3, "change_any": 3, "replay": 3}
    symbols = Counter(c.number for c in cards if c.family == "symbol")
    assert symbols == {n: 4 for n in range(1, 11)}
    faces = Counter((c.number, c.animal) for c in cards if c.family == "drawing")
    assert len(faces) == 20 and set(faces.values()) == {2}
    # The official example: 3-abeille is covered by 3s and by 8-abeille only.
    assert ("abeille" in ANIMALS[3]) and ("abeille" in ANIMALS[8]) and "chat" in ANIMALS[5]
    animals = Counter(a for pair in ANIMALS.values() for a in pair)
    assert len(animals) == 10 and set(animals.values()) == {2}


@pytest.mark.parametrize("jokers, each", [(12, 3), (8, 2), (4, 1)])
def test_difficulty_by_jokers(jokers, each):
    cards = deck(jokers)
    assert len(cards) == 80 + jokers
    assert set(Counter(c.joker for c in cards if c.joker).values()) == {each}
    with pytest.raises(ValueError):
        deck(7)


def test_concordance_by_number_or_drawing():
    cards = deck()
    by = {(c.number, c.animal, c.family): c for c in cards if c.family != "joker"}
    bee3, bee8 = by[(3, "abeille", "drawing")], by[(8, "abeille", "drawing")]
    three, hippo3 = by[(3, None, "symbol")], by[(3, "hippopotame", "drawing")]
    cat5 = by[(5, "chat", "drawing")]
    assert match_kind(three, bee3) == "number" and match_kind(hippo3, bee3) == "number"
    assert match_kind(bee8, bee3) == "drawing" and match_kind(cat5, bee3) is None
    assert match_kind(bee8, three) is None  # a symbol card has no drawing
    covering = {(c.number, c.animal) for c in cards if match_kind(c, bee3)}
    assert covering == {(3, "abeille"), (3, None), (3, "hippopotame"), (8, "abeille")}


def test_deal_seven_and_the_first_target_is_never_a_joker():
    for seed in range(60):
        state = GAME.new({}, 4, seed)
        assert [len(h) for h in state.hands] == [7] * 4
        assert len(state.discard) == 1 and state.target.family != "joker"
        assert len(state.pile) + 28 + 1 == 92
        assert Counter(state.pile + state.discard + sum(state.hands, ())) == Counter(range(92))


def test_options_are_checked():
    for options, players in (({"jokers": 5}, 2), ({"rounds": 2}, 2), ({"teams": True}, 3),
                             ({"colour": 1}, 2), ({"operations": "*"}, 2)):
        with pytest.raises(IllegalMove) as err:
            GAME.new(options, players, 0)
        assert err.value.code == "bad_option"
    with pytest.raises(IllegalMove):
        GAME.new({}, 13, 0)
    assert GAME.new({"young": True}, 2, 0).options.operations == "+-"


# --------------------------------------------------------------------------- reaches / simplest


def test_checked_examples_of_evaluation():
    assert reaches([3, 3, 1], 8) and reaches([1, 3, 3], 8)
    assert not reaches([3, 1], 8)
    assert not reaches([9, 8, 2], 5)
    assert reaches([9, 8, 2], 5, brackets=True)
    assert not simplest([6, 5, 2, 10], 3) and simplest([6, 2], 3)
    assert simplest([3, 3, 1], 8)
    assert not reaches([2, 3], 6, operations="+-")
    assert reaches([2, 3, 1], 6, operations="+-")


def test_points():
    assert [rank_points(r) for r in range(1, 8)] == [40, 32, 25, 19, 14, 0, 0]
    assert [calculation_bonus(k) for k in range(2, 8)] == [0, 0, 7, 14, 21, 28]


# --------------------------------------------------------------------------- calculation (3.4 b)


def test_331_on_8_only_as_three_times_three_minus_one():
    state = dealt([["3", "3", "1", "4"], ["5"]], "8")
    out = calc(state, 0, ["3", "3", "1"], ["*", "-"], [9, 8])
    assert hand_labels(out.state, 0) == ["4"]
    assert out.state.target.number == 1  # the last card laid is the new target
    skills = [a.skill for a in out.attempts]
    assert skills == ["mul", "sub", "multi_step", "left_to_right"]
    assert out.attempts[0].operands == (3, 3) and out.attempts[1].operands == (9, 1)
    assert all(a.correct for a in out.attempts)
    assert out.state.current == 1


def test_a_calculation_that_misses_the_target_keeps_its_right_steps_as_evidence():
    """Every step right, the target missed: the steps count as right, the
    miss is the plan's mistake (several steps, left to right), and the cards
    stay for another try."""
    state = dealt([["3", "3", "1", "4"], ["5"]], "8")
    out = calc(state, 0, ["1", "3", "3"], ["+", "*"], [4, 12])
    assert [(a.skill, a.given, a.correct) for a in out.attempts] == [
        ("add", 4, True), ("mul", 12, True),
        ("multi_step", 12, False), ("left_to_right", 12, False)]
    assert all(a.expected == 8 for a in out.attempts[2:])
    assert out.state.hands == state.hands and out.state.current == 0 and out.state.retrying
    assert out.events[0].kind == "wrong_result"
    assert out.events[0].data == {"missed": True, "value": 12, "target": 8, "ops": ["+", "*"]}


def test_982_on_5_needs_brackets():
    state = dealt([["9", "8", "2", "4"], ["5"]], "5-chat")
    with pytest.raises(IllegalMove) as err:
        calc(state, 0, ["9", "8", "2"], ["-", "/"], [1, 0])
    assert err.value.code in ("not_whole", "misses_target")
    with pytest.raises(IllegalMove) as err:
        calc(state, 0, ["8", "2", "9"], ["/", "-"], [4, 5], steps=[[0, 1], [2, 3]])
    assert err.value.code == "left_to_right_only"
    state = replace(state, options=replace(state.options, brackets=True))
    # 9 − (8 ÷ 2): the cards laid 9, 8, 2; step 0 joins 8 and 2, step 1 joins 9 and that.
    out = calc(state, 0, ["9", "8", "2"], ["/", "-"], [4, 5], steps=[[1, 2], [0, 3]])
    assert [a.skill for a in out.attempts] == ["div", "sub", "multi_step", "brackets"]
    assert out.attempts[1].operands == (9, 4)
    assert out.state.target.number == 2


def test_6_5_2_10_on_3_is_not_the_simplest():
    state = dealt([["6", "5", "2", "10", "7"], ["5"]], "3-abeille")
    with pytest.raises(IllegalMove) as err:
        calc(state, 0, ["6", "5", "2", "10"], ["+", "+", "-"], [11, 13, 3])
    assert err.value.code == "not_simplest" and "fewer cards" in err.value.reason
    assert state.hands[0] == GAME.apply(
        state, 0, {"type": "draw"}).state.hands[0][:5]  # nothing was taken
    out = calc(state, 0, ["6", "2"], ["/"], [3])
    assert out.state.target.number == 2


def test_a_card_concordant_by_drawing_cannot_be_inside():
    state = dealt([["8-abeille", "5-chat", "1"], ["5"]], "3-abeille")
    with pytest.raises(IllegalMove) as err:
        calc(state, 0, ["8-abeille", "5-chat"], ["-"], [3])
    assert err.value.code == "concordant_inside"
    assert err.value.reason == ("8-abeille matches the target by its animal: "
                                "it can't be inside a calculation.")


def test_a_card_concordant_by_number_cannot_be_inside_but_may_be_held():
    state = dealt([["3", "1", "2", "3"], ["5"]], "3-abeille")
    with pytest.raises(IllegalMove) as err:
        calc(state, 0, ["3", "1"], ["*"], [3])
    assert err.value.code == "concordant_inside"
    out = calc(state, 0, ["1", "2"], ["+"], [3])  # holding a 3 is no obstacle (3.4 b8)
    assert hand_labels(out.state, 0) == ["3", "3"]


def test_one_family_per_calculation_any_family_for_the_target():
    state = dealt([["1", "2-A3", "2", "4-A5", "6-A1"], ["5"]], "3-abeille")
    with pytest.raises(IllegalMove) as err:
        calc(state, 0, ["1", "2-A3"], ["+"], [3])
    assert err.value.code == "mixed_families"
    out = calc(state, 0, ["6-A1", "2-A3"], ["/"], [3])
    assert out.state.target.label == "2-A3"


def test_whole_numbers_at_every_step():
    state = dealt([["2", "5", "4", "9"], ["5"]], "3")
    with pytest.raises(IllegalMove) as err:
        calc(state, 0, ["2", "5", "4"], ["-", "+"], [0, 0])
    assert err.value.code == "below_zero"
    with pytest.raises(IllegalMove) as err:
        calc(state, 0, ["5", "2"], ["/"], [2])
    assert err.value.code == "not_whole"


def test_a_wrong_typed_result_is_evidence_and_the_cards_stay():
    state = dealt([["3", "3", "1", "4"], ["5"]], "8")
    out = calc(state, 0, ["3", "3", "1"], ["*", "-"], [6, 5])
    assert out.state.hands == state.hands and out.state.current == 0
    assert out.state.retrying
    # One slip, one mistake: the step's. The plan (3 × 3 − 1) makes the
    # target, and is told so with what it makes, not the wrong 6.
    assert [(a.skill, a.given, a.correct) for a in out.attempts] == [
        ("mul", 6, False), ("multi_step", 8, True), ("left_to_right", 8, True)]
    assert out.events[0].kind == "wrong_result" and "expected" not in out.events[0].data
    again = calc(out.state, 0, ["3", "3", "1"], ["*", "-"], [9, 8])
    assert all(a.correct and not a.first_try for a in again.attempts)
    assert not again.state.retrying


def test_the_young_variant_has_plus_and_minus_only():
    state = dealt([["2", "4", "1"], ["5"]], "8", young=True)
    with pytest.raises(IllegalMove) as err:
        calc(state, 0, ["2", "4"], ["*"], [8])
    assert err.value.code == "op_not_allowed"
    assert missed_calculation(state, 0) is None
    state = dealt([["2", "4", "1", "9"], ["5"]], "7", young=True)
    assert missed_calculation(state, 0) == ("sub",)  # 9 − 2, the fewest cards


def test_a_coup_de_maitre_earns_its_bonus_in_the_round():
    state = dealt([["6", "5", "1", "1", "2"], ["5", "7"]], "9")
    out = calc(state, 0, ["6", "5", "1", "1"], ["+", "-", "-"], [11, 10, 9])
    assert out.state.round_points == (7, 0)
    assert out.events[0].kind == "calculated" and out.events[0].data["bonus"] == 7


def test_matching_and_refusals():
    state = dealt([["8-abeille", "4"], ["5"]], "3-abeille")
    with pytest.raises(IllegalMove) as err:
        play(state, 0, {"type": "match", "card": card_in_hand(state, 0, "4")})
    assert err.value.code == "no_match"
    with pytest.raises(IllegalMove) as err:
        play(state, 1, {"type": "draw"})
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalMove) as err:
        play(state, 0, {"type": "match", "card": state.hands[1][0]})
    assert err.value.code == "not_in_hand"
    with pytest.raises(IllegalMove) as err:
        play(state, 0, {"type": "pass"})
    assert err.value.code == "draw_first"
    out = play(state, 0, {"type": "match", "card": card_in_hand(state, 0, "8-abeille")})
    assert out.state.target.label == "8-abeille" and out.state.current == 1
    for bad in (None, {}, {"type": 3}, {"type": "calculate", "cards": "x"},
                {"type": "match", "card": True}, {"type": "calculate", "cards": [1, 2]}):
        with pytest.raises(IllegalMove):
            play(state, 0, bad)


def test_the_stricter_simplest_rule_is_an_option():
    state = dealt([["6", "5", "1", "1", "2", "7"], ["5", "7"]], "9")
    assert calc(state, 0, ["6", "5", "1", "1"], ["+", "-", "-"], [11, 10, 9]).state.current == 1
    strict = dealt([["6", "5", "1", "1", "2", "7"], ["5", "7"]], "9", strict_simplest=True)
    with pytest.raises(IllegalMove) as err:
        calc(strict, 0, ["6", "5", "1", "1"], ["+", "-", "-"], [11, 10, 9])
    assert err.value.code == "shorter_in_hand"
    assert calc(strict, 0, ["7", "2"], ["+"], [9]).state.current == 1


def test_brackets_steps_name_each_card_and_result_once():
    state = dealt([["9", "8", "2", "4"], ["5"]], "5-chat", brackets=True)
    for steps in ([[1, 2], [1, 3]], [[1, 1], [0, 3]], [[1, 2], [0, 4]], [[0, 1]], "x"):
        with pytest.raises(IllegalMove) as err:
            calc(state, 0, ["9", "8", "2"], ["/", "-"], [4, 5], steps=steps)
        assert err.value.code == "malformed"
    # Left to right is still allowed in the brackets variant, and tagged so.
    state = dealt([["3", "3", "1"], ["5"]], "8", brackets=True)
    out = calc(state, 0, ["3", "3", "1"], ["*", "-"], [9, 8])
    assert [a.skill for a in out.attempts][2:] == ["multi_step", "left_to_right"]
