import re

import pytest
from django.core import mail
from django.urls import reverse

from classroom.models import Teacher

pytestmark = pytest.mark.django_db


def _link(message, marker):
    line = next(line for line in message.body.splitlines() if marker in line)
    return line.split("testserver", 1)[1]


def test_a_new_teacher_signs_up_and_lands_on_a_new_class(client):
    response = client.post(
        reverse("sign_up"), {"email": "New@School.test", "display_name": "Mr N"}
    )
    assert response.url == reverse("sign_up_sent")
    assert not Teacher.objects.exists()  # not before the owner of the address says so
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["new@school.test"]
    finish = _link(mail.outbox[0], "/accounts/sign-up/")
    assert "new@school.test" in client.get(finish).content.decode()
    response = client.post(
        finish, {"new_password1": "a-long-pass-phrase-9", "new_password2": "a-long-pass-phrase-9"}
    )
    assert response.status_code == 302
    assert response.url == reverse("classroom:class_create")
    teacher = Teacher.objects.get()
    assert (teacher.email, teacher.display_name) == ("new@school.test", "Mr N")
    assert teacher.check_password("a-long-pass-phrase-9")
    assert client.get(reverse("classroom:class_list")).status_code == 200
    # The link makes one account, once.
    client.post(reverse("logout"))
    again = client.post(
        finish, {"new_password1": "another-pass-phrase-8", "new_password2": "another-pass-phrase-8"}
    )
    assert "expired or was already used" in again.content.decode()
    teacher.refresh_from_db()
    assert teacher.check_password("a-long-pass-phrase-9")


def test_sign_up_refuses_mismatched_passwords_and_saves_nothing(client):
    client.post(reverse("sign_up"), {"email": "x@school.test", "display_name": "X"})
    finish = _link(mail.outbox[0], "/accounts/sign-up/")
    response = client.post(
        finish, {"new_password1": "a-long-pass-phrase-9", "new_password2": "other-9"}
    )
    assert response.status_code == 200
    assert not Teacher.objects.exists()


def test_a_forged_sign_up_link_makes_no_account(client):
    response = client.post(
        "/accounts/sign-up/eyJlbWFpbCI6ImFAYi5jIn0:forged/",
        {"new_password1": "a-long-pass-phrase-9", "new_password2": "a-long-pass-phrase-9"},
    )
    assert "expired or was already used" in response.content.decode()
    assert not Teacher.objects.exists()


def test_sign_up_answers_alike_whether_the_address_has_an_account(client, teacher):
    """"An account already uses this address" told anyone who had one: now the
    answer is the same, and the owner reads in their e-mail what happened."""
    answers = []
    for email in ("nobody@school.test", teacher.email.upper()):
        response = client.post(reverse("sign_up"), {"email": email, "display_name": "Mr X"})
        page = client.get(response.url)
        content = re.sub(rb"[A-Za-z0-9]{64}", b"", page.content)  # the CSRF tokens
        answers.append((response.status_code, response.url, page.status_code, content))
    assert answers[0] == answers[1]
    new, existing = mail.outbox
    assert "/accounts/sign-up/" in new.body
    assert existing.to == [teacher.email]
    assert "you already have one" in existing.body and "/accounts/sign-up/" not in existing.body
    assert Teacher.objects.count() == 1
    teacher.refresh_from_db()
    assert teacher.display_name == "Ms T" and teacher.check_password("correct-horse-42")


def test_sign_in_and_sign_out(client, teacher):
    response = client.post(
        reverse("login"), {"username": "teacher@school.test", "password": "correct-horse-42"}
    )
    assert response.status_code == 302
    assert client.get(reverse("classroom:class_list")).status_code == 200
    client.post(reverse("logout"))
    assert client.get(reverse("classroom:class_list")).status_code == 302


def test_a_wrong_password_is_refused(client, teacher):
    response = client.post(reverse("login"), {"username": teacher.email, "password": "nope"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_password_reset_sends_a_link_that_works(client, teacher):
    client.post(reverse("password_reset"), {"email": teacher.email})
    assert len(mail.outbox) == 1
    link = next(line for line in mail.outbox[0].body.splitlines() if "/reset/" in line)
    path = link.split("testserver", 1)[1]
    response = client.get(path, follow=True)
    assert response.status_code == 200
    form_url = response.redirect_chain[-1][0]
    client.post(
        form_url, {"new_password1": "brand-new-phrase-77", "new_password2": "brand-new-phrase-77"}
    )
    teacher.refresh_from_db()
    assert teacher.check_password("brand-new-phrase-77")


def test_admin_is_for_staff_only(client, teacher):
    client.force_login(teacher)
    assert client.get("/admin/").status_code == 302
    teacher.is_staff = teacher.is_superuser = True
    teacher.save()
    assert client.get("/admin/classroom/pupil/").status_code == 200


def test_teacher_sign_in_stops_after_too_many_wrong_passwords(client, teacher, settings):
    """30 wrong passwords, then the right one, once signed in."""
    url = reverse("login")
    for _ in range(settings.NUMBO["TEACHER_SIGN_IN_TRIES_PER_ACCOUNT"]):
        client.post(url, {"username": teacher.email, "password": "wrong-guess"})
    response = client.post(url, {"username": teacher.email, "password": "correct-horse-42"})
    assert response.status_code == 200
    assert "Try again in 15 minutes" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_teacher_sign_in_is_limited_by_address_too(client, teacher, other_teacher, settings):
    settings.NUMBO = {**settings.NUMBO, "TEACHER_SIGN_IN_TRIES_PER_ADDRESS": 3}
    url = reverse("login")
    for n in range(3):
        client.post(url, {"username": f"guess{n}@school.test", "password": "wrong-guess"})
    response = client.post(url, {"username": teacher.email, "password": "correct-horse-42"})
    assert "_auth_user_id" not in client.session
    assert "Try again in" in response.content.decode()


@pytest.mark.parametrize("has_account", [True, False])
def test_password_resets_are_limited_per_address_alike(client, teacher, settings, has_account):
    email = teacher.email if has_account else "nobody@school.test"
    limit = settings.NUMBO["EMAILS_PER_ACCOUNT"]
    for _ in range(limit):
        response = client.post(reverse("password_reset"), {"email": email})
        assert response.url == reverse("password_reset_done")
    refused = client.post(reverse("password_reset"), {"email": email.upper()})
    assert refused.status_code == 429
    assert "Too many emails asked for. Try again in 60 minutes." in refused.content.decode()
    assert len(mail.outbox) == (limit if has_account else 0)
    # Another address from the same machine is still served.
    response = client.post(reverse("password_reset"), {"email": "other@school.test"})
    assert response.status_code == 302


def test_password_resets_are_limited_per_client_address(client, teacher, settings):
    settings.NUMBO = {**settings.NUMBO, "EMAILS_PER_CLIENT_ADDRESS": 4}
    for n in range(4):
        client.post(reverse("password_reset"), {"email": f"guess{n}@school.test"})
    refused = client.post(reverse("password_reset"), {"email": teacher.email})
    assert refused.status_code == 429
    assert not mail.outbox


def test_sign_ups_share_the_limit_of_emails(client, teacher, settings):
    for _ in range(settings.NUMBO["EMAILS_PER_ACCOUNT"]):
        client.post(reverse("password_reset"), {"email": teacher.email})
    refused = client.post(reverse("sign_up"), {"email": teacher.email, "display_name": "X"})
    assert refused.status_code == 429
    assert "Too many emails asked for" in refused.content.decode()
    assert len(mail.outbox) == settings.NUMBO["EMAILS_PER_ACCOUNT"]


def test_sign_up_and_its_emails_in_french(client, teacher):
    client.cookies["django_language"] = "fr"
    response = client.post(reverse("sign_up"), {"email": teacher.email, "display_name": "X"})
    assert "Consultez vos e-mails" in client.get(response.url).content.decode()
    client.post(reverse("sign_up"), {"email": "nouveau@ecole.test", "display_name": "M. N"})
    existing, new = mail.outbox
    assert existing.subject == "Numbo : votre compte enseignant"
    assert "mais vous en avez déjà un" in existing.body
    assert "choisissez votre mot de passe avec ce lien" in new.body
    finish = client.get(_link(new, "/accounts/sign-up/")).content.decode()
    assert "Choisissez le mot de passe du compte de nouveau@ecole.test." in finish


@pytest.mark.parametrize(
    ("address", "language", "words"),
    [("/accounts/login/", "en", "Ensure this value has at most 254 characters"),
     ("/accounts/login/", "fr", "comporte au plus 254 caractères"),
     ("/admin/login/", "en", "Ensure this value has at most 254 characters")],
)
def test_an_address_too_long_to_be_an_account_is_refused_in_words(client, teacher, address,
                                                                  language, words):
    """Django's sign-in form sets its username's length after the field is
    made, so nothing checked it: 100,000 characters went into a
    case-insensitive query, a LIKE pattern too long for SQLite (a 500)."""
    typed = "7" * 100_000
    response = client.post(address, {"username": typed, "password": "correct-horse-42"},
                           HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert words in response.content.decode()
    assert "_auth_user_id" not in client.session
