"""The school report's numbers against pupils of known skill, played through
the real move path (games/demo_play.py's play_class): every count
is the sum of the class reports' counts, each class's line is its class
report, and who needs help is who the class reports say, with their class.

The school's job builds it from a snapshot it first brings up to date: the
module's classes are played with their snapshot wiped, so the job's own
recompute is what the numbers rest on."""

from __future__ import annotations

import json
from collections import Counter
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import transaction

from classroom.models import Classroom, PupilSkill, ReportJob, Teacher, YearGroup
from classroom.reports import services as reports
from games import services
from games.demo_play import play_class
from learning.verdicts import STATUSES
from school.models import School
from school.report import figures, jobs
from tests.school.conftest import adult, pupil

pytestmark = pytest.mark.django_db

# Two classes of one year group and one with none; the profiles of
# test_pupil_profiles: Ben needs help with ×, Cleo with −, Eve with +; Finn
# masters + and − and has never met ×.
CASTS = {
    ("CE2 A", YearGroup.AGE_8): ("Ada", "Ben", "Eve"),
    ("CE2 B", YearGroup.AGE_8): ("Cleo", "Finn"),
    ("Atelier", None): ("Ben", "Dan"),
}


@pytest.fixture(scope="module")
def played(django_db_setup, django_db_blocker):
    """The school's weeks of play, once for the module; then the snapshot is
    wiped and the school's job builds the report. Returns (admin, job)."""
    from config import celery_app

    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "BOT_PAUSE", timedelta(0))
        patch.setattr(services, "_refresh_reports", lambda pupil_ids: None)
        eager = celery_app.conf.task_always_eager
        celery_app.conf.task_always_eager = True
        # Before the autouse cache clearing of its first test: a rolled-back
        # table of an earlier test left its seating under an id SQLite reuses.
        cache.clear()
        school = School.objects.create(name="Les Tilleuls")
        admin = adult("numbers-admin@tilleuls.test", school, Teacher.Role.ADMIN)
        teachers = []
        try:
            with transaction.atomic():
                for number, ((name, year_group), cast) in enumerate(CASTS.items()):
                    teacher = adult(f"numbers-{number}@tilleuls.test", school)
                    teachers.append(teacher)
                    classroom = Classroom.objects.create(
                        teacher=teacher, name=name, year_group=year_group
                    )
                    play_class(
                        classroom, teacher, {pupil(classroom, first): first for first in cast}
                    )
                PupilSkill.objects.filter(pupil__classroom__teacher__school=school).delete()
                job, created = jobs.request(admin)
            assert created
            job.refresh_from_db()
            yield admin, job
        finally:
            celery_app.conf.task_always_eager = eager
            for teacher in teachers:
                teacher.delete()
            admin.delete()
            school.delete()


def class_counts(classroom) -> tuple[dict[str, Counter], Counter, int]:
    """What the class report shows: per skill its pupils by verdict, who avoids it."""
    report = reports.class_report(classroom)
    counts = {skill: Counter() for skill in report.skills}
    avoids = Counter()
    for row in report.rows:
        for cell in row.cells:
            counts[cell.skill][cell.status] += 1
            avoids[cell.skill] += cell.avoids
    return counts, avoids, len(report.rows)


def test_the_job_built_the_report_from_a_snapshot_it_recomputed(played):
    admin, job = played
    assert job.status == ReportJob.Status.DONE and job.progress == 100
    assert job.total == job.done == sum(len(cast) for cast in CASTS.values())
    # Every pupil who played has a snapshot again: the job wrote it.
    played_pupils = PupilSkill.objects.filter(pupil__classroom__teacher__school=admin.school)
    assert played_pupils.values("pupil").distinct().count() == job.total


def test_each_class_line_is_its_class_report(played):
    admin, job = played
    report = jobs.report_of(job)
    assert [line.name for line in report.classes] == ["CE2 A", "CE2 B", "Atelier"]
    for line in report.classes:
        counts, avoids, pupils = class_counts(Classroom.objects.get(pk=line.pk))
        assert line.pupils == pupils
        for tally in line.tallies:
            expected = counts.get(tally.skill) or Counter({"not_started": pupils})
            assert tally.counts == dict(+expected), (line.name, tally.skill)
            assert tally.avoids == avoids[tally.skill]
            assert sum(tally.counts.values()) == pupils


def test_year_groups_are_the_sums_of_their_class_reports(played):
    admin, job = played
    report = jobs.report_of(job)
    assert [(g.year_group, g.classes, g.pupils) for g in report.year_groups] == [
        (YearGroup.AGE_8, 2, 5),
        (None, 1, 2),
    ]
    assert report.year_groups[-1].label == "year group not set"
    for group in report.year_groups:
        classrooms = Classroom.objects.filter(
            teacher__school=admin.school, year_group=group.year_group
        )
        expected: dict[str, Counter] = {}
        avoided = Counter()
        for classroom in classrooms:
            counts, avoids, pupils = class_counts(classroom)
            for skill in report.skills:
                expected.setdefault(skill, Counter()).update(
                    counts.get(skill) or {"not_started": pupils}
                )
            avoided.update(avoids)
        for tally in group.tallies:
            assert tally.counts == dict(+expected[tally.skill]), (group.label, tally.skill)
            assert tally.avoids == avoided[tally.skill]
    # The skills the pupils of known profile left evidence of are all there.
    assert {"add", "sub", "mul", "div"} <= set(report.skills)
    every = Counter()
    for group in report.year_groups:
        for tally in group.tallies:
            every.update(tally.counts)
    assert set(every) <= set(STATUSES)
    assert every["needs_help"] >= 3 and every["mastered"] > 0


def test_who_needs_help_is_who_the_class_reports_name_with_their_class(played):
    admin, job = played
    report = jobs.report_of(job)
    shown = {
        (group.skill, helped.pupil.pk, helped.classroom)
        for group in report.needs_help
        for helped in group.pupils
    }
    expected = set()
    for classroom in Classroom.objects.filter(teacher__school=admin.school):
        for pupil_, cells in reports.class_report(classroom).needs_help:
            expected |= {(cell.skill, pupil_.pk, classroom.name) for cell in cells}
    assert shown == expected
    needing = {
        (group.skill, helped.pupil.first_name, helped.classroom)
        for group in report.needs_help
        for helped in group.pupils
        if helped.needs_help
    }
    # The profiles' known needs, each in their own class.
    assert {("mul", "Ben", "CE2 A"), ("mul", "Ben", "Atelier"), ("add", "Eve", "CE2 A")} <= needing
    assert ("sub", "Cleo", "CE2 B") in needing
    assert not any(name in ("Ada", "Finn") for _skill, name, _class in needing)
    # First name and initial only.
    assert {helped.pupil.label for g in report.needs_help for helped in g.pupils} <= {
        "Ben P. (1)", "Ben P. (2)", "Ben P.", "Eve P.", "Cleo P.", "Dan P.",
    }  # fmt: skip


def test_a_second_build_recomputes_only_what_changed(played, django_capture_on_commit_callbacks):
    """Nothing played since: the snapshot is kept as it is, the figures are the same."""
    admin, job = played
    before = dict(PupilSkill.objects.values_list("pk", "updated_at"))
    with django_capture_on_commit_callbacks(execute=True):
        again, created = jobs.request(admin)
    assert created
    again.refresh_from_db()
    assert again.status == ReportJob.Status.DONE
    assert dict(PupilSkill.objects.values_list("pk", "updated_at")) == before
    assert json.loads(bytes(again.result)) == json.loads(bytes(job.result))
    assert json.loads(bytes(again.result)) == figures.build(admin.school)
