import pytest
from django.urls import reverse

from classroom.codes import CODE_ALPHABET
from classroom.models import Classroom

pytestmark = pytest.mark.django_db


def test_create_a_class(teacher_client, teacher):
    response = teacher_client.post(
        reverse("classroom:class_create"),
        {"name": "CM1", "school_year": "2026-2027", "uses_picture_passwords": "on"},
    )
    classroom = Classroom.objects.get(teacher=teacher)
    assert response.url == reverse("classroom:pupils_add", args=[classroom.pk])
    assert len(classroom.code) == 6 and set(classroom.code) <= set(CODE_ALPHABET)


def test_a_malformed_school_year_is_refused(teacher_client):
    response = teacher_client.post(
        reverse("classroom:class_create"), {"name": "CM1", "school_year": "2026"}
    )
    assert response.status_code == 200
    assert not Classroom.objects.exists()


def test_rename(teacher_client, classroom):
    teacher_client.post(
        reverse("classroom:class_edit", args=[classroom.pk]),
        {"name": "CE2 Bleu", "school_year": "2026-2027"},
    )
    classroom.refresh_from_db()
    assert classroom.name == "CE2 Bleu"
    assert not classroom.uses_picture_passwords


def test_archive_hides_the_class_and_stops_sign_in(teacher_client, classroom, pupils):
    teacher_client.post(reverse("classroom:class_archive", args=[classroom.pk]))
    classroom.refresh_from_db()
    assert classroom.is_archived
    listing = teacher_client.get(reverse("classroom:class_list")).content.decode()
    assert "CE2 B" not in listing
    assert (
        "CE2 B"
        in teacher_client.get(reverse("classroom:class_list") + "?archived=1").content.decode()
    )
    response = teacher_client.get(reverse("classroom:join_class", args=[classroom.code]))
    assert response.status_code == 302


def test_copy_into_a_new_school_year_keeps_pupils_with_a_new_code(
    teacher_client, classroom, pupils
):
    response = teacher_client.post(
        reverse("classroom:class_copy", args=[classroom.pk]),
        {"name": "CM1 B", "school_year": "2027-2028", "copy_pupils": "on"},
    )
    copy = Classroom.objects.exclude(pk=classroom.pk).get()
    assert response.url == reverse("classroom:class_detail", args=[copy.pk])
    assert copy.school_year == "2027-2028" and copy.code != classroom.code
    assert sorted(copy.pupils.values_list("first_name", flat=True)) == ["Inès", "Léa", "Noah"]
    assert classroom.pupils.count() == 3


def test_reset_code(teacher_client, classroom):
    old = classroom.code
    teacher_client.post(reverse("classroom:code_reset", args=[classroom.pk]))
    classroom.refresh_from_db()
    assert classroom.code != old


def test_qr_code_is_an_svg_of_the_join_link(teacher_client, classroom):
    response = teacher_client.get(reverse("classroom:class_qr", args=[classroom.pk]))
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg") or b"<svg" in response.content[:200]


def test_sign_in_cards_show_each_pupil_and_their_pictures(teacher_client, classroom, pupils):
    page = teacher_client.get(
        reverse("classroom:sign_in_cards", args=[classroom.pk])
    ).content.decode()
    assert page.count('class="signin-card"') == 3
    assert "#sun" in page and "#tree" in page and classroom.code in page
    assert f'Class code: <span class="code">{classroom.code}</span>' in page
    french = teacher_client.get(
        reverse("classroom:sign_in_cards", args=[classroom.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert f'Code de la classe : <span class="code">{classroom.code}</span>' in french


def test_the_class_page_names_each_game_it_lists(teacher_client, classroom, teacher, pupils):
    from games import services

    for game, whole_class in (("numberquest", False), ("nmbr9", True)):
        services.start_session(
            classroom, teacher, game=game, options={}, pupils=pupils[:2], table_size=1,
            whole_class=whole_class, seed=1,
        )
    page = teacher_client.get(reverse("classroom:class_detail", args=[classroom.pk]))
    text = page.content.decode()
    assert "Number Quest · " in text and "NMBR 9 · the whole class · " in text
