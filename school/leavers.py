"""Pupils who leave the school, and their erasure once the school's retention
days are over.

A pupil is marked as leaving from their class page, or when the administrator
archives the year (school.year_archive). ``erase_due`` erases every pupil whose
days are over, with the same erasure a teacher's "Erase" button uses
(classroom.privacy.erase_pupil); Celery beat runs it each night
(school.tasks.erase_leavers) and ``manage.py erase_leavers`` runs it for a
school that runs cron instead.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from classroom import privacy
from classroom.models import Classroom, Pupil, Teacher

from . import record
from .models import AuditEntry, School

# A teacher without a school has no retention setting: the school's default holds.
DEFAULT_KEPT_DAYS: int = School._meta.get_field("leavers_kept_days").default


def kept_days(school: School | None) -> int:
    return school.leavers_kept_days if school is not None else DEFAULT_KEPT_DAYS


def erased_on(pupil: Pupil) -> datetime | None:
    """When a leaver is erased (None for a pupil who is not leaving)."""
    if pupil.left_at is None:
        return None
    return pupil.left_at + timedelta(days=kept_days(pupil.classroom.teacher.school))


def mark_leaving(pupil: Pupil, *, leaving: bool, by: Teacher) -> None:
    """Mark the pupil as leaving now, or as staying after all."""
    if leaving == (pupil.left_at is not None):
        return  # asked twice (a double tap): nothing changes, nothing recorded
    with transaction.atomic():
        pupil.left_at = timezone.now() if leaving else None
        pupil.save(update_fields=["left_at"])
        record.write(
            AuditEntry.Kind.PUPIL_LEAVES if leaving else AuditEntry.Kind.PUPIL_STAYS,
            teacher=by,
            classroom=pupil.classroom,
            pupil=pupil,
            count=1,
        )


@dataclass(frozen=True)
class Erased:
    classroom: Classroom
    count: int
    days: int


def due(now: datetime) -> list[Pupil]:
    """The leavers whose retention days are over at ``now``, each school by its
    own setting (one query a school)."""
    leavers = Pupil.objects.filter(left_at__isnull=False).select_related(
        "classroom__teacher__school"
    )
    found = list(
        leavers.filter(
            classroom__teacher__school__isnull=True,
            left_at__lte=now - timedelta(days=DEFAULT_KEPT_DAYS),
        )
    )
    schools = School.objects.filter(teachers__classrooms__pupils__left_at__isnull=False)
    for school in schools.distinct():
        found += leavers.filter(
            classroom__teacher__school=school,
            left_at__lte=now - timedelta(days=school.leavers_kept_days),
        )
    return sorted(found, key=lambda pupil: pupil.pk)


def moment(text: str) -> datetime:
    """An ISO 8601 moment typed by hand or passed to the task; a moment without
    a zone is the school's (TIME_ZONE). Raises ValueError."""
    found = parse_datetime(text)
    if found is None:
        raise ValueError(f"not a date and time: {text!r}")
    return timezone.make_aware(found) if timezone.is_naive(found) else found


def erase_due(now: datetime | None = None) -> list[Erased]:
    """Erase the leavers whose days are over; one record entry per class, with
    a count and no names. ``now`` is for the tests (and a catch-up by hand)."""
    now = now or timezone.now()
    by_class: dict[int, list[Pupil]] = defaultdict(list)
    for pupil in due(now):
        by_class[pupil.classroom_id].append(pupil)
    erased = []
    for pupils in by_class.values():
        classroom = pupils[0].classroom
        school = classroom.teacher.school
        with transaction.atomic():
            # Read again under a lock: a pupil marked as staying since due()
            # read them (or moved to another class) is not erased.
            still = list(
                Pupil.objects.select_for_update()
                .filter(
                    pk__in=[pupil.pk for pupil in pupils],
                    classroom=classroom,
                    left_at__lte=now - timedelta(days=kept_days(school)),
                )
                .order_by("pk")
            )
            if not still:
                continue
            for pupil in still:
                privacy.erase_pupil(pupil)
            record.write(
                AuditEntry.Kind.LEAVERS_ERASED,
                teacher=None,
                classroom=classroom,
                count=len(still),
                detail={"days": kept_days(school)},
            )
        erased.append(Erased(classroom, len(still), kept_days(school)))
    return erased
