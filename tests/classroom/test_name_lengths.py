"""Names are normalised, then checked: what is checked is what is saved. SQLite
stores an overlong name; PostgreSQL refuses it with a 500."""

import pytest
from django.urls import reverse

from classroom.models import Pupil
from classroom.roster import MAX_FIRST_NAME, NameRefused, clean_name, parse_line

pytestmark = pytest.mark.django_db


def fits(pupil: Pupil) -> bool:
    return all(
        len(getattr(pupil, field.name)) <= field.max_length
        for field in Pupil._meta.get_fields()
        if getattr(field, "max_length", None) and field.concrete
    )


@pytest.mark.parametrize(
    "typed, stored",
    [
        (("ß" * 30, "K"), ("ß" * 30, "K")),
        (("Ann", "ßorn"), ("Ann", "ß")),
        (("léa", "martin"), ("Léa", "M")),
        (("Ine\u0300s", ""), ("Inès", "")),  # combining accent: one letter once composed
    ],
)
def test_clean_name_keeps_every_name_within_its_field(typed, stored):
    assert clean_name(*typed) == stored


@pytest.mark.parametrize("first", ["ß" * 31, "ﬁ" * 16, "Lé²", "A\u200fnn", "Ann\x00"])
def test_clean_name_refuses_what_would_not_fit_or_is_not_a_name(first):
    with pytest.raises(NameRefused):
        clean_name(first, "K")


def test_a_pasted_long_sharp_s_name_is_saved_within_its_field(teacher_client, classroom):
    paste = f"{'ß' * 30} K\nAnn ßorn\n{'ß' * 31} K\n"
    lines = [parse_line(n, text) for n, text in enumerate(paste.splitlines(), start=1)]
    assert [bool(line.error) for line in lines] == [False, False, True]
    url = reverse("classroom:pupils_add", args=[classroom.pk])
    digest = teacher_client.post(url, {"pupils": paste}).context["previewed"]
    teacher_client.post(url, {"pupils": paste, "previewed": digest, "confirm": "1"})
    # A preview with an error saves nothing; the two good lines alone do.
    paste = "\n".join(paste.splitlines()[:2])
    digest = teacher_client.post(url, {"pupils": paste}).context["previewed"]
    teacher_client.post(url, {"pupils": paste, "previewed": digest, "confirm": "1"})
    saved = list(classroom.pupils.order_by("pk"))
    assert [(p.first_name, p.initial) for p in saved] == [("ß" * 30, "K"), ("Ann", "ß")]
    assert all(fits(p) for p in saved)
    assert len(saved[0].first_name) == MAX_FIRST_NAME


@pytest.mark.parametrize(
    "first, initial, ok",
    [("ß" * 30, "K", True), ("Ann", "ß", True), ("ﬁ" * 16, "K", False), ("Lé²", "", False)],
)
def test_the_pupil_form_normalises_then_validates(teacher_client, pupils, first, initial, ok):
    lea = pupils[0]
    response = teacher_client.post(
        reverse("classroom:pupil_edit", args=[lea.pk]),
        {"first_name": first, "initial": initial, "avatar": "owl"},
    )
    lea.refresh_from_db()
    assert fits(lea)
    assert (response.status_code == 302) == ok
    assert (lea.first_name == "Léa") != ok
