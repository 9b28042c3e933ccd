"""The "Sign in with …" buttons of the teacher's sign-in page."""

from __future__ import annotations

from allauth.socialaccount.adapter import get_adapter
from django import template
from django.utils.http import url_has_allowed_host_and_scheme

register = template.Library()


@register.inclusion_tag("school/sso/_buttons.html", takes_context=True)
def sso_buttons(context) -> dict:
    """One button per provider the environment configures (config.sso), none otherwise."""
    request = context["request"]
    providers = [
        {"name": provider.name, "url": provider.get_login_url(request, process="login")}
        for provider in get_adapter(request).list_providers(request)
    ]
    next_url = context.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    return {"providers": providers, "next": next_url, "csrf_token": context.get("csrf_token")}
