"""Whom the school lets in by single sign-on.

The provider proves an address (``school.sso_claims``); the school decides
whether that address may come in (``may_sign_in``) and which account it signs
in to (``teacher_for``). Open sign-up through single sign-on never happens:
the school invites first.
"""

from __future__ import annotations

from collections.abc import Callable

from classroom.models import Teacher


def has_active_teacher(email: str) -> bool:
    return Teacher.objects.filter(email__iexact=email.strip(), is_active=True).exists()


# Each way the school lets an address in. The school's invitations add theirs
# (a pending invitation for the address), and say in ``teacher_for`` how that
# address's account is made.
SIGN_IN_RULES: list[Callable[[str], bool]] = [has_active_teacher]


def may_sign_in(email: str) -> bool:
    """Whether the school lets this (provider-verified) address in."""
    email = email.strip()
    return bool(email) and any(rule(email) for rule in SIGN_IN_RULES)


def teacher_for(email: str) -> Teacher | None:
    """The active account this address signs in to, None if it has none."""
    return Teacher.objects.filter(email__iexact=email.strip(), is_active=True).first()
