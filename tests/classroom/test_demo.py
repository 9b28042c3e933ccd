"""`make run`'s demo: printed on the port it serves, made once, and its class
has played, so its report proposes the next lesson on a fresh machine; never
on a real install (DEBUG off) unless told it is not production."""

import os
import subprocess
import sys
from io import StringIO

import pytest
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command

from classroom.models import Attempt, Classroom, Teacher
from classroom.reports import lessons
from classroom.reports import services as reports
from games.models import GameSession


@pytest.fixture
def make_run(settings):
    """DEBUG as `make run` has it on a fresh clone (pytest-django turns it off)."""
    settings.DEBUG = True


@pytest.mark.django_db
def test_load_demo_prints_the_port_it_was_given_and_runs_twice(make_run):
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
def test_the_demo_class_report_proposes_groups_and_their_games(make_run):
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


@pytest.mark.django_db
def test_load_demo_refuses_to_run_with_debug_off_and_says_how_to_override(settings):
    # Its accounts' password is in the README, and one is a school's administrator.
    settings.DEBUG = False
    with pytest.raises(CommandError) as refused:
        call_command("load_demo", "--no-games", stdout=StringIO())
    said = str(refused.value)
    assert "DEBUG is off" in said and "--i-know-this-is-not-production" in said
    assert "demo@numbo.test" in said and "administrator" in said
    assert not Teacher.objects.filter(email__endswith="@numbo.test").exists()
    assert not Classroom.objects.exists()


@pytest.mark.django_db
def test_load_demo_runs_with_debug_off_when_told_it_is_not_production(settings):
    settings.DEBUG = False
    out = StringIO()
    call_command("load_demo", "--no-games", "--i-know-this-is-not-production", stdout=out)
    assert "Demo ready." in out.getvalue()
    assert Teacher.objects.get(email="demo@numbo.test").role == Teacher.Role.ADMIN
    assert Classroom.objects.filter(code="DEMO34").count() == 1


def test_make_run_on_a_fresh_clone_has_debug_on(tmp_path):
    # `make run` sets no DEBUG: the settings' default must stay on, or
    # `make run` would stop at load_demo's refusal.
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", NUMBO_VAR_DIR=str(tmp_path))
    shown = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.DEBUG)"],
        env=env, cwd=django_settings.BASE_DIR, capture_output=True, text=True, check=True,
    )
    assert shown.stdout.strip() == "True"
