"""`make run`'s demo: printed on the port it serves, made once, and its class
has played, so its report proposes the next lesson on a fresh machine."""

from io import StringIO

import pytest
from django.core.management import call_command

from classroom.models import Attempt, Classroom
from classroom.reports import lessons
from classroom.reports import services as reports
from games.models import GameSession


@pytest.mark.django_db
def test_load_demo_prints_the_port_it_was_given_and_runs_twice():
    out = StringIO()
    call_command("load_demo", "--port", "8123", stdout=out)
    played = GameSession.objects.count()
    attempts = Attempt.objects.count()
    call_command("load_demo", "--port", "8123", stdout=out)
    assert "http://localhost:8123/accounts/login/" in out.getvalue()
    assert "http://localhost:8123/join/" in out.getvalue()
    assert "8000" not in out.getvalue()
    assert Classroom.objects.filter(code="DEMO34").count() == 1
    # Run again, it plays nothing more.
    assert played > 0 and GameSession.objects.count() == played
    assert Attempt.objects.count() == attempts


@pytest.mark.django_db
def test_the_demo_class_report_proposes_groups_and_their_games():
    call_command("load_demo", stdout=StringIO())
    classroom = Classroom.objects.get(code="DEMO34")
    proposal = lessons.proposals(reports.class_report(classroom), classroom.teacher)
    by_skill = {(lesson.group.skill, lesson.group.kind): lesson for lesson in proposal.groups}
    # Noah and Adam (Ben's profile) need help with ×; Louis, Chloé and Hugo
    # (Finn's) master + and − and never met ×.
    times = by_skill[("mul", "need")]
    assert {pupil.first_name for pupil, _reason, _why in times.members} >= {"Noah", "Adam"}
    ready = by_skill[("mul", "ready")]
    assert {pupil.first_name for pupil, _reason, _why in ready.members} == {
        "Louis", "Chloé", "Hugo"}
    for lesson in (times, ready):
        assert lesson.fits and lesson.start_url and lesson.tables
    assert "in 88 turns of 100 only a multiplication covers a square" in times.why
    # Every pupil of a group is seated once over all the groups.
    seated = [p for lesson in proposal.groups for p in lesson.plan.seating()]
    assert len(seated) == len(set(seated))
