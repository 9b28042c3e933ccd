"""The page a teacher sees when single sign-on does not let them in."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..sso_claims import Refusal


def refusal_page(
    request: HttpRequest, refusal: Refusal, email: str, provider: str, domains: list[str]
) -> HttpResponse:
    """403: the school's rules refused the sign-in; nothing was created."""
    context = {
        "refusal": refusal.value,
        "email": email,
        "provider": provider,
        "domains": ", ".join(f"@{domain}" for domain in domains),
    }
    return render(request, "school/sso/refused.html", context, status=403)


def failure_page(request: HttpRequest, provider: str, *, cancelled: bool) -> HttpResponse:
    """The flow broke off (cancelled by the teacher, or unreadable): start again."""
    context = {"provider": provider, "cancelled": cancelled}
    return render(request, "school/sso/failed.html", context, status=200 if cancelled else 400)


def unreachable_page(request: HttpRequest, provider: str) -> HttpResponse:
    """The provider did not answer (down, or not where the school's settings
    say): nothing was started. Said with a 200, as a cancelled sign-in is: a
    page that tells what happened and what to do, not a server fault."""
    context = {"provider": provider, "unreachable": True}
    return render(request, "school/sso/failed.html", context)
