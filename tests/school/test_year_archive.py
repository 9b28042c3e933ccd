"""Archiving a school year: every class of the year at once, with its leavers."""

from __future__ import annotations

import pytest
from django.urls import reverse

from classroom.models import Classroom, Pupil, YearGroup
from school.models import AuditEntry

pytestmark = pytest.mark.django_db

URL = reverse("school:year_end")


@pytest.fixture
def cm2(world):
    """A second class of 2025-2026: the CM2, whose pupils leave primary school."""
    classroom = Classroom.objects.create(
        teacher=world.ben, name="CM2", school_year="2025-2026", year_group=YearGroup.AGE_10
    )
    for name, avatar in (("Hugo", "lion"), ("Jade", "bear")):
        Pupil.objects.create(
            classroom=classroom, first_name=name, initial="P", avatar=avatar,
            picture_password="sun,moon,star",
        )
    return classroom


def test_the_page_shows_the_oldest_year_with_the_cm2_ticked_as_leaving(world, cm2):
    page = world.client(world.admin).get(URL).content.decode()
    assert 'value="2025-2026" selected' in page
    assert "CE2 B" in page and "CM2" in page and "CM1 A" not in page  # CM1 A is 2026-2027
    hugo = cm2.pupils.get(first_name="Hugo")
    lea = world.ce2.pupils.get(first_name="Léa")
    assert f'value="{hugo.pk}" checked' in page
    assert f'value="{lea.pk}">' in page  # not ticked
    assert "CP Voisin" not in page  # another school's


def test_the_administrator_archives_every_class_of_the_year_and_marks_the_leavers(world, cm2):
    hugo = cm2.pupils.get(first_name="Hugo")
    lea = world.ce2.pupils.get(first_name="Léa")
    response = world.client(world.admin).post(
        URL, {"school_year": "2025-2026", "leavers": [hugo.pk, lea.pk], "confirm": "on"},
        follow=True,
    )
    assert "2025-2026 archived: 2 classes, 2 pupils leaving the school." in (
        response.content.decode()
    )
    for classroom in (world.ce2, cm2):
        classroom.refresh_from_db()
        assert classroom.is_archived
    world.cm1.refresh_from_db()
    world.other_class.refresh_from_db()
    assert not world.cm1.is_archived and not world.other_class.is_archived
    left = set(Pupil.objects.filter(left_at__isnull=False).values_list("first_name", flat=True))
    assert left == {"Hugo", "Léa"}
    entry = AuditEntry.objects.get()
    assert (entry.kind, entry.school, entry.teacher, entry.pupil_count, entry.detail) == (
        AuditEntry.Kind.YEAR_ARCHIVED, world.school, world.admin, 2,
        {"school_year": "2025-2026", "classes": 2},
    )


def test_a_teacher_still_reads_an_archived_class_and_its_report(world, cm2):
    world.client(world.admin).post(URL, {"school_year": "2025-2026", "confirm": "on"})
    client = world.client(world.ana)
    page = client.get(reverse("classroom:class_detail", args=[world.ce2.pk]))
    assert page.status_code == 200 and "This class is archived" in page.content.decode()
    assert client.get(reverse("reports:class_report", args=[world.ce2.pk])).status_code == 200
    listed = client.get(reverse("classroom:class_list") + "?archived=1").content.decode()
    assert "CE2 B" in listed


def test_pupils_of_an_archived_class_are_signed_out_and_kept_out(world, cm2, client):
    from tests.conftest import tap_pictures

    hugo = cm2.pupils.get(first_name="Hugo")
    assert tap_pictures(client, hugo, ["sun", "moon", "star"]).status_code == 302
    world.client(world.admin).post(URL, {"school_year": "2025-2026", "confirm": "on"})
    home = client.get(reverse("classroom:pupil_home"))
    assert home.status_code == 302  # back to the class code page


def test_without_the_confirmation_nothing_is_archived(world, cm2):
    response = world.client(world.admin).post(URL, {"school_year": "2025-2026"})
    assert "Tick the box to say you understand" in response.content.decode().replace(
        "&#x27;", "'"
    )
    cm2.refresh_from_db()
    assert not cm2.is_archived and not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    "forged",
    ["other_school_pupil", "next_year_pupil", "not_an_id", "huge_id", "5000_digits", "year"],
)
def test_forged_archives_are_refused(world, cm2, forged):
    data = {"school_year": "2025-2026", "confirm": "on", "leavers": []}
    if forged == "other_school_pupil":
        data["leavers"] = [world.other_class.pupils.get().pk]
    elif forged == "next_year_pupil":
        data["leavers"] = [world.cm1.pupils.first().pk]
    elif forged == "not_an_id":
        data["leavers"] = ["'; --"]
    elif forged == "huge_id":  # SQLite cannot bind it: it must not reach the query
        data["leavers"] = ["9" * 20]
    elif forged == "5000_digits":  # more than int() reads
        data["leavers"] = ["7" * 5000]
    else:
        data["school_year"] = "1999-2000"
    response = world.client(world.admin).post(URL, data)
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not Classroom.objects.filter(archived_at__isnull=False).exists()
    assert not Pupil.objects.filter(left_at__isnull=False).exists()
    assert not AuditEntry.objects.exists()


def test_the_year_posted_is_the_year_archived_whatever_the_address_says(world, cm2):
    """The leavers are checked against the posted year's classes, so a pupil of
    the year in the address cannot ride along."""
    lea = world.ce2.pupils.get(first_name="Léa")
    refused = world.client(world.admin).post(
        URL + "?school_year=2025-2026",
        {"school_year": "2026-2027", "confirm": "on", "leavers": [lea.pk]},
    )
    assert refused.status_code == 200 and not Pupil.objects.filter(left_at__isnull=False)
    response = world.client(world.admin).post(
        URL + "?school_year=2025-2026", {"school_year": "2026-2027", "confirm": "on"}
    )
    assert response.status_code == 302
    world.cm1.refresh_from_db()
    world.ce2.refresh_from_db()
    assert world.cm1.is_archived and not world.ce2.is_archived


@pytest.mark.parametrize("who", ["ana", "lead", "lone"])
def test_only_the_administrator_archives_a_year(world, cm2, who):
    client = world.client(getattr(world, who))
    assert client.get(URL).status_code == 403
    response = client.post(URL, {"school_year": "2025-2026", "confirm": "on"})
    assert response.status_code == 403
    assert not Classroom.objects.filter(archived_at__isnull=False).exists()


def test_another_schools_administrator_archives_only_their_own(world, cm2):
    client = world.client(world.other_admin)
    page = client.get(URL + "?school_year=2025-2026").content.decode()
    assert "CE2 B" not in page and "CM2" not in page
    client.post(URL, {"school_year": "2025-2026", "confirm": "on"})
    assert not Classroom.objects.filter(pk__in=[world.ce2.pk, cm2.pk], archived_at__isnull=False)
