"""The Celery worker keeps its database connection from one task to the next
(config/celery.py): a computer's move no longer pays for a new connection."""

from types import SimpleNamespace

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection, transaction

from config.celery import _close_old_connections, app

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _connections_kept_a_minute():
    """CONN_MAX_AGE as the full stack sets it (config/settings.py, 60 s with a
    DATABASE_URL); the embedded default's SQLite keeps none, and its tasks run
    eagerly, with no worker."""
    kept = connection.settings_dict["CONN_MAX_AGE"]
    connection.close()
    connection.settings_dict["CONN_MAX_AGE"] = 60
    yield
    connection.close()
    connection.settings_dict["CONN_MAX_AGE"] = kept


def backend() -> object:
    connection.ensure_connection()
    return connection.connection


WORKER_TASK = SimpleNamespace(request=SimpleNamespace(is_eager=False))


def test_a_task_after_a_task_uses_the_same_connection():
    fixup = DjangoWorkerFixup(app)
    first = backend()
    for _ in range(10):  # as the worker runs each task: our check, then the fix-up's
        _close_old_connections(sender=WORKER_TASK)
        fixup.on_task_prerun(WORKER_TASK)
        fixup.on_task_postrun(WORKER_TASK)
    assert backend() is first


def test_an_eager_task_keeps_its_callers_connection():
    """The embedded default and the tests run tasks inside the caller's
    transaction: the connection is not the task's to close."""
    first = backend()
    with transaction.atomic():
        connection.close_at = 0  # past its age: a worker's task would close it
        _close_old_connections(sender=SimpleNamespace(request=SimpleNamespace(is_eager=True)))
        with connection.cursor() as cursor:  # the caller's transaction goes on
            cursor.execute("SELECT 1")
        assert backend() is first


@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite's backend cannot tell a broken connection (is_usable() is always true), "
    "and the embedded default runs its tasks eagerly, with no worker to keep one",
)
def test_a_connection_an_error_left_broken_is_replaced_before_the_next_task():
    first = backend()
    first.close()  # as a database restart leaves it
    connection.errors_occurred = True
    _close_old_connections(sender=WORKER_TASK)
    assert backend() is not first


def test_a_connection_older_than_conn_max_age_is_replaced_before_the_next_task():
    first = backend()
    connection.close_at = 0  # long past
    _close_old_connections(sender=WORKER_TASK)
    assert backend() is not first
