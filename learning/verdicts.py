"""What a teacher is told about one pupil and one skill: a status and a sentence.

Status rules (checked in this order; the first that holds wins)
----------------------------------------------------------------
``n`` = first tries, ``last10`` = accuracy over the last 10 first tries (fewer
when there are fewer), ``estimate`` = BKT estimate (``learning.bkt``),
``games`` = the game sessions the first tries come from, ``last20`` = accuracy
over the last 20 first tries (all of them when fewer).

1. ``not_started``  if n == 0 (shown as "no evidence yet").
2. ``mastered``     if n >= MIN_ATTEMPTS (8) and estimate >= MASTERED_ESTIMATE
                    (0.95) and last10 >= MASTERED_LAST10 (0.8), in games >=
                    MIN_GAMES (2).
3. ``needs_help``   if n >= HELP_MIN_ATTEMPTS (6) and last20 < HELP_ACCURACY
                    (0.7), in games >= MIN_GAMES.
4. ``nearly_there`` if estimate >= NEARLY_ESTIMATE (0.8).
5. ``practising``   otherwise.

A verdict (rules 2 and 3) needs evidence from two games: one short game's dice
and mood are not a skill. Short of it the sentence says so ("in one game only:
a second game will tell"), beside the "not known yet" of the
avoidance section. The help rule reads the last 20, not the last 10: a pupil
right half the time has 5 of 10 right or better about as often as not, but
fewer than 14 of 20 nineteen times in twenty.

Why this order: rules 2 and 3 both hold only for a pupil who has just got
better (8 of the last 10 right but 13 of the last 20, with an estimate of 95%):
the recent run wins. ``needs_help`` is checked before
``nearly_there`` because they can both hold (six wrong, then four right in a
row: the estimate jumps back above 0.8 while the last ten are 4 of 10), and a
teacher would rather look at a pupil once too often than miss one. The minimum
counts stop three lucky answers from reading "mastered" (with these parameters
three right answers already give an estimate of 98%) and stop two slips in a
first game from reading "needs help". The estimate alone never calls for help:
with these parameters an estimate under 0.4 comes only with fewer than 70% of
the last 20 right, which rule 3 already reads (a property test holds it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .i18n import N_, Gettext, untranslated

MIN_ATTEMPTS = 8
"""First tries needed before 'mastered': with the BKT parameters three right
answers reach an estimate of 98%, which is too little evidence to tell a teacher
a skill is secure."""

MASTERED_ESTIMATE = 0.95
"""The conventional BKT mastery threshold (Corbett & Anderson)."""

MASTERED_LAST10 = 0.8
"""Recent accuracy needed too, so a long history cannot hide a bad week."""

HELP_MIN_ATTEMPTS = 6
"""No 'needs help' from a single game's first few steps."""

HELP_WINDOW = 20
"""First tries the help rule reads: a wider window than the last ten, so a pupil
right about half the time is flagged whatever their last few answers."""

HELP_ACCURACY = 0.7
"""Fewer than 14 of the last 20 right: more than one answer in four wrong."""

MIN_GAMES = 2
"""Game sessions a verdict ('mastered', 'needs help') needs its evidence from."""

NEARLY_ESTIMATE = 0.8
"""Estimate at which the pupil more likely than not will soon be mastered."""

LAST_N = 10
"""Window of 'recent' first tries, per skill; also the number of recent mistakes
kept per pupil."""

STATUSES = ("not_started", "practising", "nearly_there", "mastered", "needs_help")

STATUS_LABELS = {
    "not_started": N_("no evidence yet"),
    "practising": N_("practising"),
    "nearly_there": N_("nearly there"),
    "mastered": N_("mastered"),
    "needs_help": N_("needs help"),
}
MSG_NOT_STARTED = N_("no evidence yet: no calculation with this skill")
MSG_PRACTISING = N_("practising: %(right)d of the last %(total)d right, estimate %(estimate)d%%")
MSG_NEARLY = N_("nearly there: %(right)d of the last %(total)d right, estimate %(estimate)d%%")
MSG_NEARLY_MORE = N_(
    "nearly there: %(right)d of the last %(total)d right, estimate %(estimate)d%%,"
    " needs %(more)d more to be sure"
)
MSG_MASTERED = N_("mastered: %(right)d of the last %(total)d right, estimate %(estimate)d%%")
MSG_HELP_RECENT = N_("needs help: %(help_right)d of the last %(help_total)d right")
MSG_ONE_GAME_NEARLY = N_(
    "nearly there: %(right)d of the last %(total)d right, estimate %(estimate)d%%,"
    " in one game only: a second game will tell"
)
MSG_ONE_GAME_PRACTISING = N_(
    "practising: %(right)d of the last %(total)d right, estimate %(estimate)d%%,"
    " in one game only: a second game will tell"
)


@dataclass(frozen=True)
class SkillSummary:
    """One pupil and one skill: the counts the rules read, the status, the sentence."""

    skill: str
    attempts: int
    first_tries: int
    retries: int
    correct_first: int
    accuracy: float | None
    last10_accuracy: float | None
    last10_right: int
    last10_total: int
    median_ms: float | None
    estimate: float
    status: str
    sentence: str
    games: int = 0
    help_right: int = 0
    help_total: int = 0


def status_for(
    first_tries: int,
    last10_right: int,
    last10_total: int,
    estimate: float,
    *,
    games: int,
    help_right: int,
    help_total: int,
) -> str:
    """The documented status rules, in their documented order."""
    return _verdict(first_tries, last10_right, last10_total, estimate, help_right, help_total,
                    games >= MIN_GAMES)


def _verdict(
    first_tries: int,
    last10_right: int,
    last10_total: int,
    estimate: float,
    help_right: int,
    help_total: int,
    enough_games: bool,
) -> str:
    if first_tries == 0:
        return "not_started"
    recent = last10_right / last10_total if last10_total else 0.0
    if first_tries >= MIN_ATTEMPTS and estimate >= MASTERED_ESTIMATE and recent >= MASTERED_LAST10:
        return "mastered" if enough_games else "nearly_there"
    wider = help_right / help_total if help_total else 0.0
    if first_tries >= HELP_MIN_ATTEMPTS and wider < HELP_ACCURACY:
        return "needs_help" if enough_games else "practising"
    if estimate >= NEARLY_ESTIMATE:
        return "nearly_there"
    return "practising"


def _held_back(summary: SkillSummary) -> bool:
    """Whether only the one-game rule keeps this summary from a verdict."""
    return summary.games < MIN_GAMES and _verdict(
        summary.first_tries, summary.last10_right, summary.last10_total, summary.estimate,
        summary.help_right, summary.help_total, True,
    ) in ("mastered", "needs_help")


def percent(estimate: float) -> int:
    """An estimate as the whole percent a teacher reads."""
    # Floor, not round: 94.96% must not read "95%" beside a status that says
    # the 95% threshold was not reached.
    return math.floor(estimate * 100 + 1e-9)


def explain(summary: SkillSummary, gettext: Gettext = untranslated) -> str:
    """One sentence a teacher understands, from the numbers beside the status."""
    values = {
        "right": summary.last10_right,
        "total": summary.last10_total,
        "estimate": percent(summary.estimate),
        "more": max(0, MIN_ATTEMPTS - summary.first_tries),
        "help_right": summary.help_right,
        "help_total": summary.help_total,
    }
    status = summary.status
    if status == "not_started":
        template = MSG_NOT_STARTED
    elif status in ("nearly_there", "practising") and _held_back(summary):
        template = MSG_ONE_GAME_NEARLY if status == "nearly_there" else MSG_ONE_GAME_PRACTISING
    elif status == "mastered":
        template = MSG_MASTERED
    elif status == "needs_help":
        template = MSG_HELP_RECENT
    elif status == "nearly_there":
        # Say "needs N more" only when the count is the one thing missing.
        would_master = (
            summary.estimate >= MASTERED_ESTIMATE
            and (summary.last10_accuracy or 0.0) >= MASTERED_LAST10
        )
        template = MSG_NEARLY_MORE if would_master and values["more"] else MSG_NEARLY
    else:
        template = MSG_PRACTISING
    return gettext(template) % values
