"""Placeholder until the nmbr9 pages land (work in progress this session)."""

from __future__ import annotations

from .base import Presenter


class _Pending(Presenter):
    slug = "nmbr9"


PRESENTER = _Pending()
