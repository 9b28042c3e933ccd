"""The school report's figures: built once by the job, read by the page and the files.

``build`` reads each class report of the school and keeps, per class and
skill, how many pupils have each verdict, how many avoid the operation, and
who needs help. What is kept names pupils by id only: the page and the files
name them when they are read (``load``), so a pupil erased since the build is
not named again (their numbers stay in the counts until the next build).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import F
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import npgettext

from classroom import roster
from classroom.models import Classroom, Pupil, YearGroup
from classroom.reports import services
from learning.skills import in_report_order
from learning.verdicts import STATUSES

# The verdicts as the school report lists them: from known to unknown, the
# ones that call for a teacher's eye in the middle, where the eye lands.
STATUS_ORDER = ("mastered", "nearly_there", "practising", "needs_help", "not_enough", "not_started")
assert set(STATUS_ORDER) == set(STATUSES)
NEEDS_HELP = "needs_help"
NO_EVIDENCE = "not_started"
VERSION = 1


def school_classrooms(school):
    """The school's classes in use: those its teachers teach, not archived."""
    return (
        Classroom.objects.active()
        .filter(teacher__school=school)
        .select_related("teacher")
        .order_by(F("year_group").asc(nulls_last=True), "name", "pk")
    )


def build(school, *, on_class: Callable[[int, int], None] | None = None) -> dict:
    """The figures of every class of the school, as JSON-ready data.

    ``on_class(done, total)`` runs after each class (the job's progress)."""
    classrooms = list(school_classrooms(school))
    built, helped, skills = [], [], set()
    for index, classroom in enumerate(classrooms, start=1):
        report = services.class_report(classroom)
        skills.update(report.skills)
        counts = {skill: Counter() for skill in report.skills}
        avoids: Counter = Counter()
        for row in report.rows:
            for cell in row.cells:
                counts[cell.skill][cell.status] += 1
                avoids[cell.skill] += cell.avoids
                if cell.status == NEEDS_HELP or cell.avoids:
                    helped.append(_helped(classroom, row.pupil, cell))
        built.append(
            {
                "id": classroom.pk,
                "name": classroom.name,
                "teacher": str(classroom.teacher),
                "year_group": classroom.year_group,
                "pupils": len(report.rows),
                "counts": {skill: dict(by_status) for skill, by_status in counts.items()},
                "avoids": {skill: n for skill, n in avoids.items() if n},
            }
        )
        if on_class is not None:
            on_class(index, len(classrooms))
    return {
        "version": VERSION,
        "skills": in_report_order(skills),
        "classes": built,
        "needs_help": helped,
    }


def _helped(classroom: Classroom, pupil: Pupil, cell: services.Cell) -> dict:
    shown = cell.evidence
    return {
        "skill": cell.skill,
        "classroom": classroom.pk,
        "pupil": pupil.pk,
        "needs_help": cell.status == NEEDS_HELP,
        "right": shown.right,
        "total": shown.total,
        "avoids": cell.avoids,
        "used": cell.avoidance.used if cell.avoids else 0,
        "could": cell.avoidance.could if cell.avoids else 0,
    }


# ------------------------------------------------------------------ reading it back


def pupils_text(count: int) -> str:
    return npgettext("school report", "%(count)d pupil", "%(count)d pupils", count) % {
        "count": count
    }


def classes_text(count: int) -> str:
    return npgettext("school report", "%(count)d class", "%(count)d classes", count) % {
        "count": count
    }


def year_group_label(year_group: int | None) -> str:
    if year_group is None:
        return _("year group not set")
    try:
        return str(YearGroup(year_group).label)
    except ValueError:
        return str(year_group)


@dataclass(frozen=True)
class Part:
    """One verdict's share of a bar: its pupils and where the template draws it."""

    status: str
    label: str
    count: int
    x: float
    width: float


BAR_WIDTH = 300  # the bar's viewBox units: the SVG scales to the column's width


@dataclass
class Tally:
    """One skill among some pupils: how many have each verdict."""

    skill: str
    counts: dict[str, int]
    pupils: int
    avoids: int = 0

    @property
    def name(self) -> str:
        return services.skill_name(self.skill)

    def count(self, status: str) -> int:
        return self.counts.get(status, 0)

    @property
    def parts(self) -> list[Part]:
        """The verdicts with pupils, in STATUS_ORDER, laid end to end on the bar."""
        shown, x = [], 0.0
        for status in STATUS_ORDER:
            count = self.count(status)
            if not count:
                continue
            width = round(BAR_WIDTH * count / self.pupils, 2) if self.pupils else 0
            shown.append(Part(status, services.status_label(status), count, round(x, 2), width))
            x += width
        return shown

    @property
    def sentence(self) -> str:
        """The bar in words, for its accessible name: "Addition: 12 mastered, 3 needs help"."""
        said = ", ".join(f"{part.count} {part.label}" for part in self.parts)
        return _("%(skill)s: %(counts)s") % {"skill": self.name, "counts": said or "0"}

    def add(self, other: Tally) -> None:
        for status, count in other.counts.items():
            self.counts[status] = self.counts.get(status, 0) + count
        self.pupils += other.pupils
        self.avoids += other.avoids


def _tallies(skills: list[str], line: dict) -> list[Tally]:
    """A class's tallies for every skill of the school: a skill its class
    report has no column for is "no evidence yet" for each of its pupils."""
    pupils = line["pupils"]
    unseen = {NO_EVIDENCE: pupils} if pupils else {}
    return [
        Tally(skill, dict(line["counts"].get(skill) or unseen), pupils, avoids)
        for skill in skills
        for avoids in [line["avoids"].get(skill, 0)]
    ]


@dataclass
class ClassLine:
    pk: int
    name: str
    teacher: str
    year_group: int | None
    pupils: int
    tallies: list[Tally]

    @property
    def year_label(self) -> str:
        return year_group_label(self.year_group)


@dataclass
class YearGroupLine:
    year_group: int | None
    classes: int
    pupils: int
    tallies: list[Tally]

    @property
    def label(self) -> str:
        return year_group_label(self.year_group)

    @property
    def slug(self) -> str:
        return f"year-{self.year_group if self.year_group is not None else 'unset'}"


@dataclass
class Helped:
    """A pupil who needs help with a skill, or avoids an operation, and their class."""

    pupil: Pupil
    classroom: str
    classroom_id: int
    needs_help: bool
    right: int
    total: int
    avoids: bool
    used: int
    could: int
    url: str = ""  # their pupil report

    # The figures beside a name, in the class report's words. Made here, not
    # by template tags: a school has a thousand of them on one page.
    @property
    def need_figure(self) -> str:
        return _("%(right)s/%(total)s recent") % {"right": self.right, "total": self.total}

    @property
    def avoid_figure(self) -> str:
        return _("avoids: %(used)s/%(could)s turns") % {"used": self.used, "could": self.could}


@dataclass
class HelpClass:
    """One class's pupils in a skill's group: who needs help, who avoids it."""

    name: str
    needing: list[Helped]
    avoiding: list[Helped]


@dataclass
class HelpGroup:
    skill: str
    pupils: list[Helped]

    @property
    def name(self) -> str:
        return services.skill_name(self.skill)

    @property
    def by_class(self) -> list[HelpClass]:
        """The pupils class by class (they are in class order): a class's name
        and each verdict's word once, not at every pupil."""
        classes: dict[int, HelpClass] = {}
        for helped in self.pupils:
            line = classes.setdefault(helped.classroom_id, HelpClass(helped.classroom, [], []))
            if helped.needs_help:
                line.needing.append(helped)
            if helped.avoids:
                line.avoiding.append(helped)
        return list(classes.values())


@dataclass
class SchoolReport:
    school: object
    built_at: datetime | None
    skills: list[str]
    classes: list[ClassLine]
    year_groups: list[YearGroupLine]
    needs_help: list[HelpGroup] = field(default_factory=list)

    @property
    def pupils(self) -> int:
        return sum(line.pupils for line in self.classes)

    @property
    def skill_names(self) -> list[tuple[str, str]]:
        return [(skill, services.skill_name(skill)) for skill in self.skills]

    @property
    def statuses(self) -> list[tuple[str, str]]:
        return [(status, services.status_label(status)) for status in STATUS_ORDER]

    @property
    def legend(self) -> list[Part]:
        return [Part(status, label, 0, 0, 0) for status, label in self.statuses]


def load(school, data: dict, built_at: datetime | str | None = None) -> SchoolReport:
    """The report a job built, its pupils named as they are now."""
    if isinstance(built_at, str):
        built_at = parse_datetime(built_at)
    skills = list(data.get("skills", []))
    classes = [
        ClassLine(
            line["id"],
            line["name"],
            line["teacher"],
            line["year_group"],
            line["pupils"],
            _tallies(skills, line),
        )
        for line in data.get("classes", [])
    ]
    return SchoolReport(
        school=school,
        built_at=built_at,
        skills=skills,
        classes=classes,
        year_groups=_by_year_group(skills, classes),
        needs_help=_help_groups(skills, classes, data.get("needs_help", [])),
    )


def _by_year_group(skills: list[str], classes: Iterable[ClassLine]) -> list[YearGroupLine]:
    groups: dict[int | None, YearGroupLine] = {}
    for line in classes:
        group = groups.get(line.year_group)
        if group is None:
            group = groups[line.year_group] = YearGroupLine(
                line.year_group, 0, 0, [Tally(skill, {}, 0) for skill in skills]
            )
        group.classes += 1
        group.pupils += line.pupils
        for total, tally in zip(group.tallies, line.tallies, strict=True):
            total.add(tally)
    # Youngest first; "year group not set" last.
    return sorted(groups.values(), key=lambda g: (g.year_group is None, g.year_group or 0))


def _help_groups(skills: list[str], classes: list[ClassLine], rows: list[dict]) -> list[HelpGroup]:
    names = {line.pk: line.name for line in classes}
    pupils = {
        pupil.pk: pupil
        for pupil in roster.label_each(Pupil.objects.filter(pk__in={row["pupil"] for row in rows}))
    }
    order = {line.pk: index for index, line in enumerate(classes)}
    groups = []
    for skill in skills:
        found = [
            Helped(
                pupils[row["pupil"]],
                names.get(row["classroom"], ""),
                row["classroom"],
                row["needs_help"],
                row["right"],
                row["total"],
                row["avoids"],
                row["used"],
                row["could"], reverse("reports:pupil_report", args=[row["pupil"]]),
            )
            for row in rows
            if row["skill"] == skill and row["pupil"] in pupils  # erased since: not named
        ]
        if found:
            found.sort(key=lambda h: (order.get(h.classroom_id, 0), h.pupil.label.casefold()))
            groups.append(HelpGroup(skill, found))
    return groups
