"""The school and the rules it sets for all its classes."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from classroom.validators import no_hidden_characters


class School(models.Model):
    name = models.CharField(_("name"), max_length=100, validators=[no_hidden_characters])
    # Pupils who left are erased this many days after they left (the privacy
    # page says it): a school keeps a leaver's record through the summer for
    # the next school's questions, then lets it go.
    leavers_kept_days = models.PositiveSmallIntegerField(
        _("days a leaver's record is kept"),
        default=30,
        help_text=_("Pupils who left the school are erased this many days after they left."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("school")
        verbose_name_plural = _("schools")

    def __str__(self) -> str:
        return self.name
