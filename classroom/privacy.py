"""A pupil's data: everything recorded about them, to export or to erase.

Whatever refers to a pupil with a cascading foreign key belongs to the pupil, so
the export and the erasure both walk Django's own deletion graph: a model added
later (attempts, seats, ...) is covered without touching this module.
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.utils import NestedObjects
from django.core import serializers
from django.db import router, transaction

from .models import Pupil


def _collect(pupil: Pupil) -> NestedObjects:
    collector = NestedObjects(using=router.db_for_write(Pupil))
    collector.collect([pupil])
    return collector


def pupil_summary(pupil: Pupil) -> dict[str, int]:
    """Model name -> how many rows go with the pupil."""
    return {
        str(model._meta.verbose_name_plural): len(objects)
        for model, objects in _collect(pupil).data.items()
    }


def pupil_data(pupil: Pupil) -> dict[str, Any]:
    records: dict[str, list[dict[str, Any]]] = {}
    for model, objects in _collect(pupil).data.items():
        rows = serializers.serialize("python", sorted(objects, key=lambda o: o.pk))
        records[model._meta.label] = [{"id": row["pk"], **row["fields"]} for row in rows]
    return {
        "pupil": {
            "first_name": pupil.first_name,
            "initial": pupil.initial,
            "class": pupil.classroom.name,
            "school_year": pupil.classroom.school_year,
        },
        "records": records,
    }


@transaction.atomic
def erase_pupil(pupil: Pupil) -> None:
    pupil.delete()
