"""Which tablet a request comes from: its address and a long-lived signed cookie.

A session is free to renew, so limits keyed to it hold nothing; the address
alone is a whole school behind one router. A device is both: requests that drop
the cookie share one device per address.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core import signing
from django.http import HttpRequest

COOKIE = "numbo_device"
SALT = "numbo.device"
MAX_AGE = 365 * 24 * 60 * 60


def client_address(request: HttpRequest) -> str:
    """The client's address; behind NUMBO["TRUSTED_PROXIES"] proxies, the one the
    farthest trusted proxy saw (each proxy appends to X-Forwarded-For, so earlier
    entries may be forged by the client)."""
    remote = request.META.get("REMOTE_ADDR", "unknown")
    proxies = settings.NUMBO["TRUSTED_PROXIES"]
    if proxies <= 0:
        return remote
    forwarded = [
        part.strip()
        for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if part.strip()
    ]
    return forwarded[-proxies] if len(forwarded) >= proxies else remote


def device_cookie(request: HttpRequest) -> str | None:
    """The device's id from its signed cookie, None when absent or forged. Read
    only when a view asks: the 2-second poll must not pay for a signature."""
    if not hasattr(request, "_numbo_device"):
        try:
            request._numbo_device = request.get_signed_cookie(COOKIE, salt=SALT, max_age=MAX_AGE)
        except (KeyError, signing.BadSignature):
            request._numbo_device = None
    return request._numbo_device


def device_key(request: HttpRequest) -> str:
    return f"{client_address(request)}|{device_cookie(request) or '-'}"


class DeviceMiddleware:
    """Gives a device the views asked about, and that has no valid cookie, a new
    one for next time."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        asked = request.__dict__.get("_numbo_device", "asked-not")
        if asked is None and COOKIE not in response.cookies:
            response.set_signed_cookie(
                COOKIE,
                secrets.token_urlsafe(12),
                salt=SALT,
                max_age=MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=not settings.DEBUG,
            )
        return response
