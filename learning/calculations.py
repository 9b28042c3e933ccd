"""An attempt written out as a teacher reads it, in the reader's language.

A step of one of the four operations on two numbers is written as the pupil
typed it: "7 × 8 = 54 (56)", the right answer in brackets when it was wrong.
Every other attempt says what the pupil was asked in words, and ends with
"(not 18)", what the pupil answered, when it was wrong (the games' own
narration words it so too):

* ``add`` on any other count of numbers (a count's total): "0 + 0 + 5 = 5".
* ``scoring`` (NUM-X's final count, operands = the group's cards as card ids
  such as ``"shadow4"``, or bare values in rows written before the ids were
  kept): "Card Shadow 4 is worth 0 (not 4)".
* ``primes`` and ``powers`` (the Ultimes track, operands = the square the roll
  reached, the answer = where the square sends the pawn): "17 is ultimate: on
  to 19". Whether the square is ultimate or elevated comes from the engine's
  own track, so the sentence cannot disagree with the game.
* ``multi_step``, ``left_to_right`` and ``brackets`` (a whole calculation,
  operands = the numbers used, the answer = the number to make): "4, 1 and 5
  in several steps to make 21". The steps themselves are attempts of their
  own; when one was wrong, the whole is "(a step was wrong)": what a Nambarz
  pupil typed there is a step's result, not the calculation's.

Each sentence is a module constant wrapped in ``N_``; ``gettext`` translates it.
"""

from __future__ import annotations

import re
from typing import Any

from engine.ultimes import ELEVATED, is_ultimate

from .i18n import N_, Gettext, untranslated
from .numbers import number, text, whole
from .skills import SYMBOLS

WHOLE_CALCULATION = ("multi_step", "left_to_right", "brackets")
# Skills written as a sentence, not as the equation the pupil typed.
IN_WORDS = frozenset({"scoring", "primes", "powers", *WHOLE_CALCULATION})

MSG_AND = N_("%(first)s and %(last)s")
MSG_NOT = N_("%(text)s (not %(given)s)")
MSG_STEP_WRONG = N_("%(text)s (a step was wrong)")

MSG_CARD = N_("Card %(cards)s is worth %(worth)s")
MSG_CARDS = N_("Cards %(cards)s are worth %(worth)s")
COLOUR_NAMES = {
    "blue": N_("blue %(n)s"),
    "red": N_("red %(n)s"),
    "yellow": N_("yellow %(n)s"),
    "green": N_("green %(n)s"),
    "rainbow": N_("Rainbow %(n)s"),
    "shadow": N_("Shadow %(n)s"),
}
_CARD_ID = re.compile(r"^([a-z]+)(\d+)$")

MSG_POWER = N_("%(square)s is a power of %(source)s: back to %(end)s")
MSG_ULTIMATE_ON = N_("%(square)s is ultimate: on to %(end)s")
MSG_ULTIMATE_BACK = N_("%(square)s is ultimate: back to %(end)s")
MSG_PLAIN = N_("%(square)s is neither ultimate nor a power: stays on %(end)s")

MSG_WHOLE = {
    "multi_step": N_("%(numbers)s in several steps to make %(target)s"),
    "left_to_right": N_("%(numbers)s from left to right to make %(target)s"),
    "brackets": N_("%(numbers)s with brackets to make %(target)s"),
}


def and_list(items: list[str], gettext: Gettext = untranslated) -> str:
    """"4", "4 and 5", "4, 1 and 5"."""
    if len(items) <= 1:
        return "".join(items)
    return gettext(MSG_AND) % {"first": ", ".join(items[:-1]), "last": items[-1]}


def card_name(card: Any, gettext: Gettext = untranslated) -> str:
    """A NUM-X card id ("shadow4") in words ("Shadow 4"); a bare value as it is."""
    found = _CARD_ID.match(str(card))
    if found is None or found.group(1) not in COLOUR_NAMES:
        return text(card)
    return gettext(COLOUR_NAMES[found.group(1)]) % {"n": found.group(2)}


def _sentence(skill: str, operands: list, expected: Any, gettext: Gettext) -> str | None:
    """The right fact in words, or None for a step written as an equation."""
    if skill == "scoring" and operands:
        cards = and_list([card_name(c, gettext) for c in operands], gettext)
        message = MSG_CARD if len(operands) == 1 else MSG_CARDS
        return gettext(message) % {"cards": cards, "worth": text(expected)}
    if skill in ("primes", "powers") and len(operands) == 1:
        square, end = whole(operands[0]), whole(expected)
        if square is None or end is None:
            return None
        values = {"square": square, "end": end, "source": ELEVATED.get(square)}
        if square in ELEVATED:
            return gettext(MSG_POWER) % values
        if is_ultimate(square):
            return gettext(MSG_ULTIMATE_ON if end > square else MSG_ULTIMATE_BACK) % values
        return gettext(MSG_PLAIN) % values
    if skill in MSG_WHOLE and operands:
        numbers = and_list([text(x) for x in operands], gettext)
        return gettext(MSG_WHOLE[skill]) % {"numbers": numbers, "target": text(expected)}
    return None


def calculation_text(
    skill: str,
    operands: list,
    expected: Any,
    given: Any,
    *,
    correct: bool | None = None,
    gettext: Gettext = untranslated,
) -> str:
    """ "7 × 8 = 54 (56)", "Card Shadow 4 is worth 0 (not 4)": what the pupil
    was asked and answered, the right answer shown when it was wrong.
    ``correct``: the attempt's verdict; None compares the answers."""
    operands = list(operands or ())
    if correct is None:
        want, got = number(expected), number(given)
        correct = want is not None and want == got
    sentence = _sentence(skill, operands, expected, gettext)
    if sentence is not None:
        if correct:
            return sentence
        message = MSG_STEP_WRONG if skill in MSG_WHOLE else MSG_NOT
        return gettext(message) % {"text": sentence, "given": text(given)}
    symbol = SYMBOLS.get(skill)
    if symbol and (len(operands) == 2 or (skill == "add" and operands)):
        left = f" {symbol} ".join(text(x) for x in operands)
    else:
        # A skill no sentence knows: its numbers, never its name.
        left = ", ".join(text(x) for x in operands)
    typed = f"{left} = {text(given)}" if left else text(given)
    return typed if correct else f"{typed} ({text(expected)})"
