"""Every teacher page refuses another teacher, a pupil and an anonymous visitor."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

CLASS_VIEWS = [
    ("classroom:class_detail", "get"),
    ("classroom:class_edit", "get"),
    ("classroom:class_edit", "post"),
    ("classroom:class_archive", "post"),
    ("classroom:class_copy", "get"),
    ("classroom:class_copy", "post"),
    ("classroom:pupils_add", "get"),
    ("classroom:pupils_add", "post"),
    ("classroom:code_reset", "post"),
    ("classroom:class_qr", "get"),
    ("classroom:sign_in_cards", "get"),
    ("classroom:sign_out_all", "post"),
]
PUPIL_VIEWS = [
    ("classroom:pupil_edit", "get"),
    ("classroom:pupil_edit", "post"),
    ("classroom:pupil_unlock", "post"),
    ("classroom:pupil_export", "get"),
    ("classroom:pupil_erase", "get"),
    ("classroom:pupil_erase", "post"),
]


def _targets(classroom, pupils):
    for name, method in CLASS_VIEWS:
        yield reverse(name, args=[classroom.pk]), method
    for name, method in PUPIL_VIEWS:
        yield reverse(name, args=[pupils[0].pk]), method


def test_another_teacher_gets_not_found(client, other_teacher, classroom, pupils):
    client.force_login(other_teacher)
    for url, method in _targets(classroom, pupils):
        response = getattr(client, method)(url, {"name": "Hacked", "school_year": "2026-2027"})
        assert response.status_code == 404, url
    classroom.refresh_from_db()
    assert classroom.name == "CE2 B" and classroom.pupils.count() == 3


def test_anonymous_visitors_are_sent_to_sign_in(client, classroom, pupils):
    for url, method in [
        *_targets(classroom, pupils),
        (reverse("classroom:class_list"), "get"),
        (reverse("classroom:class_create"), "get"),
    ]:
        response = getattr(client, method)(url)
        assert response.status_code == 302 and reverse("login") in response.url, url


def test_a_signed_in_pupil_is_refused_teacher_pages(pupil_client, classroom, pupils):
    for url, method in _targets(classroom, pupils):
        response = getattr(pupil_client, method)(url)
        assert response.status_code == 302 and reverse("login") in response.url, url
    assert classroom.pupils.count() == 3


def test_pupil_pages_refuse_adults_and_strangers(client, teacher):
    assert client.get(reverse("classroom:pupil_home")).url == reverse("classroom:join")
    client.force_login(teacher)
    assert client.get(reverse("classroom:pupil_home")).url == reverse("classroom:join")


def test_class_list_shows_only_my_classes(client, other_teacher, classroom):
    client.force_login(other_teacher)
    assert "CE2 B" not in client.get(reverse("classroom:class_list")).content.decode()


def test_csrf_is_enforced(classroom, teacher):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(teacher)
    response = strict.post(
        reverse("classroom:code_reset", args=[classroom.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 403
