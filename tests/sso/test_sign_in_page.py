"""The teacher's sign-in page offers single sign-on only where it is configured,
and allauth takes over none of Numbo's own account pages."""

from __future__ import annotations

import pytest
import requests
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import get_adapter
from django.contrib.sessions.middleware import SessionMiddleware
from django.db import connection
from django.urls import NoReverseMatch, reverse
from django.utils import translation

from config.sso import generic_app, google_app

from .conftest import provider_settings

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    yield
    translation.activate("en")


def test_no_provider_no_button(client, settings):
    settings.SOCIALACCOUNT_PROVIDERS = provider_settings([])

    page = client.get("/accounts/login/").content.decode()

    assert "Sign in with" not in page
    assert "/accounts/oidc/" not in page


def test_one_button_per_configured_provider_posting_with_csrf(client, settings):
    settings.SOCIALACCOUNT_PROVIDERS = provider_settings([
        google_app("g", "s", ["school.example"]),
        generic_app("ENT Région", "https://sso.region.example", "o", "s", []),
    ])

    page = client.get("/accounts/login/?next=/classes/").content.decode()

    assert page.count('class="btn secondary sso-button"') == 2
    assert "Sign in with Google" in page and "Sign in with ENT Région" in page
    assert "Microsoft" not in page
    assert 'action="/accounts/oidc/google/login/?process=login"' in page
    assert 'action="/accounts/oidc/oidc/login/?process=login"' in page
    assert page.count('name="csrfmiddlewaretoken"') >= 3
    assert '<input type="hidden" name="next" value="/classes/">' in page
    # The password form is still there, first.
    assert page.index('name="password"') < page.index("Sign in with Google")


def test_the_buttons_speak_french(client, settings):
    settings.SOCIALACCOUNT_PROVIDERS = provider_settings([google_app("g", "s", [])])

    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert "Se connecter avec Google" in page
    assert "Réservé aux enseignants que votre école a invités." in page


def test_a_next_page_on_another_site_is_not_carried(client, settings):
    settings.SOCIALACCOUNT_PROVIDERS = provider_settings([google_app("g", "s", [])])

    page = client.get("/accounts/login/?next=https://evil.example/").content.decode()

    assert "evil.example" not in page.split('id="sso-title"')[1]


def test_a_get_of_the_sign_in_address_asks_before_leaving(client, settings):
    settings.SOCIALACCOUNT_PROVIDERS = provider_settings([google_app("g", "s", [])])

    answer = client.get("/accounts/oidc/google/login/")

    assert answer.status_code == 200
    page = answer.content.decode()
    assert "Numbo will take you to Google" in page
    assert 'method="post"' in page and "csrfmiddlewaretoken" in page


def test_an_unknown_provider_is_not_found(client, settings):
    settings.SOCIALACCOUNT_PROVIDERS = provider_settings([])

    assert client.post("/accounts/oidc/google/login/").status_code == 404
    assert client.get("/accounts/oidc/google/login/callback/?code=x&state=y").status_code == 404


def test_the_sign_in_button_refuses_a_forged_form(settings):
    from django.test import Client

    settings.SOCIALACCOUNT_PROVIDERS = provider_settings([google_app("g", "s", [])])
    browser = Client(enforce_csrf_checks=True)

    assert browser.post("/accounts/oidc/google/login/").status_code == 403


def test_allauth_mounts_none_of_its_account_pages():
    for name in ("account_login", "account_signup", "account_reset_password",
                 "socialaccount_signup", "socialaccount_connections"):
        with pytest.raises(NoReverseMatch):
            reverse(name)
    assert reverse("login") == "/accounts/login/"
    assert reverse("password_reset") == "/accounts/password_reset/"
    assert reverse("sign_up") == "/accounts/sign-up/"


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Numbo could not reach Google, so the sign-in could not go on"),
     ("fr", "Numbo n’a pas pu joindre Google : la connexion n’a pas pu se faire")],
)
def test_a_provider_that_does_not_answer_is_told_in_words(client, settings, caplog, language,
                                                          words):
    """allauth reads the provider's discovery document on the click: a
    provider down (here, nothing listens) answered the teacher with a 500."""
    settings.SOCIALACCOUNT_PROVIDERS = provider_settings([
        google_app("g", "s", ["school.example"], server_url="https://127.0.0.1:9"),
    ])

    answer = client.post("/accounts/oidc/google/login/", HTTP_ACCEPT_LANGUAGE=language)

    assert answer.status_code == 200
    page = answer.content.decode()
    assert words in page
    assert 'href="/accounts/login/"' in page
    assert "the provider did not answer" in caplog.text  # for the school's IT person


def test_a_provider_that_stops_answering_before_the_code_is_exchanged_is_told_so(rf, settings):
    """The callback's token request failing (allauth catches it) said the
    sign-in had been "started in another window": the provider was down."""
    settings.SOCIALACCOUNT_PROVIDERS = provider_settings([google_app("g", "s", [])])
    request = rf.get("/accounts/oidc/google/login/callback/?code=x&state=y")
    SessionMiddleware(lambda request: None).process_request(request)
    adapter = get_adapter()

    with pytest.raises(ImmediateHttpResponse) as answered:
        adapter.on_authentication_error(
            request, adapter.get_provider(request, "google"), error="unknown",
            exception=requests.ConnectionError("refused"),
        )

    assert answered.value.response.status_code == 200
    assert "Numbo could not reach Google" in answered.value.response.content.decode()


@pytest.mark.parametrize("provider_id", ["%00", "google%00", "x" * 300])
def test_a_forged_provider_id_is_not_found_without_reaching_the_database(client, settings,
                                                                          provider_id):
    """A NUL in the address's provider id went into a query: PostgreSQL
    refuses those (a 500 there; SQLite takes it)."""
    settings.SOCIALACCOUNT_PROVIDERS = provider_settings([google_app("g", "s", [])])

    sent = []

    def keep(execute, sql, params, many, context):
        sent.extend(str(value) for value in params or ())
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        login = client.post(f"/accounts/oidc/{provider_id}/login/")
        callback = client.get(f"/accounts/oidc/{provider_id}/login/callback/?code=x&state=y")

    assert login.status_code == callback.status_code == 404
    assert not [value for value in sent if "\x00" in value or "xxx" in value]
