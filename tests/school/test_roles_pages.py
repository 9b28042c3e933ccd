"""What each role's pages show of a class: the co-teacher's home and live
view, the read-only class page of the maths lead, the school's classes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from classroom.models import Classroom, Teacher, YearGroup
from games import selectors as game_selectors
from tests.security.world import build_school

from .people import make_teacher

pytestmark = pytest.mark.django_db


def test_a_co_teacher_finds_the_class_on_their_home_and_runs_its_live_view(client, ours, victim):
    co_teacher = make_teacher("Co", ours)
    client.force_login(co_teacher)
    assert "Class Victim" not in client.get(reverse("classroom:class_list")).content.decode()
    victim.classroom.co_teachers.add(co_teacher)
    home = client.get(reverse("classroom:class_list")).content.decode()
    assert "Class Victim" in home and "Co-teacher, with Teacher Victim" in home
    session = victim.sessions[0]
    live = client.get(reverse("games:session_live", args=[session.pk]))
    assert live.status_code == 200 and "Wilhelmine" in live.content.decode()
    # The live view's one query finds the tables of a co-taught class too.
    tables = [t.pk for t in session.tables.all()]
    assert len(game_selectors.card_tables(tables, session.pk, co_teacher.pk)) == len(tables)
    assert game_selectors.live_rows(session.pk, co_teacher.pk)
    victim.classroom.co_teachers.remove(co_teacher)
    assert game_selectors.card_tables(tables, session.pk, co_teacher.pk) == []
    assert game_selectors.live_rows(session.pk, co_teacher.pk) == []


def test_the_maths_lead_reads_the_class_page_without_its_keys_or_buttons(client, ours, victim):
    client.force_login(make_teacher("Lead", ours, Teacher.Role.MATHS_LEAD))
    page = client.get(reverse("classroom:class_detail", args=[victim.classroom.pk])).content
    page = page.decode()
    assert "Wilhelmine" in page and 'data-testid="read-only"' in page
    for key in (victim.classroom.code, "Start a game", "Erase", "Show picture passwords",
                reverse("classroom:class_qr", args=[victim.classroom.pk])):
        assert key not in page
    report = client.get(reverse("reports:class_report", args=[victim.classroom.pk])).content
    assert b'id="exports"' not in report


def test_the_administrator_may_export_what_the_maths_lead_may_only_read(client, ours, victim):
    client.force_login(make_teacher("Admin", ours, Teacher.Role.ADMIN))
    url = reverse("reports:class_report", args=[victim.classroom.pk])
    assert b'id="exports"' in client.get(url).content
    exported = client.get(reverse("reports:class_export", args=[victim.classroom.pk, "csv"]))
    assert exported.status_code == 200 and "Wilhelmine" in exported.content.decode()


def test_the_school_link_and_the_classes_page_are_for_the_administrator_and_the_lead(
    client, ours, victim
):
    Classroom.objects.filter(pk=victim.classroom.pk).update(year_group=YearGroup.AGE_8)
    elsewhere = build_school("Elsewhere", ("Anatole", "Bérénice", "Cosima"))
    for role, allowed in ((Teacher.Role.ADMIN, True), (Teacher.Role.MATHS_LEAD, True),
                          (Teacher.Role.TEACHER, False)):
        client.force_login(make_teacher(f"T{role}", ours, role))
        home = client.get(reverse("classroom:class_list")).content.decode()
        assert (reverse("school:classes") in home) is allowed
        page = client.get(reverse("school:classes"))
        if not allowed:
            assert page.status_code == 403
            continue
        text = page.content.decode()
        assert "Class Victim" in text and "ages 8-9" in text
        assert "Class Elsewhere" not in text  # another school's class
        assert reverse("reports:class_report", args=[victim.classroom.pk]) in text
    client.force_login(make_teacher("Lone"))
    assert client.get(reverse("school:classes")).status_code == 403
    # The other school's administrator sees theirs, not ours.
    client.force_login(elsewhere.teacher)
    text = client.get(reverse("school:classes")).content.decode()
    assert "Class Elsewhere" in text and "Class Victim" not in text
