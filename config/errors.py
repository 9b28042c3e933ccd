"""Numbo's own error pages, in the page's language."""

from collections.abc import Callable

from django.core.exceptions import (
    DisallowedHost,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.views import defaults
from django.views.decorators.csrf import requires_csrf_token

# A body Numbo refuses to read for its size: the huge paste.
TOO_BIG = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    # Django's own view draws its template without the request: no language
    # switch, no "back to my games", no sign-out. The reason is for the logs
    # (django.security.csrf already has it), not for a child.
    return render(request, "403_csrf.html", status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    # An address no view answers is not found before the CSRF check has read
    # the body; Django's page reads it for the token it draws, and a body too
    # big to read (over DATA_UPLOAD_MAX_MEMORY_SIZE, or 1,000 fields) made the
    # page itself fail: a 500 where the answer is "not here".
    _forget_an_unreadable_body(request)
    return defaults.page_not_found(request, exception)


def _forget_an_unreadable_body(request: HttpRequest) -> None:
    try:
        request.POST  # noqa: B018 - reading it is the test
    except (SuspiciousOperation, MultiPartParserError, OSError):
        # OSError: a client gone in the middle of its body (UnreadablePostError).
        # What Django's handler does when the CSRF check hits it first: the
        # body reads as empty from now on.
        request._mark_post_parse_error()


@requires_csrf_token
def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    # Django's own page is drawn without the request (no language, no way
    # back) and said only "Bad Request (400)" to a teacher whose paste was
    # too long. An unknown host gets a bare 400: the request's address must not
    # be read to draw a page, and Django's own would now draw 400.html without it.
    if isinstance(exception, DisallowedHost):
        return HttpResponseBadRequest("Bad Request (400)", content_type="text/plain")
    too_big = isinstance(exception, TOO_BIG)
    return render(request, "400.html", {"too_big": too_big}, status=400)


class MethodNotAllowedPage:
    """A 405 is Numbo's page: Django's require_POST answers with no body at
    all, and a teacher sent back to a button's address after signing in
    again (login?next=/classes/5/archive/) saw a blank page. After the
    middlewares that tell the user, the pupil and the language, so that the
    page is drawn with them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or getattr(response, "streaming", False) or (
            response.content
        ):
            return response
        # A page's address (GET) asked to take a form, or a button's (POST)
        # opened as a page: each is told what to do.
        sent = request.method not in ("GET", "HEAD")
        page = render(request, "405.html", {"sent": sent}, status=405)
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
