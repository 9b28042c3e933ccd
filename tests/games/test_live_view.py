"""The teacher's live view polls with a token saying what the page shows
(games.live_view): what an unchanged poll costs, what a poll after a move
sends, and that the token never stands in for a sign-in that ended."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import live, selectors, services
from games.models import GameSession, Table
from games.pages import engine_of

from .conftest import a_right_step

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
POLLER = {**HTMX, "HTTP_HX_TARGET": "live"}  # as htmx asks from the page's #live


def token_of(page: str) -> str:
    return page.split("?v=", 1)[1].split('"', 1)[0]


@pytest.fixture
def class_at_tables(classroom, teacher, pupils):
    """Three pupils, each alone at a Number Quest table."""
    return services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition"},
        pupils=pupils, table_size=1, seed=4,
    )


def tap(table: Table, pupil, tap_id: str) -> None:
    table.refresh_from_db()
    state = engine_of("numberquest").from_json(table.state)
    services.play(table.pk, pupil, a_right_step(state), table.version, tap_id)


def publish_all(session) -> None:
    """Every table's stamp in Redis, as its tablets' polls leave it."""
    for table in session.tables.select_related("session"):
        live.publish(table.pk, live.stamp(table), None)


def test_an_unchanged_poll_reads_no_row_when_every_stamp_is_kept(
    class_at_tables, teacher_client, django_assert_num_queries
):
    url = reverse("games:session_live", args=[class_at_tables.pk])
    publish_all(class_at_tables)
    token = token_of(teacher_client.get(url, **POLLER).content.decode())
    with django_assert_num_queries(0):
        assert teacher_client.get(url, {"v": token}, **POLLER).status_code == 204


def test_a_lost_stamp_costs_one_query(class_at_tables, teacher_client, django_assert_num_queries):
    url = reverse("games:session_live", args=[class_at_tables.pk])
    token = token_of(teacher_client.get(url, **POLLER).content.decode())
    live.bump(class_at_tables.tables.first().pk)
    with django_assert_num_queries(1):
        assert teacher_client.get(url, {"v": token}, **POLLER).status_code == 204


def test_a_poll_after_a_move_sends_only_the_card_that_changed(
    class_at_tables, teacher_client, pupils, django_capture_on_commit_callbacks
):
    url = reverse("games:session_live", args=[class_at_tables.pk])
    publish_all(class_at_tables)
    token = token_of(teacher_client.get(url, **POLLER).content.decode())
    table = Table.objects.get(session=class_at_tables, seats__pupil=pupils[1])
    with django_capture_on_commit_callbacks(execute=True):
        tap(table, pupils[1], "t1")
    answer = teacher_client.get(url, {"v": token}, **POLLER).content.decode()
    assert answer.count('class="card live-table') == 1
    assert f'<article hx-swap-oob="true" id="live-table-{table.pk}"' in answer
    assert 'id="live-grid"' not in answer
    # The new token shows the move: nothing new after it.
    assert teacher_client.get(url, {"v": token_of(answer)}, **POLLER).status_code == 204


def test_a_table_added_to_the_session_redraws_the_whole_view(
    classroom, teacher, pupils, teacher_client, django_capture_on_commit_callbacks
):
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition"},
        pupils=pupils[:2], table_size=1, seed=4,
    )
    url = reverse("games:session_live", args=[session.pk])
    publish_all(session)
    token = token_of(teacher_client.get(url, **POLLER).content.decode())
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_late_pupils(session, [pupils[2]])
    answer = teacher_client.get(url, {"v": token}, **POLLER)
    assert answer.status_code == 200
    page = answer.content.decode()
    assert page.count('class="card live-table') == 3 and 'id="live-grid"' in page


def test_a_silence_shows_without_a_move(class_at_tables, teacher_client, monkeypatch):
    url = reverse("games:session_live", args=[class_at_tables.pk])
    publish_all(class_at_tables)
    token = token_of(teacher_client.get(url, **POLLER).content.decode())
    assert teacher_client.get(url, {"v": token}, **POLLER).status_code == 204
    later = selectors.SILENCE.total_seconds() + 5
    import time

    real = time.time
    monkeypatch.setattr("games.views.teacher.time.time", lambda: real() + later)
    answer = teacher_client.get(url, {"v": token}, **POLLER).content.decode()
    assert answer.count("seems stuck: no move for a while") == 3


def test_the_token_ends_with_the_sign_out(class_at_tables, teacher_client):
    url = reverse("games:session_live", args=[class_at_tables.pk])
    publish_all(class_at_tables)
    token = token_of(teacher_client.get(url, **POLLER).content.decode())
    cookie = teacher_client.cookies[settings.SESSION_COOKIE_NAME].value
    teacher_client.logout()
    # The same browser, its old cookie put back: sent to sign in, not a 204.
    teacher_client.cookies[settings.SESSION_COOKIE_NAME] = cookie
    answer = teacher_client.get(url, {"v": token}, **POLLER)
    assert answer.status_code == 302 and reverse("login") in answer.url


def test_the_token_ends_with_a_new_password(class_at_tables, teacher, teacher_client):
    url = reverse("games:session_live", args=[class_at_tables.pk])
    publish_all(class_at_tables)
    token = token_of(teacher_client.get(url, **POLLER).content.decode())
    teacher.set_password("another-horse-43")
    teacher.save()
    answer = teacher_client.get(url, {"v": token}, **POLLER)
    assert answer.status_code == 302 and reverse("login") in answer.url


def test_the_token_is_worth_nothing_in_another_browser(
    class_at_tables, teacher_client, other_teacher, pupils
):
    url = reverse("games:session_live", args=[class_at_tables.pk])
    publish_all(class_at_tables)
    token = token_of(teacher_client.get(url, **POLLER).content.decode())
    visitor = Client()
    answer = visitor.get(url, {"v": token}, **POLLER)
    assert answer.status_code == 302 and reverse("login") in answer.url
    stranger = Client()
    stranger.force_login(other_teacher)
    assert stranger.get(url, {"v": token}, **POLLER).status_code == 404
    # Nor a forged one, nor one of another session.
    assert stranger.get(url, {"v": token[:-2] + "xx"}, **POLLER).status_code == 404
    other = reverse("games:session_live", args=[class_at_tables.pk + 1000])
    assert teacher_client.get(other, {"v": token}, **POLLER).status_code == 404


def test_a_deleted_session_is_not_drawn_from_its_token(
    class_at_tables, teacher_client, pupils, django_capture_on_commit_callbacks
):
    url = reverse("games:session_live", args=[class_at_tables.pk])
    publish_all(class_at_tables)
    token = token_of(teacher_client.get(url, **POLLER).content.decode())
    table = Table.objects.get(session=class_at_tables, seats__pupil=pupils[0])
    with django_capture_on_commit_callbacks(execute=True):
        tap(table, pupils[0], "t1")
    GameSession.objects.filter(pk=class_at_tables.pk).delete()
    answer = teacher_client.get(url, {"v": token}, **POLLER)
    assert answer.status_code in (204, 404)
    assert b"live-table" not in answer.content


@pytest.mark.parametrize("status", GameSession.Status.values)
def test_a_stamp_names_the_sessions_status(class_at_tables, status):
    table = class_at_tables.tables.select_related("session").first()
    table.session.status = status
    assert selectors.status_of_stamp(live.stamp(table)) == status


def test_the_token_ends_when_its_co_teacher_is_taken_off_the_class(
    class_at_tables, classroom, teacher
):
    # The poll's fast path trusts its signed token: a co-teacher taken off the
    # class must not go on watching its tables until the token expires.
    from classroom.models import Teacher
    from school import services as school_services
    from school.models import School

    school = School.objects.create(name="École des Tilleuls")
    Teacher.objects.filter(pk=teacher.pk).update(school=school)
    assistant = Teacher.objects.create_user("assistant@school.test", "x-long-pass-42",
                                            school=school)
    classroom.co_teachers.add(assistant)
    client = Client()
    client.force_login(assistant)
    url = reverse("games:session_live", args=[class_at_tables.pk])
    publish_all(class_at_tables)
    token = token_of(client.get(url, **POLLER).content.decode())
    assert client.get(url, {"v": token}, **POLLER).status_code == 204
    school_services.co_teachers_set(classroom, [])
    assert client.get(url, {"v": token}, **POLLER).status_code == 404
