"""Who the pupil on this tablet is.

Pupils have no account: a signed-in pupil is a pupil id and their class's
sign-in epoch in the session. Bumping the epoch (the teacher's "sign out every
pupil") or archiving the class ends every such session at once.

A sign-out also moves the pupil's sign-in generation on (PupilQuerySet.sign_out):
the table tokens handed out under the old one, which need no session, end with it.

Every tap asks who the pupil is, and the query joining the pupil to their class
was a fifth of a move. So the rows ``get_pupil`` reads are kept in Redis (in the
cache without it) per pupil, with a counter that anything changing them moves on
(``sign_in_keys.forget``: a pupil saved, erased or signed out; their class
saved, archived or all signed out). A record is used only while it carries the counter's current
value, so a record written from rows read before a change, after the change
forgot the old one, is never used.
"""

from __future__ import annotations

import json

from django.core.cache import cache
from django.db import router
from django.http import HttpRequest
from django.utils import timezone

from . import redis_store, sign_in_keys
from .models import Classroom, Pupil

SESSION_PUPIL = "numbo_pupil"
SESSION_EPOCH = "numbo_pupil_epoch"

# What the pages read of request.pupil and its class. The pupil's other fields
# (the picture password, the lock counters, when they signed in) are left
# deferred: read only when asked for, from the database, never stale.
KEPT_PUPIL = ("id", "classroom_id", "first_name", "initial", "avatar", "sign_in_generation")
KEPT_CLASS = (
    "id", "teacher_id", "name", "school_year", "code", "uses_picture_passwords", "sign_in_epoch",
    "archived_at",
)
RECORD_TTL = 60 * 60  # s


def sign_in(request: HttpRequest, pupil: Pupil) -> None:
    # A tablet moves from adult to pupil: never keep an adult's session around.
    request.session.flush()
    Pupil.objects.filter(pk=pupil.pk).update(signed_in_at=timezone.now())
    request.session[SESSION_PUPIL] = pupil.pk
    request.session[SESSION_EPOCH] = pupil.classroom.sign_in_epoch
    request.pupil = pupil


def sign_out(request: HttpRequest) -> None:
    # Only a sign-in still valid: a stale one's pupil may since have signed in
    # on another tablet, whose tokens must live on.
    pupil = request.pupil if hasattr(request, "pupil") else get_pupil(request)
    if pupil:
        Pupil.objects.filter(pk=pupil.pk).sign_out()
    request.session.pop(SESSION_PUPIL, None)
    request.session.pop(SESSION_EPOCH, None)
    request.session.cycle_key()
    request.pupil = None


def get_pupil(request: HttpRequest) -> Pupil | None:
    pupil_id = request.session.get(SESSION_PUPIL)
    if pupil_id is None:
        return None
    try:
        pupil_id = int(pupil_id)
    except (TypeError, ValueError):
        return None
    pupil, counter = _kept(pupil_id)
    if pupil is None:
        pupil = (
            Pupil.objects.select_related("classroom")
            .filter(pk=pupil_id, classroom__archived_at__isnull=True)
            .first()
        )
        if pupil is not None:
            _keep(pupil, counter)
    if pupil is None or pupil.classroom.sign_in_epoch != request.session.get(SESSION_EPOCH):
        return None
    return pupil


# --------------------------------------------------------------------------- the kept rows


def _order(model, kept: tuple[str, ...]) -> list[str]:
    # Model.from_db takes the values in the order of the model's fields.
    return [f.attname for f in model._meta.concrete_fields if f.attname in kept]


PUPIL_ORDER = _order(Pupil, KEPT_PUPIL)
CLASS_ORDER = _order(Classroom, KEPT_CLASS)
# _kept and _keep read archived_at as the record's last value.
assert CLASS_ORDER[-1] == "archived_at"


def _kept(pupil_id: int) -> tuple[Pupil | None, int]:
    """The pupil with their class from the kept record (None when there is none
    of the counter's current value), and that counter: one Redis round trip."""
    record_key, counter_key = sign_in_keys.keys(pupil_id)
    client = redis_store.redis_client()
    if client is not None:
        raw, counter = client.mget(record_key, counter_key)
    else:
        found = cache.get_many([record_key, counter_key])
        raw, counter = found.get(record_key), found.get(counter_key)
    counter = int(counter) if counter is not None else 0
    if raw is None:
        return None, counter
    try:
        kept_counter, pupil_row, class_row = json.loads(raw)
    except (TypeError, ValueError):
        return None, counter
    if kept_counter != counter or pupil_row[0] != pupil_id or class_row[-1] is not None:
        return None, counter
    db = router.db_for_read(Pupil)
    pupil = Pupil.from_db(db, PUPIL_ORDER, pupil_row)
    pupil.classroom = Classroom.from_db(db, CLASS_ORDER, class_row)
    return pupil, counter


def _keep(pupil: Pupil, counter: int) -> None:
    classroom = pupil.classroom
    if classroom.archived_at is not None:
        return
    record = json.dumps(
        [
            counter,
            [getattr(pupil, name) for name in PUPIL_ORDER],
            # archived_at last, and always None here: a record is only of a class in use.
            [getattr(classroom, name) for name in CLASS_ORDER if name != "archived_at"] + [None],
        ],
        separators=(",", ":"),
    )
    record_key, _counter_key = sign_in_keys.keys(pupil.pk)
    client = redis_store.redis_client()
    if client is not None:
        client.set(record_key, record, ex=RECORD_TTL)
    else:
        cache.set(record_key, record, RECORD_TTL)
