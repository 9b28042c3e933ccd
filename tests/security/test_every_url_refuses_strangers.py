"""Every URL of the project, filled with a school's real objects, asked for by
a visitor, a pupil of another class and another teacher: each is refused
(sent to sign in, 403, 404, 405), never answered with the school's data,
never with a 500, and nothing of the school changes.

The URLs come from the resolver (tests/security/routes.py): a new view is
walked without being listed here, and one that forgets its guard fails. The
self-check at the end proves it with a view that has none.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client
from django.urls import path, reverse

from tests.conftest import tap_pictures

from . import snapshots
from .attack import undone
from .routes import PUBLIC, every_route
from .world import School, build_school

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def sign_in_pages() -> tuple[str, ...]:
    return reverse("login"), reverse("admin:login"), reverse("classroom:join")


def refusal(response) -> bool:
    if response.status_code in (301, 302, 303, 307, 308):
        return urlsplit(response["Location"]).path in sign_in_pages()
    return 400 <= response.status_code < 500


def body(response) -> str:
    if getattr(response, "streaming", False):
        return ""  # an event stream says nothing but stamps: its opening is checked
    return response.content.decode(errors="replace")


def strangers(other: School) -> dict[str, Client]:
    teacher = Client(raise_request_exception=False)
    teacher.force_login(other.teacher)
    pupil = Client(raise_request_exception=False)
    assert tap_pictures(pupil, other.pupils[0], ["sun", "moon", "star"]).status_code == 302
    return {
        "a visitor": Client(raise_request_exception=False),
        "a pupil of another class": pupil,
        "another teacher": teacher,
    }


def walk(school: School, clients: dict[str, Client], urlconf: str | None = None) -> list[str]:
    """What went wrong, one line per request."""
    theirs = school.rows
    failures = []
    for route in every_route(urlconf):
        for url in route.urls(school):
            filled = url != "/" + route.route
            for who, client in clients.items():
                for method, headers in (("get", {}), ("get", HTMX), ("post", {})):
                    cache.clear()
                    with undone():
                        response, before, after = snapshots.around(
                            getattr(client, method), url, **headers
                        )
                        broke = response.status_code >= 500
                        touched = [] if broke else [
                            str(c) for c in snapshots.changes(before, after)
                            if (c.label, c.pk) in theirs and c.verb != "created"
                        ]
                    where = f"{who} {method.upper()}{' (htmx)' if headers else ''} {url}"
                    page = body(response)
                    shown = [m for m in school.markers if m in page]
                    if broke:
                        failures.append(f"{where}: {response.status_code}")
                    elif touched:
                        failures.append(f"{where}: changed the school's {touched}")
                    elif route.name in PUBLIC:
                        continue
                    elif filled and not refusal(response):
                        failures.append(f"{where}: {response.status_code}, not a refusal")
                    elif shown and 200 <= response.status_code < 300:
                        failures.append(f"{where}: shows {shown}")
    return failures


def victim_and_stranger() -> tuple[School, School]:
    school = build_school("Victim", ("Wilhelmine", "Théodule", "Eulalie"))
    school.rows = set(snapshots.snapshot())  # the strangers' own rows may change
    return school, build_school("Other", ("Anatole", "Bérénice", "Cosima"))


def test_every_url_refuses_a_visitor_a_pupil_of_another_class_and_another_teacher(db):
    school, other = victim_and_stranger()
    failures = walk(school, strangers(other))
    assert not failures, f"{len(failures)} requests were not refused:\n" + "\n".join(failures)


# ------------------------------------------------------------------ self-check


def leaky_view(request, pk: int):
    """A view that forgot its guard: it shows any class to anyone."""
    from classroom.models import Classroom

    return HttpResponse(Classroom.objects.get(pk=pk).name)


def leaky_urlpatterns():
    from config.urls import urlpatterns

    return [*urlpatterns, path("classes/<int:pk>/leak/", leaky_view, name="leak")]


urlpatterns = leaky_urlpatterns()  # this module is the self-check's urlconf


def test_the_walk_catches_a_new_view_that_forgot_its_guard(db, settings):
    settings.ROOT_URLCONF = __name__
    school, other = victim_and_stranger()
    failures = walk(school, strangers(other), urlconf=__name__)
    leak = f"/classes/{school.classroom.pk}/leak/"
    assert failures and all(leak in line for line in failures), failures
    assert {line.split(" GET")[0].split(" POST")[0] for line in failures} == {
        "a visitor", "a pupil of another class", "another teacher"
    }
