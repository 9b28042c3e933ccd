"""A teacher's browser through a single sign-on, over real HTTP to the provider.

Numbo's side is Django's test client; the provider's side is a requests
session (its own cookies) that fills in the provider's sign-in and consent
forms as a teacher would, until the provider sends the browser back to
Numbo's callback. Nothing of the protocol is imitated: the state, nonce, code,
PKCE verifier, tokens and keys are the real ones of both sides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import requests

NUMBO_ORIGIN = "http://testserver"
MAX_HOPS = 20


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []

    def handle_starttag(self, tag, attrs) -> None:
        attributes = dict(attrs)
        if tag == "form":
            self.forms.append({"action": attributes.get("action", ""), "fields": {}})
        elif tag in ("input", "button") and self.forms and attributes.get("name"):
            self.forms[-1]["fields"][attributes["name"]] = attributes.get("value") or ""


def forms_of(html: str) -> list[dict]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


@dataclass
class Trip:
    """What a sign-in went through: the authorization request Numbo sent and
    the callback the provider sent back."""

    authorization_url: str = ""
    callback_url: str = ""
    provider_pages: list[str] = field(default_factory=list)


def through_provider(
    authorization_url: str, login: str, *, cancel: bool = False, trip: Trip | None = None
) -> str:
    """Signs ``login`` in on the provider's own pages and consents; returns the
    callback URL the provider redirects the browser to (on Numbo)."""
    trip = trip or Trip()
    browser = requests.Session()
    response = browser.get(authorization_url, allow_redirects=False, timeout=10)
    for _ in range(MAX_HOPS):
        if response.is_redirect:
            target = urljoin(response.url, response.headers["Location"])
            if target.startswith(NUMBO_ORIGIN + "/"):
                trip.callback_url = target
                return target
            response = browser.get(target, allow_redirects=False, timeout=10)
            continue
        response.raise_for_status()
        trip.provider_pages.append(response.text)
        form = forms_of(response.text)[0]
        action = urljoin(response.url, form["action"])
        if cancel:
            # The provider's own "cancel" (oidc-provider's abort): access_denied.
            response = browser.get(action.rstrip("/") + "/abort", allow_redirects=False)
            continue
        fields = dict(form["fields"])
        if fields.get("prompt") == "login":
            fields.update(login=login, password="any password")
        response = browser.post(action, data=fields, allow_redirects=False, timeout=10)
    raise AssertionError(f"The provider never sent the browser back: {response.url}")


def start(client, provider_id: str, **extra) -> str:
    """The teacher taps "Sign in with …": Numbo answers with the provider's address."""
    response = client.post(f"/accounts/oidc/{provider_id}/login/", {"process": "login", **extra})
    assert response.status_code == 302, response.content[:500]
    return response["Location"]


def sign_in(
    client,
    provider_id: str,
    login: str,
    *,
    tamper: Callable[[str], str] | None = None,
    cancel: bool = False,
    trip: Trip | None = None,
    **headers,
):
    """The whole sign-in; returns Numbo's answer to the callback (not followed)."""
    trip = trip if trip is not None else Trip()
    trip.authorization_url = start(client, provider_id)
    url = tamper(trip.authorization_url) if tamper else trip.authorization_url
    callback = through_provider(url, login, cancel=cancel, trip=trip)
    parts = urlsplit(callback)
    return client.get(f"{parts.path}?{parts.query}", **headers)
