"""Sentences in English, translated where they are shown.

Every template is a module constant wrapped in ``N_`` (a no-op marker) so the
Django side can extract them (``classroom``'s ``makemessages`` command adds
``--keyword=N_`` to ``xgettext_options``; Django's own has no such flag) and
translate them by passing ``gettext`` to an ``explain`` or to ``summarise``.
"""

from __future__ import annotations

from collections.abc import Callable

Gettext = Callable[[str], str]


def N_(message: str) -> str:
    """Marks a message for extraction; translation happens where it is shown."""
    return message


def untranslated(message: str) -> str:
    """The ``gettext`` of callers that want the English sentence (the snapshot)."""
    return message
