"""Whom the school lets in by single sign-on.

The provider proves an address (``school.sso_claims``); the school decides
whether that address may come in (``may_sign_in``) and which account it signs
in to (``teacher_for``). Open sign-up through single sign-on never happens:
the school invites first.
"""

from __future__ import annotations

from collections.abc import Callable

from classroom.models import Teacher

from . import invitations
from .services import normalise_email


def _teachers():
    """The accounts single sign-on may open: active, and not the site's staff
    (the admin's accounts sign in with their password only: a provider that
    vouches for an address must not open the whole site)."""
    return Teacher.objects.filter(is_active=True, is_staff=False, is_superuser=False)


def has_active_teacher(email: str) -> bool:
    return _teachers().filter(email__iexact=normalise_email(email)).exists()


def has_pending_invitation(email: str) -> bool:
    """The administrator invited this address by e-mail and the link is still
    good: signing in with the school's provider accepts it (``teacher_for``).
    A school code is not enough: anyone in the staff room may have heard it."""
    return (
        not Teacher.objects.filter(email__iexact=normalise_email(email)).exists()
        and invitations.pending_for(email) is not None
    )


# Each way the school lets an address in.
SIGN_IN_RULES: list[Callable[[str], bool]] = [has_active_teacher, has_pending_invitation]


def may_sign_in(email: str) -> bool:
    """Whether the school lets this (provider-verified) address in."""
    email = email.strip()
    return bool(email) and any(rule(email) for rule in SIGN_IN_RULES)


def teacher_for(email: str, name: str = "") -> Teacher | None:
    """The active account this address signs in to, None if it has none; an
    invited address's account is made now, in the invitation's school with
    its role (``name``, the provider's, is shown to pupils until changed)."""
    email = normalise_email(email)
    teacher = _teachers().filter(email__iexact=email).first()
    if teacher is not None or not has_pending_invitation(email):
        return teacher
    try:
        return invitations.accept_by_sign_on(invitations.pending_for(email), email, name)
    except invitations.Refused:
        return None


def take_back(teacher: Teacher) -> None:
    """The provider vouches for the owner of an address that a school code
    let someone type (``Teacher.address_confirmed``): the password chosen
    then is dropped, which ends every session it opened (Django checks a
    session against the password's hash), and the owner may choose one by
    the sign-in page's "forgot"."""
    teacher.set_unusable_password()
    teacher.address_confirmed = True
    teacher.save(update_fields=["password", "address_confirmed"])
