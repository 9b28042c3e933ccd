"""A pupil's data: everything recorded about them, to export or to erase.

Whatever refers to a pupil with a cascading foreign key belongs to the pupil, so
the export and the erasure both walk Django's own deletion graph: a model added
later (attempts, seats, ...) is covered without touching this module.
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.utils import NestedObjects
from django.core import serializers
from django.db import router, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .models import Pupil, Teacher


def _collect(pupil: Pupil) -> NestedObjects:
    collector = NestedObjects(using=router.db_for_write(Pupil))
    collector.collect([pupil])
    return collector


# The records erasure_lines puts in words; any other is listed by its name.
_IN_WORDS = {
    "classroom.Pupil",
    "classroom.Attempt",
    "classroom.PupilSkill",
    "classroom.Opportunity",
    "classroom.WrongPictures",
    "games.Seat",
    "games.Move",
}


def erasure_lines(pupil: Pupil) -> list[str]:
    """What erasing the pupil removes, in a teacher's words: '9 calculations',
    '9 moves in 1 game', 'their skills report'. A record the words do not know
    yet (a model added later) is still listed, by its name and count."""
    collected = _collect(pupil).data
    by_label = {model._meta.label: (model, objects) for model, objects in collected.items()}
    count = {label: len(objects) for label, (_model, objects) in by_label.items()}
    lines = [_("their name, their picture and their picture password")]
    if count.get("classroom.Attempt"):
        n = count["classroom.Attempt"]
        lines.append(ngettext("%(n)d calculation", "%(n)d calculations", n) % {"n": n})
    games = _games_of(by_label)
    if games:
        moves = count.get("games.Move", 0)
        in_games = ngettext("%(n)d game", "%(n)d games", games) % {"n": games}
        if moves:
            said = ngettext("%(n)d move", "%(n)d moves", moves) % {"n": moves}
            lines.append(_("%(moves)s in %(games)s") % {"moves": said, "games": in_games})
        else:
            lines.append(_("their seat in %(games)s") % {"games": in_games})
    if count.get("classroom.PupilSkill") or count.get("classroom.Opportunity"):
        lines.append(_("their skills report"))
    if count.get("classroom.WrongPictures"):
        lines.append(_("the wrong pictures tried on tablets to sign in as them"))
    for label, (model, objects) in by_label.items():
        if label not in _IN_WORDS:
            lines.append(f"{model._meta.verbose_name_plural}: {len(objects)}")
    return lines


def _games_of(by_label: dict[str, tuple[Any, Any]]) -> int:
    """The games the pupil sat or moved in: their seats' and moves' sessions."""
    tables = {
        obj.table_id
        for label in ("games.Seat", "games.Move")
        for obj in by_label.get(label, (None, ()))[1]
    }
    if not tables:
        return 0
    seat_model = by_label.get("games.Seat", by_label.get("games.Move"))[0]
    table_model = seat_model._meta.get_field("table").related_model
    return table_model.objects.filter(pk__in=tables).values("session_id").distinct().count()


def pupil_data(pupil: Pupil) -> dict[str, Any]:
    records: dict[str, list[dict[str, Any]]] = {}
    for model, objects in _collect(pupil).data.items():
        rows = serializers.serialize("python", sorted(objects, key=lambda o: o.pk))
        records[model._meta.label] = [{"id": row["pk"], **row["fields"]} for row in rows]
    return {
        "pupil": {
            "first_name": pupil.first_name,
            "initial": pupil.initial,
            "class": pupil.classroom.name,
            "school_year": pupil.classroom.school_year,
        },
        "records": records,
    }


@transaction.atomic
def erase_pupil(pupil: Pupil) -> None:
    pupil.delete()


# ------------------------------------------------------------------ the privacy page


def _default_kept_days() -> int:
    """The days a school keeps a leaver's record unless it says otherwise,
    read from the school's model through the teacher's link to it (classroom
    does not import the school)."""
    school_model = Teacher._meta.get_field("school").related_model
    return school_model._meta.get_field("leavers_kept_days").default


def viewer_school(request) -> Any:
    """The school of whoever reads the page: a teacher's, or a signed-in pupil's class's."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user.school
    pupil = getattr(request, "pupil", None)
    if pupil:
        teacher = Teacher.objects.select_related("school").filter(pk=pupil.classroom.teacher_id)
        return teacher.first().school if teacher.exists() else None
    return None


def leavers_sentence(school: Any) -> str:
    """What the privacy page says of leavers: the reader's school's own days,
    or the general rule."""
    if school is None:
        days = _default_kept_days()
        return ngettext(
            "Pupils who leave their school are erased automatically after the number of "
            "days their school sets (%(days)d day unless it sets another).",
            "Pupils who leave their school are erased automatically after the number of "
            "days their school sets (%(days)d days unless it sets another).",
            days,
        ) % {"days": days}
    days = school.leavers_kept_days
    if days == 0:
        return _("Pupils who leave %(school)s are erased the night after they leave.") % {
            "school": school.name
        }
    return ngettext(
        "Pupils who leave %(school)s are erased %(days)d day after they leave.",
        "Pupils who leave %(school)s are erased %(days)d days after they leave.",
        days,
    ) % {"school": school.name, "days": days}
