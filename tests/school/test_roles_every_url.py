"""Every teacher URL of a class (found from the resolver, as the security walk
finds them), asked by each role in and out of the class's school: each gets
exactly what classroom.roles says.

- the class's teacher and its co-teacher run the class: nothing refused but
  the choice of co-teachers, which is the class's teacher's (and the
  administrator's);
- the school's administrator sees and exports, the maths lead sees: what
  they may only read or not export is refused with 403;
- a teacher of another class of the school, the maths lead and the
  administrator of another school and a teacher without a school are told
  the class does not exist (404).

A new teacher view whose pattern takes a class, a pupil, a session, a table
or a job fails here until it is put in one of the lists below.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from classroom.models import Teacher
from school.models import School
from tests.security.attack import undone
from tests.security.routes import every_route
from tests.security.world import build_school

from .people import make_teacher

pytestmark = pytest.mark.django_db

SEES = {
    "classroom:class_detail",
    "reports:class_report",
    "reports:class_refresh",
    "reports:pupil_report",
    "reports:session_report",
}
EXPORTS = {"reports:class_export", "reports:class_prepare"}
RUNS = {
    "classroom:class_edit",
    "classroom:class_archive",
    "classroom:class_copy",
    "classroom:pupils_add",
    "classroom:code_reset",
    "classroom:class_qr",
    "classroom:sign_in_cards",
    "classroom:sign_out_all",
    "classroom:pupil_edit",
    "classroom:pupil_unlock",
    "classroom:pupil_export",
    "classroom:pupil_erase",
    "games:session_new",
    "games:session_live",
    "games:session_control",
    "games:session_cards",
    "games:session_next_card",
    "games:table_projector",
}
# The class's own teacher and the school's administrator.
CHOOSES = {"school:co_teachers", "school:class_hand_over"}
# Whoever runs the class, and the school's administrator (classroom.roles.changes_pupils_of).
CHANGES_PUPILS = {"school:pupils_move", "school:pupil_leaves"}
# A report job is its asker's: the file they asked for, in their language.
OWN_JOB = {"reports:job_status", "reports:job_download"}
# Not a teacher's page: the pupils' tables (a signed token or the pupil's
# sign-in is their key), the class code's pages, the e-mailed links.
NOT_TEACHERS = {
    "games:table_poll",
    "games:table_events",
    "games:table_play",
    "games:table_move",
    "classroom:join_class",
    "classroom:join_pupil",
    "sign_up_finish",
    "password_reset_confirm",
    # A school report's job, not a class's: tests/school/test_report.py asks
    # it as each role.
    "school:report_job",
}
KINDS = ("classes/<", "pupils/<", "sessions/<", "tables/<", "jobs/<")

ACTORS = {
    # who: the kinds of view they may use (the others refuse them)
    "its teacher": {"sees", "exports", "runs", "chooses", "changes_pupils", "own_job"},
    "a co-teacher": {"sees", "exports", "runs", "changes_pupils"},
    "the school's administrator": {"sees", "exports", "chooses", "changes_pupils"},
    "the school's maths lead": {"sees"},
    "a teacher of another class": set(),
    "another school's maths lead": set(),
    "another school's administrator": set(),
    "a teacher without a school": set(),
}
# Those who see the class are told what they may not do (403); the others
# learn nothing of it (404).
READERS = {"a co-teacher", "the school's administrator", "the school's maths lead"}


def kind_of(name: str) -> str:
    for kind, names in (("sees", SEES), ("exports", EXPORTS), ("runs", RUNS),
                        ("chooses", CHOOSES), ("changes_pupils", CHANGES_PUPILS),
                        ("own_job", OWN_JOB)):
        if name in names:
            return kind
    raise AssertionError(f"{name}: say in tests/school/test_roles_every_url.py who may use it")


def class_routes():
    for route in every_route():
        if route.name.startswith("admin:") or not route.name or route.name in NOT_TEACHERS:
            continue
        if route.parameters and any(kind in route.route for kind in KINDS):
            yield route


@pytest.fixture
def world(db):
    ours, theirs = School.objects.create(name="Ours"), School.objects.create(name="Theirs")
    victim = build_school("Victim", ("Wilhelmine", "Théodule", "Eulalie"))
    Teacher.objects.filter(pk=victim.teacher.pk).update(school=ours, role=Teacher.Role.TEACHER)
    co_teacher = make_teacher("Co", ours)
    victim.classroom.co_teachers.add(co_teacher)
    neighbour = build_school("Neighbour", ("Anatole", "Bérénice", "Cosima")).teacher
    Teacher.objects.filter(pk=neighbour.pk).update(school=ours, role=Teacher.Role.TEACHER)
    users = {
        "its teacher": victim.teacher,
        "a co-teacher": co_teacher,
        "the school's administrator": make_teacher("Admin", ours, Teacher.Role.ADMIN),
        "the school's maths lead": make_teacher("Lead", ours, Teacher.Role.MATHS_LEAD),
        "a teacher of another class": neighbour,
        "another school's maths lead": make_teacher("Lead2", theirs, Teacher.Role.MATHS_LEAD),
        "another school's administrator": make_teacher("Admin2", theirs, Teacher.Role.ADMIN),
        "a teacher without a school": make_teacher("Lone"),
    }
    clients = {}
    for who, user in users.items():
        clients[who] = Client(raise_request_exception=False)
        clients[who].force_login(user)
    return victim, clients


def refused_by_sign_in(response) -> bool:
    return response.status_code == 302 and urlsplit(response["Location"]).path == reverse("login")


def test_every_class_view_answers_each_role_as_the_rule_says(world):
    victim, clients = world
    failures, asked = [], 0
    routes = list(class_routes())
    assert len(routes) > 25, [str(r) for r in routes]
    for route in routes:
        kind = kind_of(route.name)
        for url in route.urls(victim):
            for who, client in clients.items():
                allowed = kind in ACTORS[who]
                for method, headers in (("get", {}), ("get", {"HTTP_HX_REQUEST": "true"}),
                                        ("post", {})):
                    cache.clear()
                    with undone():
                        response = getattr(client, method)(url, {"format": "csv"}, **headers)
                    status = response.status_code
                    if status == 405:
                        continue  # the view takes the other method, whoever asks
                    asked += 1
                    where = f"{who} {method.upper()}{' (htmx)' if headers else ''} {url}"
                    if status >= 500 or refused_by_sign_in(response):
                        failures.append(f"{where}: {status}")
                    elif allowed and status in (403, 404):
                        failures.append(f"{where}: refused ({status}), the rule lets them")
                    elif not allowed:
                        expected = 403 if who in READERS and kind != "own_job" else 404
                        if status != expected:
                            failures.append(f"{where}: {status}, not {expected}")
    assert asked > 500
    assert not failures, f"{len(failures)} answers break the rule:\n" + "\n".join(failures)
