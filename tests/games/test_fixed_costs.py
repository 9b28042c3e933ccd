"""The fixed costs of a tap and a poll (issue 15), and what they must not cost:
the pupil's sign-in read from Redis with no query, yet ended at once by a
sign-out, an erase, an archive or "sign out every pupil"; a table's version
published after its commit only if no pause or turned card committed since."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import RequestFactory
from django.urls import reverse

from classroom import pupil_auth
from classroom.models import Pupil
from engine.nmbr9 import bot_moves as nmbr9_bot_moves
from games import live, services
from games.models import GameSession, Table
from games.pages import engine_of

from .conftest import a_right_step, state_of

pytestmark = pytest.mark.django_db


def signed_in_request(pupil, epoch=None):
    """A request whose session says this pupil signed in (as sign_in leaves it)."""
    import importlib

    request = RequestFactory().get("/")
    request.session = importlib.import_module(settings.SESSION_ENGINE).SessionStore()
    request.session[pupil_auth.SESSION_PUPIL] = pupil.pk
    request.session[pupil_auth.SESSION_EPOCH] = (
        pupil.classroom.sign_in_epoch if epoch is None else epoch
    )
    return request


def test_the_sign_in_check_reads_no_row_once_kept(pupils, django_assert_num_queries):
    request = signed_in_request(pupils[0])
    assert pupil_auth.get_pupil(request) == pupils[0]
    with django_assert_num_queries(0):
        again = pupil_auth.get_pupil(signed_in_request(pupils[0]))
    assert again == pupils[0] and again.short_name == pupils[0].short_name
    assert again.classroom.code == pupils[0].classroom.code
    # What is not kept is read when asked, never made up.
    assert again.password_pictures == pupils[0].password_pictures


def test_a_rename_shows_at_once(pupils):
    pupil_auth.get_pupil(signed_in_request(pupils[0]))
    pupils[0].first_name = "Léonie"
    pupils[0].save()
    assert pupil_auth.get_pupil(signed_in_request(pupils[0])).first_name == "Léonie"


def test_a_row_read_before_a_sign_out_is_not_kept_for_after_it(
    pupils, django_capture_on_commit_callbacks
):
    """A request that read the pupil's row, then a sign-out, then that request
    keeping what it read: the record carries the counter of before."""
    before = Pupil.objects.select_related("classroom").get(pk=pupils[0].pk)
    _nothing, counter = pupil_auth._kept(pupils[0].pk)
    with django_capture_on_commit_callbacks(execute=True):
        Pupil.objects.filter(pk=pupils[0].pk).sign_out()
    pupil_auth._keep(before, counter)
    assert pupil_auth._kept(pupils[0].pk)[0] is None
    now = pupil_auth.get_pupil(signed_in_request(pupils[0]))
    assert now.sign_in_generation == before.sign_in_generation + 1


def test_an_erased_pupil_is_signed_out_at_once(pupil_client, pupils, teacher):
    from django.test import Client

    assert pupil_client.get(reverse("classroom:pupil_home")).status_code == 200
    teacher_tablet = Client()
    teacher_tablet.force_login(teacher)
    teacher_tablet.post(reverse("classroom:pupil_erase", args=[pupils[0].pk]))
    assert not Pupil.objects.filter(pk=pupils[0].pk).exists()
    assert pupil_client.get(reverse("classroom:pupil_home")).status_code == 302


def test_an_archived_class_signs_its_pupils_out_at_once(pupil_client, classroom, teacher):
    from django.test import Client

    assert pupil_client.get(reverse("classroom:pupil_home")).status_code == 200
    teacher_tablet = Client()
    teacher_tablet.force_login(teacher)
    teacher_tablet.post(reverse("classroom:class_archive", args=[classroom.pk]))
    assert pupil_client.get(reverse("classroom:pupil_home")).status_code == 302


def test_a_bumped_epoch_alone_ends_the_kept_sign_in(pupils, classroom):
    """The epoch in the session is compared with the class's, kept or not."""
    pupil_auth.get_pupil(signed_in_request(pupils[0]))
    classroom.sign_out_everyone()
    assert pupil_auth.get_pupil(signed_in_request(pupils[0], epoch=0)) is None


# --------------------------------------------------------------------------- publishing


def whole_class(classroom, teacher, pupils):
    session = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils[:2], table_size=1,
        whole_class=True, seed=2,
    )
    return session, Table.objects.get(session=session, seats__pupil=pupils[0])


def test_a_card_turned_between_a_moves_commit_and_its_publish_is_not_hidden(
    classroom, teacher, pupils, django_capture_on_commit_callbacks
):
    session, table = whole_class(classroom, teacher, pupils)
    state = engine_of("nmbr9").from_json(table.state)
    with django_capture_on_commit_callbacks() as move_hooks:
        outcome = services.play(table.pk, pupils[0], nmbr9_bot_moves(state, 0, 0)[0], 0, "t1")
    assert outcome.status == "applied"
    with django_capture_on_commit_callbacks(execute=True):
        services.show_next_card(session)
    for hook in move_hooks:  # the move's publish comes last
        hook()
    table = Table.objects.select_related("session").get(pk=table.pk)
    kept = live.read(table.pk)
    assert kept is None or kept[0] == live.stamp(table)


def test_a_pause_between_a_moves_commit_and_its_publish_is_not_hidden(
    start, pupils, django_capture_on_commit_callbacks
):
    session, table = start()
    with django_capture_on_commit_callbacks() as move_hooks:
        services.play(table.pk, pupils[0], a_right_step(state_of(table)), 0, "t1")
    with django_capture_on_commit_callbacks(execute=True):
        services.set_status(session, GameSession.Status.PAUSED)
    for hook in move_hooks:
        hook()
    table = Table.objects.select_related("session").get(pk=table.pk)
    kept = live.read(table.pk)
    assert kept is None or kept[0] == live.stamp(table)
    assert live.stamp(table).endswith("p")


def test_after_a_whole_class_move_the_tablets_next_poll_is_a_204_without_a_query(
    classroom, teacher, pupils, django_capture_on_commit_callbacks, django_assert_num_queries
):
    from django.test import Client

    from games.views.tables import poll_token

    session, table = whole_class(classroom, teacher, pupils)
    state = engine_of("nmbr9").from_json(table.state)
    with django_capture_on_commit_callbacks(execute=True):
        services.play(table.pk, pupils[0], nmbr9_bot_moves(state, 0, 0)[0], 0, "t1")
    table = Table.objects.select_related("session").get(pk=table.pk)
    url = reverse("games:table_poll", args=[table.pk])
    # Without Redis the move's version is not published (nothing to compare
    # the session's mark with atomically): the poll reads the table.
    with django_assert_num_queries(0 if settings.REDIS_URL else 1):
        response = Client().get(
            url, {"t": poll_token(table, pupils[0].pk, None), "v": live.stamp(table)}
        )
    assert response.status_code == 204


@pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"], reason="PostgreSQL's own"
)
def test_a_poll_s_table_read_is_prepared_after_five_runs(start):
    """PostgreSQL plans the statements a web process repeats once per
    connection (DATABASE_PREPARED_STATEMENTS): at 1,000 pupils parsing and
    planning them again was most of its CPU."""
    from django.db import connection

    _session, table = start()

    def prepared() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return [row[0] for row in cursor.fetchall()]

    # The test's connection may have prepared it already (it lives through
    # the session): six reads prepare it either way.
    for _ in range(6):
        assert services.read_table(table.pk).pk == table.pk
    assert [sql for sql in prepared() if "games_gamesession" in sql and "JOIN" in sql]
