"""Who the pupil on this tablet is.

Pupils have no account: a signed-in pupil is a pupil id and their class's
sign-in epoch in the session. Bumping the epoch (the teacher's "sign out every
pupil") or archiving the class ends every such session at once.

A sign-out also moves the pupil's sign-in generation on (PupilQuerySet.sign_out):
the table tokens handed out under the old one, which need no session, end with it.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import timezone

from .models import Pupil

SESSION_PUPIL = "numbo_pupil"
SESSION_EPOCH = "numbo_pupil_epoch"


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
    pupil = (
        Pupil.objects.select_related("classroom")
        .filter(pk=pupil_id, classroom__archived_at__isnull=True)
        .first()
    )
    if pupil is None or pupil.classroom.sign_in_epoch != request.session.get(SESSION_EPOCH):
        return None
    return pupil
