"""Fixtures of the classroom tests."""

from __future__ import annotations

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english_after():
    """A page asked in French leaves French active in the test's thread
    (LocaleMiddleware activates it and nothing deactivates it): the tests that
    come after read English, whatever order they run in."""
    yield
    translation.activate("en")
