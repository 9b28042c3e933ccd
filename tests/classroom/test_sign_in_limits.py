"""The teachers' sign-in limit (issue 31, section 6): the admin's sign-in shares
it, look-alike addresses count against the account they sign in to, and every
guess is counted before its password is checked, however many arrive at once."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from classroom.models import Teacher

PASSWORD = "correct-horse-42"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """A hash in microseconds: the slow check below stands for a real one."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _sign_in(client, url, username, password):
    return client.post(url, {"username": username, "password": password})


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_the_admin_sign_in_stops_after_as_many_wrong_passwords(client, settings, url):
    admin = Teacher.objects.create_superuser("head@school.test", PASSWORD)
    for _ in range(settings.NUMBO["TEACHER_SIGN_IN_TRIES_PER_ACCOUNT"]):
        _sign_in(client, "/admin/login/", admin.email, "wrong-guess")
    response = _sign_in(client, url, admin.email, PASSWORD)
    assert "_auth_user_id" not in client.session
    assert "Try again in 15 minutes" in response.content.decode()


@pytest.mark.django_db
def test_an_account_locked_on_the_teachers_page_is_locked_on_the_admins(client, settings):
    admin = Teacher.objects.create_superuser("head@school.test", PASSWORD)
    for _ in range(settings.NUMBO["TEACHER_SIGN_IN_TRIES_PER_ACCOUNT"]):
        _sign_in(client, reverse("login"), admin.email, "wrong-guess")
    _sign_in(client, "/admin/login/", admin.email, PASSWORD)
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_admin_signs_in_with_the_right_password(client):
    admin = Teacher.objects.create_superuser("head@school.test", PASSWORD)
    response = _sign_in(client, "/admin/login/?next=/admin/", admin.email, PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(admin.pk)


LOOK_ALIKES = [
    "\uff44emo@numbo.test",  # a full-width d
    "demo\uff20numbo.test",  # a full-width @
    "demo@numbo.tes\uff54",  # a full-width t
    " DEMO@Numbo.Test ",
]


@pytest.mark.django_db
@pytest.mark.parametrize("look_alike", LOOK_ALIKES)
def test_a_look_alike_address_counts_against_the_account_it_signs_in_to(
    client, settings, look_alike
):
    demo = Teacher.objects.create_user("demo@numbo.test", PASSWORD)
    # It is the same account: the sign-in finds it...
    assert _sign_in(Client(), reverse("login"), look_alike, PASSWORD).status_code == 302
    for _ in range(settings.NUMBO["TEACHER_SIGN_IN_TRIES_PER_ACCOUNT"]):
        _sign_in(client, reverse("login"), demo.email, "wrong-guess")
    # ...so it is locked with it,
    response = _sign_in(client, reverse("login"), look_alike, PASSWORD)
    assert "_auth_user_id" not in client.session
    assert "Try again in" in response.content.decode()


@pytest.mark.django_db
def test_look_alike_guesses_lock_the_real_address(client, settings):
    demo = Teacher.objects.create_user("demo@numbo.test", PASSWORD)
    tries = settings.NUMBO["TEACHER_SIGN_IN_TRIES_PER_ACCOUNT"]
    for n in range(tries):
        _sign_in(client, reverse("login"), LOOK_ALIKES[n % len(LOOK_ALIKES)], "wrong-guess")
    _sign_in(client, reverse("login"), demo.email, PASSWORD)
    assert "_auth_user_id" not in client.session


@pytest.fixture(params=["configured", "file"])
def any_cache(request, settings, tmp_path):
    """The cache the settings chose (in memory, or Redis with REDIS_URL), and the
    file cache several processes share without Redis."""
    if request.param == "file":
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                "LOCATION": str(tmp_path / "cache"),
            }
        }
    from django.core.cache import cache

    cache.clear()
    yield request.param
    cache.clear()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("at_once", [30, 80])
def test_guesses_sent_at_once_are_counted_before_any_is_checked(
    any_cache, settings, monkeypatch, at_once
):
    """Each guess's password check takes as long as a slow real hash (200 ms): the
    guesses all arrive while the first are being checked. Only the limit's
    worth may be checked."""
    demo = Teacher.objects.create_user("demo@numbo.test", PASSWORD)
    checked = []
    real_check = Teacher.check_password

    def slow_check(self, raw_password):
        checked.append(raw_password)
        time.sleep(0.2)
        return real_check(self, raw_password)

    monkeypatch.setattr(Teacher, "check_password", slow_check)
    start = threading.Barrier(at_once)
    # A PostgreSQL server shared with other test runs has 100 connections.
    in_flight = threading.BoundedSemaphore(40 if connection.vendor == "postgresql" else at_once)
    statuses = []

    def guess(n):
        client = Client(REMOTE_ADDR=f"10.0.{n // 200}.{n % 200}")  # the address limit aside
        start.wait()
        try:
            with in_flight:
                response = _sign_in(client, reverse("login"), demo.email, f"guess-{n}")
                statuses.append(response.status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(at_once)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * at_once
    assert len(checked) == settings.NUMBO["TEACHER_SIGN_IN_TRIES_PER_ACCOUNT"]
