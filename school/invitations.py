"""Invitations to a school: made by its administrator, accepted once (a link)
or a few times (a code), before they expire or are revoked.

The e-mail link carries the invitation's id signed with the project's secret
(``django.core.signing``): nobody can make one up, and the invitation's row
says whether it is still good (used, revoked, expired), so a link dies the
moment it is used.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import password_validation
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.codes import normalise_class_code
from classroom.models import Teacher

from .models import Invitation, School
from .models.invitation import new_school_code
from .services import normalise_email

LINK_SALT = "numbo.school.invitation"
LINK_DAYS = 7
CODE_DAYS_MAX = 30
CODE_USES_MAX = 200


class Refused(Exception):
    """Why an invitation cannot be used, in words for the person holding it."""


def pending_for(email: str) -> Invitation | None:
    """The newest pending e-mail invitation for this address, or None (the
    single sign-on lets a teacher in who has one)."""
    return (
        Invitation.objects.pending()
        .filter(kind=Invitation.Kind.EMAIL, email__iexact=normalise_email(email))
        .select_related("school")
        .first()
    )


def link_token(invitation: Invitation) -> str:
    return signing.dumps({"i": invitation.pk, "e": invitation.email}, salt=LINK_SALT)


def by_token(token: str) -> Invitation:
    """The invitation a link names, if it is still good; else Refused."""
    try:
        data = signing.loads(token, salt=LINK_SALT, max_age=timedelta(days=LINK_DAYS))
        pk, email = int(data["i"]), str(data["e"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise Refused(_("This invitation link is not valid. Ask your school's administrator "
                        "for a new one.")) from None
    invitation = Invitation.objects.select_related("school").filter(
        pk=pk, kind=Invitation.Kind.EMAIL, email=email
    ).first()
    if invitation is None:
        raise Refused(_("This invitation was withdrawn. Ask your school's administrator "
                        "for a new one."))
    _check_pending(invitation)
    return invitation


def by_code(typed: str) -> Invitation:
    code = normalise_class_code(typed)
    invitation = Invitation.objects.select_related("school").filter(
        kind=Invitation.Kind.CODE, code=code
    ).first() if code else None
    if invitation is None:
        raise Refused(_("No school has this code. Check it with your school's administrator."))
    _check_pending(invitation)
    return invitation


def _check_pending(invitation: Invitation) -> None:
    if invitation.revoked_at is not None:
        raise Refused(_("This invitation was withdrawn. Ask your school's administrator "
                        "for a new one."))
    if invitation.uses >= invitation.max_uses:
        if invitation.kind == Invitation.Kind.EMAIL:
            raise Refused(_("This invitation was already used. Sign in with the account "
                            "it made."))
        raise Refused(_("This school code has been used as many times as it allows. Ask "
                        "your school's administrator for a new one."))
    if invitation.expires_at <= timezone.now():
        raise Refused(_("This invitation has expired. Ask your school's administrator "
                        "for a new one."))


def invite_by_email(
    school: School, email: str, role: str, invited_by: Teacher, accept_url
) -> Invitation:
    """Make the invitation and send its link (``accept_url(token)`` makes the
    absolute address). Inviting an address again withdraws its older links."""
    email = normalise_email(email)
    now = timezone.now()
    with transaction.atomic():
        Invitation.objects.pending().filter(
            school=school, kind=Invitation.Kind.EMAIL, email__iexact=email
        ).update(revoked_at=now)
        invitation = Invitation.objects.create(
            school=school,
            kind=Invitation.Kind.EMAIL,
            email=email,
            role=role,
            invited_by=invited_by,
            expires_at=now + timedelta(days=LINK_DAYS),
        )
    context = {
        "school": school.name,
        "role": invitation.get_role_display(),
        "by": invited_by.display_name or invited_by.email,
        "url": accept_url(link_token(invitation)),
        "days": LINK_DAYS,
    }
    send_mail(
        _("Numbo: join %(school)s") % {"school": school.name},
        render_to_string("school/people/invitation_email.txt", context),
        None,
        [email],
    )
    return invitation


def make_code(school: School, role: str, max_uses: int, days: int, invited_by: Teacher
              ) -> Invitation:
    for _attempt in range(5):  # a code already taken: draw again
        try:
            with transaction.atomic():
                return Invitation.objects.create(
                    school=school,
                    kind=Invitation.Kind.CODE,
                    code=new_school_code(),
                    role=role,
                    max_uses=max_uses,
                    invited_by=invited_by,
                    expires_at=timezone.now() + timedelta(days=days),
                )
        except IntegrityError:
            continue
    raise RuntimeError("no free school code after 5 draws")


def revoke(invitation: Invitation) -> None:
    Invitation.objects.filter(pk=invitation.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


@transaction.atomic
def accept(invitation: Invitation, *, email: str, display_name: str, password: str) -> Teacher:
    """The new teacher's account, in the school with the invitation's role.
    One use is taken under the row's lock, so that two people typing a code
    with one use left at once do not both get in; Refused otherwise."""
    locked = Invitation.objects.select_for_update().select_related("school").get(
        pk=invitation.pk
    )
    _check_pending(locked)
    email = normalise_email(email)
    if Teacher.objects.filter(email__iexact=email).exists():
        raise Refused(_("An account already uses this address: sign in with it, or reset "
                        "its password from the sign-in page."))
    teacher = Teacher(email=email, display_name=display_name, school=locked.school,
                      role=locked.role)
    # An e-mailed link proves the address it was sent to; a code proves nothing.
    teacher.address_confirmed = (
        locked.kind == Invitation.Kind.EMAIL and normalise_email(locked.email) == email
    )
    password_validation.validate_password(password, teacher)
    teacher.set_password(password)
    teacher.save()
    Invitation.objects.filter(pk=locked.pk).update(uses=F("uses") + 1)
    return teacher


@transaction.atomic
def accept_by_sign_on(invitation: Invitation, email: str, display_name: str = "") -> Teacher:
    """The account of a teacher invited by e-mail who signs in for the first
    time through the school's single sign-on: no password (the provider vouches
    for them; a password reset can give one later). One use under the lock, as
    ``accept``; Refused otherwise."""
    locked = Invitation.objects.select_for_update().select_related("school").get(
        pk=invitation.pk
    )
    _check_pending(locked)
    email = normalise_email(email)
    if normalise_email(locked.email) != email or Teacher.objects.filter(
        email__iexact=email
    ).exists():
        raise Refused(_("This invitation is for another address."))
    teacher = Teacher(email=email, display_name=display_name[:60], school=locked.school,
                      role=locked.role)
    teacher.set_unusable_password()
    teacher.save()
    Invitation.objects.filter(pk=locked.pk).update(uses=F("uses") + 1)
    return teacher


@transaction.atomic
def accept_signed_in(invitation: Invitation, teacher: Teacher) -> None:
    """A teacher who already has an account (signed up alone before the school
    came) joins the school the link invites them to."""
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    _check_pending(locked)
    if normalise_email(teacher.email) != normalise_email(locked.email):
        raise Refused(_("This invitation is for another address. Sign out, then open "
                        "the link again."))
    if teacher.school_id == locked.school_id:
        # An old link must not change the role of one of the school's teachers
        # (the last administrator would demote themselves).
        raise Refused(_("You are already one of this school's teachers."))
    if teacher.school_id is not None and teacher.school_id != locked.school_id:
        raise Refused(_("Your account belongs to another school. Ask its administrator "
                        "to let you go first."))
    Teacher.objects.filter(pk=teacher.pk).update(school_id=locked.school_id, role=locked.role)
    Invitation.objects.filter(pk=locked.pk).update(uses=F("uses") + 1)
