"""Moving pupils between classes of the school, their history with them."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import Attempt, Classroom, Pupil, PupilSkill
from classroom.reports import services as reports
from games import services as game_services
from school.models import AuditEntry
from tests.conftest import tap_pictures

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def url(classroom) -> str:
    return reverse("school:pupils_move", args=[classroom.pk])


def pupil(classroom, first_name) -> Pupil:
    return classroom.pupils.get(first_name=first_name)


@pytest.fixture
def lea_played(world):
    """Léa and Noah of CE2 B played a game: Léa made 10 additions, right."""
    lea, noah = pupil(world.ce2, "Léa"), pupil(world.ce2, "Noah")
    session = game_services.start_session(
        world.ce2, world.ana, game="numberquest", options={"preset": "addition"},
        pupils=[lea, noah], table_size=2, seed=3,
    )
    table = session.tables.get()
    Attempt.objects.bulk_create(
        Attempt(
            pupil=lea, session=session, table=table, game="numberquest", skill="add",
            operands=["2", str(i)], expected=str(2 + i), given=str(2 + i), correct=True,
        )
        for i in range(10)
    )
    reports.recompute_pupils([lea.pk, noah.pk])
    return session


def test_a_teacher_who_runs_both_classes_moves_pupils_with_their_history(world, lea_played):
    world.cm1.co_teachers.add(world.ana)  # Ana runs CM1 A too
    lea, noah = pupil(world.ce2, "Léa"), pupil(world.ce2, "Noah")
    client = world.client(world.ana)
    response = client.post(url(world.ce2), {"pupils": [lea.pk, noah.pk], "to": world.cm1.pk})
    assert response.status_code == 302
    lea.refresh_from_db()
    noah.refresh_from_db()
    assert lea.classroom == world.cm1 and noah.classroom == world.cm1
    # Her calculations and skills are hers still, and the new class's report shows them.
    assert Attempt.objects.filter(pupil=lea).count() == 10
    report = reports.class_report(world.cm1)
    row = next(row for row in report.rows if row.pupil.pk == lea.pk)
    add = next(cell for cell in row.cells if cell.skill == "add")
    assert add.summary.first_tries == 10
    assert PupilSkill.objects.filter(pupil=lea, skill="add", first_tries=10).exists()
    # The old class's report lists the class as it is now: without them.
    assert {row.pupil.pk for row in reports.class_report(world.ce2).rows} == {
        pupil(world.ce2, "Inès").pk
    }
    # The report of the game they played in CE2 B still counts Léa's 10 calculations.
    page = client.get(reverse("reports:session_report", args=[lea_played.pk])).content.decode()
    assert "Léa M." in page
    tables = reports.session_report(lea_played)
    counted = {p["pupil"].pk: p["calculations"] for p in tables[0]["players"]}
    assert counted[lea.pk] == 10


def test_a_namesake_gets_a_number_and_a_taken_avatar_a_new_one(world):
    world.cm1.co_teachers.add(world.ana)
    lea, noah = pupil(world.ce2, "Léa"), pupil(world.ce2, "Noah")
    response = world.client(world.ana).post(
        url(world.ce2), {"pupils": [lea.pk, noah.pk], "to": world.cm1.pk}, follow=True
    )
    lea.refresh_from_db()
    noah.refresh_from_db()
    # CM1 A already has a Léa M. (1) and a cat (Tom's): she is Léa M. (2) with another picture.
    assert lea.namesake == 2
    assert lea.avatar not in {"owl", "cat"}
    assert noah.avatar == "dog"  # nobody in CM1 A has the dog: he keeps it
    assert lea.picture_password == "sun,moon,star"  # she still knows it
    page = response.content.decode()
    assert "Léa M. is Léa M. (2) in CM1 A" in page
    assert "Léa M. (2) has a new picture in CM1 A" in page
    class_page = world.client(world.ben).get(
        reverse("classroom:class_detail", args=[world.cm1.pk])
    ).content.decode()
    assert "Léa M. (1)" in class_page and "Léa M. (2)" in class_page


def test_the_moved_pupil_signs_in_with_the_new_class_code(world, client):
    lea = pupil(world.ce2, "Léa")
    old_code = world.ce2.code
    world.client(world.admin).post(url(world.ce2), {"pupils": [lea.pk], "to": world.cm1.pk})
    lea.refresh_from_db()
    assert tap_pictures(client, lea, ["sun", "moon", "star"]).status_code == 302
    assert client.get(reverse("classroom:pupil_home")).status_code == 200
    other = client.__class__()
    refused = other.get(reverse("classroom:join_pupil", args=[old_code, lea.pk]))
    assert refused.status_code != 200 or "sun" not in refused.content.decode()


def test_moving_signs_the_pupil_out_of_their_tablets(world):
    lea = pupil(world.ce2, "Léa")
    Pupil.objects.filter(pk=lea.pk).update(signed_in_at=timezone.now())
    generation = lea.sign_in_generation
    world.client(world.admin).post(url(world.ce2), {"pupils": [lea.pk], "to": world.cm1.pk})
    lea.refresh_from_db()
    assert lea.signed_in_at is None and lea.sign_in_generation == generation + 1


def test_the_move_is_recorded_without_names(world):
    lea, noah = pupil(world.ce2, "Léa"), pupil(world.ce2, "Noah")
    world.client(world.admin).post(
        url(world.ce2), {"pupils": [lea.pk, noah.pk], "to": world.cm1.pk}
    )
    entry = AuditEntry.objects.get()
    assert (entry.kind, entry.school, entry.teacher, entry.classroom, entry.pupil_count) == (
        AuditEntry.Kind.PUPILS_MOVED, world.school, world.admin, world.ce2, 2
    )
    assert entry.pupil is None
    assert entry.detail == {"to": "CM1 A (2026-2027)", "to_id": world.cm1.pk}
    assert "Léa" not in str(entry.detail) and "Noah" not in str(entry.detail)


@pytest.mark.parametrize("who", ["ana", "lead", "other_admin", "lone"])
def test_who_may_not_move_is_refused(world, who):
    """Ana runs CE2 B but not CM1 A; the maths lead runs neither; another
    school's administrator and a lone teacher do not even see them."""
    lea = pupil(world.ce2, "Léa")
    client = world.client(getattr(world, who))
    response = client.post(url(world.ce2), {"pupils": [lea.pk], "to": world.cm1.pk})
    if who == "ana":
        # Nowhere to move them: the page says so instead of the form.
        assert response.status_code == 200
        assert "no other class in use that you may move pupils into" in response.content.decode()
    else:
        assert response.status_code == (403 if who == "lead" else 404)
    lea.refresh_from_db()
    assert lea.classroom == world.ce2 and not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    "forged",
    [
        {"pupils": ["ZOE"], "to": "CM1"},  # not ids
        {"pupils": [], "to": None},  # nothing ticked
        {"pupils": ["999999"], "to": None},  # nobody
        {"pupils": ["zoe"], "to": None},  # a pupil of another school's class
        {"pupils": ["lea"], "to": "other_class"},  # another school's class
        {"pupils": ["lea"], "to": "archived"},  # an archived class
        {"pupils": ["lea"], "to": "ce2"},  # the class itself
    ],
)
def test_forged_moves_are_refused_with_a_message(world, forged):
    archived = Classroom.objects.create(
        teacher=world.ben, name="Old", school_year="2024-2025", archived_at=timezone.now()
    )
    ids = {
        "lea": pupil(world.ce2, "Léa").pk,
        "zoe": pupil(world.other_class, "Zoé").pk,
        "other_class": world.other_class.pk,
        "archived": archived.pk,
        "ce2": world.ce2.pk,
        None: world.cm1.pk,
    }
    data = {
        "pupils": [ids.get(p, p) for p in forged["pupils"]],
        "to": ids.get(forged["to"], forged["to"]),
    }
    response = world.client(world.admin).post(url(world.ce2), data)
    assert response.status_code == 200
    assert 'class="errorlist' in response.content.decode()
    assert not AuditEntry.objects.exists()
    assert Pupil.objects.filter(classroom=world.ce2).count() == 3
    assert Pupil.objects.filter(classroom=world.other_class).count() == 1


def test_the_page_offers_only_the_classes_one_may_move_into(world):
    world.cm1.co_teachers.add(world.ana)
    page = world.client(world.ana).get(url(world.ce2)).content.decode()
    assert "CM1 A" in page and "CP Voisin" not in page
    page = world.client(world.admin).get(url(world.ce2)).content.decode()
    assert "CM1 A" in page and "CP Voisin" not in page
