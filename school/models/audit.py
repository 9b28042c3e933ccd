"""The record of who did what with pupils' data: exports, erasures,
hand-overs, moves, a year's archive.

An entry names the teacher twice, as a link and as text, so that it still
says who once the teacher's account is gone; it names the class the same way.
It never keeps a pupil's name: it links the pupil while they exist (the page
names them from the link), and an erased pupil leaves "a pupil of CE2 B" and a
count. Nothing here is a pupil's own data, so erasing a pupil keeps the entry
and only loses the link (SET_NULL: classroom.privacy's deletion graph does
not take it with the pupil).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AuditEntry(models.Model):
    class Kind(models.TextChoices):
        CLASS_EXPORT = "class_export", _("class report exported")
        PUPIL_EXPORT = "pupil_export", _("pupil's data exported")
        PUPIL_ERASED = "pupil_erased", _("pupil erased")
        LEAVERS_ERASED = "leavers_erased", _("leavers erased automatically")
        PUPIL_LEAVES = "pupil_leaves", _("pupil marked as leaving")
        PUPIL_STAYS = "pupil_stays", _("pupil no longer leaving")
        HANDOVER = "handover", _("class handed over")
        PUPILS_MOVED = "pupils_moved", _("pupils moved")
        YEAR_ARCHIVED = "year_archived", _("school year archived")
        RETENTION_CHANGED = "retention_changed", _("leavers' retention changed")

    at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)
    # Null for a teacher without a school: their entries are theirs to read.
    school = models.ForeignKey(
        "school.School",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="audit_entries",
    )
    # Null for what Numbo did itself (the leavers' erasure), or once the
    # teacher's account is deleted: teacher_name still says who.
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    teacher_name = models.CharField(_("who"), max_length=200, blank=True)
    kind = models.CharField(_("what"), max_length=30, choices=Kind.choices, db_index=True)
    classroom = models.ForeignKey(
        "classroom.Classroom",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    classroom_name = models.CharField(_("class"), max_length=100, blank=True)
    pupil = models.ForeignKey(
        "classroom.Pupil",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    pupil_count = models.PositiveIntegerField(default=0)
    # What the sentence needs beyond the above: a format, the class moved to,
    # the new teacher's name, a number of days. Never a pupil's name.
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("record entry")
        verbose_name_plural = _("record entries")
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["school", "-at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.teacher_name or '-'} {self.kind}"
