"""Pupils who leave: marked from the class page, erased by the beat task and
the erase_leavers command once their school's days are over."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from classroom.models import Attempt, Classroom, Pupil
from config import celery_app
from games import services as game_services
from school import leavers, tasks
from school.models import AuditEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

NOW = timezone.make_aware(timezone.datetime(2027, 8, 20, 3, 15))


def leaves(url_client, pupil, value="1"):
    return url_client.post(reverse("school:pupil_leaves", args=[pupil.pk]), {"leaving": value})


def test_the_teacher_marks_a_pupil_as_leaving_from_the_class_page(world):
    lea = world.ce2.pupils.get(first_name="Léa")
    client = world.client(world.ana)
    page = client.get(reverse("classroom:class_detail", args=[world.ce2.pk])).content.decode()
    assert reverse("school:pupil_leaves", args=[lea.pk]) in page
    response = leaves(client, lea, "1")
    assert response.status_code == 302
    assert response["Location"].endswith(f"/classes/{world.ce2.pk}/#pupils")
    lea.refresh_from_db()
    assert lea.left_at is not None
    page = client.get(reverse("classroom:class_detail", args=[world.ce2.pk])).content.decode()
    # The page says the school's own date (TIME_ZONE), not UTC's: they differ
    # for an hour or two each night.
    erased_on = timezone.localtime(lea.left_at + timedelta(days=30)).strftime("%-d %B %Y")
    assert f"Leaves the school · erased on {erased_on}" in page
    assert "Stays after all" in page
    leaves(client, lea, "0")
    lea.refresh_from_db()
    assert lea.left_at is None
    kinds = list(AuditEntry.objects.order_by("pk").values_list("kind", "pupil", "teacher"))
    assert kinds == [
        (AuditEntry.Kind.PUPIL_LEAVES, lea.pk, world.ana.pk),
        (AuditEntry.Kind.PUPIL_STAYS, lea.pk, world.ana.pk),
    ]


def test_a_double_tap_marks_once(world):
    lea = world.ce2.pupils.get(first_name="Léa")
    client = world.client(world.ana)
    leaves(client, lea)
    left_at = Pupil.objects.get(pk=lea.pk).left_at
    leaves(client, lea)
    assert Pupil.objects.get(pk=lea.pk).left_at == left_at
    assert AuditEntry.objects.count() == 1


@pytest.mark.parametrize("who", ["lead", "ben", "other_admin", "lone"])
def test_who_does_not_run_the_class_cannot_mark_its_pupils(world, who):
    lea = world.ce2.pupils.get(first_name="Léa")
    response = leaves(world.client(getattr(world, who)), lea)
    assert response.status_code == (403 if who == "lead" else 404)
    assert Pupil.objects.get(pk=lea.pk).left_at is None
    assert not AuditEntry.objects.exists()


def test_the_administrator_marks_and_a_forged_value_changes_nothing(world):
    lea = world.ce2.pupils.get(first_name="Léa")
    client = world.client(world.admin)
    response = leaves(client, lea, "maybe")
    assert response.status_code == 302 and Pupil.objects.get(pk=lea.pk).left_at is None
    assert client.get(reverse("school:pupil_leaves", args=[lea.pk])).status_code == 405
    leaves(client, lea, "1")
    assert Pupil.objects.get(pk=lea.pk).left_at is not None


def leaver(classroom, first_name, left_days_ago, now=NOW) -> Pupil:
    pupil = Pupil.objects.create(
        classroom=classroom, first_name=first_name, initial="L", avatar="frog",
        picture_password="sun,moon,star", left_at=now - timedelta(days=left_days_ago),
    )
    return pupil


@pytest.fixture
def leavers_world(world):
    """Ferry keeps 30 days; Voisine keeps 7; a lone teacher the default 30."""
    world.other_school.leavers_kept_days = 7
    world.other_school.save()
    lone_class = Classroom.objects.create(teacher=world.lone, name="Ma classe")
    return {
        "past": [
            leaver(world.ce2, "Pastferry", 31),
            leaver(world.ce2, "Exactferry", 30),  # exactly 30 days: due
            leaver(world.other_class, "Pastvoisine", 8),
            leaver(lone_class, "Pastlone", 45),
        ],
        "kept": [
            leaver(world.ce2, "Keptferry", 29),
            leaver(world.other_class, "Keptvoisine", 6),
            leaver(lone_class, "Keptlone", 29),
            leaver(world.cm1, "Keptfuture", -1),  # marked with tomorrow's date
        ],
        "lone_class": lone_class,
    }


def test_the_beat_task_erases_exactly_the_leavers_past_their_date(world, leavers_world):
    staying = set(Pupil.objects.filter(left_at__isnull=True).values_list("pk", flat=True))
    erased = tasks.erase_leavers.delay(now=NOW.isoformat()).get()
    assert erased == 4
    left = set(Pupil.objects.values_list("pk", flat=True))
    assert not left & {p.pk for p in leavers_world["past"]}
    assert {p.pk for p in leavers_world["kept"]} <= left
    assert staying <= left
    # Once a class: a count and no name.
    entries = AuditEntry.objects.filter(kind=AuditEntry.Kind.LEAVERS_ERASED)
    by_class = {e.classroom_id: (e.pupil_count, e.detail["days"], e.school_id) for e in entries}
    assert by_class == {
        world.ce2.pk: (2, 30, world.school.pk),
        world.other_class.pk: (1, 7, world.other_school.pk),
        leavers_world["lone_class"].pk: (1, 30, None),
    }
    assert all(e.teacher is None and e.pupil is None for e in entries)
    # Nothing left to do: running again erases nobody and records nothing.
    assert tasks.erase_leavers.delay(now=NOW.isoformat()).get() == 0
    assert entries.count() == 3


def test_erasure_takes_everything_recorded_about_the_leaver(world):
    lea = world.ce2.pupils.get(first_name="Léa")
    session = game_services.start_session(
        world.ce2, world.ana, game="numberquest", options={"preset": "addition"},
        pupils=[lea, world.ce2.pupils.get(first_name="Noah")], table_size=2, seed=3,
    )
    Attempt.objects.create(
        pupil=lea, session=session, table=session.tables.get(), game="numberquest",
        skill="add", operands=["2", "3"], expected="5", given="5", correct=True,
    )
    Pupil.objects.filter(pk=lea.pk).update(left_at=NOW - timedelta(days=40))
    leavers.erase_due(NOW)
    assert not Pupil.objects.filter(pk=lea.pk).exists()
    assert not Attempt.objects.filter(pupil_id=lea.pk).exists()
    assert not session.tables.get().seats.filter(pupil_id=lea.pk).exists()


def test_the_school_setting_decides_the_date(world):
    lea = world.ce2.pupils.get(first_name="Léa")
    Pupil.objects.filter(pk=lea.pk).update(left_at=NOW - timedelta(days=10))
    assert leavers.erase_due(NOW) == []
    world.school.leavers_kept_days = 10
    world.school.save()
    assert [e.count for e in leavers.erase_due(NOW)] == [1]


def test_the_command_erases_the_same_and_says_how_many(world, leavers_world):
    out = StringIO()
    call_command("erase_leavers", "--now", NOW.isoformat(), "--dry-run", stdout=out)
    assert "4 pupils who left are due to be erased." in out.getvalue()
    assert Pupil.objects.filter(left_at__isnull=False).count() == 8
    out = StringIO()
    call_command("erase_leavers", "--now", "2027-08-20T03:15", stdout=out)  # the school's time
    assert "Erased 4 pupils who left, in 3 classes." in out.getvalue()
    assert Pupil.objects.filter(left_at__isnull=False).count() == 4


def test_the_command_refuses_a_date_it_cannot_read(world):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="not a date and time"):
        call_command("erase_leavers", "--now", "next tuesday", stdout=StringIO())


def test_beat_runs_the_task_each_night_by_a_registered_name(world):
    entry = settings.CELERY_BEAT_SCHEDULE["erase-leavers"]
    assert entry["task"] == "school.tasks.erase_leavers"
    assert entry["task"] in celery_app.tasks
    schedule = entry["schedule"]  # once a day, every day, at night
    assert len(schedule.hour) == 1 and len(schedule.minute) == 1 and max(schedule.hour) < 6
    assert schedule.day_of_week == set(range(7)) and schedule.day_of_month == set(range(1, 32))


def test_a_leaver_who_stays_after_all_while_the_erasure_runs_is_kept(
    world, leavers_world, monkeypatch
):
    # The pupils due are read first, then erased class by class: one marked
    # as staying in between must not be erased.
    from school import leavers

    read = leavers.due

    def due_then_stays(now):
        found = read(now)
        Pupil.objects.filter(first_name="Pastferry").update(left_at=None)
        return found

    monkeypatch.setattr(leavers, "due", due_then_stays)
    assert sum(e.count for e in leavers.erase_due(NOW)) == 3
    assert Pupil.objects.filter(first_name="Pastferry").exists()
    entry = AuditEntry.objects.get(classroom=world.ce2)
    assert entry.pupil_count == 1
