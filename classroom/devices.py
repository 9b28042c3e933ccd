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


def device_key(request: HttpRequest) -> str:
    return f"{client_address(request)}|{getattr(request, 'numbo_device', None) or '-'}"


class DeviceMiddleware:
    """Reads the signed device cookie (request.numbo_device, None when absent or
    forged) and gives a device without one a new cookie for next time."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            request.numbo_device = request.get_signed_cookie(COOKIE, salt=SALT, max_age=MAX_AGE)
        except (KeyError, signing.BadSignature):
            request.numbo_device = None
        response = self.get_response(request)
        if request.numbo_device is None and COOKIE not in response.cookies:
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
