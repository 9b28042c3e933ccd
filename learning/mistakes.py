"""Naming a wrong answer's likely cause.

Rules, first match wins; only wrong answers are named:

1. ``added_instead``       sub, mul or div, given == a + b.
   ``multiplied_instead``  add or div, given == a × b.
   ``subtracted_instead``  add, given == |a − b| (a != b).
   These name a confusion of operations, the most useful thing a teacher can
   hear, so they are checked first.
2. ``smaller_from_larger`` sub, given is what column subtraction gives when each
   column takes the smaller digit from the larger instead of borrowing
   (52 − 17 → 45). We picked this instead of "b − a": with whole numbers >= 0 a
   pupil cannot type 3 − 7, so "swapped subtraction" shows up in single steps
   only as this column bug (Brown & VanLehn's best-known subtraction bug).
3. ``off_by_one``          |given − expected| == 1 (counting on or back one
   too many or too few).
4. ``table_neighbour``     mul, given == a × (b ± 1) or (a ± 1) × b: the pupil
   recited the table and stopped one step early or late.
5. ``digit_swap``          given is expected with two digits swapped (42 for 24).
6. ``other``               anything else, including answers that are not
   numbers and steps that do not have two operands.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any, NamedTuple

from .calculations import calculation_text
from .i18n import N_, Gettext, untranslated
from .numbers import number
from .records import AttemptRecord

__all__ = ["MISTAKE_LABELS", "Mistake", "calculation_text", "mistake", "name_mistake"]

MISTAKE_LABELS = {
    "added_instead": N_("added instead"),
    "multiplied_instead": N_("multiplied instead"),
    "subtracted_instead": N_("subtracted instead"),
    "smaller_from_larger": N_("took the smaller digit from the larger"),
    "off_by_one": N_("off by one"),
    "table_neighbour": N_("next answer in the table"),
    "digit_swap": N_("digits swapped"),
    "other": N_("other"),
}


class Mistake(NamedTuple):
    skill: str
    kind: str
    calculation: str  # "7 × 8 = 54 (56)" (learning.calculations)
    created_at: datetime | None


def _smaller_from_larger(a: Fraction, b: Fraction) -> int | None:
    if a.denominator != 1 or b.denominator != 1 or a < 0 or b < 0:
        return None
    top, bottom = str(int(a)), str(int(b)).rjust(len(str(int(a))), "0")
    if len(bottom) > len(top):
        return None
    return int("".join(str(abs(int(x) - int(y))) for x, y in zip(top, bottom, strict=True)))


def _is_digit_swap(expected: Fraction, given: Fraction) -> bool:
    if expected.denominator != 1 or given.denominator != 1:
        return False
    want, got = str(int(expected)), str(int(given))
    if len(want) != len(got) or want == got:
        return False
    differ = [i for i in range(len(want)) if want[i] != got[i]]
    return (
        len(differ) == 2 and want[differ[0]] == got[differ[1]] and want[differ[1]] == got[differ[0]]
    )


def name_mistake(skill: str, operands: list, expected: Any, given: Any) -> str:
    """Name a wrong answer's likely cause (rules and their order: module docstring).

    Returns "" for an answer that is right, so callers may pass any attempt.
    """
    want, got = number(expected), number(given)
    if got is None or want is None:
        return "other"
    if got == want:
        return ""
    if len(operands) != 2:
        return "other"
    a, b = number(operands[0]), number(operands[1])
    if a is None or b is None:
        return "other"
    if skill in ("sub", "mul", "div") and got == a + b:
        return "added_instead"
    if skill in ("add", "div") and got == a * b:
        return "multiplied_instead"
    if skill == "add" and a != b and got == abs(a - b):
        return "subtracted_instead"
    if skill == "sub" and got == _smaller_from_larger(a, b):
        return "smaller_from_larger"
    if abs(got - want) == 1:
        return "off_by_one"
    if skill == "mul" and got in (a * (b - 1), a * (b + 1), (a - 1) * b, (a + 1) * b):
        return "table_neighbour"
    if _is_digit_swap(want, got):
        return "digit_swap"
    return "other"


def mistake(attempt: AttemptRecord, gettext: Gettext = untranslated) -> Mistake:
    """A wrong attempt, named and written out in ``gettext``'s language."""
    operands = list(attempt.operands or ())
    return Mistake(
        skill=attempt.skill,
        kind=name_mistake(attempt.skill, operands, attempt.expected, attempt.given),
        calculation=calculation_text(
            attempt.skill,
            operands,
            attempt.expected,
            attempt.given,
            correct=attempt.correct,
            gettext=gettext,
        ),
        created_at=attempt.created_at,
    )
