"""Tables for a group's practice: who sits with whom, and the computer players.

Two ways, as the teacher asks:

* **same need** (the default): the group's pupils two to a table, in the order
  given; an odd one out plays against a computer player. Two at a table
  rather than four: every pupil gets a turn every other roll.
* **mixed**: each pupil of the group shares a seat with a pupil who masters
  the skill (a team of two, where the game has teams), one team to a table
  against a computer player, so the pair is never split by the start form's
  shuffling of teams. When the masters run out, the rest sit as in "same need".
  A master partners one pupil at most over all the groups of a class, and is
  in no group (a pupil of a group sits at their own group's tables); the
  pupils who need a partner most choose first (``partners``).

The computer players' level fits the pupils, table by table: ``beginner``
for a pupil who needs help with the skill or has too few tries at it yet (a
loss to a strong computer teaches nothing), ``greedy`` (the start form's
"medium") for a pupil who can calculate with it but avoids it, or is ready for
the next step (a computer that uses the operation shows it paying). A table
takes the gentlest level of its pupils of the group (a master beside a pupil
plays at the pupil's level): the pupil who needs it most sets it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from .groups import Group

PUPILS_PER_TABLE = 2
LEVEL_FOR = {"need": "beginner", "ready": "greedy"}
LEVEL_OF_REASON = {
    "needs_help": "beginner", "not_enough": "beginner", "avoids": "greedy", "ready": "greedy",
}
GENTLEST = ("beginner", "greedy", "strategist")
# Who gets a master first: the pupils who need the skill most.
PARTNER_ORDER = {"needs_help": 0, "avoids": 1, "not_enough": 2, "ready": 3}


@dataclass(frozen=True)
class TablePlan:
    """One table: its seats (a seat is one pupil, or a team of two, master
    first) and how many computer players fill the rest."""

    seats: tuple[tuple[Hashable, ...], ...]
    computers: int
    computer_level: str = "beginner"

    @property
    def pupil_ids(self) -> list[Hashable]:
        return [pupil for seat in self.seats for pupil in seat]


@dataclass(frozen=True)
class Plan:
    """A group's tables, with what the start form needs to seat them: players
    per table, pupils per seat, the computer players' level."""

    tables: tuple[TablePlan, ...]
    table_size: int
    team_size: int
    computer_level: str
    mixed: bool = False

    def seating(self) -> dict[Hashable, int]:
        """Pupil -> table number (from 1), as the start form's seating fields say."""
        return {
            pupil: number
            for number, table in enumerate(self.tables, start=1)
            for pupil in table.pupil_ids
        }

    def levels(self) -> dict[int, str]:
        """Table number (from 1) -> its computer players' level."""
        return {
            number: table.computer_level for number, table in enumerate(self.tables, start=1)
        }


def _level(pupils: Sequence[Hashable], levels: Mapping[Hashable, str], fallback: str) -> str:
    """The gentlest level of the table's pupils who have one (module docstring)."""
    found = [levels[pupil] for pupil in pupils if pupil in levels]
    return min(found, key=GENTLEST.index) if found else fallback


def _same_need(
    pupils: Sequence[Hashable], levels: Mapping[Hashable, str], fallback: str
) -> list[TablePlan]:
    tables = []
    for start in range(0, len(pupils), PUPILS_PER_TABLE):
        seated = pupils[start : start + PUPILS_PER_TABLE]
        seats = tuple((pupil,) for pupil in seated)
        tables.append(
            TablePlan(seats, PUPILS_PER_TABLE - len(seats), _level(seated, levels, fallback))
        )
    return tables


def partners(
    groups: Sequence[Group], masters: Mapping[str, Sequence[Hashable]]
) -> dict[Hashable, Hashable]:
    """Pupil -> the master who shares their seat at a mixed table: ``masters``
    gives each skill's masters, best first. A master partners one pupil at
    most; "needs help" chooses before "avoids", then "not enough yet", then
    "ready", each in the order of the groups and their members."""
    wanting = sorted(
        (PARTNER_ORDER[member.reason], g, m, group.skill, member.pupil_id)
        for g, group in enumerate(groups)
        for m, member in enumerate(group.members)
    )
    in_groups = {member.pupil_id for group in groups for member in group.members}
    taken: set[Hashable] = set()
    found: dict[Hashable, Hashable] = {}
    for *_order, skill, pupil in wanting:
        free = next(
            (m for m in masters.get(skill, ()) if m not in taken and m not in in_groups), None
        )
        if free is not None:
            taken.add(free)
            found[pupil] = free
    return found


def plan(
    kind: str,
    pupils: Sequence[Hashable],
    *,
    mixed: bool = False,
    partners: Mapping[Hashable, Hashable] | None = None,
    teams: bool = True,
    reasons: Mapping[Hashable, str] | None = None,
) -> Plan:
    """The tables of one group (module docstring). ``partners`` (from
    ``partners``) gives a mixed table's master for each pupil who has one.
    ``teams``: whether the game has teams; without them a mixed table seats
    the two side by side. ``reasons``: why each pupil is in the group
    (``groups.REASONS``), which sets their table's computer level; without
    it every table takes the group's (``LEVEL_FOR``)."""
    level = LEVEL_FOR.get(kind, "beginner")
    levels = {
        pupil: LEVEL_OF_REASON[reason]
        for pupil, reason in (reasons or {}).items()
        if reason in LEVEL_OF_REASON
    }
    partners = partners or {}
    if not mixed or not any(pupil in partners for pupil in pupils):
        return Plan(tuple(_same_need(pupils, levels, level)), PUPILS_PER_TABLE, 1, level)
    tables: list[TablePlan] = []
    alone: list[Hashable] = []
    for pupil in pupils:
        master = partners.get(pupil)
        if master is None:
            alone.append(pupil)
        elif teams:
            tables.append(TablePlan(((master, pupil),), PUPILS_PER_TABLE - 1,
                                    _level([pupil], levels, level)))
        else:
            tables.append(TablePlan(((master,), (pupil,)), 0, _level([pupil], levels, level)))
    if teams:
        # With teams of two, two pupils at one table would share a seat: a
        # pupil left without a partner sits alone against the computer.
        tables += [
            TablePlan(((pupil,),), PUPILS_PER_TABLE - 1, _level([pupil], levels, level))
            for pupil in alone
        ]
        return Plan(tuple(tables), PUPILS_PER_TABLE, 2, level, mixed=True)
    tables += _same_need(alone, levels, level)
    return Plan(tuple(tables), PUPILS_PER_TABLE, 1, level, mixed=True)
