"""What a provider's answer must prove before a teacher is let in by single sign-on.

Pure Python: the claims of the ID token (signed by the provider, checked by
allauth against its keys, issuer and our client ID) and of the userinfo
answer, and the rules the school set for that provider (``config.sso``).
Whether the school knows the address is ``school.sso_rules``' question.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Refusal(StrEnum):
    """Why a sign-in is refused; each has its own sentence on the refusal page."""

    NO_EMAIL = "no_email"
    UNVERIFIED = "unverified"
    DOMAIN = "domain"
    HOSTED_DOMAIN = "hosted_domain"
    TENANT = "tenant"
    NONCE = "nonce"
    NOT_INVITED = "not_invited"


@dataclass(frozen=True)
class Identity:
    email: str
    verified: bool


def _true(value: Any) -> bool:
    # Some providers write booleans as strings ("true"); nothing else counts.
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def identity_from(id_token: dict, userinfo: dict | None, kind: str) -> Identity:
    """The address the provider vouches for, and whether it says it is verified.

    The ID token's own claims come first. A provider that keeps the address
    for its userinfo answer is read there, but only an answer about the same
    person (OpenID Connect Core 5.3.2: its ``sub`` must be the token's)."""
    source = id_token
    if not id_token.get("email") and userinfo and userinfo.get("sub") == id_token.get("sub"):
        source = userinfo
    email = str(source.get("email") or "").strip()
    verified = _true(source.get("email_verified"))
    # Entra ID sends no email_verified: its optional claim xms_edov says that
    # the address's domain is verified by the tenant that issued the token
    # (an unverified "email" is how Entra accounts were taken over, "nOAuth").
    if kind == "entra" and not verified:
        verified = _true(source.get("xms_edov")) or source.get("xms_edov") in (1, "1")
    return Identity(email=email, verified=verified)


def domain_of(email: str) -> str:
    return email.rpartition("@")[2].lower()


def refusal(
    id_token: dict | None, userinfo: dict | None, rules: dict, expected_nonce: str | None
) -> Refusal | None:
    """None when the provider's answer proves what the school asks, else why not."""
    # The nonce ties the ID token to the sign-in this browser started: a token
    # taken from another sign-in (or none at all) proves nothing here.
    given_nonce = (id_token or {}).get("nonce")
    if (
        not id_token
        or not expected_nonce
        or not isinstance(given_nonce, str)
        or not hmac.compare_digest(given_nonce, expected_nonce)
    ):
        return Refusal.NONCE
    kind = rules.get("kind", "oidc")
    identity = identity_from(id_token, userinfo, kind)
    if "@" not in identity.email:
        return Refusal.NO_EMAIL
    if not identity.verified:
        return Refusal.UNVERIFIED
    domains = rules.get("domains") or []
    if domains and domain_of(identity.email) not in domains:
        return Refusal.DOMAIN
    # Google: a Workspace account names its organisation in "hd"; a personal
    # account has none. The address alone could be a personal Google account
    # opened on the school's address.
    if kind == "google" and domains and id_token.get("hd") not in domains:
        return Refusal.HOSTED_DOMAIN
    if kind == "entra" and id_token.get("tid") != rules.get("tenant"):
        return Refusal.TENANT
    return None
