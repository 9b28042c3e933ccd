"""Checks on what teachers type, shared by the models and the forms."""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# The zero-width (non-)joiner is how some scripts (Persian, Indic) are written.
_WRITTEN = {"\u200c", "\u200d"}


def no_hidden_characters(value: str) -> None:
    """Refuse control and format characters: they print nothing, yet a
    right-to-left override turns a class name around on every page (and a
    pupil's screen) that shows it, and PostgreSQL refuses a NUL."""
    if any(unicodedata.category(c)[0] == "C" and c not in _WRITTEN for c in value):
        raise ValidationError(
            _("Only letters, digits, spaces and punctuation, please."), code="hidden"
        )
