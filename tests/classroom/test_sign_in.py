from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.conftest import tap_pictures

pytestmark = pytest.mark.django_db


def test_class_code_leads_to_the_name_grid(client, classroom, pupils):
    response = client.post(
        reverse("classroom:join"),
        {"code": classroom.code.lower()[:3] + " " + classroom.code.lower()[3:]},
    )
    assert response.url == reverse("classroom:join_class", args=[classroom.code])
    page = client.get(response.url).content.decode()
    assert "Léa M." in page and "Noah B." in page and "#cat" in page


def test_three_taps_sign_a_pupil_in(client, pupils):
    lea = pupils[0]
    response = tap_pictures(client, lea, ["sun", "moon", "star"])
    assert response.url == reverse("classroom:pupil_home")
    home = client.get(reverse("classroom:pupil_home"))
    assert "Hello Léa!" in home.content.decode()


def test_wrong_pictures_are_counted_and_lock_the_tablet_after_five(
    client, teacher_client, classroom, pupils
):
    lea = pupils[0]
    for _ in range(4):
        response = tap_pictures(client, lea, ["moon", "sun", "star"])
        assert response.status_code == 200
    response = tap_pictures(client, lea, ["moon", "sun", "star"])
    assert response.status_code == 423
    # even the right pictures are refused on this tablet while it is locked out
    assert tap_pictures(client, lea, ["sun", "moon", "star"]).status_code == 423
    # the teacher sees it, and unlocks
    detail = reverse("classroom:class_detail", args=[classroom.pk])
    assert "a tablet locked out after wrong pictures" in teacher_client.get(detail).content.decode()
    teacher_client.post(reverse("classroom:pupil_unlock", args=[lea.pk]))
    assert "locked out" not in teacher_client.get(detail).content.decode()
    assert tap_pictures(client, lea, ["sun", "moon", "star"]).status_code == 302


def test_a_classmate_with_the_code_locks_out_only_their_own_tablet(classroom, pupils):
    """Anyone with the class code could lock any pupil out for ten minutes:
    now the guessing tablet is locked out, and Léa's own tablet still signs in."""
    from django.test import Client

    lea = pupils[0]
    classmate, own_tablet = Client(), Client()  # one school address, two device cookies
    for client in (classmate, own_tablet):
        client.get(reverse("classroom:join"))
    for _ in range(10):
        tap_pictures(classmate, lea, ["moon", "sun", "star"])
    assert tap_pictures(classmate, lea, ["sun", "moon", "star"]).status_code == 423
    lea.refresh_from_db()
    assert not lea.is_locked
    assert tap_pictures(own_tablet, lea, ["sun", "moon", "star"]).status_code == 302


def test_wrong_pictures_from_many_devices_lock_the_pupil_everywhere(
    classroom, pupils, settings, teacher_client
):
    """A script renewing its device cookie gets a few tries per cookie: the
    pupil's own count still locks them out everywhere, as the teacher sees."""
    from django.test import Client

    settings.NUMBO = {**settings.NUMBO, "PICTURE_PASSWORD_TRIES_PER_PUPIL": 6}
    lea = pupils[0]
    for _ in range(3):
        script = Client()  # a new cookie each time: a new device
        script.get(reverse("classroom:join"))
        for _ in range(2):
            tap_pictures(script, lea, ["moon", "sun", "star"])
    lea.refresh_from_db()
    assert lea.is_locked
    own_tablet = Client()
    own_tablet.get(reverse("classroom:join"))
    assert tap_pictures(own_tablet, lea, ["sun", "moon", "star"]).status_code == 423
    detail = teacher_client.get(reverse("classroom:class_detail", args=[classroom.pk]))
    assert "locked after wrong pictures" in detail.content.decode()
    teacher_client.post(reverse("classroom:pupil_unlock", args=[lea.pk]))
    assert tap_pictures(own_tablet, lea, ["sun", "moon", "star"]).status_code == 302


def test_the_right_pictures_forget_that_tablets_wrong_ones(client, pupils):
    lea = pupils[0]
    for _ in range(4):
        tap_pictures(client, lea, ["moon", "sun", "star"])
    assert tap_pictures(client, lea, ["sun", "moon", "star"]).status_code == 302
    assert tap_pictures(client, lea, ["moon", "sun", "star"]).status_code == 200  # 1 of 5 again
    lea.refresh_from_db()
    assert lea.failed_sign_ins == 1


def test_the_lock_ends_after_ten_minutes(client, pupils):
    lea = pupils[0]
    lea.locked_until = timezone.now() - timedelta(seconds=1)
    lea.save()
    assert tap_pictures(client, lea, ["sun", "moon", "star"]).status_code == 302


def test_a_forged_picture_is_ignored(client, pupils):
    lea = pupils[0]
    url = reverse("classroom:join_pupil", args=[lea.classroom.code, lea.pk])
    response = client.post(url, {"so_far": "sun,moon,<script>", "tap": "x" * 5000})
    assert response.status_code == 200
    assert response.context["so_far"] == ["sun", "moon"]


def test_class_without_picture_passwords_signs_in_with_one_tap(client, classroom, pupils):
    classroom.uses_picture_passwords = False
    classroom.save()
    lea = pupils[0]
    url = reverse("classroom:join_pupil", args=[classroom.code, lea.pk])
    assert "s me!" in client.get(url).content.decode()
    assert client.post(url).url == reverse("classroom:pupil_home")


def test_wrong_class_codes_are_rate_limited_per_device(client, classroom):
    client.get(reverse("classroom:join"))  # the page gives the tablet its device cookie
    for _ in range(10):
        response = client.post(reverse("classroom:join"), {"code": "ZZZZZZ"})
        assert response.status_code == 200
        assert "No class has this code" in response.content.decode()
    response = client.post(reverse("classroom:join"), {"code": classroom.code})
    assert response.status_code == 429
    assert "Too many wrong codes" in response.content.decode()


def test_not_me_signs_out_and_goes_back_to_the_names(pupil_client, classroom):
    response = pupil_client.post(reverse("classroom:pupil_sign_out"))
    assert response.url == reverse("classroom:join_class", args=[classroom.code])
    assert pupil_client.get(reverse("classroom:pupil_home")).status_code == 302


def test_the_teacher_signs_out_every_pupil_at_once(pupil_client, classroom, teacher):
    assert pupil_client.get(reverse("classroom:pupil_home")).status_code == 200
    classroom.sign_out_everyone()
    assert pupil_client.get(reverse("classroom:pupil_home")).status_code == 302


def test_a_pupil_sign_in_never_carries_an_adult_session(client, teacher, pupils):
    # A teacher left signed in on a tablet; a pupil then signs in on it.
    client.force_login(teacher)
    assert tap_pictures(client, pupils[0], pupils[0].password_pictures).status_code == 302
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("classroom:class_list")).status_code == 302
    assert client.get(reverse("classroom:pupil_home")).status_code == 200


def test_a_pupil_of_another_class_cannot_be_reached_through_this_code(
    client, pupils, other_teacher
):
    from classroom.models import Classroom

    other = Classroom.objects.create(teacher=other_teacher, name="Other")
    url = reverse("classroom:join_pupil", args=[other.code, pupils[0].pk])
    response = client.get(url)
    assert (response.status_code, response.url) == (302, reverse("classroom:join"))


def test_class_codes_cannot_be_guessed_through_a_pupils_page(client, classroom, pupils):
    """A wrong code and a real code with a wrong pupil answer alike, are counted,
    and guessing stops: 300 tries once got 300 redirects, a real code 200 or 404."""
    wrong_code = reverse("classroom:join_pupil", args=["ZZZZZZ", pupils[0].pk])
    wrong_pupil = reverse("classroom:join_pupil", args=[classroom.code, 999999])
    first, second = client.get(wrong_code), client.get(wrong_pupil)
    assert (first.status_code, first.url) == (second.status_code, second.url)
    statuses = [client.get(wrong_code).status_code for _ in range(30)]
    assert 429 in statuses
    real = reverse("classroom:join_pupil", args=[classroom.code, pupils[0].pk])
    assert client.get(real).status_code == 429  # the guesser learns nothing more


def test_a_fresh_session_is_not_a_fresh_device(classroom, settings):
    """15 wrong codes, each from a new session without the device cookie: once
    all 200, now the address's cookieless device is limited."""
    from django.test import Client

    statuses = [
        Client().post(reverse("classroom:join"), {"code": "ZZZZZZ"}).status_code for _ in range(15)
    ]
    assert statuses[-1] == 429
    # A tablet with its own device cookie, at the same school address, still may.
    tablet = Client()
    tablet.get(reverse("classroom:join"))
    assert tablet.post(reverse("classroom:join"), {"code": "ZZZZZZ"}).status_code == 200


def test_behind_a_trusted_proxy_the_forwarded_address_is_counted(classroom, settings):
    from django.test import Client

    settings.NUMBO = {**settings.NUMBO, "TRUSTED_PROXIES": 1, "CLASS_CODE_TRIES_PER_ADDRESS": 3}
    school_a = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.7")
    school_b = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.9")
    statuses = [
        school_a.post(reverse("classroom:join"), {"code": "ZZ"}).status_code for _ in range(4)
    ]
    assert statuses[-1] == 429
    assert school_b.post(reverse("classroom:join"), {"code": "ZZ"}).status_code == 200


def test_the_top_bar_names_no_pupil_before_they_sign_in(client, pupils):
    lea = pupils[0]
    url = reverse("classroom:join_pupil", args=[lea.classroom.code, lea.pk])
    page = client.get(url).content.decode()
    top_bar = page.split("<header")[1].split("</header>")[0]
    assert "Léa M." not in top_bar and "Not me?" not in top_bar
    assert page.count("Not me") == 1  # one way back: to the names
    tap_pictures(client, lea, lea.password_pictures)
    home = client.get(reverse("classroom:pupil_home")).content.decode()
    top_bar = home.split("<header")[1].split("</header>")[0]
    assert "Léa M." in top_bar and "Not me?" in top_bar
