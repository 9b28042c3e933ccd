"""Who may see and who may run which class, by role.

One place for the rule, so that every view asks the same question:

- a class's own teacher and its co-teachers see it and run it (start games,
  change pupils, export);
- the school's administrator and maths lead see every class of their school
  and its reports; the administrator may also export them and manages the
  school's teachers;
- a teacher without a school sees only the classes they teach.

Each teacher view asks one of three questions of a class (or of the class of
a pupil, a game session, a table, a report job):

SEES (the class's teachers, the school's administrator and maths lead):
    classroom:class_detail (read-only for those who do not run it: no class
    code, QR code, picture passwords or buttons), reports:class_report,
    reports:class_refresh (it only recomputes the figures a reader reads),
    reports:pupil_report, reports:session_report, reports:job_status (one's own
    jobs, of a class one still sees).

EXPORTS (those who run the class, and the school's administrator):
    reports:class_export, reports:class_prepare, reports:job_download (one's
    own export, of a class one may still export).

RUNS (the class's teacher and co-teachers only):
    classroom:class_edit (with its co-teachers), class_archive, class_copy,
    pupils_add, code_reset, class_qr, sign_in_cards (the QR code and the cards
    let pupils in), sign_out_all; classroom:pupil_edit, pupil_unlock,
    pupil_export (a pupil's whole record, a privacy request), pupil_erase;
    games:session_new, session_live and its poll (the live view steers the
    game: pause, end, seat late pupils; its cards show the tables as they are
    played, which is running the lesson, not reading a report),
    session_control, table_projector, and a game's own teacher pages
    (games:session_cards, session_next_card: NMBR 9's whole class).

CHOOSES CO-TEACHERS (the class's own teacher, and the school's administrator,
who does not run the class otherwise): school:co_teachers, also shown on
classroom:class_edit.

A class the teacher may not see is "not found" (404), as before the school:
nobody learns that it exists. A class they see but may not run or export is
refused (403).
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


def _run_by(teacher: Teacher) -> Q:
    return _run_by_id(teacher.pk)


def _run_by_id(teacher_id: int) -> Q:
    # A subquery rather than a join on co_teachers: a join repeats a class once
    # per co-teacher and needs distinct(), which a later update() or a
    # count in a template would trip over.
    co_taught = Classroom.co_teachers.through.objects.filter(teacher_id=teacher_id)
    return Q(teacher_id=teacher_id) | Q(pk__in=co_taught.values("classroom_id"))


def classrooms_run_by(teacher: Teacher) -> QuerySet[Classroom]:
    """The classes this teacher teaches, alone or as a co-teacher."""
    return Classroom.objects.filter(_run_by(teacher))


def classrooms_run_by_id(teacher_id: int) -> QuerySet[Classroom]:
    """The same, from the teacher's id alone (the live view's signed token
    carries it: its polls read no user row)."""
    return Classroom.objects.filter(_run_by_id(teacher_id))


def classrooms_seen_by(teacher: Teacher) -> QuerySet[Classroom]:
    """The classes whose pages and reports this teacher may read."""
    taught = _run_by(teacher)
    if sees_whole_school(teacher):
        taught |= Q(teacher__school_id=teacher.school_id)
    return Classroom.objects.filter(taught)


def classrooms_exported_by(teacher: Teacher) -> QuerySet[Classroom]:
    """The classes whose reports this teacher may take away as a file: those
    they teach, and every class of the school for its administrator."""
    taught = _run_by(teacher)
    if manages_school(teacher):
        taught |= Q(teacher__school_id=teacher.school_id)
    return Classroom.objects.filter(taught)


def school_classrooms(teacher: Teacher) -> QuerySet[Classroom]:
    """Every class of the teacher's school (none without a school)."""
    if teacher.school_id is None:
        return Classroom.objects.none()
    return Classroom.objects.filter(teacher__school_id=teacher.school_id)


def runs(teacher: Teacher, classroom_id: int) -> bool:
    return classrooms_run_by(teacher).filter(pk=classroom_id).exists()


def sees(teacher: Teacher, classroom_id: int) -> bool:
    return classrooms_seen_by(teacher).filter(pk=classroom_id).exists()


def exports(teacher: Teacher, classroom_id: int) -> bool:
    return classrooms_exported_by(teacher).filter(pk=classroom_id).exists()


def chooses_co_teachers(teacher: Teacher, classroom: Classroom) -> bool:
    """The class's own teacher, or the administrator of its school. A
    co-teacher runs the class but does not choose who else does."""
    if classroom.teacher_id == teacher.pk:
        return True
    return manages_school(teacher) and classroom.teacher.school_id == teacher.school_id


# ------------------------------------------------------------------ the year's end (part E)


def runs_classroom(teacher: Teacher, classroom: Classroom) -> bool:
    """This teacher teaches the class, alone or as a co-teacher."""
    return classroom.teacher_id == teacher.pk or runs(teacher, classroom.pk)


def manages_classroom(teacher: Teacher, classroom: Classroom) -> bool:
    """The administrator of the class's school (a class's school is its teacher's)."""
    return manages_school(teacher) and classroom.teacher.school_id == teacher.school_id


def changes_pupils_of(teacher: Teacher, classroom: Classroom) -> bool:
    """Who may move a class's pupils or mark them as leaving: whoever runs the
    class, and the school's administrator. A maths lead sees, and only sees."""
    return manages_classroom(teacher, classroom) or runs_classroom(teacher, classroom)
