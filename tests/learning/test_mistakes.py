"""Naming wrong answers (learning/mistakes.py)."""

from datetime import timedelta

import pytest

from learning import mistakes, tally
from tests.learning.factories import START, step


@pytest.mark.parametrize(
    ("skill", "operands", "expected", "given", "kind"),
    [
        ("mul", [6, 7], "42", "13", "added_instead"),
        ("sub", [9, 4], "5", "13", "added_instead"),
        ("div", [12, 3], "4", "15", "added_instead"),
        ("add", [6, 7], "13", "42", "multiplied_instead"),
        ("div", [12, 3], "4", "36", "multiplied_instead"),
        ("add", [9, 4], "13", "5", "subtracted_instead"),
        ("sub", [52, 17], "35", "45", "smaller_from_larger"),
        ("sub", [43, 8], "35", "45", "smaller_from_larger"),
        ("add", [8, 5], "13", "12", "off_by_one"),
        ("sub", [9, 4], "5", "6", "off_by_one"),
        ("mul", [7, 8], "56", "49", "table_neighbour"),  # 7 × 7
        ("mul", [7, 8], "56", "64", "table_neighbour"),  # 8 × 8
        ("mul", [7, 8], "56", "48", "table_neighbour"),  # 6 × 8
        ("mul", [6, 4], "24", "42", "digit_swap"),
        ("add", [50, 23], "73", "37", "digit_swap"),
        ("mul", [7, 8], "56", "54", "other"),
        ("add", [2, 3], "5", "banana", "other"),
        ("add", ["1/2", "1/4"], "3/4", "1/3", "other"),
        ("add", ["1/2", "1/4"], "3/4", "7/4", "off_by_one"),
        ("multi_step", [2, 3, 4], "20", "14", "other"),
        ("add", [2, 3], "5", "5", ""),
    ],
)
def test_named_mistakes(skill, operands, expected, given, kind):
    assert mistakes.name_mistake(skill, operands, expected, given) == kind


def test_operation_confusion_is_named_before_off_by_one():
    # 2 + 3 typed as 6: both "multiplied" and "off by one"; the documented order names it.
    assert mistakes.name_mistake("add", [2, 3], "5", "6") == "multiplied_instead"
    # 1 × 5 typed as 4: also the table neighbour 1 × 4; off by one is named first.
    assert mistakes.name_mistake("mul", [1, 5], "5", "4") == "off_by_one"


def test_recent_mistakes_are_the_last_ten_wrong_first_tries():
    rows = [step("mul", 7, 8, 56, 54, minute=0)]
    rows += [step("add", 8, 5, 13, 12, minute=i) for i in range(1, 12)]
    rows += [step("mul", 7, 8, 56, 55, minute=12, first_try=False)]  # a retry: not listed
    rows += [step("div", 12, 3, 4, 36, minute=13), step("add", 1, 1, 2, 2, minute=14)]
    recent = tally.summarise(rows)[1].mistakes
    assert len(recent) == 10
    assert recent[-1] == mistakes.Mistake(
        "div", "multiplied_instead", "12 ÷ 3 = 36 (4)", START + timedelta(minutes=13)
    )
    assert recent[0].calculation == "8 + 5 = 12 (13)"
    assert mistakes.calculation_text("mul", [7, 8], "56", "54") == "7 × 8 = 54 (56)"
    assert mistakes.calculation_text("sub", ["3/4", 0], "3/4", "1") == "3/4 − 0 = 1 (3/4)"
