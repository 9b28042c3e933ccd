"""Arithmetic: steps, typed calculations, what a roll can make (RULES.md 0.1)."""

from fractions import Fraction
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import arithmetic as ar
from engine.core import IllegalMove

FAST = settings(max_examples=60, deadline=None)
dice = st.lists(st.integers(1, 6), min_size=2, max_size=4)
operation_sets = st.sets(st.sampled_from("+-*/"), min_size=1).map("".join)


def rolls(count):
    return combinations_with_replacement(range(1, 7), count)


def on_board(numbers, **kw):
    return {n for n in ar.reachable(numbers, **kw) if 1 <= n <= 100}


# ------------------------------------------------------------------ a slow brute force


def brute(numbers, ops="+-*/", fractions=False):
    """(value, operations used) for every expression tree over all numbers."""
    found = set()

    def walk(items):
        if len(items) == 1:
            found.add(items[0])
            return
        for i in range(len(items)):
            for j in range(len(items)):
                if i == j:
                    continue
                (a, ua), (b, ub) = items[i], items[j]
                rest = [items[k] for k in range(len(items)) if k not in (i, j)]
                made = []
                if "+" in ops:
                    made.append((a + b, "+"))
                if "*" in ops:
                    made.append((a * b, "*"))
                if "-" in ops and a >= b:
                    made.append((a - b, "-"))
                if "/" in ops and b != 0 and (fractions or a % b == 0):
                    made.append((Fraction(a) / b, "/"))
                for value, op in made:
                    walk(rest + [(value, ua | ub | {op})])

    walk([(Fraction(n), frozenset()) for n in numbers])
    return {(int(v), used) for v, used in found if v.denominator == 1}


# ------------------------------------------------------------------ checked facts


def test_seed_roll_makes_56_numbers_57_with_fractions():
    assert len(on_board([6, 4, 3, 1])) == 56
    assert len(on_board([6, 4, 3, 1], fractions=True)) == 57
    assert len(on_board([6, 4, 3, 1])) > 40  # the seed's "plus de quarante"


def test_three_dice_make_1_to_42_and_never_43():
    made = set().union(*(ar.reachable(r) for r in rolls(3)))
    assert set(range(1, 43)) <= made
    assert 43 not in made


def test_four_dice_with_plus_and_minus_make_at_most_24():
    made = set().union(*(ar.reachable(r, "+-") for r in rolls(4)))
    assert max(made) == 24
    assert set(range(1, 25)) <= made


def test_four_dice_with_plus_alone_make_4_to_24():
    assert set().union(*(ar.reachable(r, "+") for r in rolls(4))) == set(range(4, 25))


def test_every_number_to_100_is_made_by_some_roll_of_four():
    made = set().union(*(ar.reachable(r) for r in rolls(4)))
    assert set(range(1, 101)) <= made


def test_reachable_edges():
    assert ar.reachable([]) == set()
    assert ar.reachable([5]) == {5}
    assert ar.reachable([6, 3], "/") == {2}
    assert ar.reachable([4, 3], "/") == set()
    assert ar.reachable([4, 3], "÷×") == {12}  # symbols are accepted too


@FAST
@given(dice, operation_sets, st.booleans())
def test_reachable_agrees_with_brute_force(numbers, ops, fractions):
    slow = {value for value, _ in brute(numbers, ops, fractions)}
    assert ar.reachable(numbers, ops, fractions) == slow


@FAST
@given(dice, operation_sets, st.sets(st.integers(0, 60), max_size=12))
def test_operations_that_make_agrees_with_brute_force(numbers, ops, targets):
    used = set()
    for value, ops_used in brute(numbers, ops):
        if value in targets:
            used |= ops_used
    assert ar.operations_that_make(numbers, targets, ops) == {op: op in used for op in ops}


def test_operations_that_make_example():
    # 26 = 6 × 4 + 3 − 1 (no division), but 2 = 6 ÷ 3 × (4 − ... ) may use it.
    assert ar.operations_that_make([6, 4, 3, 1], [26])["*"]
    made = ar.operations_that_make([6, 4, 3, 1], [100], "+-*/")
    assert made == {"+": False, "-": False, "*": False, "/": False}


# ------------------------------------------------------------------ explain


def test_explain_gives_steps_and_text():
    calculation = ar.explain([3, 4, 2], 14)
    assert calculation.text == "(3 + 4) × 2"
    assert [tuple(s) for s in calculation.steps] == [(3, "+", 4, 7), (7, "*", 2, 14)]
    assert calculation.brackets and calculation.multi_step
    assert ar.explain([6, 4, 3, 1], 100) is None


@FAST
@given(dice, operation_sets, st.booleans(), st.data())
def test_every_explanation_is_an_accepted_calculation(numbers, ops, fractions, data):
    made = sorted(ar.reachable(numbers, ops, fractions))
    target = data.draw(st.sampled_from(made)) if made else None
    if target is None:
        return
    calculation = ar.explain(numbers, target, ops, fractions)
    assert calculation.value == target
    again = ar.check_steps(numbers, calculation.steps, ops, fractions)
    assert again.value == target
    typed = ar.parse_calculation(calculation.text, numbers, ops, fractions)
    assert typed.value == target


# ------------------------------------------------------------------ typed calculations


@pytest.mark.parametrize(
    "text, value",
    [
        ("6×4+3-1", 26),
        ("6*4+3−1", 26),
        ("6x4 + 3 - 1", 26),
        ("(6+4)*(3-1)", 20),
        ("6÷3*4+1", 9),
        ("6/3/1*4", 8),
        ("((6))+4+3+1", 14),
    ],
)
def test_parse_calculation(text, value):
    assert ar.parse_calculation(text, [6, 4, 3, 1]).value == value


@pytest.mark.parametrize(
    "text, code, details",
    [
        ("64-3+1", "juxtaposed", {"number": 64, "position": 1}),
        ("6 4+3+1", "parse_error", {"position": 3}),
        ("(6+4+3+1", "parse_error", {"position": 9}),
        ("6+4+3+1)", "parse_error", {"position": 8}),
        ("6+4+3+", "parse_error", {"position": 7}),
        ("", "parse_error", {"position": 1}),
        ("6+4+3+1+2", "not_available", {"number": 2}),
        ("6+4+3", "unused_numbers", {"unused": [1]}),
        ("1-6+4+3", "below_zero", {"left": 1, "right": 6}),
        ("6/4+3+1", "not_whole", {"left": 6, "right": 4}),
        ("6+4+3+a", "parse_error", {"position": 7}),
        ("6^4+3+1", "parse_error", {"position": 2}),
        ("-6+4+3+1", "parse_error", {"position": 1}),
    ],
)
def test_parse_refusals(text, code, details):
    with pytest.raises(IllegalMove) as refused:
        ar.parse_calculation(text, [6, 4, 3, 1])
    assert refused.value.code == code
    assert details.items() <= refused.value.details.items()
    assert refused.value.reason


def test_parse_limits_and_options():
    with pytest.raises(IllegalMove) as refused:
        ar.parse_calculation("1+" * 150 + "1", [1])
    assert refused.value.code == "too_long"
    with pytest.raises(IllegalMove) as refused:
        ar.parse_calculation("6/(4-4)+1", [6, 4, 4, 1])
    assert refused.value.code == "divide_by_zero"
    with pytest.raises(IllegalMove) as refused:
        ar.parse_calculation("6*4+3-1", [6, 4, 3, 1], "+-")
    assert refused.value.code == "op_not_allowed"
    with pytest.raises(IllegalMove) as refused:
        ar.parse_calculation(12, [6, 4, 3, 1])
    assert refused.value.code == "malformed"
    assert ar.parse_calculation("6/4*(3-1)", [6, 4, 3, 1], fractions=True).value == 3
    with pytest.raises(IllegalMove) as refused:
        ar.parse_calculation("6/4+3+1", [6, 4, 3, 1], fractions=True)
    assert refused.value.code == "fraction_final"
    with pytest.raises(IllegalMove) as refused:
        ar.parse_calculation("6", [6])
    assert refused.value.code == "too_few_steps"


def _trees(numbers):
    """Every bracketing and operation over the numbers in this order, as text
    and exact value (None after a division by zero)."""
    if len(numbers) == 1:
        yield str(numbers[0]), Fraction(numbers[0])
        return
    for cut in range(1, len(numbers)):
        for lt, lv in _trees(numbers[:cut]):
            for rt, rv in _trees(numbers[cut:]):
                for op in "+-*/":
                    if lv is None or rv is None or (op == "/" and rv == 0):
                        value = None
                    else:
                        value = {"+": lv + rv, "-": lv - rv, "*": lv * rv}.get(op)
                        value = lv / rv if op == "/" else value
                    yield f"({lt}{op}{rt})", value


@FAST
@given(dice, st.integers(0, 10_000))
def test_an_accepted_calculation_makes_the_number_it_claims(numbers, pick):
    trees = list(_trees(numbers))
    text, value = trees[pick % len(trees)]
    try:
        calculation = ar.parse_calculation(text, numbers, fractions=True)
    except IllegalMove as refused:
        # Refused only for a reason the rules give.
        assert refused.code in {"below_zero", "divide_by_zero", "fraction_final"}
        return
    assert calculation.value == value
    assert ar.check_steps(numbers, calculation.steps, fractions=True).value == value


# ------------------------------------------------------------------ steps and attempts


def test_step_refusals():
    with pytest.raises(IllegalMove) as refused:
        ar.evaluate(3, "-", 5)
    assert refused.value.code == "below_zero"
    with pytest.raises(IllegalMove) as refused:
        ar.evaluate(3, "/", 0)
    assert refused.value.code == "divide_by_zero"
    with pytest.raises(IllegalMove) as refused:
        ar.evaluate(3, "/", 2)
    assert refused.value.code == "not_whole"
    assert ar.evaluate(3, "/", 2, fractions=True) == Fraction(3, 2)
    assert ar.evaluate(Fraction(3, 2), "*", 2, fractions=True) == 3
    with pytest.raises(IllegalMove) as refused:
        ar.check_steps([6, 4], [(6, "+", 4, 11)])
    assert refused.value.code == "wrong_result"
    assert refused.value.details["expected"] == 10
    with pytest.raises(IllegalMove) as refused:
        ar.check_steps([6, 4, 3], [(6, "+", 4, 10)])
    assert refused.value.code == "unused_numbers"
    with pytest.raises(IllegalMove) as refused:
        ar.check_steps([6, 4], [(6, "+", 5, 11)])
    assert refused.value.code == "not_available"


def test_whole_calculation_tags():
    left_to_right = ar.check_steps(
        [6, 4, 3, 1], [(6, "*", 4, 24), (24, "+", 3, 27), (27, "-", 1, 26)]
    )
    assert left_to_right.text == "6 × 4 + 3 − 1"
    assert not left_to_right.brackets and left_to_right.multi_step
    grouped = ar.check_steps([6, 4, 3, 1], [(4, "-", 3, 1), (6, "*", 1, 6), (6, "*", 1, 6)])
    assert grouped.brackets
    two = ar.check_steps([6, 4], [(6, "-", 4, 2)])
    assert not two.multi_step and not two.brackets


def test_attempts_for_typed_steps():
    records = ar.attempts_for([3, 4, 2], [(3, "+", 4, 7), (7, "×", 2, 14)])
    assert [(a.skill, a.operands, a.expected, a.given, a.correct) for a in records] == [
        ("add", (3, 4), 7, 7, True),
        ("mul", (7, 2), 14, 14, True),
        ("brackets", (3, 4, 2), 14, 14, True),
        ("multi_step", (3, 4, 2), 14, 14, True),
    ]
    wrong = ar.attempts_for([3, 4, 2], [(3, "+", 4, 8), (8, "*", 2, 16)])
    assert [(a.skill, a.correct) for a in wrong] == [("add", False)]
    assert all(a.first_try for a in records)
