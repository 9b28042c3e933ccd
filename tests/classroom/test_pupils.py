import json

import pytest
from django.urls import reverse

from classroom.models import Pupil

pytestmark = pytest.mark.django_db

PASTE = "Léa Martin\n\n  noah b.\nInès\nLéa M\n"


def preview(client, classroom, text):
    return client.post(reverse("classroom:pupils_add", args=[classroom.pk]), {"pupils": text})


def test_paste_shows_a_preview_and_saves_nothing(teacher_client, classroom):
    response = preview(teacher_client, classroom, PASTE)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Léa M." in page and "Noah B." in page and "Inès" in page
    assert "Same name as another pupil" in page  # the second Léa M.
    assert not Pupil.objects.exists()


def test_confirming_the_preview_saves_the_pupils(teacher_client, classroom):
    response = preview(teacher_client, classroom, PASTE)
    digest = response.context["previewed"]
    response = teacher_client.post(
        reverse("classroom:pupils_add", args=[classroom.pk]),
        {"pupils": PASTE, "previewed": digest, "confirm": "1"},
    )
    assert response.status_code == 302
    pupils = list(classroom.pupils.order_by("pk"))
    assert [(p.first_name, p.initial) for p in pupils] == [
        ("Léa", "M"),
        ("Noah", "B"),
        ("Inès", ""),
        ("Léa", "M"),
    ]
    assert len({p.avatar for p in pupils}) == 4  # look-alike names get different pictures
    assert all(len(p.password_pictures) == 3 for p in pupils)
    page = teacher_client.get(
        reverse("classroom:class_detail", args=[classroom.pk])
    ).content.decode()
    assert "Léa M. (1)" in page and "Léa M. (2)" in page


def test_a_list_edited_after_the_preview_is_previewed_again(teacher_client, classroom):
    digest = preview(teacher_client, classroom, PASTE).context["previewed"]
    response = teacher_client.post(
        reverse("classroom:pupils_add", args=[classroom.pk]),
        {"pupils": PASTE + "Zoé\n", "previewed": digest, "confirm": "1"},
    )
    assert response.status_code == 200
    assert not Pupil.objects.exists()


def test_bad_lines_are_shown_and_block_the_confirmation(teacher_client, classroom):
    text = "Léa\n12345\n" + "A" * 31 + "\n"
    response = preview(teacher_client, classroom, text)
    assert response.context["has_errors"]
    digest = response.context["previewed"]
    teacher_client.post(
        reverse("classroom:pupils_add", args=[classroom.pk]),
        {"pupils": text, "previewed": digest, "confirm": "1"},
    )
    assert not Pupil.objects.exists()


def test_a_huge_paste_is_refused_with_a_message(teacher_client, classroom):
    response = preview(teacher_client, classroom, "\n".join(f"Pupil{i}" for i in range(61)))
    assert "at most 60 pupils" in response.content.decode()
    response = preview(teacher_client, classroom, "x" * 100_000)
    assert "too long" in response.content.decode()
    assert not Pupil.objects.exists()


def test_edit_a_pupil_and_make_a_new_picture_password(teacher_client, pupils):
    lea = pupils[0]
    teacher_client.post(
        reverse("classroom:pupil_edit", args=[lea.pk]),
        {"first_name": "Léane", "initial": "m", "avatar": "owl"},
    )
    lea.refresh_from_db()
    assert (lea.first_name, lea.initial, lea.avatar) == ("Léane", "M", "owl")
    old = lea.picture_password
    for _ in range(5):  # 1 in 1320 to draw the same one again; five draws make it negligible
        teacher_client.post(reverse("classroom:pupil_edit", args=[lea.pk]), {"new_password": "1"})
        lea.refresh_from_db()
        if lea.picture_password != old:
            break
    assert lea.picture_password != old


def test_export_holds_the_pupil_and_their_records(teacher_client, pupils):
    response = teacher_client.get(reverse("classroom:pupil_export", args=[pupils[0].pk]))
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["pupil"]["first_name"] == "Léa"
    assert data["records"]["classroom.Pupil"][0]["first_name"] == "Léa"


def test_erase_removes_the_pupil_after_confirmation(teacher_client, pupils):
    lea = pupils[0]
    page = teacher_client.get(reverse("classroom:pupil_erase", args=[lea.pk]))
    assert page.status_code == 200 and Pupil.objects.filter(pk=lea.pk).exists()
    teacher_client.post(reverse("classroom:pupil_erase", args=[lea.pk]))
    assert not Pupil.objects.filter(pk=lea.pk).exists()
    assert Pupil.objects.count() == 2


def test_every_line_of_a_shared_name_is_flagged_and_a_repeat_is_called_out(
    teacher_client, classroom
):
    text = "Léa Martin\n\n  Tom Dupont\nTom  Dupont\nTom Durand\n"
    lines = preview(teacher_client, classroom, text).context["preview"]
    flags = {line.line_number: (line.duplicate, line.repeat_of) for line in lines}
    assert flags == {1: (False, 0), 3: (True, 0), 4: (True, 3), 5: (True, 0)}
    page = preview(teacher_client, classroom, text).content.decode()
    assert "The same as line 3: pasted twice?" in page
    assert page.count("Same name as another pupil") == 2  # lines 3 and 5


def test_names_typed_in_capitals_are_written_as_names():
    from classroom.roster import clean_name

    assert clean_name("ÉMILIE", "bernard") == ("Émilie", "B")
    assert clean_name("JEAN-BAPTISTE") == ("Jean-Baptiste", "")
    assert clean_name("jean-baptiste") == ("Jean-Baptiste", "")
    assert clean_name("ANAÏS") == ("Anaïs", "")
    assert clean_name("N'GOLO") == ("N'Golo", "")
    # As the teacher meant them: mixed case, and two capitals (initials).
    assert clean_name("DeShawn") == ("DeShawn", "")
    assert clean_name("deShawn") == ("DeShawn", "")
    assert clean_name("JB") == ("JB", "")
    assert clean_name("ß") == ("ß", "")


def test_pupils_are_listed_as_a_french_class_list_reads(teacher_client, classroom):
    from django.test import Client

    for first in ["Zoé", "Émilie", "Adam", "élise", "Eva"]:
        Pupil.objects.create(classroom=classroom, first_name=first, initial="B")
    expected = ["Adam B.", "élise B.", "Émilie B.", "Eva B.", "Zoé B."]

    def order(url, client=teacher_client):
        page = client.get(url).content.decode()
        assert all(name in page for name in expected), url
        return sorted(expected, key=page.index)

    assert order(reverse("classroom:class_detail", args=[classroom.pk])) == expected
    assert order(reverse("classroom:sign_in_cards", args=[classroom.pk])) == expected
    assert order(reverse("games:session_new", args=[classroom.pk])) == expected
    assert order(reverse("reports:class_report", args=[classroom.pk])) == expected
    assert order(reverse("classroom:join_class", args=[classroom.code]), Client()) == expected


def test_the_class_page_keeps_picture_passwords_behind_a_toggle(teacher_client, pupils):
    classroom = pupils[0].classroom
    page = teacher_client.get(reverse("classroom:class_detail", args=[classroom.pk]))
    page = page.content.decode()
    assert 'class="show-passwords" id="show-passwords" type="checkbox"' in page
    assert page.index('id="show-passwords"') < page.index('<td class="password">')
    assert "checked" not in page.split('id="show-passwords"')[1].split(">")[0]
    cards = teacher_client.get(reverse("classroom:sign_in_cards", args=[classroom.pk]))
    assert "#sun" in cards.content.decode()


def test_each_page_title_says_its_page_once(teacher_client, classroom):
    import re

    from django.test import Client

    client = Client()
    def title(response):
        return re.search(r"<title>(.*?)</title>", response.content.decode(), re.S)[1]

    assert title(client.get("/")) == "Numbo · Number games for the whole class"
    assert title(client.get(reverse("login"))) == "Teacher sign-in · Numbo"
    assert title(
        teacher_client.get(reverse("classroom:class_detail", args=[classroom.pk]))
    ) == "CE2 B · Numbo"
