"""The event streams' application (games.push): the compose file's ``push``
service runs it with gunicorn's uvicorn workers.

A tablet's stream (``/tables/<id>/events/``) stays open for minutes and only
waits: it is answered here in the event loop, outside Django's middleware, so
it holds no thread and no database connection. The pages stay on the threaded
WSGI workers (config.wsgi), one thread per worker as measured; any other path
sent here is still answered, by Django's ASGI handler, which gives each request
a thread and a database connection of its own: fine for a small install that
runs this alone, not for a school's worth of requests at once.
"""

import os
import re

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from games.push import serve_events  # noqa: E402  (needs the apps loaded)

EVENTS = re.compile(r"^/tables/(\d{1,12})/events/$")


async def application(scope, receive, send):
    if scope["type"] == "http":
        found = EVENTS.match(scope["path"])
        if found and scope["method"] == "GET":
            await serve_events(scope, receive, send, int(found.group(1)))
            return
    await django_application(scope, receive, send)
