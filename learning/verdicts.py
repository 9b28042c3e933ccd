"""What a teacher is told about one pupil and one skill: a status and a sentence.

Status rules (checked in this order; the first that holds wins)
----------------------------------------------------------------
``n`` = first tries, ``games`` = the game sessions the first tries come from,
``last10`` = accuracy over the last 10 first tries, ``last20`` = accuracy over
the last 20 first tries (all of them when fewer), ``estimate`` = BKT estimate
(``learning.bkt``).

1. ``not_started``  if n == 0 (shown as "no evidence yet").
2. ``not_enough``   if games < MIN_GAMES (2) (shown as "not enough yet", with
                    what is missing: "2 more calculations needed, in another
                    game").
3. ``mastered``     if n >= MIN_ATTEMPTS (8) and estimate >= MASTERED_ESTIMATE
                    (0.95) and last10 >= MASTERED_LAST10 (0.8).
4. ``needs_help``   if n >= HELP_MIN_ATTEMPTS (6) and last20 < HELP_ACCURACY
                    (0.7).
5. ``not_enough``   if n < MIN_ATTEMPTS (8).
6. ``nearly_there`` if estimate >= NEARLY_ESTIMATE (0.8) and last10 >=
                    NEARLY_LAST10 (0.7).
7. ``practising``   otherwise.

One short game's dice and mood are not a skill: every status needs first tries
from two games. Then a need of help shows from 6 first tries, every other status
from 8: with these BKT parameters three right answers already give an estimate
of 98%, so before the evidence is there the report says what is missing rather
than a guess ("three turns" never read as "nearly there"), while a pupil wrong
at 5 of 6 in two games is worth a look at once. What "not enough yet" says is
missing is the count to 8 (and another game). The help rule reads the last 20,
not the last 10: a pupil right half the time has 5 of 10 right or better about
as often as not, but fewer than 14 of 20 nineteen times in twenty.

Why this order: rules 3 and 4 both hold only for a pupil who has just got
better (8 of the last 10 right but 13 of the last 20, with an estimate of 95%):
the recent run wins. ``needs_help`` is checked before ``nearly_there`` because
they can both hold (six wrong, then four right in a row: the estimate jumps
back above 0.8 while the last ten are 4 of 10), and a teacher would rather look
at a pupil once too often than miss one. The estimate alone never calls for
help: with these parameters an estimate under 0.4 comes only with fewer than
70% of the last 20 right, which rule 4 already reads (a property test holds it).
Nor does it alone say "nearly there": BKT has no forgetting, and after fourteen
right answers six wrong ones in a row still leave it above 99%; "nearly there"
asks for 7 of the last 10 right as well.

One verdict per skill
---------------------
The figures said beside a status are the ones it rests on (``evidence``), so
they never argue with it: "needs help" shows the last 20, never the estimate
(a long run of right answers keeps the estimate high through a bad week);
"mastered", "nearly there" and "practising" show the estimate only where it
lies in the status's own band (95% or more, 80-94%, under 80%): a "nearly
there" held back by its last ten alone (its estimate 95% or more would read as
mastered) shows the last ten and what they need, and a "practising" whose last
ten are poor after a long good run shows the last 20 alone. "Not enough yet"
shows what was seen so far and what is missing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from .i18n import N_, Gettext, untranslated

MIN_ATTEMPTS = 8
"""First tries a status other than "needs help" needs: with the BKT parameters
three right answers reach an estimate of 98%, which is too little evidence to
tell a teacher a skill is secure, or nearly."""

HELP_MIN_ATTEMPTS = 6
"""First tries "needs help" needs: fewer than 70% right of 6 (two slips of six
in a first game are not a need of help; rule 2 asks for two games as well)."""

MIN_GAMES = 2
"""Game sessions the first tries of any status must come from."""

MASTERED_ESTIMATE = 0.95
"""The conventional BKT mastery threshold (Corbett & Anderson)."""

MASTERED_LAST10 = 0.8
"""Recent accuracy needed too, so a long history cannot hide a bad week."""

HELP_WINDOW = 20
"""First tries the help rule reads: a wider window than the last ten, so a pupil
right about half the time is flagged whatever their last few answers."""

HELP_ACCURACY = 0.7
"""Fewer than 14 of the last 20 right: more than one answer in four wrong."""

NEARLY_ESTIMATE = 0.8
"""Estimate at which the pupil more likely than not will soon be mastered."""

NEARLY_LAST10 = 0.7
"""Recent accuracy "nearly there" needs too: one right answer short of
mastered's 8 of 10 at most."""

LAST_N = 10
"""Window of 'recent' first tries, per skill; also the number of recent mistakes
kept per pupil."""

STATUSES = ("not_started", "not_enough", "practising", "nearly_there", "mastered", "needs_help")

STATUS_LABELS = {
    "not_started": N_("no evidence yet"),
    "not_enough": N_("not enough yet"),
    "practising": N_("practising"),
    "nearly_there": N_("nearly there"),
    "mastered": N_("mastered"),
    "needs_help": N_("needs help"),
}
MSG_NOT_STARTED = N_("no evidence yet: no calculation with this skill")
# What is missing, one whole sentence per case so translators never glue fragments.
MSG_NOT_ENOUGH = {
    (True, False): N_(
        "not enough yet: %(right)d of %(total)d right so far; 1 more calculation needed"
    ),
    (False, False): N_(
        "not enough yet: %(right)d of %(total)d right so far; %(more)d more calculations needed"
    ),
    (True, True): N_(
        "not enough yet: %(right)d of %(total)d right so far; 1 more calculation needed,"
        " in another game"
    ),
    (False, True): N_(
        "not enough yet: %(right)d of %(total)d right so far; %(more)d more calculations"
        " needed, in another game"
    ),
}
MSG_MASTERED = N_("mastered: %(right)d of the last %(total)d right, estimate %(estimate)d%%")
MSG_HELP = N_("needs help: %(right)d of the last %(total)d right")
MSG_NEARLY = N_("nearly there: %(right)d of the last %(total)d right, estimate %(estimate)d%%")
MSG_NEARLY_RECENT = N_(
    "nearly there: %(right)d of the last %(total)d right, %(needed)d needed for mastered"
)
MSG_PRACTISING = N_("practising: %(right)d of the last %(total)d right, estimate %(estimate)d%%")
MSG_PRACTISING_RECENT = N_("practising: %(right)d of the last %(total)d right")


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
    if first_tries == 0:
        return "not_started"
    if games < MIN_GAMES:
        return "not_enough"
    recent = last10_right / last10_total if last10_total else 0.0
    if (
        first_tries >= MIN_ATTEMPTS
        and estimate >= MASTERED_ESTIMATE
        and recent >= MASTERED_LAST10
    ):
        return "mastered"
    wider = help_right / help_total if help_total else 0.0
    if first_tries >= HELP_MIN_ATTEMPTS and wider < HELP_ACCURACY:
        return "needs_help"
    if first_tries < MIN_ATTEMPTS:
        return "not_enough"
    if estimate >= NEARLY_ESTIMATE and recent >= NEARLY_LAST10:
        return "nearly_there"
    return "practising"


class Evidence(NamedTuple):
    """The figures a status rests on: ``right`` of ``total`` (the last 10, the
    last 20, or all first tries so far for "not enough yet"), the estimate in
    whole percent where it agrees with the status (else None), and for "not
    enough yet" the calculations still ``missing`` and whether another game is."""

    right: int
    total: int
    estimate: int | None
    missing: int = 0
    another_game: bool = False


def recent_needed(total: int = LAST_N) -> int:
    """Right answers of the last ``total`` that "mastered" asks for (8 of 10)."""
    return math.ceil(MASTERED_LAST10 * total - 1e-9)


def evidence(summary: SkillSummary) -> Evidence:
    """What the report says beside the status (the module's "One verdict per skill")."""
    status = summary.status
    if status == "not_started":
        return Evidence(0, 0, None)
    if status == "not_enough":
        another_game = summary.games < MIN_GAMES
        missing = max(MIN_ATTEMPTS - summary.first_tries, 1 if another_game else 0)
        return Evidence(
            summary.correct_first, summary.first_tries, None, missing, another_game
        )
    if status in ("needs_help", "practising"):
        agrees = status == "practising" and summary.estimate < NEARLY_ESTIMATE
        shown = percent(summary.estimate) if agrees else None
        return Evidence(summary.help_right, summary.help_total, shown)
    held_back = status == "nearly_there" and summary.estimate >= MASTERED_ESTIMATE
    shown = None if held_back else percent(summary.estimate)
    return Evidence(summary.last10_right, summary.last10_total, shown)


def percent(estimate: float) -> int:
    """An estimate as the whole percent a teacher reads."""
    # Floor, not round: 94.96% must not read "95%" beside a status that says
    # the 95% threshold was not reached.
    return math.floor(estimate * 100 + 1e-9)


def explain(summary: SkillSummary, gettext: Gettext = untranslated) -> str:
    """One sentence a teacher understands, from the numbers beside the status."""
    shown = evidence(summary)
    values = {
        "right": shown.right,
        "total": shown.total,
        "estimate": shown.estimate,
        "more": shown.missing,
        "needed": recent_needed(shown.total),
    }
    status = summary.status
    if status == "not_started":
        template = MSG_NOT_STARTED
    elif status == "not_enough":
        template = MSG_NOT_ENOUGH[(shown.missing == 1, shown.another_game)]
    elif status == "mastered":
        template = MSG_MASTERED
    elif status == "needs_help":
        template = MSG_HELP
    elif status == "nearly_there":
        template = MSG_NEARLY if shown.estimate is not None else MSG_NEARLY_RECENT
    else:
        template = MSG_PRACTISING if shown.estimate is not None else MSG_PRACTISING_RECENT
    return gettext(template) % values
