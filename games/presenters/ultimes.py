"""Placeholder until the ultimes pages land (work in progress this session)."""

from __future__ import annotations

from .base import Presenter


class _Pending(Presenter):
    slug = "ultimes"


PRESENTER = _Pending()
