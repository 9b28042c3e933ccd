"""Parallel picture-password guesses on the real database: PostgreSQL's row
lock, or SQLite's write lock taken at BEGIN on the embedded default."""

import threading

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from django.urls import reverse

from classroom import devices
from classroom.models import Pupil

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def checked(monkeypatch):
    """The pupils whose pictures were compared with a guess, once per guess."""
    compared = []
    real = Pupil.password_pictures

    def counted(pupil):
        compared.append(pupil.pk)
        return real.fget(pupil)

    monkeypatch.setattr(Pupil, "password_pictures", property(counted))
    return compared


def guess_at_once(pupil, clients: list[Client]) -> None:
    url = reverse("classroom:join_pupil", args=[pupil.classroom.code, pupil.pk])
    start = threading.Barrier(len(clients))

    def guess(client: Client):
        try:
            start.wait(10)
            client.post(url, {"so_far": "tree,fish", "tap": "car"})
        finally:
            connections.close_all()

    threads = [threading.Thread(target=guess, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)


def test_parallel_wrong_guesses_from_many_devices_check_no_more_than_the_pupils_limit(
    pupils, checked
):
    lea = pupils[0]
    # A fresh session and address each: 40 devices.
    guess_at_once(lea, [Client(REMOTE_ADDR=f"10.0.0.{n + 1}") for n in range(40)])
    lea.refresh_from_db()
    assert len(checked) <= settings.NUMBO["PICTURE_PASSWORD_TRIES_PER_PUPIL"]
    assert lea.is_locked


def test_parallel_wrong_guesses_from_one_device_check_no_more_than_its_limit(pupils, checked):
    lea = pupils[0]
    tablet = Client()
    tablet.get(reverse("classroom:join"))  # its device cookie
    clients = []
    for _ in range(40):
        client = Client()  # a fresh session, the tablet's device cookie
        client.cookies[devices.COOKIE] = tablet.cookies[devices.COOKIE].value
        clients.append(client)
    guess_at_once(lea, clients)
    assert len(checked) <= settings.NUMBO["PICTURE_PASSWORD_TRIES_PER_DEVICE"]
    lea.refresh_from_db()
    assert not lea.is_locked  # only that tablet is locked out
