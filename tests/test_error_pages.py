"""Not found, refused and failed pages are Numbo's: its layout, the page's
language, and a way back (Django's bare 'Not Found' had none)."""

from html import unescape

import pytest
from django.test import Client
from django.urls import path

from config import urls as numbo_urls

pytestmark = pytest.mark.django_db


def broken(request):
    raise RuntimeError("a fault")


urlpatterns = [*numbo_urls.urlpatterns, path("broken/", broken)]


@pytest.mark.parametrize(
    ("language", "words", "back"),
    [("en", "This page is not here", "Back to Numbo's home page"),
     ("fr", "Cette page n'existe pas", "Retour à l'accueil de Numbo")],
)
def test_a_page_not_found_speaks_the_pages_language_and_leads_home(client, language, words, back):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    html = unescape(response.content.decode())
    assert response.status_code == 404
    assert f'<html lang="{language}">' in html
    assert words in html and back in html and 'href="/"' in html


def test_a_signed_in_pupil_is_led_back_to_their_games(pupil_client):
    html = unescape(pupil_client.get("/no-such-page/").content.decode())
    assert "Back to my games" in html and 'href="/me/"' in html


def test_a_form_posted_without_its_token_gets_numbos_page_in_french():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "x"}, HTTP_ACCEPT_LANGUAGE="fr")
    html = unescape(response.content.decode())
    assert response.status_code == 403
    assert '<html lang="fr">' in html
    assert "Cette page avait expiré" in html and "Retour à l'accueil de Numbo" in html


@pytest.mark.urls("tests.test_error_pages")
def test_a_fault_answers_numbos_page_in_the_pages_language():
    client = Client(raise_request_exception=False)
    response = client.get("/broken/", HTTP_ACCEPT_LANGUAGE="fr")
    html = unescape(response.content.decode())
    assert response.status_code == 500
    assert '<html lang="fr">' in html and "Un problème est survenu" in html
    assert 'href="/"' in html


def test_the_password_change_pages_are_numbos_in_french(teacher_client):
    """They were the admin's (its own layout, links told by colour alone)."""
    html = unescape(teacher_client.get(
        "/accounts/password_change/", HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode())
    assert "Changer mon mot de passe" in html and 'class="topbar"' in html
    response = teacher_client.post("/accounts/password_change/", {
        "old_password": "correct-horse-42", "new_password1": "a-new-horse-77",
        "new_password2": "a-new-horse-77",
    })
    assert response.status_code == 302
    html = teacher_client.get(response["Location"]).content.decode()
    assert 'class="topbar"' in html and "Password changed" in html


@pytest.mark.parametrize(
    "body",
    [b"pupils=" + b"Z" * 3_000_000,  # over DATA_UPLOAD_MAX_MEMORY_SIZE
     "&".join(f"f{n}=1" for n in range(1_500)).encode()],  # over DATA_UPLOAD_MAX_NUMBER_FIELDS
    ids=["3 MB", "1,500 fields"],
)
def test_a_body_too_big_to_read_sent_where_no_page_is_gets_the_not_found_page(body):
    """Django's 404 page read the body for its CSRF token and failed with a 500."""
    client = Client(enforce_csrf_checks=True)
    client.cookies["csrftoken"] = "n" * 32
    response = client.post(
        "/classes/" + "9" * 5000 + "/", body,
        content_type="application/x-www-form-urlencoded", HTTP_X_CSRFTOKEN="n" * 32,
    )
    assert response.status_code == 404
    assert "This page is not here" in unescape(response.content.decode())


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "This was too long to send"), ("fr", "C'était trop long pour être envoyé")],
)
def test_a_paste_too_long_to_read_is_told_so_in_the_pages_language(teacher, classroom, language,
                                                                   words):
    """Django's own page said only "Bad Request (400)", in English, without a way back."""
    client = Client()
    client.force_login(teacher)
    response = client.post(
        f"/classes/{classroom.pk}/pupils/add/", b"pupils=" + b"Zoe Q\n" * 500_000,
        content_type="application/x-www-form-urlencoded", HTTP_ACCEPT_LANGUAGE=language,
    )
    html = unescape(response.content.decode())
    assert response.status_code == 400
    assert f'<html lang="{language}">' in html and words in html
    assert 'class="topbar"' in html and 'href="/classes/"' in html
    assert not classroom.pupils.exists()


def test_a_body_that_cannot_be_read_is_told_so():
    response = Client().post(
        "/join/", b"--x\r\nnot a part", content_type="multipart/form-data; boundary="
    )
    assert response.status_code == 400
    assert "Numbo could not read what was sent" in unescape(response.content.decode())


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "There is no page at this address"), ("fr", "Il n'y a pas de page à cette adresse")],
)
def test_a_buttons_address_opened_after_signing_in_again_is_numbos_page(
    client, teacher, classroom, language, words
):
    """The session ran out, the button sent the teacher to sign in, and the
    sign-in sent them back to the button's address: Django's require_POST
    answered a blank page."""
    archive = f"/classes/{classroom.pk}/archive/"
    to_sign_in = client.post(archive)
    assert to_sign_in.status_code == 302 and "next=" in to_sign_in["Location"]
    back = client.post(
        to_sign_in["Location"], {"username": teacher.email, "password": "correct-horse-42"}
    )
    assert back["Location"] == archive

    response = client.get(back["Location"], HTTP_ACCEPT_LANGUAGE=language)

    html = unescape(response.content.decode())
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert f'<html lang="{language}">' in html and words in html
    assert 'href="/classes/"' in html
    classroom.refresh_from_db()
    assert not classroom.is_archived


def test_a_form_sent_to_a_page_that_takes_none_is_told_so(pupil_client):
    response = pupil_client.post("/privacy/", {"anything": "1"})
    html = unescape(response.content.decode())
    assert response.status_code == 405
    assert "This page takes no form" in html and 'href="/me/"' in html
