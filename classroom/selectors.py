"""Read-only queries of the classroom pages: what a view shows, never a write.

Views parse the request, call a selector (reads) or a service
(``classroom.services``, writes) and render; the queries live here so a page
and a test read the same thing.
"""

from __future__ import annotations

from django.db.models import QuerySet

from . import roles
from .codes import normalise_class_code
from .models import Classroom, Pupil, ReportJob, Teacher

RECENT_SESSIONS = 8


def classes_of(teacher: Teacher, *, archived: bool = False) -> QuerySet[Classroom]:
    """The classes a teacher runs, their own and those they co-teach (classroom.roles);
    the archived ones too when asked."""
    classrooms = roles.classrooms_run_by(teacher).select_related("teacher")
    return classrooms if archived else classrooms.active()


def recent_sessions(classroom: Classroom) -> QuerySet:
    """The class's last game sessions, newest first (its page lists them)."""
    return classroom.sessions.order_by("-created_at")[:RECENT_SESSIONS]


def active_class_by_code(code: str) -> Classroom | None:
    """The class a code opens, as typed or carried by the QR code; None when none."""
    return Classroom.objects.active().filter(code=normalise_class_code(code)).first()


def pupil_in_class(classroom: Classroom | None, pk: int) -> Pupil | None:
    """A pupil of this class, or None (also for a pupil of another class)."""
    if classroom is None:
        return None
    return classroom.pupils.filter(pk=pk).first()


def names_in_class(classroom: Classroom) -> list[tuple[str, str]]:
    """(first name, initial) of every pupil: a pasted list is checked against them."""
    return list(classroom.pupils.values_list("first_name", "initial"))


def avatars_taken(classroom: Classroom) -> set[str]:
    return set(classroom.pupils.values_list("avatar", flat=True))


def report_jobs_shown(
    teacher: Teacher, classroom: Classroom, asked: int | None = None
) -> QuerySet[ReportJob]:
    """The report jobs the class report shows: those under way, and the one the
    page was opened for (a finished export waiting to be downloaded)."""
    shown = set(
        ReportJob.objects.filter(
            teacher=teacher, classroom=classroom, status__in=ReportJob.ACTIVE
        ).values_list("pk", flat=True)
    )
    if asked is not None:
        shown |= set(
            ReportJob.objects.filter(pk=asked, teacher=teacher, classroom=classroom).values_list(
                "pk", flat=True
            )
        )
    return ReportJob.objects.filter(pk__in=shown).order_by("created_at")
