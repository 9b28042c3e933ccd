"""A pupil's lock grows (issue 31, section 6): one machine renewing its device
cookie got 20 picture passwords every 10 minutes, all 1,320 within 11 hours.
Now each lock lasts twice the one before, the third holds until the teacher
unlocks, and the teacher sees that someone tried."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.conftest import tap_pictures

pytestmark = pytest.mark.django_db

WRONG = ["moon", "sun", "star"]
RIGHT = ["sun", "moon", "star"]


def _script_guesses(pupil, count: int) -> list[int]:
    """Wrong guesses from one machine that takes a new device cookie whenever
    its device is locked out; the status of each answer."""
    statuses, script = [], None
    for n in range(count):
        if n % 5 == 0:
            script = Client()
            script.get(reverse("classroom:join"))
        statuses.append(tap_pictures(script, pupil, WRONG).status_code)
    return statuses


def _later(pupil, minutes: float) -> None:
    """Let time pass for the pupil's lock and the devices' locks."""
    shift = timedelta(minutes=minutes)
    pupil.refresh_from_db()
    if pupil.locked_until:
        type(pupil).objects.filter(pk=pupil.pk).update(locked_until=pupil.locked_until - shift)
    for row in pupil.wrong_pictures.exclude(locked_until=None):
        row.locked_until -= shift
        row.save()


def test_each_lock_lasts_twice_the_one_before_then_holds(classroom, pupils, settings):
    lea = pupils[0]
    per_lock = settings.NUMBO["PICTURE_PASSWORD_TRIES_PER_PUPIL"]
    durations = []
    for _lock in range(2):
        _script_guesses(lea, per_lock)
        lea.refresh_from_db()
        assert lea.is_locked
        durations.append(round((lea.locked_until - timezone.now()) / timedelta(minutes=1)))
        assert _script_guesses(lea, 1) == [423]  # locked: not checked
        _later(lea, durations[-1] + 1)
    assert durations == [10, 20]
    _script_guesses(lea, per_lock)
    lea.refresh_from_db()
    assert lea.sign_in_held and lea.is_locked
    # A day later, still held: at most 60 of the 1,320 passwords were tried.
    _later(lea, 24 * 60)
    assert _script_guesses(lea, 1) == [423]
    own_tablet = Client()
    own_tablet.get(reverse("classroom:join"))
    response = tap_pictures(own_tablet, lea, RIGHT)
    assert response.status_code == 423
    assert "Ask your teacher to help you." in response.content.decode()
    assert "wait ten minutes" not in response.content.decode()
    lea.refresh_from_db()
    assert lea.wrong_sign_ins == 3 * per_lock


def test_the_right_pictures_between_locks_do_not_stop_the_growth(classroom, pupils, settings):
    lea = pupils[0]
    per_lock = settings.NUMBO["PICTURE_PASSWORD_TRIES_PER_PUPIL"]
    _script_guesses(lea, per_lock)
    _later(lea, 11)
    assert tap_pictures(Client(), lea, RIGHT).status_code == 302
    _script_guesses(lea, per_lock)
    lea.refresh_from_db()
    assert round((lea.locked_until - timezone.now()) / timedelta(minutes=1)) == 20


def test_the_teacher_sees_someone_tried_and_unlocking_starts_again(
    classroom, pupils, settings, teacher_client
):
    lea = pupils[0]
    per_lock = settings.NUMBO["PICTURE_PASSWORD_TRIES_PER_PUPIL"]
    detail = reverse("classroom:class_detail", args=[classroom.pk])
    assert "someone tried" not in teacher_client.get(detail).content.decode()
    for _lock in range(3):
        _script_guesses(lea, per_lock)
        _later(lea, 60)
    page = teacher_client.get(detail).content.decode()
    assert "locked until you unlock them" in page
    assert f"someone tried {3 * per_lock} wrong picture passwords" in page
    teacher_client.post(reverse("classroom:pupil_unlock", args=[lea.pk]))
    page = teacher_client.get(detail).content.decode()
    assert "someone tried" not in page and "locked" not in page
    assert tap_pictures(Client(), lea, RIGHT).status_code == 302
    _script_guesses(lea, per_lock)
    lea.refresh_from_db()
    assert round((lea.locked_until - timezone.now()) / timedelta(minutes=1)) == 10


def test_a_timed_lock_still_shows_who_tried_once_it_ends(
    classroom, pupils, settings, teacher_client
):
    lea = pupils[0]
    _script_guesses(lea, settings.NUMBO["PICTURE_PASSWORD_TRIES_PER_PUPIL"])
    _later(lea, 11)
    page = teacher_client.get(reverse("classroom:class_detail", args=[classroom.pk]))
    assert "someone tried 20 wrong picture passwords" in page.content.decode()
    assert "Unlock" in page.content.decode()


def test_the_teacher_reads_it_in_french(classroom, pupils, settings, teacher_client):
    lea = pupils[0]
    for _lock in range(3):
        _script_guesses(lea, settings.NUMBO["PICTURE_PASSWORD_TRIES_PER_PUPIL"])
        _later(lea, 60)
    teacher_client.cookies["django_language"] = "fr"
    page = teacher_client.get(reverse("classroom:class_detail", args=[classroom.pk]))
    text = html.unescape(page.content.decode())
    assert "bloqué jusqu'à ce que vous le débloquiez" in text
    assert "quelqu'un a essayé 60 mots de passe en images faux" in text
    tablet = Client()
    tablet.cookies["django_language"] = "fr"
    locked = html.unescape(tap_pictures(tablet, lea, RIGHT).content.decode())
    assert "Trop d'images fausses. Demande de l'aide à ton enseignant." in locked
