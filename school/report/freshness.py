"""Which pupils' skills snapshot is older than their evidence.

The snapshot (classroom's ``PupilSkill``) is rewritten after every game and
every night. A school report built at any other moment brings up to date only
the pupils with a calculation or a turn newer than their snapshot, or none
yet: it costs what changed since, not the school's whole year of calculations
again, and reads the same figures a full recompute would.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Exists, Min, OuterRef, Q, Subquery

from classroom.models import Attempt, Opportunity, Pupil, PupilSkill


def stale_pupils(pupil_ids: Iterable[int]) -> list[int]:
    """The ids among these whose snapshot misses evidence, in id order."""
    snapshot_at = (
        PupilSkill.objects.filter(pupil_id=OuterRef("pk"))
        .values("pupil_id")
        .annotate(at=Min("updated_at"))
        .values("at")
    )
    pupils = Pupil.objects.filter(pk__in=list(pupil_ids)).annotate(
        snapshot_at=Subquery(snapshot_at)
    )
    attempts = Attempt.objects.filter(pupil_id=OuterRef("pk"))
    turns = Opportunity.objects.filter(pupil_id=OuterRef("pk"))
    never = Q(snapshot_at__isnull=True) & (Exists(attempts) | Exists(turns))
    newer = Exists(attempts.filter(created_at__gt=OuterRef("snapshot_at"))) | Exists(
        turns.filter(created_at__gt=OuterRef("snapshot_at"))
    )
    # A snapshot left over from erased calculations goes too.
    orphaned = Q(snapshot_at__isnull=False) & ~Exists(attempts)
    return list(pupils.filter(never | newer | orphaned).order_by("pk").values_list("pk", flat=True))
