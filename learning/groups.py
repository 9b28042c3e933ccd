"""Pupils who need the same skill, and pupils ready for the next one.

From each pupil's verdicts (``verdicts``) and avoidance (``opportunities``),
every pupil joins at most one group, the one of their most pressing need, so
that the tables proposed for the groups never seat a pupil twice:

1. ``needs_help``: the skill's status is "needs help";
2. ``avoids``: an operation the pupil avoids (``opportunities``);
3. ``not_enough``: an operation with some first tries but not enough yet;
4. ``ready``: nothing of the above, every operation before this one (in the
   order + − × ÷) mastered, and this one never tried.

A need comes before a lesser need whatever the skill; on the same footing the
operations come first, in their order (the four operations are what the games
practise), then the other skills by the engine's order. Other skills than the
operations make a group only when they need help: "not enough yet" of a
NUM-X count after one game is no lesson to plan.

Each member carries one sentence, the evidence of the report itself (the
verdict's or the avoidance's sentence), so the group says why in the words the
grid's cells already use.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from .i18n import N_, Gettext, untranslated
from .opportunities import Avoidance
from .opportunities import explain as explain_avoidance
from .skills import OPERATIONS, SKILLS
from .verdicts import SkillSummary

REASONS = ("needs_help", "avoids", "not_enough", "ready")

MSG_READY = {
    "sub": N_("ready for subtraction: addition mastered, no subtraction yet"),
    "mul": N_("ready for multiplication: addition and subtraction mastered, no multiplication yet"),
    "div": N_(
        "ready for division: addition, subtraction and multiplication mastered, no division yet"
    ),
}


@dataclass(frozen=True)
class Member:
    """One pupil of a group: why they are in it, in one sentence."""

    pupil_id: Hashable
    reason: str  # one of REASONS
    sentence: str


@dataclass(frozen=True)
class Group:
    """Pupils who need ``skill`` (kind "need"), or are ready for it ("ready")."""

    skill: str
    kind: str
    members: tuple[Member, ...]

    @property
    def pupil_ids(self) -> list[Hashable]:
        return [member.pupil_id for member in self.members]


def _skill_rank(skill: str) -> tuple[int, int]:
    if skill in OPERATIONS:
        return 0, OPERATIONS.index(skill)
    return 1, SKILLS.index(skill) if skill in SKILLS else len(SKILLS)


class Need(NamedTuple):
    skill: str
    reason: str
    sentence: str


def needs(
    skills: Mapping[str, SkillSummary],
    avoidance: Mapping[str, Avoidance],
    gettext: Gettext = untranslated,
) -> list[Need]:
    """Every need of one pupil's, most pressing first, with its sentence."""
    found: list[tuple[tuple, str, str, str]] = []
    for skill, summary in skills.items():
        if summary.status == "needs_help":
            found.append(((0, *_skill_rank(skill)), skill, "needs_help", summary.sentence))
        elif summary.status == "not_enough" and skill in OPERATIONS:
            found.append(((2, *_skill_rank(skill)), skill, "not_enough", summary.sentence))
    for skill, avoided in avoidance.items():
        if avoided.avoids:
            found.append(
                ((1, *_skill_rank(skill)), skill, "avoids", explain_avoidance(avoided, gettext))
            )
    found.sort(key=lambda need: need[0])
    return [Need(*need[1:]) for need in found]


def ready_for(skills: Mapping[str, SkillSummary]) -> str | None:
    """The operation a pupil is ready to start (rule 4), or None."""
    for index, skill in enumerate(OPERATIONS):
        summary = skills.get(skill)
        if summary is None or summary.status == "not_started":
            return skill if index else None
        if summary.status != "mastered":
            return None
    return None


def next_skill(
    skills: Mapping[str, SkillSummary], avoidance: Mapping[str, Avoidance]
) -> tuple[str, str] | None:
    """(skill, reason) of one pupil's group, or None: what they practise next."""
    found = needs(skills, avoidance)
    if found:
        return found[0].skill, found[0].reason
    ready = ready_for(skills)
    return (ready, "ready") if ready else None


def groups(
    pupils: Mapping[Hashable, tuple[Mapping[str, SkillSummary], Mapping[str, Avoidance]]],
    gettext: Gettext = untranslated,
) -> list[Group]:
    """The groups of a class: ``pupils`` maps a pupil to (their skills' summaries,
    their avoidance), in the order members are listed. Needs first (by skill
    order), then the ready groups; a group's members in the order given."""
    need: dict[str, list[Member]] = {}
    ready: dict[str, list[Member]] = {}
    for pupil_id, (skills, avoidance) in pupils.items():
        found = needs(skills, avoidance, gettext)
        if found:
            first = found[0]
            need.setdefault(first.skill, []).append(
                Member(pupil_id, first.reason, first.sentence)
            )
            continue
        skill = ready_for(skills)
        if skill is not None:
            ready.setdefault(skill, []).append(
                Member(pupil_id, "ready", gettext(MSG_READY[skill]))
            )
    ordered = [
        Group(skill, "need", tuple(members))
        for skill, members in sorted(need.items(), key=lambda item: _skill_rank(item[0]))
    ]
    ordered += [
        Group(skill, "ready", tuple(members))
        for skill, members in sorted(ready.items(), key=lambda item: _skill_rank(item[0]))
    ]
    return ordered


def masters(
    pupils: Mapping[Hashable, tuple[Mapping[str, SkillSummary], Mapping[str, Avoidance]]],
    skill: str,
) -> list[Hashable]:
    """Pupils who master ``skill`` and do not avoid it: the partners of mixed tables."""
    found = []
    for pupil_id, (skills, avoidance) in pupils.items():
        summary = skills.get(skill)
        avoided = avoidance.get(skill)
        if summary is not None and summary.status == "mastered" and not (
            avoided is not None and avoided.avoids
        ):
            found.append(pupil_id)
    return found
