"""Turning a pasted list into pupils, and telling apart pupils who share a name."""

from __future__ import annotations

import re
import unicodedata
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
    # The earlier line this one repeats word for word: most likely pasted twice.
    repeat_of: int = 0

    @property
    def short_name(self) -> str:
        return f"{self.first_name} {self.initial}." if self.initial else self.first_name


class NameRefused(ValueError):
    """A name that cannot be stored; the message says why, for the teacher."""


def _capital(letter: str) -> str:
    # 'ß'.upper() is 'SS': a capital that is two letters would overflow the
    # one-letter initial and the 30-letter first name, so such a letter stays.
    upper = letter.upper()
    return upper if len(upper) == 1 else letter


def _small(letter: str) -> str:
    lower = letter.lower()
    return lower if len(lower) == 1 else letter


_PARTS = re.compile(r"([-' ’])")


def _as_name(word: str) -> str:
    """'ÉMILIE' and 'jean-baptiste' as names are written: 'Émilie', 'Jean-Baptiste'.

    Only a word in one case is rewritten: mixed case ('DeShawn', 'McKenzie')
    is how the teacher meant it, and only its first letter is made a capital."""
    letters = [c for c in word if c.isalpha()]
    # Two capitals are more likely initials ('JB') than a name shouted.
    shouted = len(letters) > 2 and all(c.isupper() for c in letters)
    if not (shouted or all(c.islower() for c in letters)):
        return _capital(word[:1]) + word[1:]
    return "".join(
        _capital(part[0]) + "".join(map(_small, part[1:])) if part[:1].isalpha() else part
        for part in _PARTS.split(word)
    )


def clean_name(first: str, family: str = "") -> tuple[str, str]:
    """(first name, initial) as stored, from what was typed or pasted.

    Normalised first (NFKC: '²' is '2', 'ﬁ' is 'fi'; capitals), validated after,
    so what is checked is what is saved; a name in capitals is written as a
    name. The one function for the paste and the pupil form. Raises NameRefused."""
    first = unicodedata.normalize("NFKC", first).strip(" .,;")
    family = unicodedata.normalize("NFKC", family).strip(" .,;")
    if not first:
        raise NameRefused(_("A first name is needed."))
    if not _NAME.match(first) or (family and not family[0].isalpha()):
        raise NameRefused(_("Only letters: a first name, then a family name or initial."))
    first_name = _as_name(first)
    initial = _capital(family[0]) if family else ""
    if len(first_name) > MAX_FIRST_NAME:
        raise NameRefused(
            _("A first name has at most %(max)d letters.") % {"max": MAX_FIRST_NAME}
        )
    return first_name, initial


def parse_line(line_number: int, text: str) -> RosterLine:
    """'Léa Martin', 'Léa M.' and 'léa' all make a pupil; only the family name's
    first letter is kept."""
    words = text.replace("\t", " ").split()
    if not words:
        return RosterLine(line_number, text, error=_("This line is empty."))
    try:
        first_name, initial = clean_name(words[0], " ".join(words[1:]))
    except NameRefused as refused:
        return RosterLine(line_number, text, error=str(refused))
    return RosterLine(line_number, text, first_name=first_name, initial=initial)


def parse_paste(text: str, existing: list[tuple[str, str]] = ()) -> list[RosterLine]:
    """One pupil a line; blank lines are skipped. Names already in the class or
    twice in the paste are flagged, not refused: two Léas are common. Every line
    of a shared name is flagged, and a line repeating an earlier one word for
    word says which: a list pasted twice is the likelier story."""
    lines = [
        parse_line(number, raw.strip())
        for number, raw in enumerate(text.splitlines(), start=1)
        if raw.strip()
    ]
    counts = Counter((first.casefold(), initial) for first, initial in existing)
    counts.update((line.first_name.casefold(), line.initial) for line in lines if not line.error)
    first_seen: dict[str, int] = {}
    marked = []
    for line in lines:
        if line.error:
            marked.append(line)
            continue
        words = " ".join(line.text.split()).casefold()
        repeat_of = first_seen.get(words, 0)
        first_seen.setdefault(words, line.line_number)
        marked.append(
            RosterLine(
                line.line_number,
                line.text,
                line.first_name,
                line.initial,
                duplicate=counts[(line.first_name.casefold(), line.initial)] > 1,
                repeat_of=repeat_of,
            )
        )
    return marked


def name_key(first_name: str, initial: str = "") -> tuple[str, str]:
    """How a French class list sorts: accents and capitals ignored, so Émilie
    comes with the Es, not after Zoé."""
    return (_folded(first_name), _folded(initial))


def _folded(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def in_name_order(pupils) -> list:
    """The pupils as a class list reads: by name (see name_key), twins in the
    order they were added, as their numbers go."""
    return sorted(pupils, key=lambda p: (*name_key(p.first_name, p.initial), p.pk))


def next_namesakes(
    classroom_id: int, names: list[tuple[str, str]], exclude: int | None = None
) -> list[int]:
    """The numbers of new pupils of these (first name, initial), in order:
    after every number their class's namesakes hold or held. One query."""
    from .models import Pupil  # the roster's parsing above needs no model

    taken: Counter = Counter()
    for first_name, initial, namesake in (
        Pupil.objects.filter(classroom_id=classroom_id)
        .exclude(pk=exclude)
        .values_list("first_name", "initial", "namesake")
    ):
        key = (first_name.casefold(), initial)
        taken[key] = max(taken[key], namesake)
    numbers = []
    for first_name, initial in names:
        key = (first_name.casefold(), initial)
        taken[key] += 1
        numbers.append(taken[key])
    return numbers


def labels(pupils) -> dict[int, str]:
    """Pupil id -> the name their class knows them by: 'Léa M.', and 'Léa M. (2)'
    for the second Léa M. of the class (their ``namesake`` number, kept when a
    namesake leaves: 'Léa M. (2)' stays so even alone, as her card says).

    Counted over the whole class, whichever of its pupils are listed: a table
    of two, a report or an export names a pupil as the class page does. One
    query: the names of the class."""
    pupils = list(pupils)
    if not pupils:
        return {}
    from .models import Pupil  # the roster's parsing above needs no model

    classmates = Pupil.objects.filter(
        classroom_id__in={p.classroom_id for p in pupils}
    ).values_list("pk", "classroom_id", "first_name", "initial", "namesake")
    groups: dict[tuple, list[tuple[int, int]]] = {}
    for pk, classroom_id, first_name, initial, namesake in sorted(classmates):
        groups.setdefault((classroom_id, first_name.casefold(), initial), []).append((pk, namesake))
    number: dict[int, int] = {}
    for members in groups.values():
        kept = [namesake for _pk, namesake in members]
        # Pupils made in bulk (the demo, a synthetic school) share the default
        # number: they are counted in the order they were added instead.
        distinct = len(set(kept)) == len(kept)
        for order, (pk, namesake) in enumerate(members, start=1):
            number[pk] = namesake if distinct else order
    shown = {}
    for pupil in pupils:
        key = (pupil.classroom_id, pupil.first_name.casefold(), pupil.initial)
        n = number.get(pupil.pk, 1)
        numbered = len(groups.get(key, ())) > 1 or n > 1
        shown[pupil.pk] = f"{pupil.short_name} ({n})" if numbered else pupil.short_name
    return shown


def label_each(pupils) -> list:
    """The pupils, each with ``.label`` (see labels), for templates and files."""
    pupils = list(pupils)
    names = labels(pupils)
    for pupil in pupils:
        pupil.label = names[pupil.pk]
    return pupils
