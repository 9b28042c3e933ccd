"""Signed tokens checked once per process: a tablet or a teacher's screen
sends the same token every 2 s, and checking its signature each time was a
good part of an unchanged poll's cost."""

from __future__ import annotations

import time
from typing import Any

from django.core import signing


class SignedTokens:
    """Tokens of one kind (its salt): ``load`` gives what a token signed,
    or None when it is forged or older than ``max_age``. A verified token is
    trusted for ``verified_for`` seconds without checking it again."""

    def __init__(self, salt: str, max_age: int, verified_for: float, kept: int) -> None:
        self.salt = salt
        self.max_age = max_age
        self.verified_for = verified_for
        self.kept = kept
        self._verified: dict[str, tuple[dict[str, Any], float]] = {}

    def dumps(self, data: dict[str, Any], compress: bool = False) -> str:
        return signing.dumps(data, salt=self.salt, compress=compress)

    def load(self, token: str) -> dict[str, Any] | None:
        seen = self._verified.get(token)
        if seen is not None and time.monotonic() - seen[1] < self.verified_for:
            return seen[0]
        try:
            data = signing.loads(token, salt=self.salt, max_age=self.max_age)
        except signing.BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        if len(self._verified) >= self.kept:
            self._verified.clear()
        self._verified[token] = (data, time.monotonic())
        return data
