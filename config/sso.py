"""Teachers' single sign-on providers, read from the environment.

A school's IT person copies three or four values from their provider's console
into variables named after it (the README lists them):

- Google Workspace for Education: ``NUMBO_SSO_GOOGLE_CLIENT_ID``,
  ``NUMBO_SSO_GOOGLE_CLIENT_SECRET``, ``NUMBO_SSO_GOOGLE_DOMAINS``;
- Microsoft Entra ID: ``NUMBO_SSO_ENTRA_TENANT_ID``, ``NUMBO_SSO_ENTRA_CLIENT_ID``,
  ``NUMBO_SSO_ENTRA_CLIENT_SECRET``, ``NUMBO_SSO_ENTRA_DOMAINS``;
- any other OpenID Connect provider (a region's, a school's Keycloak):
  ``NUMBO_SSO_OIDC_NAME``, ``NUMBO_SSO_OIDC_ISSUER``, ``NUMBO_SSO_OIDC_CLIENT_ID``,
  ``NUMBO_SSO_OIDC_CLIENT_SECRET``, ``NUMBO_SSO_OIDC_DOMAINS``.

Each becomes one app of django-allauth's ``openid_connect`` provider. What
Numbo itself checks of a sign-in (the allowed domains, Google's ``hd``, Entra's
tenant) travels in the app's settings under ``"numbo"``, where the sign-in
adapter (``school.sso_adapter``) reads it: one place says what a provider is
and what it must prove.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

GOOGLE_ISSUER = "https://accounts.google.com"
ENTRA_ISSUER = "https://login.microsoftonline.com/{tenant}/v2.0"
# The tenant must be the directory's own ID: with "common" or "organizations"
# the discovery document's issuer is a template, and any Microsoft tenant's
# tokens would be taken.
_TENANT_ID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")

# The provider ids are part of the redirect URI a school registers:
# /accounts/oidc/<id>/login/callback/
GOOGLE, ENTRA, GENERIC = "google", "entra", "oidc"


def domains_from(text: str, variable: str) -> list[str]:
    """``school.example, @annexe.school.example`` -> both domains, lower case."""
    domains = []
    for item in text.split(","):
        domain = item.strip().lower().removeprefix("@")
        if not domain:
            continue
        if not _DOMAIN.match(domain):
            raise ImproperlyConfigured(
                f"{variable}: {item.strip()!r} is not a domain name (e.g. school.example)."
            )
        domains.append(domain)
    return domains


def _app(
    provider_id: str,
    name: str,
    client_id: str,
    secret: str,
    server_url: str,
    rules: dict,
    auth_params: dict | None = None,
) -> dict:
    settings: dict = {
        "server_url": server_url,
        # The code is bound to this sign-in's browser (RFC 7636): Google and
        # Entra support it, and a generic provider that does not ignores it.
        "oauth_pkce_enabled": True,
        "numbo": rules,
    }
    if auth_params:
        settings["auth_params"] = auth_params
    return {
        "provider_id": provider_id,
        "name": name,
        "client_id": client_id,
        "secret": secret,
        "settings": settings,
    }


def google_app(
    client_id: str, secret: str, domains: list[str], server_url: str = GOOGLE_ISSUER
) -> dict:
    # With one domain, "hd" makes Google's account chooser offer only that
    # school's accounts; the hd claim is checked whatever the browser sent.
    auth_params = {"hd": domains[0]} if len(domains) == 1 else None
    rules = {"kind": GOOGLE, "domains": domains}
    return _app(GOOGLE, "Google", client_id, secret, server_url, rules, auth_params)


def entra_app(
    tenant_id: str,
    client_id: str,
    secret: str,
    domains: list[str],
    server_url: str | None = None,
) -> dict:
    tenant_id = tenant_id.strip().lower()
    if not _TENANT_ID.match(tenant_id):
        raise ImproperlyConfigured(
            "NUMBO_SSO_ENTRA_TENANT_ID must be the directory (tenant) ID, "
            "e.g. 3f2c9a5e-1b7d-4e8a-9c6f-0a1b2c3d4e5f (not 'common' or 'organizations')."
        )
    rules = {"kind": ENTRA, "domains": domains, "tenant": tenant_id}
    url = server_url or ENTRA_ISSUER.format(tenant=tenant_id)
    return _app(ENTRA, "Microsoft", client_id, secret, url, rules)


def generic_app(
    name: str, issuer: str, client_id: str, secret: str, domains: list[str]
) -> dict:
    rules = {"kind": GENERIC, "domains": domains}
    return _app(GENERIC, name, client_id, secret, issuer.rstrip("/"), rules)


def _read(environ: Mapping[str, str], prefix: str, names: tuple[str, ...]) -> dict | None:
    """The provider's variables, or None when none of them is set; all of
    ``names`` are needed once one is."""
    values = {name: environ.get(f"{prefix}_{name}", "").strip() for name in names}
    if not any(values.values()):
        return None
    missing = [f"{prefix}_{name}" for name, value in values.items() if not value]
    if missing:
        raise ImproperlyConfigured(f"Single sign-on: {', '.join(missing)} missing.")
    return values


def apps_from_environ(environ: Mapping[str, str]) -> list[dict]:
    """The allauth ``openid_connect`` apps the environment configures, in the
    order their buttons show: Google, Microsoft, then the generic one."""
    apps = []
    google = _read(environ, "NUMBO_SSO_GOOGLE", ("CLIENT_ID", "CLIENT_SECRET"))
    if google:
        domains = domains_from(
            environ.get("NUMBO_SSO_GOOGLE_DOMAINS", ""), "NUMBO_SSO_GOOGLE_DOMAINS"
        )
        apps.append(google_app(google["CLIENT_ID"], google["CLIENT_SECRET"], domains))
    entra = _read(environ, "NUMBO_SSO_ENTRA", ("TENANT_ID", "CLIENT_ID", "CLIENT_SECRET"))
    if entra:
        domains = domains_from(
            environ.get("NUMBO_SSO_ENTRA_DOMAINS", ""), "NUMBO_SSO_ENTRA_DOMAINS"
        )
        apps.append(
            entra_app(entra["TENANT_ID"], entra["CLIENT_ID"], entra["CLIENT_SECRET"], domains)
        )
    generic = _read(environ, "NUMBO_SSO_OIDC", ("NAME", "ISSUER", "CLIENT_ID", "CLIENT_SECRET"))
    if generic:
        # The discovery document, keys and tokens come from there: never in clear.
        if not generic["ISSUER"].startswith("https://"):
            raise ImproperlyConfigured(
                "NUMBO_SSO_OIDC_ISSUER must be the provider's https:// address, "
                "e.g. https://sso.region.example/realms/schools."
            )
        domains = domains_from(
            environ.get("NUMBO_SSO_OIDC_DOMAINS", ""), "NUMBO_SSO_OIDC_DOMAINS"
        )
        apps.append(
            generic_app(
                generic["NAME"],
                generic["ISSUER"],
                generic["CLIENT_ID"],
                generic["CLIENT_SECRET"],
                domains,
            )
        )
    return apps
