"""The next lesson, from the class report: groups of pupils, a game set up for
each group's skill with the reason in numbers, tables, and the link that opens
the start form already filled in.

The groups are ``learning.groups`` on the report's own cells, so a group says
why in the words of the grid; the set-up and its figures are
``engine.practice.choose`` (simulated with the solver), kept in the cache
shared by every process (computed once, then read in a millisecond; the report
job computes them if they are missing, so a teacher's first page seldom
waits); the tables are ``learning.table_plan``.

The link carries a signed plan (game, options, seats, the skill practised) for
this teacher and this class: the start form reads it (``read_plan``), shows it
for the teacher to change or accept, and refuses with a message, never an
error, a plan it cannot trust.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from django.core import signing
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import urlencode
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from classroom import roster
from classroom.models import Attempt, Classroom, Pupil, PupilSkill
from engine import practice, turn_skills
from engine.arithmetic import SYMBOL_OF
from engine.nambarz import practice as nambarz_practice
from engine.numberquest.practice import DEFAULT_TURNS
from learning import groups as grouping
from learning import practice_effect
from learning.skills import OPERATIONS, SKILLS
from learning.table_plan import LEVEL_FOR, Plan, partners, plan

from .filters import GAME_NAMES
from .services import ClassReport, avoidance_of, skill_name, summary_of

SALT = "numbo.lesson-plan"
MAX_AGE = 14 * 24 * 3600  # two weeks: a plan older than that is of another class's state
CACHE_KEY = "numbo:practice:{version}:{skill}"

# One whole sentence per operation (translators never glue fragments).
MSG_WHY = {
    "add": _(
        "in %(chosen)d turns of 100 only an addition covers a square"
        " (%(default)d in the classic game)"
    ),
    "sub": _(
        "in %(chosen)d turns of 100 only a subtraction covers a square"
        " (%(default)d in the classic game)"
    ),
    "mul": _(
        "in %(chosen)d turns of 100 only a multiplication covers a square"
        " (%(default)d in the classic game)"
    ),
    "div": _(
        "in %(chosen)d turns of 100 only a division covers a square"
        " (%(default)d in the classic game)"
    ),
}
# A set-up of another game, measured on the turns where the operation is the
# only way to lay a card (Nambarz) or is asked (the track, NUM-X).
MSG_WHY_NAMBARZ = {
    "add": _(
        "in %(chosen)d turns of 100 only an addition lets a card go"
        " (%(default)d with the usual options, %(reference)d in Number Quest's classic game)"
    ),
    "sub": _(
        "in %(chosen)d turns of 100 only a subtraction lets a card go"
        " (%(default)d with the usual options, %(reference)d in Number Quest's classic game)"
    ),
    "mul": _(
        "in %(chosen)d turns of 100 only a multiplication lets a card go"
        " (%(default)d with the usual options, %(reference)d in Number Quest's classic game)"
    ),
    "div": _(
        "in %(chosen)d turns of 100 only a division lets a card go"
        " (%(default)d with the usual options, %(reference)d in Number Quest's classic game)"
    ),
}
MSG_WHY_ASKED = _(
    "%(skill)s asked in %(chosen)d turns of 100"
    " (%(default)d with the usual options, %(reference)d in Number Quest's classic game)"
)
LEVEL_WORDS = {"beginner": _("beginner"), "greedy": _("medium"), "strategist": _("strategist")}


def _version() -> str:
    """Changes whenever the candidates or the rule do: cached figures of an
    older choice are never read."""
    rule = repr((
        practice.CANDIDATES, practice.DEFAULTS, practice.FACTOR, practice.MIN_RATE,
        DEFAULT_TURNS, nambarz_practice.DEFAULT_TURNS, turn_skills.DEFAULT_TURNS,
    ))
    return hashlib.sha256(rule.encode()).hexdigest()[:12]


VERSION = _version()


def practice_choice(skill: str) -> practice.Choice:
    """``engine.practice.choose`` through the shared cache (module docstring)."""
    key = CACHE_KEY.format(version=VERSION, skill=skill)
    found = cache.get(key)
    if not isinstance(found, practice.Choice):
        found = practice.choose(skill)
        cache.set(key, found, timeout=None)
    return found


def warm() -> None:
    """Every operation's choice into the cache (the report job calls it)."""
    for skill in OPERATIONS:
        practice_choice(skill)


# ------------------------------------------------------------------ words


def operations_text(operations: str) -> str:
    symbols = [SYMBOL_OF[op] for op in operations]
    if len(symbols) == 1:
        return gettext("%(operation)s only") % {"operation": symbols[0]}
    return gettext("%(operations)s and %(last)s") % {
        "operations": ", ".join(symbols[:-1]),
        "last": symbols[-1],
    }


def setup_text(setup: practice.AnySetup) -> str:
    """ "Number Quest, 4 dice, + and ×, squares 20 to 42", "Nambarz, + and −
    only, 4 jokers"."""
    game = GAME_NAMES.get(setup.game, setup.game)
    if isinstance(setup, practice.Setup):
        return gettext("%(game)s, %(dice)d dice, %(operations)s, squares %(lo)d to %(hi)d") % {
            "game": game,
            "dice": setup.dice,
            "operations": operations_text(setup.operations),
            "lo": setup.lo,
            "hi": setup.hi,
        }
    options = setup.options()
    parts = [game]
    if setup.game == "nambarz":
        parts.append(operations_text("+-" if options.get("young") else "+-*/"))
        parts.append(gettext("%(jokers)d jokers") % {"jokers": options.get("jokers", 12)})
        if options.get("brackets"):
            parts.append(gettext("brackets"))
    elif setup.game == "ultimes":
        if options.get("mark_elevated"):
            parts.append(gettext("ultimate numbers and their powers marked"))
        elif options.get("mark_ultimates"):
            parts.append(gettext("ultimate numbers marked"))
    elif setup.game == "numx":
        parts.append(str(NUMX_MODES.get(options.get("mode"), options.get("mode"))))
    return ", ".join(parts)


NUMX_MODES = {"speed_run": _("Speed Run"), "x_game": _("X-Game"), "family": _("Family")}


def per_hundred(rate: float) -> int:
    return round(rate * 100)


def _reason(measured: practice.Measured, default: practice.Measured,
            reference: practice.Measured | None, median_turns: int | None) -> str:
    """One set-up's reason in numbers, against its game's default."""
    figures = {
        "chosen": per_hundred(measured.rate),
        "default": per_hundred(default.rate),
        "reference": per_hundred(reference.rate if reference is not None else 0.0),
        "skill": capfirst(skill_name(measured.skill)),
    }
    game = measured.setup.game
    if game == practice.GAME:
        why = MSG_WHY[measured.skill] % figures
    elif game == "nambarz" and measured.skill in MSG_WHY_NAMBARZ:
        why = MSG_WHY_NAMBARZ[measured.skill] % figures
    else:
        why = MSG_WHY_ASKED % figures
    if not median_turns:
        return gettext("%(why)s.") % {"why": why}
    lasts = gettext("a game lasts about %(turns)d table turns") % {"turns": median_turns}
    return gettext("%(why)s; %(lasts)s.") % {"why": why, "lasts": lasts}


def why_text(choice: practice.Choice) -> str:
    """The reason in numbers, from the engines' simulated turns."""
    if choice.chosen is None:
        return gettext(
            "No game can be set up to give twice the practice of %(skill)s that its"
            " usual game gives."
        ) % {"skill": skill_name(choice.skill)}
    return _reason(choice.chosen, choice.default, choice.reference, choice.median_turns)


def second_text(choice: practice.Choice) -> str:
    """The second proposal's reason (another game), "" without one."""
    second = choice.second
    if second is None:
        return ""
    return _reason(
        second.measured, second.default, choice.reference, practice.median_turns(second.measured)
    )


# ------------------------------------------------------------------ proposals


@dataclass
class GroupProposal:
    """One group and its lesson, as the class report shows it."""

    group: grouping.Group
    title: str
    members: list[tuple[Pupil, str, str]]  # pupil, reason, sentence
    choice: practice.Choice
    setup: str
    why: str
    plan: Plan
    tables: list[str]
    start_url: str = ""
    # Another game where the set-up fits too, for variety ("Or: Nambarz, ...").
    second_game: str = ""
    second_setup: str = ""
    second_why: str = ""
    second_url: str = ""

    @property
    def fits(self) -> bool:
        return self.choice.chosen is not None


@dataclass
class LessonProposals:
    groups: list[GroupProposal] = field(default_factory=list)
    mixed: bool = False


def _pupil_skills(report: ClassReport) -> dict[int, tuple[dict, dict]]:
    found = {}
    for row in report.rows:
        skills = {cell.skill: cell.summary for cell in row.cells if cell.summary.first_tries}
        avoided = {cell.skill: cell.avoidance for cell in row.cells if cell.avoidance}
        found[row.pupil.pk] = (skills, avoided)
    return found


def _title(group: grouping.Group) -> str:
    name = skill_name(group.skill)
    if group.kind == "ready":
        return gettext("Ready for %(skill)s") % {"skill": name}
    return capfirst(name)


def _table_lines(chosen: Plan, labels: dict[Hashable, str]) -> list[str]:
    lines = []
    for number, table in enumerate(chosen.tables, start=1):
        seats = []
        for seat in table.seats:
            names = [labels[pupil] for pupil in seat]
            if len(names) == 2:
                seats.append(gettext("%(first)s and %(second)s as one team") % {
                    "first": names[0], "second": names[1]
                })
            else:
                seats.append(names[0])
        players = ", ".join(seats)
        if table.computers:
            line = gettext("Table %(number)d: %(players)s, against a computer player (%(level)s)")
            level = LEVEL_WORDS.get(table.computer_level, table.computer_level)
            lines.append(line % {"number": number, "players": players, "level": level})
        else:
            lines.append(gettext("Table %(number)d: %(players)s") % {
                "number": number, "players": players
            })
    return lines


def proposals(report: ClassReport, teacher, *, mixed: bool = False) -> LessonProposals:
    """The groups of the report's pupils and a lesson for each (module docstring)."""
    pupils = _pupil_skills(report)
    found = grouping.groups(pupils, gettext)
    by_pk = {row.pupil.pk: row.pupil for row in report.rows}
    labels = {pk: pupil.label for pk, pupil in by_pk.items()}
    masters = {group.skill: grouping.masters(pupils, group.skill) for group in found}
    paired = partners(found, masters) if mixed else {}
    plans = {
        group: plan(
            group.kind, group.pupil_ids, mixed=mixed, partners=paired,
            reasons={member.pupil_id: member.reason for member in group.members},
        )
        for group in found
    }
    lessons = []
    for group in found:
        choice = practice_choice(group.skill)
        tables = plans[group]
        lesson = GroupProposal(
            group=group,
            title=_title(group),
            members=[(by_pk[m.pupil_id], m.reason, m.sentence) for m in group.members],
            choice=choice,
            setup=setup_text(choice.chosen.setup) if choice.chosen else "",
            why=why_text(choice),
            plan=tables,
            tables=_table_lines(tables, labels),
        )
        if choice.chosen is not None:
            lesson.start_url = start_url(
                report.classroom, teacher, group.skill, choice.chosen.setup, tables
            )
        if choice.second is not None:
            second = choice.second.measured.setup
            lesson.second_game = GAME_NAMES.get(second.game, second.game)
            lesson.second_setup = setup_text(second)
            lesson.second_why = second_text(choice)
            lesson.second_url = start_url(
                report.classroom, teacher, group.skill, choice.second.measured.setup, tables
            )
        lessons.append(lesson)
    return LessonProposals(lessons, mixed)


# ------------------------------------------------------------------ the signed plan


def start_url(
    classroom: Classroom, teacher, skill: str, setup: practice.AnySetup, tables: Plan
) -> str:
    """The start form's address with this group's plan signed into it: the
    game and its options, the seats, the skill."""
    data = {
        "c": classroom.pk,
        "t": teacher.pk,
        "k": skill,
        "g": setup.game,
        "o": setup.options(),
        "s": {str(pk): number for pk, number in tables.seating().items()},
        "ts": tables.table_size,
        "tm": tables.team_size,
        "b": tables.computer_level,
        "l": {str(number): level for number, level in tables.levels().items()},
    }
    token = signing.dumps(data, salt=SALT, compress=True)
    url = reverse("games:session_new", args=[classroom.pk])
    return f"{url}?{urlencode({'plan': token})}"


@dataclass(frozen=True)
class StartPlan:
    """A plan the start form may show: everything checked but the game's
    options, which the form checks as it checks a teacher's."""

    skill: str
    game: str
    options: dict[str, Any]
    seating: dict[int, int]
    table_size: int
    team_size: int
    computer_level: str
    # Table number -> its computer players' level (each table's pupils').
    table_levels: dict[int, str] = field(default_factory=dict)


BROKEN = _("This link to start tables is broken: the form shows the usual choices.")
TOO_OLD = _(
    "This link to start tables is more than two weeks old: the form shows the usual choices."
    " Open the class report again for a new one."
)
OTHER_CLASS = _(
    "This link to start tables was made for another class: the form shows the usual choices."
)


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def read_plan(token: str, classroom: Classroom, teacher) -> tuple[StartPlan | None, str]:
    """(the plan, "") or (None, why it is refused, for the teacher to read)."""
    try:
        data = signing.loads(token[:4000], salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        return None, str(TOO_OLD)
    except signing.BadSignature:
        return None, str(BROKEN)
    if not isinstance(data, dict):
        return None, str(BROKEN)
    if data.get("c") != classroom.pk or data.get("t") != teacher.pk:
        return None, str(OTHER_CLASS)
    seating = data.get("s")
    options = data.get("o")
    # Plans signed before tables carried their own level have none: the
    # session's level then seats every table.
    levels = data.get("l", {})
    fine = (
        data.get("k") in SKILLS
        and isinstance(data.get("g"), str)
        and isinstance(options, dict)
        and isinstance(seating, dict)
        and all(
            key.isascii() and key.isdigit() and _whole(n, 1, 15) for key, n in seating.items()
        )
        and _whole(data.get("ts"), 1, 4)
        and _whole(data.get("tm"), 1, 3)
        and data.get("b") in LEVEL_WORDS
        and isinstance(levels, dict)
        and all(
            isinstance(key, str) and key.isascii() and key.isdigit()
            and _whole(int(key), 1, 15)
            and level in LEVEL_WORDS
            for key, level in levels.items()
        )
    )
    if not fine:
        return None, str(BROKEN)
    return StartPlan(
        skill=data["k"],
        game=data["g"],
        options=options,
        seating={int(pk): n for pk, n in seating.items()},
        table_size=data["ts"],
        team_size=data["tm"],
        computer_level=data["b"],
        table_levels={int(key): level for key, level in levels.items()},
    ), ""


# ------------------------------------------------------------------ afterwards


def _day(moment) -> str:
    return date_format(timezone.localtime(moment), "MONTH_DAY_FORMAT")


def practice_change(pupil: Pupil, session) -> str:
    """What ``session`` (one that practised a skill) changed for ``pupil``."""
    skill = session.practice_skill
    first_tries = Attempt.objects.filter(pupil=pupil, skill=skill, first_try=True).values_list(
        "created_at", "correct"
    )
    found = practice_effect.change(skill, first_tries, session.created_at)
    return practice_effect.explain(
        found, capfirst(skill_name(skill)), _day(session.created_at), gettext
    )


def session_changes(session) -> list[tuple[Pupil, str]]:
    """Each pupil of a practice session, and what it changed for its skill;
    [] for a session started otherwise."""
    if not session.practice_skill:
        return []
    pupils = Pupil.objects.filter(seats__table__session=session).distinct()
    pupils = roster.label_each(roster.in_name_order(pupils))
    return [(pupil, practice_change(pupil, session)) for pupil in pupils]


PRACTICE_SHOWN = 5


def pupil_changes(pupil: Pupil) -> list[str]:
    """What the pupil's last practice sessions changed, newest first."""
    seats = (
        pupil.seats.exclude(table__session__practice_skill="")
        .select_related("table__session")
        .order_by("-table__session__created_at")
    )
    sessions = []
    for seat in seats:
        if seat.table.session not in sessions:
            sessions.append(seat.table.session)
        if len(sessions) == PRACTICE_SHOWN:
            break
    return [practice_change(pupil, session) for session in sessions]


# ------------------------------------------------------------------ a pupil alone

# A child's words under the sign (the home page's "Let's practise ×!").
CHILD_WORDS = {
    "add": _("adding"),
    "sub": _("taking away"),
    "mul": _("multiplying"),
    "div": _("dividing"),
}


@dataclass(frozen=True)
class PupilPractice:
    """What a pupil practises next, alone against the computer."""

    skill: str
    kind: str  # "need" or "ready", as the groups say
    setup: practice.AnySetup
    computer_level: str

    @property
    def sign(self) -> str:
        return {"add": "+", "sub": "−", "mul": "×", "div": "÷"}[self.skill]

    @property
    def words(self) -> str:
        return str(CHILD_WORDS[self.skill])


def next_practice(pupil: Pupil) -> PupilPractice | None:
    """The skill of the pupil's group (``learning.groups``) from the report's
    snapshot, with the set-up chosen for it; None when there is none."""
    skills, avoided = {}, {}
    for row in PupilSkill.objects.filter(pupil=pupil):
        skills[row.skill] = summary_of(row, gettext)
        avoidance = avoidance_of(row)
        if avoidance is not None:
            avoided[row.skill] = avoidance
    found = grouping.next_skill(skills, avoided)
    if found is None or found[0] not in CHILD_WORDS:
        return None
    skill, reason = found
    choice = practice_choice(skill)
    if choice.chosen is None:
        return None
    kind = "ready" if reason == "ready" else "need"
    return PupilPractice(skill, kind, choice.chosen.setup, LEVEL_FOR[kind])
