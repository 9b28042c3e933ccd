"""An invitation to join a school: one teacher's e-mail link, or a school code
the administrator reads out at a staff meeting."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from classroom.codes import CODE_ALPHABET
from classroom.models import Teacher

from .school import School

SCHOOL_CODE_LENGTH = 8  # 25^8: guessed one in 150 billion, and tries are counted


def new_school_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(SCHOOL_CODE_LENGTH))


class InvitationQuerySet(models.QuerySet):
    def pending(self) -> InvitationQuerySet:
        """Still good: not revoked, not expired, not used up."""
        return self.filter(
            revoked_at__isnull=True, expires_at__gt=timezone.now(), uses__lt=F("max_uses")
        )


class Invitation(models.Model):
    class Kind(models.TextChoices):
        EMAIL = "email", _("e-mail link")
        CODE = "code", _("school code")

    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="invitations")
    kind = models.CharField(max_length=5, choices=Kind.choices)
    # An e-mail link names its teacher; a code names nobody.
    email = models.EmailField(_("email address"), blank=True)
    code = models.CharField(max_length=SCHOOL_CODE_LENGTH, unique=True, null=True, blank=True)
    role = models.CharField(_("role"), max_length=20, choices=Teacher.Role.choices)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    max_uses = models.PositiveSmallIntegerField(_("teachers who may use it"), default=1)
    uses = models.PositiveSmallIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="email", code__isnull=True) | Q(kind="code", code__isnull=False),
                name="invitation_code_only_for_codes",
            ),
            models.CheckConstraint(
                condition=Q(uses__lte=F("max_uses")), name="invitation_used_at_most_max"
            ),
        ]
        indexes = [models.Index(fields=["email"])]

    def __str__(self) -> str:
        return self.email or self.code or str(self.pk)

    @property
    def is_pending(self) -> bool:
        return (
            self.revoked_at is None
            and self.expires_at > timezone.now()
            and self.uses < self.max_uses
        )

    @property
    def uses_left(self) -> int:
        return max(0, self.max_uses - self.uses)
