"""Who may see and who may run which class, by role.

One place for the rule, so that every view asks the same question:

- a class's own teacher and its co-teachers see it and run it (start games,
  change pupils, export);
- the school's administrator and maths lead see every class of their school
  and its reports; the administrator may also export them and manages the
  school's teachers;
- a teacher without a school sees only the classes they teach.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from classroom.models import Classroom, Teacher


def sees_whole_school(teacher: Teacher) -> bool:
    return teacher.school_id is not None and teacher.role in (
        Teacher.Role.ADMIN,
        Teacher.Role.MATHS_LEAD,
    )


def manages_school(teacher: Teacher) -> bool:
    return teacher.school_id is not None and teacher.role == Teacher.Role.ADMIN


def classrooms_run_by(teacher: Teacher) -> QuerySet[Classroom]:
    """The classes this teacher teaches, alone or as a co-teacher."""
    return Classroom.objects.filter(Q(teacher=teacher) | Q(co_teachers=teacher)).distinct()


def classrooms_seen_by(teacher: Teacher) -> QuerySet[Classroom]:
    """The classes whose pages and reports this teacher may read."""
    taught = Q(teacher=teacher) | Q(co_teachers=teacher)
    if sees_whole_school(teacher):
        taught |= Q(teacher__school_id=teacher.school_id)
    return Classroom.objects.filter(taught).distinct()
