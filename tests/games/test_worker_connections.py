"""The Celery worker keeps its database connection from one task to the next
(config/celery.py): a computer's move no longer pays for a new connection."""

from types import SimpleNamespace

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from config.celery import _close_old_connections, app

pytestmark = pytest.mark.django_db(transaction=True)


def backend() -> object:
    connection.ensure_connection()
    return connection.connection


def test_a_task_after_a_task_uses_the_same_connection():
    fixup = DjangoWorkerFixup(app)
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    first = backend()
    for _ in range(10):  # as the worker runs each task: our check, then the fix-up's
        _close_old_connections()
        fixup.on_task_prerun(task)
        fixup.on_task_postrun(task)
    assert backend() is first


def test_a_connection_an_error_left_broken_is_replaced_before_the_next_task():
    first = backend()
    first.close()  # as a database restart leaves it
    connection.errors_occurred = True
    _close_old_connections()
    assert backend() is not first


def test_a_connection_older_than_conn_max_age_is_replaced_before_the_next_task():
    first = backend()
    connection.close_at = 0  # long past
    _close_old_connections()
    assert backend() is not first
