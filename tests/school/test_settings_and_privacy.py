"""The school's retention setting: edited by its administrator, said on the
privacy page in the reader's language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from school.models import AuditEntry

pytestmark = pytest.mark.django_db

SETTINGS = reverse("school:settings")
PRIVACY = reverse("classroom:privacy")


def leavers_line(response) -> str:
    return response.content.decode().split('data-testid="leavers">')[1].split("</p>")[0]


def test_the_administrator_sets_the_days_and_the_change_is_recorded(world):
    client = world.client(world.admin)
    assert client.get(SETTINGS).status_code == 200
    response = client.post(SETTINGS, {"leavers_kept_days": "60"})
    assert response.status_code == 302
    world.school.refresh_from_db()
    assert world.school.leavers_kept_days == 60
    entry = AuditEntry.objects.get()
    assert (entry.kind, entry.school, entry.teacher, entry.detail) == (
        AuditEntry.Kind.RETENTION_CHANGED, world.school, world.admin, {"days": 60, "before": 30}
    )
    client.post(SETTINGS, {"leavers_kept_days": "60"})  # unchanged: nothing more recorded
    assert AuditEntry.objects.count() == 1


@pytest.mark.parametrize(
    "value, message",
    [
        ("-1", "At least 0 days"),
        ("4000", "At most 3650 days (ten years)."),
        ("thirty", "A whole number of days, please."),
        ("", "Say how many days"),
        ("1e3", "A whole number of days, please."),
    ],
)
def test_a_wrong_number_of_days_is_refused_with_a_message(world, value, message):
    response = world.client(world.admin).post(SETTINGS, {"leavers_kept_days": value})
    assert response.status_code == 200 and message in response.content.decode()
    world.school.refresh_from_db()
    assert world.school.leavers_kept_days == 30


@pytest.mark.parametrize("who", ["ana", "lead", "lone"])
def test_only_the_administrator_changes_the_setting(world, who):
    client = world.client(getattr(world, who))
    assert client.get(SETTINGS).status_code == 403
    assert client.post(SETTINGS, {"leavers_kept_days": "1"}).status_code == 403
    world.school.refresh_from_db()
    assert world.school.leavers_kept_days == 30


def test_another_schools_administrator_changes_only_their_own(world):
    world.client(world.other_admin).post(SETTINGS, {"leavers_kept_days": "5"})
    world.school.refresh_from_db()
    world.other_school.refresh_from_db()
    assert (world.school.leavers_kept_days, world.other_school.leavers_kept_days) == (30, 5)


def test_the_privacy_page_says_the_readers_schools_days_in_english_and_french(world):
    world.school.leavers_kept_days = 45
    world.school.save()
    client = world.client(world.ana)
    assert leavers_line(client.get(PRIVACY)) == (
        "Pupils who leave École Jules Ferry are erased 45 days after they leave."
    )
    assert leavers_line(client.get(PRIVACY, HTTP_ACCEPT_LANGUAGE="fr")) == (
        "École Jules Ferry : les élèves qui quittent l’école sont effacés 45 jours après "
        "leur départ."
    )
    world.school.leavers_kept_days = 1
    world.school.save()
    assert leavers_line(client.get(PRIVACY)) == (
        "Pupils who leave École Jules Ferry are erased 1 day after they leave."
    )
    world.school.leavers_kept_days = 0
    world.school.save()
    assert leavers_line(client.get(PRIVACY, HTTP_ACCEPT_LANGUAGE="fr")) == (
        "École Jules Ferry : les élèves qui quittent l’école sont effacés la nuit qui suit "
        "leur départ."
    )


def test_a_pupil_reads_their_schools_days(world):
    from tests.conftest import tap_pictures

    world.other_school.leavers_kept_days = 7
    world.other_school.save()
    client = Client()
    zoe = world.other_class.pupils.get()
    assert tap_pictures(client, zoe, ["sun", "moon", "star"]).status_code == 302
    assert leavers_line(client.get(PRIVACY)) == (
        "Pupils who leave École Voisine are erased 7 days after they leave."
    )


def test_a_visitor_and_a_lone_teacher_read_the_general_sentence(world, client):
    general = (
        "Pupils who leave their school are erased automatically after the number of days "
        "their school sets (30 days unless it sets another)."
    )
    assert leavers_line(client.get(PRIVACY)) == general
    assert leavers_line(world.client(world.lone).get(PRIVACY)) == general
    french = leavers_line(client.get(PRIVACY, HTTP_ACCEPT_LANGUAGE="fr"))
    assert french == (
        "Les élèves qui quittent leur école sont effacés automatiquement après le nombre de "
        "jours que fixe leur école (30 jours si elle n’en fixe pas d’autre)."
    )


def test_the_home_page_links_the_privacy_page(client):
    assert PRIVACY in client.get(reverse("home")).content.decode()
