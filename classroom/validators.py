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


# The largest id a database column holds: a forged "99999999999999999999" would
# reach SQLite as an integer it cannot bind (OverflowError, a 500), and Django
# checks only single-value lookups against it, not ``pk__in``.
LARGEST_ID = 2**63 - 1


def plain_ids(values, message: str) -> None:
    """Refuse, with ``message``, any value that is not an id a row can have."""
    for value in values:
        text = str(value)
        # The length first: int() refuses more than 4,300 digits (ValueError).
        if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) > LARGEST_ID:
            raise ValidationError(message, code="invalid_pk_value")
