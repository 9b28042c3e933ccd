"""Single sign-on in real Chromium against a real OpenID Connect provider
(tests/sso/provider.mjs): the sign-in page's buttons at 768 and 320 px in both
languages (screenshots in /tmp/sso-shots/), a teacher signing in through the
provider's pages, and a refusal a person can read."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from classroom.models import Classroom, Teacher
from config.sso import entra_app, generic_app, google_app
from tests.sso.conftest import ACCOUNTS, SECRET, TENANT, callback_uri, provider_settings
from tests.sso.oidc_provider import Client, running_provider

from .helpers import small_targets
from .test_axe_every_page import read_by_axe

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/sso-shots")
WIDE = "() => document.scrollingElement.scrollWidth"


@pytest.fixture
def school_sso(live_server, settings):
    """The provider, knowing this live server's callbacks; Numbo configured for it."""
    apps = {"google": "numbo-google", "entra": "numbo-entra", "oidc": "numbo-oidc"}
    clients = [Client(client_id, SECRET, callback_uri(provider_id, live_server.url))
               for provider_id, client_id in apps.items()]
    with running_provider(clients, ACCOUNTS) as provider:
        settings.SOCIALACCOUNT_PROVIDERS = provider_settings([
            google_app("numbo-google", SECRET, ["school.example"], server_url=provider.issuer),
            entra_app(TENANT, "numbo-entra", SECRET, ["school.example"],
                      server_url=provider.issuer),
            generic_app("Région Académique", provider.issuer, "numbo-oidc", SECRET,
                        ["school.example"]),
        ])
        yield provider


def tablet(browser, browser_context_args, live_server, width: int, language: str):
    context = browser.new_context(
        **{**browser_context_args, "viewport": {"width": width, "height": 1024 if width > 400
                                                 else 640}},
        base_url=live_server.url,
    )
    context.add_cookies([{"name": "django_language", "value": language,
                          "url": live_server.url}])
    return context.new_page()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("width", [768, 320])
def test_the_sign_in_page_offers_the_schools_providers(
    live_server, browser, browser_context_args, school_sso, width, language
):
    page = tablet(browser, browser_context_args, live_server, width, language)
    page.goto("/accounts/login/")

    label = "Sign in with" if language == "en" else "Se connecter avec"
    for name in ("Google", "Microsoft", "Région Académique"):
        expect(page.get_by_role("button", name=f"{label} {name}")).to_be_visible()
    assert page.get_by_role("button", name=label).count() == 3
    assert small_targets(page) == []
    assert page.evaluate(WIDE) <= width
    assert read_by_axe(page) == []
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"sign-in-{width}-{language}.png", full_page=True)


def test_a_teacher_signs_in_through_the_provider_with_the_keyboard(
    live_server, browser, browser_context_args, school_sso
):
    ada = Teacher.objects.create_user("ada@school.example", "her-own-password-1")
    Classroom.objects.create(teacher=ada, name="CE2 Jupiter")
    page = tablet(browser, browser_context_args, live_server, 768, "en")
    page.goto("/accounts/login/")

    page.get_by_role("button", name="Sign in with Région Académique").focus()
    page.keyboard.press("Enter")
    # The provider's own sign-in and consent pages (oidc-provider's).
    page.wait_for_url(f"{school_sso.issuer}/interaction/**")
    page.locator("input[name=login]").fill("ada")
    page.locator("input[name=password]").fill("any password")
    page.locator("button[type=submit]").click()
    page.wait_for_url(f"{school_sso.issuer}/interaction/**")
    page.locator("button[type=submit]").click()

    page.wait_for_url(f"{live_server.url}/classes/")
    expect(page.get_by_text("CE2 Jupiter")).to_be_visible()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_teacher_the_school_did_not_invite_reads_why(
    live_server, browser, browser_context_args, school_sso, language
):
    page = tablet(browser, browser_context_args, live_server, 320, language)
    page.goto("/accounts/login/")
    label = "Sign in with Google" if language == "en" else "Se connecter avec Google"
    page.get_by_role("button", name=label).click()
    page.wait_for_url(f"{school_sso.issuer}/interaction/**")
    page.locator("input[name=login]").fill("stranger")
    page.locator("input[name=password]").fill("any password")
    page.locator("button[type=submit]").click()
    page.wait_for_url(f"{school_sso.issuer}/interaction/**")
    page.locator("button[type=submit]").click()

    page.wait_for_url(f"{live_server.url}/accounts/oidc/google/login/callback/**")
    said = ("Your school has not invited this address (stranger@school.example)"
            if language == "en" else
            "Votre école n’a pas invité cette adresse (stranger@school.example)")
    expect(page.get_by_text(said)).to_be_visible()
    assert small_targets(page) == []
    assert page.evaluate(WIDE) <= 320
    assert read_by_axe(page) == []
    assert not Teacher.objects.filter(email="stranger@school.example").exists()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"refused-320-{language}.png", full_page=True)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_other_sso_pages_read_well(
    live_server, browser, browser_context_args, school_sso, language
):
    """The page of a bookmarked sign-in address, and the one of a callback
    without its sign-in (replayed, or from another browser)."""
    page = tablet(browser, browser_context_args, live_server, 320, language)

    page.goto("/accounts/oidc/google/login/")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Sign in with Google" if language == "en" else "Se connecter avec Google"
    )
    assert small_targets(page) == [] and page.evaluate(WIDE) <= 320
    assert read_by_axe(page) == []

    answer = page.goto("/accounts/oidc/google/login/callback/?code=x&state=not-this-browsers")
    assert answer.status == 400
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Numbo could not sign you in" if language == "en"
        else "Numbo n’a pas pu vous connecter"
    )
    assert small_targets(page) == [] and page.evaluate(WIDE) <= 320
    assert read_by_axe(page) == []
