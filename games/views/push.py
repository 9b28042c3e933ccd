"""The event stream a tablet holds open to hear its table change (games.push)."""

from __future__ import annotations

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse, HttpResponseForbidden, StreamingHttpResponse
from django.views.decorators.http import require_GET

from .. import push
from ..poll_tokens import read as read_poll_token


@require_GET
def table_events(request, pk: int):
    """Rings for this table, for whoever holds its poll token (the token names
    the pupil or teacher), and the watchers' page to a pupil who watches
    (games.push): nothing their own poll would not show."""
    token = request.GET.get("t", "")
    said = read_poll_token(token, pk)
    if said is None:
        return HttpResponseForbidden()
    if not settings.REDIS_URL:
        # Nothing to hear without Redis: 204 tells the browser not to retry,
        # and the page keeps polling every 2 s.
        return HttpResponse(status=204)
    push.let_go_of_the_database()
    tablet = push.Tablet.of(token, said, request.GET.get("l", ""))
    stream = push.async_stream if isinstance(request, ASGIRequest) else push.sync_stream
    events = stream(pk, tablet)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each ring on at once
    return response
