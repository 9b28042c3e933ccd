"""The Celery app. Workers run `celery -A config worker`."""

import os

from celery import Celery
from celery.signals import task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("numbo")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Celery's Django fix-up closes the database connection before and after every
# task unless told to reuse it. A computer's move is a task: PostgreSQL forking
# a new backend and the connection's set-up queries cost more than the move.
# The fix-up now closes it only every so many tasks; before each task Django's
# own rule (CONN_MAX_AGE, a connection left broken by an error) decides, as it
# does for each web request.
app.conf.CELERY_DB_REUSE_MAX = 1000
app.autodiscover_tasks()


@task_prerun.connect
def _close_old_connections(sender=None, **_kwargs) -> None:
    # An eager task runs inside its caller's request or transaction: its
    # connection is the caller's to keep.
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
