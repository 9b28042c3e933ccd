"""Handing a class to next year's teacher.

The class (its pupils, its games, its reports) stays as it is; only who
teaches it changes. The teacher who gives it may stay on as a co-teacher, to
answer the new teacher's questions in September.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet

from classroom.models import Classroom, Teacher
from classroom.roles import manages_classroom
from classroom.signals import teachers_left_class

from . import record
from .models import AuditEntry


def may_hand_over(teacher: Teacher, classroom: Classroom) -> bool:
    """The class's own teacher, or the administrator of its school (a co-teacher
    runs the class but does not give it away)."""
    return classroom.teacher_id == teacher.pk or manages_classroom(teacher, classroom)


def receivers(classroom: Classroom) -> QuerySet[Teacher]:
    """Who may receive the class: the active teachers of its school, but its
    teacher. Empty for a class whose teacher has no school."""
    school_id = classroom.teacher.school_id
    if school_id is None:
        return Teacher.objects.none()
    return (
        Teacher.objects.filter(school_id=school_id, is_active=True)
        .exclude(pk=classroom.teacher_id)
        .order_by("display_name", "email")
    )


def hand_over(
    classroom: Classroom, *, to: Teacher, by: Teacher, keep_as_co_teacher: bool
) -> None:
    """Give the class to ``to`` (one of ``receivers``: the form checked it).
    The new teacher is no longer also its co-teacher; the former one becomes
    one when asked."""
    with transaction.atomic():
        former = classroom.teacher
        classroom.teacher = to
        classroom.save(update_fields=["teacher"])
        classroom.co_teachers.remove(to)
        if keep_as_co_teacher:
            classroom.co_teachers.add(former)
        else:
            teachers_left_class.send(sender=Teacher, teacher_ids=[former.pk])
        record.write(
            AuditEntry.Kind.HANDOVER,
            teacher=by,
            classroom=classroom,
            detail={
                "from": record.teacher_name(former),
                "to": record.teacher_name(to),
                "kept_as_co_teacher": keep_as_co_teacher,
            },
        )
