"""Archiving a school year: every class of the year at once, and the pupils
who leave the school with it.

An archived class keeps everything (its pupils, games, reports), which its
teachers can still read; its pupils can no longer sign in. The pupils the
administrator ticks as leaving are erased when the school's retention days
are over (school.leavers); the others are moved into next year's classes
(school.moves), from the archived class if need be.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from classroom.models import Classroom, Pupil, Teacher, YearGroup

from . import record
from .models import AuditEntry


def years_in_use(school_id: int) -> list[str]:
    """The school years that still have classes in use, newest first."""
    return sorted(
        set(
            Classroom.objects.active()
            .filter(teacher__school_id=school_id)
            .values_list("school_year", flat=True)
        ),
        reverse=True,
    )


def classes_of_year(school_id: int, school_year: str) -> QuerySet[Classroom]:
    return (
        Classroom.objects.active()
        .filter(teacher__school_id=school_id, school_year=school_year)
        .select_related("teacher")
        .order_by("year_group", "name")
    )


def leave_by_default(classroom: Classroom) -> bool:
    """The oldest year group (CM2, Year 6) leaves primary school: its pupils
    are ticked as leaving to begin with. The administrator changes it."""
    return classroom.year_group == YearGroup.AGE_10


def archive_year(
    school_id: int, school_year: str, *, leavers: list[Pupil], by: Teacher
) -> tuple[int, int]:
    """Archive the year's classes in use and mark ``leavers`` (pupils of those
    classes: the form checked it) as leaving. Returns (classes, leavers)."""
    now = timezone.now()
    with transaction.atomic():
        classes = list(classes_of_year(school_id, school_year))
        for classroom in classes:
            # As a single class's archive does (classroom.services): saved, so
            # its pupils' kept sign-in rows go, and their sessions end with it.
            classroom.archived_at = now
            classroom.save(update_fields=["archived_at"])
            classroom.sign_out_everyone()
        marked = Pupil.objects.filter(pk__in=[p.pk for p in leavers], left_at__isnull=True)
        count = marked.update(left_at=now)
        record.write(
            AuditEntry.Kind.YEAR_ARCHIVED,
            teacher=by,
            count=count,
            detail={"school_year": school_year, "classes": len(classes)},
            school_id=school_id,
        )
    return len(classes), count
