"""Writing and reading the school's record of who did what with pupils' data
(school.models.AuditEntry).

Classroom's own paths (an export, a teacher's erasure) cannot import the
school: they send ``classroom.signals.pupil_data_handled`` and ``heard``
writes the entry; the school's paths (hand-over, moves, the year's archive,
the leavers' erasure) call ``write`` themselves.

Who reads it: the school's administrator reads every entry of the school. A
teacher without a school has no administrator: they read the entries of their
own classes and their own actions, kept with no school. Everyone else (a
teacher or a maths lead of a school) is refused.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classroom import roster, signals
from classroom.models import Classroom, Pupil, Teacher
from classroom.roles import manages_school

from .models import AuditEntry

Kind = AuditEntry.Kind


def teacher_name(teacher: Teacher) -> str:
    """How the record names a teacher, once and for good: their name and address."""
    if teacher.display_name:
        return f"{teacher.display_name} <{teacher.email}>"[:200]
    return teacher.email[:200]


def class_name(classroom: Classroom) -> str:
    return f"{classroom.name} ({classroom.school_year})"[:100]


def school_id_of(classroom: Classroom | None, teacher: Teacher | None) -> int | None:
    """The school a class belongs to is its teacher's; without a class, the actor's."""
    if classroom is not None:
        return classroom.teacher.school_id
    return teacher.school_id if teacher is not None else None


def write(
    kind: str,
    *,
    teacher: Teacher | None,
    classroom: Classroom | None = None,
    pupil: Pupil | None = None,
    count: int = 0,
    detail: dict[str, Any] | None = None,
    school_id: int | None = None,
) -> AuditEntry:
    """One entry. ``school_id`` only where neither the class nor the teacher
    says it (the automatic erasure of a year's archive)."""
    return AuditEntry.objects.create(
        school_id=school_id if school_id is not None else school_id_of(classroom, teacher),
        teacher=teacher,
        teacher_name=teacher_name(teacher) if teacher is not None else "",
        kind=kind,
        classroom=classroom,
        classroom_name=class_name(classroom) if classroom is not None else "",
        pupil=pupil,
        pupil_count=count,
        detail=detail or {},
    )


def heard(sender, *, action: str, teacher, classroom, pupil=None, count=0, detail=None, **_kw):
    """classroom.signals.pupil_data_handled: an export or an erasure in classroom's pages."""
    write(Kind(action), teacher=teacher, classroom=classroom, pupil=pupil, count=count,
          detail=detail)


def connect() -> None:
    signals.pupil_data_handled.connect(heard, dispatch_uid="school-record-heard")


# ------------------------------------------------------------------ reading


def may_read(teacher: Teacher) -> bool:
    """The administrator of a school, or a teacher without one (their own entries)."""
    return manages_school(teacher) or teacher.school_id is None


def entries_seen_by(teacher: Teacher, kind: str = "") -> QuerySet[AuditEntry]:
    if manages_school(teacher):
        entries = AuditEntry.objects.filter(school_id=teacher.school_id)
    elif teacher.school_id is None:
        entries = AuditEntry.objects.filter(school__isnull=True).filter(
            Q(teacher=teacher) | Q(classroom__teacher=teacher)
        )
    else:
        entries = AuditEntry.objects.none()
    if kind:
        entries = entries.filter(kind=kind)
    return entries.select_related("pupil").order_by("-at", "-pk")


def pupil_words(entry: AuditEntry, names: dict[int, str]) -> str:
    """The pupils an entry is about: the pupil's name while they exist, else
    "a pupil of CE2 B (2026-2027)" or a count. Never a name kept in the entry."""
    if entry.pupil_id is not None and entry.pupil_id in names:
        return names[entry.pupil_id]
    place = entry.classroom_name or _("a class since deleted")
    if entry.pupil_count == 1:
        return _("a pupil of %(class)s") % {"class": place}
    return ngettext(
        "%(n)d pupil of %(class)s", "%(n)d pupils of %(class)s", entry.pupil_count
    ) % {"n": entry.pupil_count, "class": place}


def describe(entry: AuditEntry, names: dict[int, str]) -> str:
    """What was done, in the reader's language (the entry keeps facts, not words)."""
    detail = entry.detail or {}
    pupils = pupil_words(entry, names)
    place = entry.classroom_name or _("a class since deleted")
    if entry.kind == Kind.CLASS_EXPORT:
        fmt = str(detail.get("format", "")).upper()
        said = _("Exported the report of %(class)s (%(format)s, %(pupils)s)") % {
            "class": place,
            "format": fmt,
            "pupils": ngettext("%(n)d pupil", "%(n)d pupils", entry.pupil_count)
            % {"n": entry.pupil_count},
        }
        if detail.get("from") or detail.get("to") or detail.get("game"):
            said += " · " + _("filtered")
        return said
    if entry.kind == Kind.PUPIL_EXPORT:
        return _("Exported the data of %(pupils)s") % {"pupils": pupils}
    if entry.kind == Kind.PUPIL_ERASED:
        return _("Erased %(pupils)s and everything recorded about them") % {"pupils": pupils}
    if entry.kind == Kind.LEAVERS_ERASED:
        days = int(detail.get("days", 0))
        return ngettext(
            "Erased %(pupils)s automatically, %(days)d day after they left",
            "Erased %(pupils)s automatically, %(days)d days after they left",
            days,
        ) % {"pupils": pupils, "days": days}
    if entry.kind == Kind.PUPIL_LEAVES:
        return _("Marked %(pupils)s as leaving the school") % {"pupils": pupils}
    if entry.kind == Kind.PUPIL_STAYS:
        return _("Marked %(pupils)s as staying after all") % {"pupils": pupils}
    if entry.kind == Kind.HANDOVER:
        said = _("Handed %(class)s over from %(from)s to %(to)s") % {
            "class": place,
            "from": detail.get("from", "?"),
            "to": detail.get("to", "?"),
        }
        if detail.get("kept_as_co_teacher"):
            said += " · " + _("the former teacher stays as a co-teacher")
        return said
    if entry.kind == Kind.PUPILS_MOVED:
        return _("Moved %(pupils)s to %(to)s") % {"pupils": pupils, "to": detail.get("to", "?")}
    if entry.kind == Kind.YEAR_ARCHIVED:
        classes = int(detail.get("classes", 0))
        return _("Archived the school year %(year)s (%(classes)s, %(leavers)s)") % {
            "year": detail.get("school_year", "?"),
            "classes": ngettext("%(n)d class", "%(n)d classes", classes) % {"n": classes},
            "leavers": ngettext("%(n)d pupil leaving", "%(n)d pupils leaving", entry.pupil_count)
            % {"n": entry.pupil_count},
        }
    if entry.kind == Kind.RETENTION_CHANGED:
        return ngettext(
            "Set the days a leaver's record is kept to %(days)d day (it was %(before)s)",
            "Set the days a leaver's record is kept to %(days)d days (it was %(before)s)",
            int(detail.get("days", 0)),
        ) % {"days": int(detail.get("days", 0)), "before": detail.get("before", "?")}
    return entry.get_kind_display()


def lines(entries) -> list[dict[str, Any]]:
    """The page's rows: when, who, what, which class. One query for the names."""
    entries = list(entries)
    names = roster.labels([e.pupil for e in entries if e.pupil_id is not None])
    return [
        {
            "entry": entry,
            "who": entry.teacher_name or _("Numbo, automatically"),
            "what": describe(entry, names),
            "kind": entry.get_kind_display(),
            "class": entry.classroom_name,
        }
        for entry in entries
    ]
