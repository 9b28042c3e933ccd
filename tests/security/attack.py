"""Sending hostile requests: each rolled back after it, the attacker's cookies
kept, and every failure kept to be reported at once."""

from __future__ import annotations

import copy
from contextlib import contextmanager

from django.core.cache import cache
from django.db import transaction
from django.test import Client

from . import snapshots
from .forged import Forged, as_query


@contextmanager
def undone():
    """Whatever the request writes is rolled back after it."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


class Attack:
    """Sends forged requests and keeps what went wrong, to report it all at once."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self.sent = 0

    def send(self, client: Client, method: str, path: str, forged: Forged, headers=None):
        cache.clear()  # throttles and cached sessions: each request from a clean slate
        cookies = copy.deepcopy(client.cookies)
        try:
            if method == "get":
                if forged.content_type:
                    return client.get(path, **(headers or {}))
                return client.get(path, as_query(forged.data), **(headers or {}))
            if forged.content_type:
                return client.post(
                    path, forged.data, content_type=forged.content_type, **(headers or {})
                )
            return client.post(path, forged.data, **(headers or {}))
        finally:
            client.cookies = cookies  # a forged sign-out must not sign the attacker out
            self.sent += 1

    def effect(self, client, method, path, forged, headers=None):
        """(status, changes, unclean cells) of one request, rolled back after."""
        with undone():
            response, before, after = snapshots.around(
                self.send, client, method, path, forged, headers
            )
            if response.status_code >= 500:
                return response.status_code, [], []
            return (
                response.status_code,
                snapshots.changes(before, after),
                snapshots.unclean_cells(before, after),
            )

    def check(self, where: str, status: int, changed, unclean: list[str], allowed) -> None:
        if status >= 500:
            self.failures.append(f"{where}: {status}")
        elif unclean:
            self.failures.append(f"{where}: wrote {unclean}")
        else:
            extra = [str(c) for c in changed if not allowed(c)]
            if extra:
                self.failures.append(f"{where}: changed {extra}")

    def report(self) -> None:
        assert not self.failures, f"{len(self.failures)} of {self.sent} forged requests:\n" + (
            "\n".join(self.failures[:60])
        )
