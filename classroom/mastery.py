"""Mastery model: what each pupil's attempts say about each skill.

Pure functions over plain data. No Django import here on purpose: the views and
the nightly Celery report feed it rows (model instances, ``.values()`` dicts or
``AttemptRecord`` tuples) and render what it returns, and the tests run without
a database in microseconds.

Evidence
--------
Only **first tries** are evidence. A retry comes after the game has said "not
quite", so it measures whether the pupil can fix an answer, not whether they
knew it; retries are counted (``SkillSummary.retries``) and otherwise ignored by
accuracy, the last-10 window, median time, the BKT estimate, the tables grid and
the mistakes list.

Bayesian Knowledge Tracing
--------------------------
Standard BKT (Corbett & Anderson 1995), one hidden "knows the skill" state per
pupil and skill, updated on first tries in ``created_at`` order::

    posterior = L(1-S) / (L(1-S) + (1-L)G)      after a right answer
    posterior = L S    / (L S    + (1-L)(1-G))  after a wrong answer
    L' = posterior + (1 - posterior) T

The parameters are the module constants ``P_INIT``, ``P_TRANSIT``, ``P_SLIP``
and ``P_GUESS``; their docstrings say why each value. With these values a right
answer never lowers the estimate (because 1-S > G) and, from ``P_INIT``
onwards, a wrong answer never raises it: the wrong-answer update only raises
estimates below its fixed point ``BKT_WRONG_FLOOR`` (about 0.11), and estimates
that start at ``P_INIT`` = 0.3 never fall below it.

BKT has no forgetting: after a long run of right answers the estimate stays
near 100% through a few slips. The last-10 accuracy in the status rules is what
catches a recent dip in a skill the pupil once had.

Status rules (checked in this order; the first that holds wins)
----------------------------------------------------------------
``n`` = first tries, ``last10`` = accuracy over the last 10 first tries (fewer
when there are fewer), ``estimate`` = BKT estimate.

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
a second game will tell"), beside the "too few chances to tell yet" of the
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

Avoidance
---------
From opportunities (turns where an operation could have made a free square):
``could`` = turns where it could, ``used`` = those of them where the pupil's
steps used it. A pupil *avoids* an operation when could >= AVOID_MIN_CHANCES (5)
and used / could < AVOID_RATE (0.2): fewer than one chance in five taken, over
enough chances that it is not luck of the dice. This shows a pupil who never
divides even when every division they do type is right.

Times tables
------------
First tries of ``mul`` and ``div`` with whole operands. ``a × b`` counts for the
table of a and the table of b (once when a == b); ``a ÷ b = c`` counts for the
table of b and the table of c. Only tables 1..12 exist; larger operands count
for no table. Per table: ``unknown`` under TABLE_MIN_ATTEMPTS (4) attempts,
``solid`` at accuracy >= TABLE_SOLID (0.9), ``shaky`` at >= TABLE_SHAKY (0.7),
``weak`` below. ``fact_grid`` is the 10 × 10 multiplication grid: 6 × 7 is put
in both cells (6, 7) and (7, 6), so row n reads as the whole table of n.

Named mistakes (first match wins; only wrong answers are named)
---------------------------------------------------------------
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

Speed
-----
One pass per pupil with O(1) work per attempt (the median sorts once at the
end). ``summarise`` sorts by time first; ``MasteryAccumulator`` and
``summarise_stream`` take rows already in time order, so a caller can stream
millions of rows pupil by pupil.

Sentences
---------
Every template is a module constant wrapped in ``N_`` (a no-op marker) so the
Django side can extract them (a custom ``makemessages`` command adding
``--keyword=N_`` to ``xgettext_options``; Django's own has no such flag) and translate
them by passing ``gettext`` to ``explain`` or ``summarise``.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from statistics import median
from typing import Any, NamedTuple


def N_(message: str) -> str:
    """Marks a message for extraction; translation happens where it is shown."""
    return message


def _identity(message: str) -> str:
    return message


Gettext = Callable[[str], str]

# ------------------------------------------------------------------ parameters

P_INIT = 0.3
"""L0, chance a pupil already knows the skill before the first recorded step.
Pupils meet an operation in Numbo after it has been taught in class, so better
than even odds of not knowing is too pessimistic for addition and too
optimistic for division; 0.3 is in the usual 0.2-0.4 range of published BKT
fits, and it sits above BKT_WRONG_FLOOR so wrong answers never raise the
estimate."""

P_TRANSIT = 0.1
"""T, chance of learning the skill at each practice step. Around 0.1 in most
published fits; a game gives practice but little teaching, so we do not go
higher."""

P_SLIP = 0.1
"""S, chance of a wrong first try by a pupil who knows the skill. Pupils type on
a tablet in a game with a clock and other players: mis-taps and haste are real,
so 0.1 (Baker et al. 2008 bound BKT slip below 0.1 for non-degenerate
models)."""

P_GUESS = 0.2
"""G, chance of a right first try by a pupil who does not know the skill. The
answer is typed, not chosen, so guessing blindly is rare; but small facts known
by heart and counting on fingers give right answers without the skill, so 0.2
rather than the near-zero a typed answer alone would suggest (and below the 0.3
bound for non-degenerate models)."""

MIN_ATTEMPTS = 8
"""First tries needed before 'mastered': with the parameters above three right
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

AVOID_MIN_CHANCES = 5
AVOID_RATE = 0.2

TABLE_MIN_ATTEMPTS = 4
TABLE_SOLID = 0.9
TABLE_SHAKY = 0.7
TABLES = range(1, 13)
FACTS = range(1, 11)

OPERATIONS = ("add", "sub", "mul", "div")
SKILLS = OPERATIONS + (
    "brackets",
    "multi_step",
    "primes",
    "powers",
    "left_to_right",
    "scoring",
)
STATUSES = ("not_started", "practising", "nearly_there", "mastered", "needs_help")
SYMBOLS = {"add": "+", "sub": "−", "mul": "×", "div": "÷"}


def _wrong_floor() -> float:
    # Fixed point of the wrong-answer update: iterating from 0 climbs to it
    # monotonically, since the update is increasing and lifts 0 to P_TRANSIT.
    estimate = 0.0
    for _ in range(200):
        estimate = bkt_update(estimate, False)
    return estimate


# ------------------------------------------------------------------ messages

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
MSG_TOO_FEW = {
    "add": N_("addition: too few chances to tell yet (%(could)d of %(needed)d)"),
    "sub": N_("subtraction: too few chances to tell yet (%(could)d of %(needed)d)"),
    "mul": N_("multiplication: too few chances to tell yet (%(could)d of %(needed)d)"),
    "div": N_("division: too few chances to tell yet (%(could)d of %(needed)d)"),
}
MSG_TABLE = {
    "unknown": N_("table of %(table)d: too few calculations yet (%(attempts)d)"),
    "solid": N_("table of %(table)d solid: %(correct)d of %(attempts)d right"),
    "shaky": N_("table of %(table)d shaky: %(correct)d of %(attempts)d right"),
    "weak": N_("table of %(table)d weak: %(correct)d of %(attempts)d right"),
}
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

# ------------------------------------------------------------------ records


class AttemptRecord(NamedTuple):
    """The fields of an Attempt row this module reads (tests, and callers
    building rows by hand)."""

    pupil_id: Hashable
    skill: str
    operands: list
    expected: str
    given: str
    correct: bool
    first_try: bool = True
    response_ms: int | None = None
    created_at: datetime | None = None
    game: str = ""
    session_id: Hashable = None


class OpportunityRecord(NamedTuple):
    pupil_id: Hashable
    roll: list
    could: dict
    used: list
    created_at: datetime | None = None


class Avoidance(NamedTuple):
    skill: str
    could: int
    used: int
    rate: float | None  # None when there was no chance at all
    avoids: bool


class TableCell(NamedTuple):
    table: int
    attempts: int
    correct: int
    accuracy: float | None
    status: str  # "solid" | "shaky" | "weak" | "unknown"


class FactCell(NamedTuple):
    right: int
    total: int


class Mistake(NamedTuple):
    skill: str
    kind: str
    calculation: str  # "7 × 8 = 54 (56)"
    created_at: datetime | None


class TrendPoint(NamedTuple):
    bucket: Hashable
    attempts: int
    correct: int
    accuracy: float
    estimate: float  # after the bucket's last first try


@dataclass(frozen=True)
class SkillSummary:
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


@dataclass(frozen=True)
class PupilMastery:
    pupil_id: Hashable
    skills: dict[str, SkillSummary]
    avoidance: dict[str, Avoidance]
    tables: dict[int, TableCell]
    facts: dict[tuple[int, int], FactCell]
    mistakes: list[Mistake] = field(default_factory=list)  # newest last


# ------------------------------------------------------------------ BKT


def bkt_update(estimate: float, correct: bool) -> float:
    """One standard BKT step: condition on the answer, then allow learning."""
    if correct:
        known = estimate * (1 - P_SLIP)
        posterior = known / (known + (1 - estimate) * P_GUESS)
    else:
        known = estimate * P_SLIP
        posterior = known / (known + (1 - estimate) * (1 - P_GUESS))
    # Clamp: rounding must never show 100.0000001% or a negative estimate.
    return min(1.0, max(0.0, posterior + (1 - posterior) * P_TRANSIT))


def bkt_estimate(outcomes: Iterable[bool], start: float = P_INIT) -> float:
    """Estimate after a sequence of first-try outcomes, oldest first."""
    estimate = start
    for correct in outcomes:
        estimate = bkt_update(estimate, correct)
    return estimate


BKT_WRONG_FLOOR = _wrong_floor()


# ------------------------------------------------------------------ status


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


def _percent(estimate: float) -> int:
    # Floor, not round: 94.96% must not read "95%" beside a status that says
    # the 95% threshold was not reached.
    return math.floor(estimate * 100 + 1e-9)


def explain(summary: SkillSummary | Avoidance | TableCell, gettext: Gettext = _identity) -> str:
    """One sentence a teacher understands, from the numbers beside the status."""
    if isinstance(summary, Avoidance):
        return _explain_avoidance(summary, gettext)
    if isinstance(summary, TableCell):
        return gettext(MSG_TABLE[summary.status]) % summary._asdict()
    values = {
        "right": summary.last10_right,
        "total": summary.last10_total,
        "estimate": _percent(summary.estimate),
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


def _explain_avoidance(avoidance: Avoidance, gettext: Gettext) -> str:
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


# ------------------------------------------------------------------ numbers


def _number(value: Any) -> Fraction | None:
    """An operand or typed answer as an exact number; None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    try:
        return Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        return None


def _whole(value: Any) -> int | None:
    # Fast path for the common case (JSON ints); tables only take whole numbers.
    if type(value) is int:
        return value
    number = _number(value)
    if number is not None and number.denominator == 1:
        return int(number)
    return None


def _text(value: Any) -> str:
    number = _number(value)
    if number is None:
        return str(value)
    return str(number)  # Fraction prints "3" or "3/4"


# ------------------------------------------------------------------ mistakes


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
    want, got = _number(expected), _number(given)
    if got is None or want is None:
        return "other"
    if got == want:
        return ""
    if len(operands) != 2:
        return "other"
    a, b = _number(operands[0]), _number(operands[1])
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


def calculation_text(skill: str, operands: list, expected: Any, given: Any) -> str:
    """ "7 × 8 = 54 (56)": what the pupil typed, then the right answer."""
    symbol = SYMBOLS.get(skill)
    if symbol and len(operands) == 2:
        left = f" {symbol} ".join(_text(x) for x in operands)
    else:
        left = f"{skill}: " + ", ".join(_text(x) for x in operands)
    return f"{left} = {_text(given)} ({_text(expected)})"


# ------------------------------------------------------------------ field access


def _attempt_fields(attempt: Any) -> tuple:
    # Model instances, NamedTuples and `.values()` dicts are all accepted; one
    # isinstance check per row is cheaper than any adapter object.
    if isinstance(attempt, Mapping):
        return (
            attempt["skill"],
            attempt["correct"],
            attempt.get("first_try", True),
            attempt.get("response_ms"),
            attempt.get("created_at"),
        )
    return (
        attempt.skill,
        attempt.correct,
        attempt.first_try,
        attempt.response_ms,
        attempt.created_at,
    )


def _get(row: Any, name: str, default: Any = None) -> Any:
    if isinstance(row, Mapping):
        return row.get(name, default)
    return getattr(row, name, default)


def _pupil(row: Any) -> Hashable:
    if isinstance(row, Mapping):
        return row["pupil_id"] if "pupil_id" in row else row["pupil"]
    return row.pupil_id


# ------------------------------------------------------------------ accumulators


class _SkillState:
    __slots__ = (
        "attempts", "first_tries", "correct_first", "last", "times", "estimate", "sessions"
    )

    def __init__(self) -> None:
        self.attempts = 0
        self.first_tries = 0
        self.correct_first = 0
        # The help rule's window; the last ten are its tail.
        self.last: deque[bool] = deque(maxlen=HELP_WINDOW)
        self.times: list[int] = []
        self.estimate = P_INIT
        self.sessions: set[Hashable] = set()

    def summary(self, skill: str, gettext: Gettext) -> SkillSummary:
        recent = list(self.last)[-LAST_N:]
        right, total = sum(recent), len(recent)
        help_right, help_total = sum(self.last), len(self.last)
        n = self.first_tries
        games = len(self.sessions)
        status = status_for(
            n, right, total, self.estimate, games=games, help_right=help_right,
            help_total=help_total,
        )
        draft = SkillSummary(
            skill=skill,
            attempts=self.attempts,
            first_tries=n,
            retries=self.attempts - n,
            correct_first=self.correct_first,
            accuracy=self.correct_first / n if n else None,
            last10_accuracy=right / total if total else None,
            last10_right=right,
            last10_total=total,
            median_ms=median(self.times) if self.times else None,
            estimate=self.estimate,
            status=status,
            sentence="",
            games=games,
            help_right=help_right,
            help_total=help_total,
        )
        return _with_sentence(draft, gettext)


def _with_sentence(summary: SkillSummary, gettext: Gettext) -> SkillSummary:
    return replace(summary, sentence=explain(summary, gettext))


class _TableTally:
    """Right/total per times table and per 10 × 10 fact; shared by the
    accumulator and the standalone grid functions so they cannot disagree."""

    __slots__ = ("tables", "facts")

    def __init__(self) -> None:
        self.tables = [[0, 0] for _ in range(TABLES.stop)]
        self.facts: dict[tuple[int, int], list[int]] = {}

    def add(self, skill: str, operands: list, expected: Any, correct: bool) -> None:
        if len(operands) != 2:
            return
        a, b = _whole(operands[0]), _whole(operands[1])
        if a is None or b is None:
            return
        if skill == "mul":
            tables = (a, b)
            if a in FACTS and b in FACTS:
                for cell in {(a, b), (b, a)}:
                    tally = self.facts.setdefault(cell, [0, 0])
                    tally[0] += correct
                    tally[1] += 1
        elif skill == "div":
            quotient = a // b if b and a % b == 0 else _whole(expected)
            tables = (b, quotient)
        else:
            return
        for table in set(tables):
            if table is not None and table in TABLES:
                tally = self.tables[table]
                tally[0] += correct
                tally[1] += 1

    def grid(self) -> dict[int, TableCell]:
        return {table: _table_cell(table, *self.tables[table]) for table in TABLES}

    def fact_grid(self) -> dict[tuple[int, int], FactCell]:
        return {(a, b): FactCell(*self.facts.get((a, b), (0, 0))) for a in FACTS for b in FACTS}


def _table_cell(table: int, correct: int, attempts: int) -> TableCell:
    accuracy = correct / attempts if attempts else None
    if attempts < TABLE_MIN_ATTEMPTS:
        status = "unknown"
    elif accuracy >= TABLE_SOLID:
        status = "solid"
    elif accuracy >= TABLE_SHAKY:
        status = "shaky"
    else:
        status = "weak"
    return TableCell(table, attempts, correct, accuracy, status)


class _AvoidanceTally:
    __slots__ = ("could", "used")

    def __init__(self) -> None:
        self.could = dict.fromkeys(OPERATIONS, 0)
        self.used = dict.fromkeys(OPERATIONS, 0)

    def add(self, could: Mapping[str, bool], used: Iterable[str]) -> None:
        used = set(used)
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


class MasteryAccumulator:
    """Everything about one pupil, built one row at a time.

    Feed attempts (and opportunities) in ``created_at`` order, e.g. from
    ``Attempt.objects.filter(pupil=p).order_by("created_at").values(...).iterator()``;
    only counters, the last ten outcomes per skill, response times and the last
    ten mistakes are kept, never the rows.
    """

    def __init__(self, pupil_id: Hashable = None) -> None:
        self.pupil_id = pupil_id
        self._skills: dict[str, _SkillState] = {}
        self._tables = _TableTally()
        self._avoidance = _AvoidanceTally()
        self._mistakes: deque[Any] = deque(maxlen=LAST_N)
        self._last_time: datetime | None = None

    def add(self, attempt: Any) -> None:
        skill, correct, first_try, response_ms, created_at = _attempt_fields(attempt)
        if created_at is not None:
            # BKT depends on order: refuse silently wrong estimates.
            if self._last_time is not None and created_at < self._last_time:
                raise ValueError("attempts must be added in created_at order")
            self._last_time = created_at
        state = self._skills.get(skill)
        if state is None:
            state = self._skills[skill] = _SkillState()
        state.attempts += 1
        if not first_try:
            return
        state.first_tries += 1
        state.correct_first += correct
        state.last.append(bool(correct))
        state.sessions.add(_get(attempt, "session_id"))
        if response_ms is not None:
            state.times.append(response_ms)
        state.estimate = bkt_update(state.estimate, correct)
        if skill == "mul" or skill == "div":
            self._tables.add(
                skill, _get(attempt, "operands", ()), _get(attempt, "expected"), correct
            )
        if not correct:
            # Naming is slower than counting: keep the row, name it in result().
            self._mistakes.append(attempt)

    def add_opportunity(self, opportunity: Any) -> None:
        self._avoidance.add(
            _get(opportunity, "could", {}) or {}, _get(opportunity, "used", ()) or ()
        )

    def result(self, gettext: Gettext = _identity) -> PupilMastery:
        skills = {skill: _SkillState() for skill in OPERATIONS}
        skills.update(self._skills)
        return PupilMastery(
            pupil_id=self.pupil_id,
            skills={skill: state.summary(skill, gettext) for skill, state in skills.items()},
            avoidance=self._avoidance.result(),
            tables=self._tables.grid(),
            facts=self._tables.fact_grid(),
            mistakes=[_mistake(row) for row in self._mistakes],
        )


def _mistake(attempt: Any) -> Mistake:
    skill = _get(attempt, "skill")
    operands = _get(attempt, "operands", ()) or ()
    expected, given = _get(attempt, "expected"), _get(attempt, "given")
    return Mistake(
        skill=skill,
        kind=name_mistake(skill, operands, expected, given),
        calculation=calculation_text(skill, operands, expected, given),
        created_at=_get(attempt, "created_at"),
    )


# ------------------------------------------------------------------ entry points


def summarise(
    attempts: Iterable[Any],
    opportunities: Iterable[Any] = (),
    *,
    gettext: Gettext = _identity,
) -> dict[Hashable, PupilMastery]:
    """Mastery of every pupil seen in the attempts or opportunities.

    Rows may come in any order; they are sorted by ``created_at`` first
    (stable, so same-time rows keep their order). Rows without a time are taken
    in the order given.
    """
    accumulators: dict[Hashable, MasteryAccumulator] = {}
    for attempt in _sorted_by_time(attempts):
        pupil = _pupil(attempt)
        accumulator = accumulators.get(pupil)
        if accumulator is None:
            accumulator = accumulators[pupil] = MasteryAccumulator(pupil)
        accumulator.add(attempt)
    for opportunity in opportunities:
        pupil = _pupil(opportunity)
        accumulator = accumulators.get(pupil)
        if accumulator is None:
            accumulator = accumulators[pupil] = MasteryAccumulator(pupil)
        accumulator.add_opportunity(opportunity)
    return {pupil: accumulator.result(gettext) for pupil, accumulator in accumulators.items()}


def _sorted_by_time(rows: Iterable[Any]) -> list[Any]:
    rows = list(rows)
    if not rows:
        return rows
    if isinstance(rows[0], Mapping):
        times = [row.get("created_at") for row in rows]
    else:
        times = [getattr(row, "created_at", None) for row in rows]
    if any(time is None for time in times):
        return rows  # no times to sort on: trust the caller's order
    order = sorted(range(len(rows)), key=times.__getitem__)
    return [rows[i] for i in order]


def summarise_stream(
    attempts: Iterable[Any],
    opportunities_for: Callable[[Hashable], Iterable[Any]] | None = None,
    *,
    gettext: Gettext = _identity,
) -> Iterator[tuple[Hashable, PupilMastery]]:
    """Mastery pupil by pupil from rows ordered by (pupil, created_at).

    Holds one pupil at a time, so 2,000,000 rows for 1,000 pupils stream in
    constant memory. ``opportunities_for(pupil_id)`` supplies that pupil's
    opportunities when the pupil is finished.
    """
    accumulator: MasteryAccumulator | None = None
    seen: set[Hashable] = set()
    for attempt in attempts:
        pupil = _pupil(attempt)
        if accumulator is None or pupil != accumulator.pupil_id:
            if accumulator is not None:
                yield accumulator.pupil_id, _finish(accumulator, opportunities_for, gettext)
            if pupil in seen:
                raise ValueError("attempts must be grouped by pupil")
            seen.add(pupil)
            accumulator = MasteryAccumulator(pupil)
        accumulator.add(attempt)
    if accumulator is not None:
        yield accumulator.pupil_id, _finish(accumulator, opportunities_for, gettext)


def _finish(
    accumulator: MasteryAccumulator,
    opportunities_for: Callable[[Hashable], Iterable[Any]] | None,
    gettext: Gettext,
) -> PupilMastery:
    if opportunities_for is not None:
        for opportunity in opportunities_for(accumulator.pupil_id):
            accumulator.add_opportunity(opportunity)
    return accumulator.result(gettext)


def avoidance(opportunities: Iterable[Any]) -> dict[str, Avoidance]:
    """Could / used / rate / avoids per operation (rule: module docstring)."""
    tally = _AvoidanceTally()
    for opportunity in opportunities:
        tally.add(_get(opportunity, "could", {}) or {}, _get(opportunity, "used", ()) or ())
    return tally.result()


def tables_grid(
    attempts: Iterable[Any], skills: Iterable[str] = ("mul", "div")
) -> dict[int, TableCell]:
    """Times tables 1..12 from first tries of mul and div (rules: module docstring)."""
    wanted = set(skills)
    tally = _TableTally()
    for attempt in attempts:
        skill = _get(attempt, "skill")
        if skill in wanted and _get(attempt, "first_try", True):
            tally.add(
                skill,
                _get(attempt, "operands", ()),
                _get(attempt, "expected"),
                _get(attempt, "correct"),
            )
    return tally.grid()


def fact_grid(attempts: Iterable[Any]) -> dict[tuple[int, int], FactCell]:
    """Right/total of every fact a × b for a, b in 1..10 (first tries of mul)."""
    tally = _TableTally()
    for attempt in attempts:
        if _get(attempt, "skill") == "mul" and _get(attempt, "first_try", True):
            tally.add(
                "mul",
                _get(attempt, "operands", ()),
                _get(attempt, "expected"),
                _get(attempt, "correct"),
            )
    return tally.fact_grid()


def by_week(attempt: Any) -> str:
    """ISO week of the attempt, "2025-W03" (in the datetime's own time zone:
    convert to the school's zone first if weeks must start at local midnight)."""
    year, week, _ = _get(attempt, "created_at").isocalendar()
    return f"{year}-W{week:02d}"


def by_day(attempt: Any) -> str:
    return _get(attempt, "created_at").date().isoformat()


def trend(
    attempts: Iterable[Any],
    skill: str,
    buckets: Callable[[Any], Hashable] = by_week,
) -> list[TrendPoint]:
    """Accuracy and estimate per bucket, oldest first, for the chart.

    ``buckets`` maps an attempt to its bucket: ``by_week``, ``by_day``, or e.g.
    ``lambda a: a.session_id`` for one point per game session. The estimate
    carries over from bucket to bucket exactly as in ``summarise``.
    """
    points: list[TrendPoint] = []
    estimate = P_INIT
    current: Hashable = None
    right = total = 0
    for attempt in _sorted_by_time(attempts):
        if _get(attempt, "skill") != skill or not _get(attempt, "first_try", True):
            continue
        bucket = buckets(attempt)
        if total and bucket != current:
            points.append(TrendPoint(current, total, right, right / total, estimate))
            right = total = 0
        current = bucket
        correct = bool(_get(attempt, "correct"))
        right += correct
        total += 1
        estimate = bkt_update(estimate, correct)
    if total:
        points.append(TrendPoint(current, total, right, right / total, estimate))
    return points
