"""Moving pupils between classes of one school, their history with them.

A pupil's attempts, skills and reports hang on the pupil, not on the class, so
moving the pupil row moves all of it: the new class's report shows their skills
at once. The old class's game sessions keep their attempts (an attempt names its
session), so the report of a past session still counts what the pupil did in it.
The old class's report lists the class's pupils as they are now: the pupil is
no longer in it.

In the new class the pupil is fitted in as a pasted pupil is
(``classroom.services.pupils_add``): a number after the namesakes the class has
or had ("Léa M. (2)"), and a new avatar when a classmate already has theirs.
Their picture password stays: they still know it. The pupil is signed out;
they sign in again with the new class's code.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import QuerySet

from classroom import roster, selectors
from classroom.models import Classroom, Pupil, Teacher
from classroom.pictures import pick_avatar
from classroom.roles import classrooms_run_by, manages_classroom, runs_classroom

from . import record
from .models import AuditEntry


def may_move_from(teacher: Teacher, classroom: Classroom) -> bool:
    return manages_classroom(teacher, classroom) or runs_classroom(teacher, classroom)


def destinations(teacher: Teacher, classroom: Classroom) -> QuerySet[Classroom]:
    """The classes this teacher may move the class's pupils to: the classes in
    use of the same school, any of them for its administrator, those the
    teacher runs otherwise (a teacher without a school: their own)."""
    school_id = classroom.teacher.school_id
    found = Classroom.objects.active().exclude(pk=classroom.pk)
    if school_id is None:
        found = found.filter(teacher__school__isnull=True)
    else:
        found = found.filter(teacher__school_id=school_id)
    if not (manages_classroom(teacher, classroom)):
        found = found.filter(pk__in=classrooms_run_by(teacher).values("pk"))
    return found.select_related("teacher").order_by("-school_year", "name")


@dataclass(frozen=True)
class Moved:
    """What the teacher needs to tell the pupil: their name in the new class
    and, if it changed, their picture."""

    pupil: Pupil
    label_before: str
    label_now: str
    avatar_before: str

    @property
    def new_avatar(self) -> bool:
        return self.pupil.avatar != self.avatar_before


def move_pupils(
    pupils: list[Pupil], *, source: Classroom, to: Classroom, by: Teacher
) -> list[Moved]:
    """Move these pupils of ``source`` into ``to`` (the form checked both)."""
    before = roster.labels(pupils)
    with transaction.atomic():
        # One move or paste into a class at a time: both number namesakes
        # from what the class holds.
        Classroom.objects.select_for_update().filter(pk=to.pk).first()
        taken = selectors.avatars_taken(to)
        numbers = roster.next_namesakes(to.pk, [(p.first_name, p.initial) for p in pupils])
        avatars = {}
        for pupil, namesake in zip(pupils, numbers, strict=True):
            avatars[pupil.pk] = pupil.avatar
            if pupil.avatar in taken:
                pupil.avatar = pick_avatar(taken)
            taken.add(pupil.avatar)
            pupil.classroom = to
            pupil.namesake = namesake
            pupil.save(update_fields=["classroom", "avatar", "namesake"])
        ids = [p.pk for p in pupils]
        # Their tablets' table tokens end; they sign in with the new class's code.
        Pupil.objects.filter(pk__in=ids).sign_out()
        record.write(
            AuditEntry.Kind.PUPILS_MOVED,
            teacher=by,
            classroom=source,
            pupil=pupils[0] if len(pupils) == 1 else None,
            count=len(pupils),
            detail={"to": record.class_name(to), "to_id": to.pk},
        )
    now = roster.labels(pupils)
    return [Moved(p, before[p.pk], now[p.pk], avatars[p.pk]) for p in pupils]
