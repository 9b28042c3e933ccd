"""What a practice session changed for its skill: the last first tries before it
against the first ones from it on.

"Before" is the last ``WINDOW`` (10) first tries of the skill made before the
session started; "after" the first ``WINDOW`` made from its start on (in the
session and the games that followed), so the two windows are as long as the
evidence allows and never overlap. Only first tries, as everywhere in the
reports. The sentence says what is missing rather than a ratio of nothing:
"multiplication: no calculation before the session of 26 Nov, 8 of 10 right
after".
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import NamedTuple

from .i18n import N_, Gettext, untranslated

WINDOW = 10

MSG_CHANGE = {
    (True, True): N_(
        "%(skill)s: %(before_right)d of the last %(before_total)d right before the session of"
        " %(day)s, %(after_right)d of %(after_total)d after"
    ),
    (False, True): N_(
        "%(skill)s: no calculation before the session of %(day)s, %(after_right)d of"
        " %(after_total)d right after"
    ),
    (True, False): N_(
        "%(skill)s: %(before_right)d of the last %(before_total)d right before the session of"
        " %(day)s, none after yet"
    ),
    (False, False): N_("%(skill)s: no calculation before the session of %(day)s, nor after"),
}


class Change(NamedTuple):
    skill: str
    before_right: int
    before_total: int
    after_right: int
    after_total: int


def change(
    skill: str, first_tries: Iterable[tuple[datetime, bool]], started_at: datetime
) -> Change:
    """``first_tries``: (created_at, correct) of one pupil's first tries of ``skill``."""
    ordered = sorted(first_tries, key=lambda attempt: attempt[0])
    before = [right for at, right in ordered if at < started_at][-WINDOW:]
    after = [right for at, right in ordered if at >= started_at][:WINDOW]
    return Change(skill, sum(before), len(before), sum(after), len(after))


def explain(
    found: Change, skill_name: str, day: str, gettext: Gettext = untranslated
) -> str:
    """The sentence (module docstring); ``skill_name`` and ``day`` as shown."""
    template = MSG_CHANGE[(bool(found.before_total), bool(found.after_total))]
    return gettext(template) % {
        "skill": skill_name,
        "day": day,
        "before_right": found.before_right,
        "before_total": found.before_total,
        "after_right": found.after_right,
        "after_total": found.after_total,
    }
