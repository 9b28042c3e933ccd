import pytest
from django.core import mail
from django.urls import reverse

from classroom.models import Teacher

pytestmark = pytest.mark.django_db


def test_a_new_teacher_signs_up_and_lands_on_a_new_class(client):
    response = client.post(
        reverse("sign_up"),
        {
            "email": "New@School.test",
            "display_name": "Mr N",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )
    assert response.status_code == 302
    assert response.url == reverse("classroom:class_create")
    assert Teacher.objects.get().email == "new@school.test"
    assert client.get(reverse("classroom:class_list")).status_code == 200


def test_sign_up_refuses_mismatched_passwords_and_saves_nothing(client):
    response = client.post(
        reverse("sign_up"),
        {"email": "x@school.test", "password1": "a-long-pass-phrase-9", "password2": "other-9"},
    )
    assert response.status_code == 200
    assert not Teacher.objects.exists()


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
