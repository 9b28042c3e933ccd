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


# ------------------------------------------------------------------ the year's end (part E)


def runs_classroom(teacher: Teacher, classroom: Classroom) -> bool:
    """This teacher teaches the class, alone or as a co-teacher."""
    if classroom.teacher_id == teacher.pk:
        return True
    return classroom.co_teachers.filter(pk=teacher.pk).exists()


def manages_classroom(teacher: Teacher, classroom: Classroom) -> bool:
    """The administrator of the class's school (a class's school is its teacher's)."""
    return manages_school(teacher) and classroom.teacher.school_id == teacher.school_id


def changes_pupils_of(teacher: Teacher, classroom: Classroom) -> bool:
    """Who may move a class's pupils or mark them as leaving: whoever runs the
    class, and the school's administrator. A maths lead sees, and only sees."""
    return manages_classroom(teacher, classroom) or runs_classroom(teacher, classroom)
