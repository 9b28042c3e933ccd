"""Whether a pupil avoids an operation they could have used.

From opportunities (turns where an operation could have made a free square):
``could`` = turns where it could, ``used`` = those of them where the pupil's
steps used it. A pupil *avoids* an operation when could >= AVOID_MIN_CHANCES (5)
and used / could < AVOID_RATE (0.2): fewer than one chance in five taken, over
enough chances that it is not luck of the dice. This shows a pupil who never
divides even when every division they do type is right.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .i18n import N_, Gettext, untranslated
from .records import OpportunityRecord
from .skills import OPERATIONS

AVOID_MIN_CHANCES = 5
AVOID_RATE = 0.2

# One full sentence per operation and count, so translators never glue fragments.
MSG_AVOIDS = {
    "add": (
        N_("avoids addition: could have added %(could)d times, never added"),
        N_("avoids addition: could have added %(could)d times, added once"),
        N_("avoids addition: could have added %(could)d times, added %(used)d times"),
    ),
    "sub": (
        N_("avoids subtraction: could have subtracted %(could)d times, never subtracted"),
        N_("avoids subtraction: could have subtracted %(could)d times, subtracted once"),
        N_("avoids subtraction: could have subtracted %(could)d times, subtracted %(used)d times"),
    ),
    "mul": (
        N_("avoids multiplication: could have multiplied %(could)d times, never multiplied"),
        N_("avoids multiplication: could have multiplied %(could)d times, multiplied once"),
        N_(
            "avoids multiplication: could have multiplied %(could)d times,"
            " multiplied %(used)d times"
        ),
    ),
    "div": (
        N_("avoids division: could have divided %(could)d times, never divided"),
        N_("avoids division: could have divided %(could)d times, divided once"),
        N_("avoids division: could have divided %(could)d times, divided %(used)d times"),
    ),
}
MSG_USES = {
    "add": N_("uses addition: added %(used)d of %(could)d times it could"),
    "sub": N_("uses subtraction: subtracted %(used)d of %(could)d times it could"),
    "mul": N_("uses multiplication: multiplied %(used)d of %(could)d times it could"),
    "div": N_("uses division: divided %(used)d of %(could)d times it could"),
}
# The counts say what they count: turns where the operation could have been used.
MSG_TOO_FEW = {
    "add": N_("addition: not known yet, %(could)d of the %(needed)d turns needed so far"),
    "sub": N_("subtraction: not known yet, %(could)d of the %(needed)d turns needed so far"),
    "mul": N_("multiplication: not known yet, %(could)d of the %(needed)d turns needed so far"),
    "div": N_("division: not known yet, %(could)d of the %(needed)d turns needed so far"),
}


class Avoidance(NamedTuple):
    skill: str
    could: int
    used: int
    rate: float | None  # None when there was no chance at all
    avoids: bool


class AvoidanceTally:
    """Chances and uses per operation, one opportunity at a time."""

    __slots__ = ("could", "used")

    def __init__(self) -> None:
        self.could = dict.fromkeys(OPERATIONS, 0)
        self.used = dict.fromkeys(OPERATIONS, 0)

    def add(self, opportunity: OpportunityRecord) -> None:
        could = opportunity.could or {}
        used = set(opportunity.used or ())
        for skill in OPERATIONS:
            if could.get(skill):
                self.could[skill] += 1
                self.used[skill] += skill in used

    def result(self) -> dict[str, Avoidance]:
        return {
            skill: _avoidance(skill, self.could[skill], self.used[skill]) for skill in OPERATIONS
        }


def _avoidance(skill: str, could: int, used: int) -> Avoidance:
    rate = used / could if could else None
    avoids = could >= AVOID_MIN_CHANCES and rate < AVOID_RATE
    return Avoidance(skill, could, used, rate, avoids)


def avoidance(opportunities: Iterable[OpportunityRecord]) -> dict[str, Avoidance]:
    """Could / used / rate / avoids per operation (rule: module docstring)."""
    tally = AvoidanceTally()
    for opportunity in opportunities:
        tally.add(opportunity)
    return tally.result()


def explain(avoidance: Avoidance, gettext: Gettext = untranslated) -> str:
    """ "avoids division: could have divided 9 times, divided once"."""
    values = {
        "could": avoidance.could,
        "used": avoidance.used,
        "needed": AVOID_MIN_CHANCES,
    }
    if avoidance.avoids:
        template = MSG_AVOIDS[avoidance.skill][min(avoidance.used, 2)]
    elif avoidance.could < AVOID_MIN_CHANCES:
        template = MSG_TOO_FEW[avoidance.skill]
    else:
        template = MSG_USES[avoidance.skill]
    return gettext(template) % values
