"""Turning a pasted list into pupils, and telling apart pupils who share a name."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from django.utils.translation import gettext as _

# Letters (any script), apostrophes, hyphens and spaces: what first names are made of.
_NAME = re.compile(r"^[^\W\d_]+(?:[-' ’][^\W\d_]+)*$")
MAX_FIRST_NAME = 30


@dataclass(frozen=True)
class RosterLine:
    line_number: int
    text: str
    first_name: str = ""
    initial: str = ""
    error: str = ""
    duplicate: bool = False

    @property
    def short_name(self) -> str:
        return f"{self.first_name} {self.initial}." if self.initial else self.first_name


def parse_line(line_number: int, text: str) -> RosterLine:
    """'Léa Martin', 'Léa M.' and 'léa' all make a pupil; only the family name's
    first letter is kept."""
    words = text.replace("\t", " ").split()
    if not words:
        return RosterLine(line_number, text, error=_("This line is empty."))
    first = words[0].strip(".,;")
    rest = " ".join(words[1:]).strip(" .,;")
    if len(first) > MAX_FIRST_NAME:
        return RosterLine(
            line_number,
            text,
            error=_("A first name has at most %(max)d letters.") % {"max": MAX_FIRST_NAME},
        )
    if not _NAME.match(first) or (rest and not rest[0].isalpha()):
        return RosterLine(
            line_number, text, error=_("Only letters: a first name, then a family name or initial.")
        )
    first_name = first[0].upper() + first[1:]
    initial = rest[0].upper() if rest else ""
    return RosterLine(line_number, text, first_name=first_name, initial=initial)


def parse_paste(text: str, existing: list[tuple[str, str]] = ()) -> list[RosterLine]:
    """One pupil a line; blank lines are skipped. Names already in the class or
    twice in the paste are flagged, not refused: two Léas are common."""
    lines = [
        parse_line(number, raw.strip())
        for number, raw in enumerate(text.splitlines(), start=1)
        if raw.strip()
    ]
    seen = Counter((first.casefold(), initial) for first, initial in existing)
    marked = []
    for line in lines:
        if line.error:
            marked.append(line)
            continue
        key = (line.first_name.casefold(), line.initial)
        seen[key] += 1
        marked.append(
            RosterLine(
                line.line_number,
                line.text,
                line.first_name,
                line.initial,
                duplicate=seen[key] > 1,
            )
        )
    return marked


def labels(pupils) -> dict[int, str]:
    """Pupil id -> the name their class knows them by: 'Léa M.', and 'Léa M. (2)'
    for the second Léa M. of the class (in the order they were added).

    Counted over the whole class, whichever of its pupils are listed: a table
    of two, a report or an export names a pupil as the class page does. One
    query: the names of the class."""
    pupils = list(pupils)
    if not pupils:
        return {}
    from .models import Pupil  # the roster's parsing above needs no model

    classmates = Pupil.objects.filter(
        classroom_id__in={p.classroom_id for p in pupils}
    ).values_list("pk", "classroom_id", "first_name", "initial")
    totals: Counter = Counter()
    order: dict[int, int] = {}
    for pk, classroom_id, first_name, initial in sorted(classmates):
        key = (classroom_id, first_name.casefold(), initial)
        totals[key] += 1
        order[pk] = totals[key]
    shown = {}
    for pupil in pupils:
        key = (pupil.classroom_id, pupil.first_name.casefold(), pupil.initial)
        name = pupil.short_name
        shown[pupil.pk] = f"{name} ({order.get(pupil.pk, 1)})" if totals[key] > 1 else name
    return shown


def label_each(pupils) -> list:
    """The pupils, each with ``.label`` (see labels), for templates and files."""
    pupils = list(pupils)
    names = labels(pupils)
    for pupil in pupils:
        pupil.label = names[pupil.pk]
    return pupils
