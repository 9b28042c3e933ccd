"""A school's IT person configures single sign-on with environment variables
(config.sso): what each set of variables gives, and the clear refusals."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.sso import apps_from_environ

TENANT = "3f2c9a5e-1b7d-4e8a-9c6f-0a1b2c3d4e5f"


def test_nothing_set_configures_no_provider():
    assert apps_from_environ({}) == []


def test_google_with_its_domain():
    (app,) = apps_from_environ({
        "NUMBO_SSO_GOOGLE_CLIENT_ID": "123.apps.googleusercontent.com",
        "NUMBO_SSO_GOOGLE_CLIENT_SECRET": "GOCSPX-secret",
        "NUMBO_SSO_GOOGLE_DOMAINS": "School.Example",
    })

    assert app["provider_id"] == "google" and app["name"] == "Google"
    assert app["client_id"] == "123.apps.googleusercontent.com"
    assert app["secret"] == "GOCSPX-secret"
    assert app["settings"]["server_url"] == "https://accounts.google.com"
    assert app["settings"]["auth_params"] == {"hd": "school.example"}
    assert app["settings"]["numbo"] == {"kind": "google", "domains": ["school.example"]}


def test_google_with_two_domains_sends_no_hint_but_checks_both():
    (app,) = apps_from_environ({
        "NUMBO_SSO_GOOGLE_CLIENT_ID": "id",
        "NUMBO_SSO_GOOGLE_CLIENT_SECRET": "secret",
        "NUMBO_SSO_GOOGLE_DOMAINS": "school.example, @annexe.school.example",
    })

    assert "auth_params" not in app["settings"]
    assert app["settings"]["numbo"]["domains"] == ["school.example", "annexe.school.example"]


def test_entra_is_pinned_to_its_tenant():
    (app,) = apps_from_environ({
        "NUMBO_SSO_ENTRA_TENANT_ID": TENANT.upper(),
        "NUMBO_SSO_ENTRA_CLIENT_ID": "app-id",
        "NUMBO_SSO_ENTRA_CLIENT_SECRET": "secret",
    })

    assert app["provider_id"] == "entra" and app["name"] == "Microsoft"
    assert app["settings"]["server_url"] == f"https://login.microsoftonline.com/{TENANT}/v2.0"
    assert app["settings"]["numbo"] == {"kind": "entra", "domains": [], "tenant": TENANT}


@pytest.mark.parametrize("tenant", ["common", "organizations", "school.onmicrosoft.com"])
def test_entra_refuses_a_tenant_that_is_not_a_directory_id(tenant):
    with pytest.raises(ImproperlyConfigured, match="NUMBO_SSO_ENTRA_TENANT_ID"):
        apps_from_environ({
            "NUMBO_SSO_ENTRA_TENANT_ID": tenant,
            "NUMBO_SSO_ENTRA_CLIENT_ID": "app-id",
            "NUMBO_SSO_ENTRA_CLIENT_SECRET": "secret",
        })


def test_a_generic_provider_by_its_issuer():
    (app,) = apps_from_environ({
        "NUMBO_SSO_OIDC_NAME": "ENT Région",
        "NUMBO_SSO_OIDC_ISSUER": "https://sso.region.example/realms/schools/",
        "NUMBO_SSO_OIDC_CLIENT_ID": "numbo",
        "NUMBO_SSO_OIDC_CLIENT_SECRET": "secret",
        "NUMBO_SSO_OIDC_DOMAINS": "school.example",
    })

    assert app["provider_id"] == "oidc" and app["name"] == "ENT Région"
    assert app["settings"]["server_url"] == "https://sso.region.example/realms/schools"
    assert app["settings"]["oauth_pkce_enabled"] is True


def test_a_generic_provider_in_clear_is_refused():
    with pytest.raises(ImproperlyConfigured, match="https://"):
        apps_from_environ({
            "NUMBO_SSO_OIDC_NAME": "ENT",
            "NUMBO_SSO_OIDC_ISSUER": "http://sso.region.example",
            "NUMBO_SSO_OIDC_CLIENT_ID": "numbo",
            "NUMBO_SSO_OIDC_CLIENT_SECRET": "secret",
        })


def test_all_three_in_the_order_of_their_buttons():
    apps = apps_from_environ({
        "NUMBO_SSO_OIDC_NAME": "ENT", "NUMBO_SSO_OIDC_ISSUER": "https://sso.example",
        "NUMBO_SSO_OIDC_CLIENT_ID": "a", "NUMBO_SSO_OIDC_CLIENT_SECRET": "b",
        "NUMBO_SSO_ENTRA_TENANT_ID": TENANT, "NUMBO_SSO_ENTRA_CLIENT_ID": "c",
        "NUMBO_SSO_ENTRA_CLIENT_SECRET": "d",
        "NUMBO_SSO_GOOGLE_CLIENT_ID": "e", "NUMBO_SSO_GOOGLE_CLIENT_SECRET": "f",
    })

    assert [app["provider_id"] for app in apps] == ["google", "entra", "oidc"]


def test_a_half_configured_provider_names_what_is_missing():
    with pytest.raises(ImproperlyConfigured, match="NUMBO_SSO_GOOGLE_CLIENT_SECRET missing"):
        apps_from_environ({"NUMBO_SSO_GOOGLE_CLIENT_ID": "id"})


def test_a_domain_list_with_an_address_in_it_is_refused():
    with pytest.raises(ImproperlyConfigured, match="NUMBO_SSO_GOOGLE_DOMAINS"):
        apps_from_environ({
            "NUMBO_SSO_GOOGLE_CLIENT_ID": "id",
            "NUMBO_SSO_GOOGLE_CLIENT_SECRET": "secret",
            "NUMBO_SSO_GOOGLE_DOMAINS": "head@school.example",
        })


def test_the_settings_module_reads_them(monkeypatch):
    """config/settings.py, loaded afresh, hands them to allauth."""
    import importlib
    import sys

    monkeypatch.setenv("NUMBO_SSO_GOOGLE_CLIENT_ID", "id")
    monkeypatch.setenv("NUMBO_SSO_GOOGLE_CLIENT_SECRET", "secret")
    saved = sys.modules.pop("config.settings")
    try:
        fresh = importlib.import_module("config.settings")
        apps = fresh.SOCIALACCOUNT_PROVIDERS["openid_connect"]["APPS"]
    finally:
        sys.modules["config.settings"] = saved
    assert [app["client_id"] for app in apps] == ["id"]
