"""Whether a pupil avoids an operation they could have used.

From opportunities (turns where an operation would have helped: in Number
Quest it could make a free square, in Nambarz a calculation with it could make
the target): ``could`` = turns where it would have, ``used`` = those of them
where the pupil typed a step with it, right or wrong (a wrong step is a
mistake of the operation, not avoidance of it). A pupil *avoids* an
operation when could >= AVOID_MIN_CHANCES (5) and used / could < AVOID_RATE
(0.2): fewer than one chance in five taken, over enough chances that it is not
luck of the dice. This shows a pupil who never
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

# Why an operation reads "avoided", one full sentence per operation and count
# (translators never glue fragments); ``explain`` puts the label before it.
MSG_AVOIDED = {
    "add": (
        N_("has not added in %(could)d turns where adding would help"),
        N_("added in only 1 of %(could)d turns where adding would help"),
        N_("added in only %(used)d of %(could)d turns where adding would help"),
    ),
    "sub": (
        N_("has not subtracted in %(could)d turns where subtracting would help"),
        N_("subtracted in only 1 of %(could)d turns where subtracting would help"),
        N_("subtracted in only %(used)d of %(could)d turns where subtracting would help"),
    ),
    "mul": (
        N_("has not multiplied in %(could)d turns where multiplying would help"),
        N_("multiplied in only 1 of %(could)d turns where multiplying would help"),
        N_("multiplied in only %(used)d of %(could)d turns where multiplying would help"),
    ),
    "div": (
        N_("has not divided in %(could)d turns where dividing would help"),
        N_("divided in only 1 of %(could)d turns where dividing would help"),
        N_("divided in only %(used)d of %(could)d turns where dividing would help"),
    ),
}
MSG_AVOIDS = {
    "add": N_("avoids addition: %(why)s"),
    "sub": N_("avoids subtraction: %(why)s"),
    "mul": N_("avoids multiplication: %(why)s"),
    "div": N_("avoids division: %(why)s"),
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
            skill: judged(skill, self.could[skill], self.used[skill]) for skill in OPERATIONS
        }


def judged(skill: str, could: int, used: int) -> Avoidance:
    """The rule (module docstring) on one operation's counts."""
    rate = used / could if could else None
    avoids = could >= AVOID_MIN_CHANCES and rate < AVOID_RATE
    return Avoidance(skill, could, used, rate, avoids)


def avoidance(opportunities: Iterable[OpportunityRecord]) -> dict[str, Avoidance]:
    """Could / used / rate / avoids per operation (rule: module docstring)."""
    tally = AvoidanceTally()
    for opportunity in opportunities:
        tally.add(opportunity)
    return tally.result()


def why_avoided(avoidance: Avoidance, gettext: Gettext = untranslated) -> str:
    """ "has not divided in 14 turns where dividing would help": an avoided
    operation's evidence, for where "avoids" and the operation are said before it."""
    template = MSG_AVOIDED[avoidance.skill][min(avoidance.used, 2)]
    return gettext(template) % {"could": avoidance.could, "used": avoidance.used}


def explain(avoidance: Avoidance, gettext: Gettext = untranslated) -> str:
    """ "avoids division: divided in only 1 of 9 turns where dividing would help"."""
    values = {
        "could": avoidance.could,
        "used": avoidance.used,
        "needed": AVOID_MIN_CHANCES,
    }
    if avoidance.avoids:
        template = MSG_AVOIDS[avoidance.skill]
        values["why"] = why_avoided(avoidance, gettext)
    elif avoidance.could < AVOID_MIN_CHANCES:
        template = MSG_TOO_FEW[avoidance.skill]
    else:
        template = MSG_USES[avoidance.skill]
    return gettext(template) % values
