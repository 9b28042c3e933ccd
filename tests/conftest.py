"""Shared fixtures. Where CI says the real services are required, their absence
fails the run instead of quietly testing against SQLite."""

from __future__ import annotations

import os

import pytest

REQUIRE_SERVICES = os.environ.get("NUMBO_REQUIRE_SERVICES") == "1"
# A teacher's password hash takes Django's PBKDF2 a second or more here, and
# hundreds of tests make a teacher. Production's hasher is what the stack test
# signs in with (tests/stack/conftest.py gives it back).
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_configure(config):
    from django.conf import settings
    from django.db.backends.signals import connection_created

    settings.PASSWORD_HASHERS = FAST_HASHERS
    connection_created.connect(_unsynced_sqlite)
    _own_redis_database(settings, os.environ.get("PYTEST_XDIST_WORKER", ""))


def _own_redis_database(settings, worker: str) -> None:
    """Each process of a parallel run (pytest -n, "gw0", "gw1"...) on a Redis
    database of its own, the next ones after REDIS_URL's: the cache is flushed
    before every test, and a Celery worker must not take another process's
    tasks (its rows are in another test database)."""
    if not worker.startswith("gw") or not settings.REDIS_URL:
        return
    from urllib.parse import urlsplit

    from config import celery_app

    address = urlsplit(settings.REDIS_URL)
    database = int(address.path.strip("/") or 0) + int(worker[2:])
    url = address._replace(path=f"/{database}").geturl()
    settings.REDIS_URL = settings.CELERY_BROKER_URL = settings.CELERY_RESULT_BACKEND = url
    settings.CACHES["default"]["LOCATION"] = url
    celery_app.conf.broker_url = celery_app.conf.result_backend = url


def _unsynced_sqlite(sender, connection, **kwargs):
    """The test database is thrown away: SQLite need not wait for the disk at
    each commit. Its locking is
    the same as `make run`'s: a rollback journal, kept in memory."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous = OFF")
            cursor.execute("PRAGMA journal_mode = MEMORY")


def pytest_sessionstart(session):
    if not REQUIRE_SERVICES:
        return
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        pytest.exit(f"NUMBO_REQUIRE_SERVICES=1 but the database is {engine}", returncode=3)
    if not settings.REDIS_URL:
        pytest.exit("NUMBO_REQUIRE_SERVICES=1 but REDIS_URL is not set", returncode=3)
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        pytest.exit(f"Redis is required and unreachable: {error}", returncode=3)


@pytest.fixture(autouse=True)
def _clean_cache(request):
    """Throttle counters and poll versions live in the cache: start each test clean."""
    if "django_db_setup" in request.fixturenames or request.node.get_closest_marker("django_db"):
        from django.core.cache import cache

        cache.clear()
    yield


@pytest.fixture(autouse=True)
def _language_put_back():
    """A French request leaves French active in the thread (LocaleMiddleware
    activates it and nothing deactivates it): the next test would read French."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(scope="module")
def worker():
    """A worker thread on the real broker when there is one; None when eager.

    Eagerly, exceptions are kept in the result instead of propagating, as a
    worker would: that is what lets Celery's eager mode retry at all. Tests
    that use it need ``django_db(transaction=True)``: the worker's thread
    reads what the test wrote."""
    from django.conf import settings

    from config import celery_app

    if not settings.REDIS_URL:
        propagates = celery_app.conf.task_eager_propagates
        celery_app.conf.task_eager_propagates = False
        yield None
        celery_app.conf.task_eager_propagates = propagates
        return
    from celery.contrib.testing.worker import start_worker

    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=False) as running:
            yield running
    finally:
        celery_app.conf.task_always_eager = eager


@pytest.fixture
def eager_tasks():
    """Tasks run in process, even in CI where a real broker is set (the worker
    tests, tests/classroom/test_report_worker.py, use a real worker)."""
    from config import celery_app

    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = eager


@pytest.fixture
def teacher(db):
    from classroom.models import Teacher

    return Teacher.objects.create_user(
        "teacher@school.test", "correct-horse-42", display_name="Ms T"
    )


@pytest.fixture
def other_teacher(db):
    from classroom.models import Teacher

    return Teacher.objects.create_user("other@school.test", "correct-horse-43")


@pytest.fixture
def classroom(teacher):
    from classroom.models import Classroom

    return Classroom.objects.create(teacher=teacher, name="CE2 B", school_year="2026-2027")


@pytest.fixture
def pupils(classroom):
    from classroom.models import Pupil

    return [
        Pupil.objects.create(
            classroom=classroom,
            first_name=first,
            initial=initial,
            avatar=avatar,
            picture_password=password,
        )
        for first, initial, avatar, password in [
            ("Léa", "M", "cat", "sun,moon,star"),
            ("Noah", "B", "dog", "tree,fish,house"),
            ("Inès", "D", "fox", "car,apple,flower"),
        ]
    ]


@pytest.fixture
def teacher_client(client, teacher):
    client.force_login(teacher)
    return client


def tap_pictures(client, pupil, pictures):
    """Tap pictures one at a time, as the picture pad posts them; the last response."""
    from django.urls import reverse

    url = reverse("classroom:join_pupil", args=[pupil.classroom.code, pupil.pk])
    response = None
    for count, tap in enumerate(pictures):
        response = client.post(url, {"so_far": ",".join(pictures[:count]), "tap": tap})
    return response


@pytest.fixture
def pupil_client(client, pupils):
    """A tablet on which Léa signed in with her pictures."""
    response = tap_pictures(client, pupils[0], pupils[0].password_pictures)
    assert response.status_code == 302, "Léa could not sign in"
    return client
