"""The page a refused form shows: Numbo's own, in the page's language."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    # Django's own view draws its template without the request: no language
    # switch, no "back to my games", no sign-out. The reason is for the logs
    # (django.security.csrf already has it), not for a child.
    return render(request, "403_csrf.html", status=403)
