"""Parallel picture-password guesses on the real database: the row lock only
means something on PostgreSQL (CI runs this; SQLite skips)."""

import threading

import pytest
from django.conf import settings
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from classroom.models import Pupil

pytestmark = pytest.mark.django_db(transaction=True)


def test_parallel_wrong_guesses_check_no_more_than_the_limit(pupils, monkeypatch):
    if not connection.features.has_select_for_update:
        pytest.skip("row locks need PostgreSQL (CI runs this)")
    lea = pupils[0]
    checked = []
    real = Pupil.password_pictures

    def counted(pupil):
        checked.append(pupil.pk)
        return real.fget(pupil)

    monkeypatch.setattr(Pupil, "password_pictures", property(counted))
    url = reverse("classroom:join_pupil", args=[lea.classroom.code, lea.pk])
    start = threading.Barrier(40)

    def guess(n: int):
        try:
            client = Client(REMOTE_ADDR=f"10.0.{n // 250}.{n % 250 + 1}")  # a fresh session each
            start.wait(10)
            client.post(url, {"so_far": "tree,fish", "tap": "car"})
        finally:
            connections.close_all()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    lea.refresh_from_db()
    assert len(checked) <= settings.NUMBO["PICTURE_PASSWORD_MAX_TRIES"]
    assert lea.is_locked
