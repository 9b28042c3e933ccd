"""Every kind of attempt written as a teacher reads it (learning/calculations.py)."""

import pytest

from learning.calculations import calculation_text


@pytest.mark.parametrize(
    ("skill", "operands", "expected", "given", "correct", "shown"),
    [
        ("mul", [7, 8], "56", "54", False, "7 × 8 = 54 (56)"),
        ("mul", [7, 8], "56", "56", True, "7 × 8 = 56"),
        ("sub", ["3/4", 0], "3/4", "1", False, "3/4 − 0 = 1 (3/4)"),
        # A count's total: every number with its sign, however many.
        ("add", ["3", "12", "13"], "28", "27", False, "3 + 12 + 13 = 27 (28)"),
        ("add", ["0", "0", "0", "5"], "5", "5", True, "0 + 0 + 0 + 5 = 5"),
        ("add", ["26"], "26", "26", True, "26 = 26"),
        # NUM-X: the cards of the group, their colours in words.
        ("scoring", ["shadow4"], "0", "4", False, "Card Shadow 4 is worth 0 (not 4)"),
        ("scoring", ["blue6", "red6"], "0", "0", True, "Cards blue 6 and red 6 are worth 0"),
        ("scoring", ["blue0", "blue7", "blue9"], "0", "0", True,
         "Cards blue 0, blue 7 and blue 9 are worth 0"),
        # Rows written before the colours were kept: the values alone.
        ("scoring", ["4"], "0", "4", False, "Card 4 is worth 0 (not 4)"),
        # The Ultimes track: what the square is, where it sends the pawn.
        ("primes", [17], "19", "18", False, "17 is ultimate: on to 19 (not 18)"),
        ("primes", [89], "83", "83", True, "89 is ultimate: back to 83"),
        ("primes", [12], "12", "12", True, "12 is neither ultimate nor a power: stays on 12"),
        ("powers", [16], "2", "4", False, "16 is a power of 2: back to 2 (not 4)"),
        # Whole calculations: the numbers used and the number to make.
        ("multi_step", [4, 1, 5], "21", "21", True, "4, 1 and 5 in several steps to make 21"),
        ("left_to_right", [7, 4, 3, 4], "2", "10", False,
         "7, 4, 3 and 4 from left to right to make 2 (a step was wrong)"),
        ("brackets", [2, 3, 4], "20", "None", False,
         "2, 3 and 4 with brackets to make 20 (a step was wrong)"),
    ],
)
def test_each_kind_reads_as_a_teacher_reads_it(skill, operands, expected, given, correct, shown):
    assert calculation_text(skill, operands, expected, given, correct=correct) == shown


@pytest.mark.parametrize("skill", ["scoring", "multi_step", "left_to_right", "brackets",
                                   "primes", "powers", "add", "sub", "mul", "div", "unknown"])
def test_no_skill_id_reaches_the_text(skill):
    for operands in ([3], [3, 4], [3, 4, 5]):
        shown = calculation_text(skill, operands, "7", "8", correct=False)
        assert f"{skill}:" not in shown and "_" not in shown and "unknown" not in shown
