"""A real OpenID Connect provider for the whole run, and Numbo configured for it
as a school would be: Google (hd), Microsoft Entra ID (its tenant) and a
region's generic provider, each allowing only @school.example addresses."""

from __future__ import annotations

import pytest

from config.sso import entra_app, generic_app, google_app

from .oidc_provider import Client, running_provider

DOMAIN = "school.example"
TENANT = "3f2c9a5e-1b7d-4e8a-9c6f-0a1b2c3d4e5f"
OTHER_TENANT = "99999999-1b7d-4e8a-9c6f-0a1b2c3d4e5f"
SECRET = "a-client-secret-for-the-tests-only"

# The accounts on the provider, by the login typed on its sign-in page.
ACCOUNTS = {
    # A Workspace / Entra account of the school, as each provider sends it.
    "ada": {"email": "ada@school.example", "email_verified": True, "hd": DOMAIN,
            "name": "Ada Lovelace"},
    "ada-entra": {"email": "ada@school.example", "tid": TENANT, "xms_edov": True},
    "stranger": {"email": "stranger@school.example", "email_verified": True, "hd": DOMAIN,
                 "tid": TENANT, "xms_edov": True},
    # A teacher of the school whose provider address is outside the school's domain.
    "bob": {"email": "bob@elsewhere.example", "email_verified": True, "hd": "elsewhere.example"},
    "carla-unverified": {"email": "carla@school.example", "email_verified": False,
                         "hd": DOMAIN},
    # A personal Google account opened on the school's address: no hd.
    "dan-personal": {"email": "dan@school.example", "email_verified": True},
    "eve-other-tenant": {"email": "eve@school.example", "tid": OTHER_TENANT, "xms_edov": True},
    "eve-entra-unverified": {"email": "eve@school.example", "tid": TENANT},
    "capitals": {"email": "Ada@School.Example", "email_verified": "true", "hd": DOMAIN},
}


def callback_uri(provider_id: str, origin: str = "http://testserver") -> str:
    return f"{origin}/accounts/oidc/{provider_id}/login/callback/"


def school_apps(issuer: str) -> list[dict]:
    return [
        google_app("numbo-google", SECRET, [DOMAIN], server_url=issuer),
        entra_app(TENANT, "numbo-entra", SECRET, [DOMAIN], server_url=issuer),
        generic_app("Région Académique", issuer, "numbo-oidc", SECRET, [DOMAIN]),
    ]


def provider_settings(apps: list[dict]) -> dict:
    from django.conf import settings

    return {"openid_connect": {**settings.SOCIALACCOUNT_PROVIDERS["openid_connect"],
                               "APPS": apps}}


@pytest.fixture(scope="session")
def oidc():
    clients = [
        Client(client_id, SECRET, callback_uri(provider_id))
        for client_id, provider_id in (
            ("numbo-google", "google"), ("numbo-entra", "entra"), ("numbo-oidc", "oidc"),
        )
    ]
    with running_provider(clients, ACCOUNTS) as provider:
        yield provider


@pytest.fixture
def school_sso(oidc, settings):
    """Numbo with the three providers configured, as the environment would."""
    settings.SOCIALACCOUNT_PROVIDERS = provider_settings(school_apps(oidc.issuer))
    return oidc
