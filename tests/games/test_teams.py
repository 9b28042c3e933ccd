"""Teams (RULES 0.2): two or three pupils on one seat; any member may play for
it, the attempts belong to the pupil who typed them, reports stay per pupil."""

from __future__ import annotations

import pytest
from django.urls import reverse

from classroom.models import Attempt
from games import services
from games.models import GameSession, Seat
from tests.conftest import tap_pictures

from .conftest import a_right_step, state_of

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def teams_session(classroom, teacher, pupils, tablets=GameSession.Tablets.OWN):
    return services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "classic"},
        pupils=pupils[:2], table_size=1, team_size=2, tablets=tablets, bot_level="greedy",
        seating={p.pk: 1 for p in pupils[:2]}, seed=7,
    )


def post_step(client, table, **extra):
    table.refresh_from_db()
    state = state_of(table)
    data = {"version": table.version, "move_id": f"tap-{table.version}", **a_right_step(state),
            **extra}
    return client.post(reverse("games:table_move", args=[table.pk]), data, **HTMX)


def test_the_start_form_puts_two_pupils_on_one_seat(teacher_client, classroom, pupils):
    url = reverse("games:session_new", args=[classroom.pk])
    assert "Pupils per seat" in teacher_client.get(url).content.decode()
    response = teacher_client.post(url, {
        "game": "numberquest", "preset": "classic", "table_size": "2", "team_size": "2",
        "tablets": "own", "bot_level": "greedy",
        **{f"table_{p.pk}": "1" if p in pupils[:2] else "0" for p in pupils},
    })
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert session.team_size == 2
    seats = list(Seat.objects.order_by("player", "pk").values_list("player", "pupil_id"))
    # Léa and Noah share player 0; a computer has player 1.
    assert sorted(seats) == sorted([(0, pupils[0].pk), (0, pupils[1].pk), (1, None)])


def test_each_member_plays_for_the_seat_and_keeps_their_own_attempts(
    classroom, teacher, pupils, client
):
    session = teams_session(classroom, teacher, pupils)
    table = session.tables.get()
    Seat.objects.filter(table=table, pupil__isnull=False).update(player=0)
    lea, noah = client, client.__class__()
    tap_pictures(lea, pupils[0], pupils[0].password_pictures)
    tap_pictures(noah, pupils[1], pupils[1].password_pictures)
    state = state_of(table)
    assert state.players == 1 and state.current == 0  # the team's seat is the table's only one
    page = noah.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert "Léa M. &amp; Noah B." in page
    assert "Your turn!" in page
    post_step(lea, table)
    post_step(noah, table)
    owners = list(Attempt.objects.order_by("pk").values_list("pupil_id", flat=True))
    assert owners == [pupils[0].pk, pupils[1].pk]


def test_a_shared_tablet_asks_who_is_answering(classroom, teacher, pupils, client):
    session = teams_session(classroom, teacher, pupils, tablets=GameSession.Tablets.SHARED)
    table = session.tables.get()
    tap_pictures(client, pupils[0], pupils[0].password_pictures)
    state = state_of(table)
    assert state.players == 1 and state.current == 0  # the team's seat is the table's only one
    page = client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    assert 'data-testid="team-picker"' in page and "Who is answering?" in page
    post_step(client, table, answering=str(pupils[1].pk))
    assert list(Attempt.objects.values_list("pupil_id", flat=True)) == [pupils[1].pk]
    # A pupil who is not in the team can't be named: Léa's tablet keeps it.
    post_step(client, table, answering=str(pupils[2].pk))
    assert list(Attempt.objects.order_by("pk").values_list("pupil_id", flat=True)) == [
        pupils[1].pk, pupils[0].pk,
    ]


def test_two_teams_share_a_tablet_each_member_says_who_they_are(
    classroom, teacher, pupils, client
):
    from classroom.models import Pupil

    four = pupils + [Pupil.objects.create(classroom=classroom, first_name="Tom", initial="K",
                                          avatar="owl", picture_password="sun,car,tree")]
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "classic"},
        pupils=four, table_size=2, team_size=2,
        tablets=GameSession.Tablets.SHARED, seating={p.pk: 1 for p in four}, seed=7,
    )
    table = session.tables.get()
    tap_pictures(client, pupils[0], pupils[0].password_pictures)
    page = client.get(reverse("games:table_play", args=[table.pk])).content.decode()
    current = state_of(table).current
    team = [s.pupil for s in table.seats.filter(player=current).select_related("pupil")]
    assert "Pass the tablet to" in page and len(team) == 2
    for pupil in team:
        assert f'data-answer="{pupil.pk}"' in page
