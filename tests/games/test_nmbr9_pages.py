"""NMBR 9 pages: solo, at a table with computer players, and the whole class
with the teacher turning the cards."""

import json
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from classroom.models import Attempt
from engine.nmbr9 import GAME, Stack, Tile, bot_moves, bot_score, level_scores
from games import live, services
from games.models import Move, Table
from games.views.tables import poll_token
from tests.conftest import tap_pictures
from tests.engine.test_nmbr9_game import STUCK_TILES

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def start(classroom, teacher, pupils):
    """Start an NMBR 9 session; Léa is player 0 of her table."""

    def _start(players=1, bots=0, whole_class=False, second_chance=False, seed=3):
        chosen = pupils[:players]
        return services.start_session(
            classroom,
            teacher,
            game="nmbr9",
            options={"second_chance": second_chance},
            pupils=chosen,
            table_size=players + bots,
            bot_level="greedy" if bots else "",
            seating={} if whole_class else {p.pk: 1 for p in chosen},
            whole_class=whole_class,
            seed=seed,
        )

    return _start


def lea_table(session, pupils):
    return Table.objects.get(session=session, seats__pupil=pupils[0])


def state_of(table):
    table.refresh_from_db()
    return GAME.from_json(table.state)


def post_move(client, table, htmx=True, **fields):
    table.refresh_from_db()
    data = {"version": table.version, "move_id": fields.pop("move_id", f"m{table.version}")}
    data.update(fields)
    return client.post(reverse("games:table_move", args=[table.pk]), data, **(HTMX if htmx else {}))


def page_of(client, table, **extra):
    return client.get(reverse("games:table_play", args=[table.pk]), **extra).content.decode()


def place_data(html):
    found = re.search(r'<script id="n9-place-data" type="application/json">(.*?)</script>', html)
    return json.loads(found.group(1)) if found else None


def good_placement(table, player=0, seed=0):
    return bot_moves(state_of(table), player, seed)[0]


def set_state(table, state):
    table.state = state.to_json()
    table.save(update_fields=["state"])


def all_placed(table, player=0):
    """Every tile of the player placed by the bot's rules (the count is left to the pupil)."""
    state = state_of(table)
    while state.card is not None:
        state = GAME.apply(state, player, bot_moves(state, player, 0)[0]).state
    set_state(table, state)
    return state


# --------------------------------------------------------------------------- solo


def test_a_solo_pupil_sees_the_card_and_the_legal_spots(start, pupil_client, pupils):
    session = start()
    table = lea_table(session, pupils)
    state = state_of(table)
    html = page_of(pupil_client, table)
    assert f"Card 1 of 20: place your {state.card}!" in html
    data = place_data(html)
    assert data["digit"] == state.card
    legal = {tuple(m.values()) for m in GAME.moves(state, 0)}
    assert {("place", *p) for p in data["legal"]} == legal
    assert len(data["shapes"]) == 4
    assert "Place it" in html and "Turn" in html


def test_a_placement_is_applied_and_the_next_card_shown(start, pupil_client, pupils):
    session = start()
    table = lea_table(session, pupils)
    move = good_placement(table)
    response = post_move(pupil_client, table, **{k: v for k, v in move.items()})
    assert response.status_code == 200
    state = state_of(table)
    assert len(state.stacks[0].tiles) == 1
    html = response.content.decode()
    assert f"Card 2 of 20: place your {state.card}!" in html
    assert f"placed tile {state.deck[0]} on level 0" in html


def two_nines(table):
    """Two 9s side by side on the table, and a 1 to place: ``A`` covers x 5-7,
    ``B`` x 8-10 (rows 5-6, and two cells below each)."""
    state = state_of(table)
    state = replace(state, deck=(9, 9, 1) + state.deck[3:])
    for x in (5, 8):
        state = GAME.apply(
            state, 0, {"type": "place", "rotation": 0, "x": x, "y": 5, "level": 0}
        ).state
    set_state(table, state)


@pytest.mark.parametrize(
    ("where", "reason"),
    [
        ({"x": 0, "y": 0, "level": 0}, "must touch a tile of its level"),
        ({"x": 5, "y": 5, "level": 1}, "at least two tiles"),
        ({"x": 9, "y": 5, "level": 1}, "hang over a gap"),
        ({"x": 5, "y": 5, "level": 0}, "already there"),
        ({"x": 19, "y": 5, "level": 0}, "stay on the board"),
        ({"x": 7, "y": 5, "level": 3}, "nothing there"),
    ],
)
def test_an_illegal_placement_says_why_and_changes_nothing(
    start, pupil_client, pupils, where, reason
):
    session = start()
    table = lea_table(session, pupils)
    two_nines(table)
    before = state_of(table)
    response = post_move(pupil_client, table, type="place", rotation=0, **where)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="note error"' in html
    assert reason in html
    assert not Move.objects.exists()
    assert state_of(table) == before


def test_a_tile_on_two_tiles_goes_up_a_level(start, pupil_client, pupils):
    session = start()
    table = lea_table(session, pupils)
    two_nines(table)
    html = post_move(pupil_client, table, type="place", rotation=0, x=7, y=5, level=1)
    assert "placed tile 1 on level 1" in html.content.decode()
    assert state_of(table).stacks[0].top == 1


def test_a_tile_that_fits_nowhere_is_put_aside_with_one_button(
    start, pupil_client, teacher, pupils
):
    session = start()
    table = lea_table(session, pupils)
    refused = post_move(pupil_client, table, type="set_aside").content.decode()
    assert "fits on your board" in refused and not Move.objects.exists()
    # A 12-cell board whose stack leaves no room for the 16th card, a 3.
    tiles = tuple(Tile(*t) for t in STUCK_TILES)
    state = replace(GAME.new({"board": 12}, 1, 0), stacks=(Stack(tiles, 12),))
    set_state(table, state)
    html = page_of(pupil_client, table)
    assert "Your 3 fits nowhere on your board. Put it aside: it scores nothing." in html
    assert place_data(html) is None
    form = re.search(r'<form class="n9-aside-form".*?</form>', html, re.S).group(0)
    assert 'name="type" value="set_aside"' in form and 'name="version"' in form
    assert "btn big" in form and "Put it aside" in form
    french = page_of(pupil_client, table, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Ton 3 ne rentre nulle part sur ton plateau." in french and "Mettre de côté" in french
    html = post_move(pupil_client, table, type="set_aside").content.decode()
    after = state_of(table)
    assert after.aside == (1,) and after.stacks == state.stacks and after.round == 16
    assert "set tile 3 aside" in html
    assert f"Card 17 of 20: place your {after.card}!" in html
    # The teacher counts the tile set aside among the cards done, and says so.
    teacher_client = Client()
    teacher_client.force_login(teacher)
    live = teacher_client.get(reverse("games:session_live", args=[session.pk])).content.decode()
    assert "16 of 20 tiles · 1 set aside" in live
    live = teacher_client.get(
        reverse("games:session_live", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "tuiles : 16 sur 20 · 1 mise de côté" in live


@pytest.mark.parametrize(
    "fields",
    [
        {"type": "place", "rotation": "x", "x": "8", "y": "8", "level": "0"},
        {"type": "place", "rotation": "0", "x": "9" * 100_000, "y": "8", "level": "0"},
        {"type": "place", "rotation": "0", "x": "99999999999999999999", "y": "8", "level": "0"},
        {"type": "place", "rotation": "0", "x": "-", "y": "8", "level": "0"},
        {"type": "place", "rotation": "0", "x": "²", "y": "8", "level": "0"},
        {"type": "place", "rotation": "0", "x": "٣", "y": "8", "level": "0"},
        {"type": "place", "rotation": "0", "x": "-3", "y": "8", "level": "0"},
        {"type": "place", "rotation": "7", "x": "8", "y": "8", "level": "0"},
        {"type": "place", "rotation": "0", "x": "8", "y": "8", "level": "-1"},
        {"type": "place", "rotation": "0", "x": "8", "y": "8"},
        {"type": "place", "rotation": "0", "x": "8", "y": "8", "level": "0", "version": "x"},
        {"type": "level_score", "level": "1", "value": "5"},
        {"type": "total", "value": "1e3"},
        {"type": "drop-table"},
        {},
    ],
)
def test_forged_and_malformed_forms_get_a_note_never_a_500(start, pupil_client, pupils, fields):
    session = start()
    table = lea_table(session, pupils)
    response = post_move(pupil_client, table, **fields)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="note' in html
    assert not Move.objects.exists()


def test_forged_counts_get_a_note(start, pupil_client, pupils):
    session = start()
    table = lea_table(session, pupils)
    state = all_placed(table)
    level = max(level_scores(state.stacks[0]))
    for value in ("abc", "-4", "99999999999999999999", "", "١٢"):
        response = post_move(pupil_client, table, type="level_score", level=level, value=value)
        assert 'class="note error"' in response.content.decode()
    wrong_level = post_move(pupil_client, table, type="level_score", level=level + 5, value=1)
    assert "from the top down" in wrong_level.content.decode()
    assert not Attempt.objects.exists()


def test_a_solo_pupil_counts_and_sees_the_computer_score(start, pupil_client, pupils):
    session = start(second_chance=True)
    table = lea_table(session, pupils)
    state = all_placed(table)
    scores = level_scores(state.stacks[0])
    html = page_of(pupil_client, table)
    top = max(scores)
    assert "count your points" in html
    assert f"{top} × {scores[top] // top} = ?" in html

    # A wrong answer first: a second chance, the right value not shown.
    wrong = post_move(pupil_client, table, type="level_score", level=top, value=scores[top] + 1)
    assert "Count once more" in wrong.content.decode()
    for level in sorted(scores, reverse=True):
        response = post_move(
            pupil_client, table, type="level_score", level=level, value=scores[level]
        )
        assert f"Right: {level} × {scores[level] // level} = {scores[level]}." in (
            response.content.decode()
        )
    if len(scores) >= 2:
        parts = " + ".join(str(scores[lv]) for lv in sorted(scores, reverse=True))
        assert f"{parts} = ?" in response.content.decode()
        response = post_move(pupil_client, table, type="total", value=sum(scores.values()))
    html = response.content.decode()
    assert f"You scored {sum(scores.values())} points!" in html
    assert f"the computer scored {bot_score(table.seed)} points" in html

    attempts = Attempt.objects.filter(pupil=pupils[0], table=table, game="nmbr9")
    assert attempts.filter(skill="mul").count() == len(scores) + 1
    assert attempts.filter(skill="mul", correct=False, first_try=True).count() == 1
    assert attempts.filter(skill="mul", correct=True, first_try=False).count() == 1
    if len(scores) >= 2:
        total = attempts.get(skill="add")
        assert total.correct
        assert total.operands == [scores[lv] for lv in sorted(scores, reverse=True)]
    table.refresh_from_db()
    assert table.finished


def test_without_htmx_a_placement_redirects_back(start, pupil_client, pupils):
    session = start()
    table = lea_table(session, pupils)
    response = post_move(pupil_client, table, htmx=False, **good_placement(table))
    assert response.status_code == 302
    assert response.url == reverse("games:table_play", args=[table.pk])
    assert Move.objects.count() == 1


def test_the_page_speaks_french(start, pupil_client, pupils):
    session = start()
    table = lea_table(session, pupils)
    html = page_of(pupil_client, table, HTTP_ACCEPT_LANGUAGE="fr")
    assert 'lang="fr"' in html
    assert "Mes jeux" in html
    assert place_data(html)["texts"]["tap"]
    all_placed(table)
    assert 'lang="fr"' in page_of(pupil_client, table, HTTP_ACCEPT_LANGUAGE="fr")


def test_the_french_count_puts_a_space_before_each_colon(start, pupil_client, pupils, teacher):
    # French typography: "Niveau 3 : 3 × 7 = 21", "Total : 21 + 8", "Léa M. : 3 × 7".
    session = start()
    table = lea_table(session, pupils)
    state = all_placed(table)
    scores = level_scores(state.stacks[0])
    assert len(scores) >= 2, "a stack of one level has no total to check"
    french = {"HTTP_ACCEPT_LANGUAGE": "fr"}
    for level in sorted(scores, reverse=True):
        post_move(pupil_client, table, type="level_score", level=level, value=scores[level])
    post_move(pupil_client, table, type="total", value=sum(scores.values()))
    html = page_of(pupil_client, table, **french)
    top = max(scores)
    assert f"Niveau {top} : {top} × {scores[top] // top} = <strong>{scores[top]}</strong>" in html
    parts = " + ".join(str(scores[lv]) for lv in sorted(scores, reverse=True))
    assert f"Total : {parts} = <strong>{sum(scores.values())}</strong>" in html
    teacher_client = Client()
    teacher_client.force_login(teacher)
    seen = teacher_client.get(reverse("games:session_live", args=[session.pk]), **french)
    assert f"Léa M. : {parts} = {sum(scores.values())} ✓" in seen.content.decode()


def test_the_french_cards_page_names_who_is_still_placing_after_a_spaced_colon(
    start, teacher_client, pupils
):
    session = start(players=3, whole_class=True)
    url = reverse("games:session_cards", args=[session.pk])
    html = teacher_client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "3 élèves posent encore leur tuile : " in html


# --------------------------------------------------------------------------- a table


def test_a_placement_made_while_a_computer_placed_still_goes_through(start, pupil_client, pupils):
    session = start(players=1, bots=1)
    table = lea_table(session, pupils)
    html = page_of(pupil_client, table)
    seen = re.search(r'name="seen" value="([^"]*)"', html).group(1)
    placement = good_placement(table)
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=5))
    assert services.advance(table.pk)  # the computer places its tile: the version moves on
    answer = pupil_client.post(
        reverse("games:table_move", args=[table.pk]),
        {"version": 0, "move_id": "tap-0", "seen": seen, **placement},
        **HTMX,
    ).content.decode()
    assert "The game moved on" not in answer
    assert [len(s.tiles) for s in state_of(table).stacks] == [1, 1]


def test_a_placement_for_a_card_gone_by_is_still_refused_as_stale(start, pupil_client, pupils):
    session = start(players=1, bots=1)
    table = lea_table(session, pupils)
    seen = re.search(r'name="seen" value="([^"]*)"', page_of(pupil_client, table)).group(1)
    first = good_placement(table)
    post_move(pupil_client, table, **first)
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=5))
    services.advance(table.pk)
    assert state_of(table).round == 1  # card 2 is out: what Léa saw is gone
    answer = pupil_client.post(
        reverse("games:table_move", args=[table.pk]),
        {"version": 0, "move_id": "tap-x", "seen": seen, **good_placement(table)},
        **HTMX,
    ).content.decode()
    assert "The game moved on" in answer
    assert len(state_of(table).stacks[0].tiles) == 1


def test_computer_players_place_through_advance(start, pupil_client, pupils):
    session = start(players=1, bots=2)
    table = lea_table(session, pupils)
    assert table.seats.filter(pupil__isnull=True).count() == 2
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=5))
    assert services.advance(table.pk)
    state = state_of(table)
    assert [len(s.tiles) for s in state.stacks] == [0, 1, 0]

    post_move(pupil_client, table, **good_placement(table))
    html = page_of(pupil_client, table)
    assert "is still placing" in html and "Computer 2" in html
    for _ in range(3):
        Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=5))
        services.advance(table.pk)
    state = state_of(table)
    assert state.round == 1  # everybody placed card 1: card 2 is out
    assert f"place your {state.card}!" in page_of(pupil_client, table)


def test_computer_players_count_and_the_table_is_ranked(start, pupil_client, pupils):
    session = start(players=1, bots=1)
    table = lea_table(session, pupils)
    state = state_of(table)
    while state.card is not None:
        for player in (0, 1):
            state = GAME.apply(state, player, bot_moves(state, player, 0)[0]).state
    set_state(table, state)
    for move in bot_moves(state, 0, 0):
        post_move(pupil_client, table, **move)
    html = page_of(pupil_client, table)
    assert "Still counting: Computer 1</p>" in html
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=5))
    assert services.advance(table.pk)
    html = page_of(pupil_client, table)
    assert "Ranking" in html
    scores = GAME.result(state_of(table)).scores
    assert f"<strong>{scores[1]}</strong>" in html
    assert not Attempt.objects.filter(pupil__isnull=True).exists()


def test_a_pupil_who_placed_waits_for_the_others_and_sees_their_stacks(
    start, client, pupils, classroom
):
    session = start(players=2)
    table = lea_table(session, pupils)
    tap_pictures(client, pupils[0], pupils[0].password_pictures)
    post_move(client, table, **good_placement(table))
    html = page_of(client, table)
    assert "Noah B. is still placing." in html
    assert "The other stacks" in html
    refused = post_move(client, table, type="place", rotation=0, x=0, y=0, level=0, move_id="again")
    assert "Wait for the others to place their tile." in refused.content.decode()


# --------------------------------------------------------------------------- the whole class


def test_whole_class_tables_share_the_deck_and_wait_for_the_teacher(start, pupil_client, pupils):
    session = start(players=3, whole_class=True)
    tables = list(session.tables.all())
    assert len(tables) == 3 and len({t.seed for t in tables}) == 1
    table = lea_table(session, pupils)
    first = post_move(pupil_client, table, **good_placement(table))
    assert first.status_code == 200
    html = first.content.decode()
    assert html.count("Wait for the teacher to turn the next card.") == 1
    assert "The next card comes when" not in html  # said once: the status line says it
    assert place_data(html) is None  # the next card stays hidden
    state = state_of(table)
    assert f"place your {state.card}" not in html

    forged = post_move(pupil_client, table, **good_placement(table), move_id="early")
    assert "Wait for the teacher to turn the next card." in forged.content.decode()
    assert Move.objects.filter(table=table).count() == 1

    services.show_next_card(session)
    html = page_of(pupil_client, table)
    assert f"Card 2 of 20: place your {state.card}!" in html
    post_move(pupil_client, table, **good_placement(table), move_id="now")
    assert Move.objects.filter(table=table).count() == 2


def test_a_waiting_tablet_hears_of_the_turned_card(start, client, pupils):
    session = start(players=2, whole_class=True)
    table = lea_table(session, pupils)
    tap_pictures(client, pupils[0], pupils[0].password_pictures)
    post_move(client, table, **good_placement(table))
    html = page_of(client, table)
    stamp = re.search(r"&amp;v=([^\"]+)\"", html).group(1)
    token = poll_token(table, pupils[0].pk, None)
    url = reverse("games:table_poll", args=[table.pk])
    services.show_next_card(session)
    response = client.get(url, {"t": token, "v": stamp.replace("&amp;", "&")}, **HTMX)
    assert response.status_code == 200
    assert "Card 2 of 20" in response.content.decode()


def test_the_teacher_turns_the_cards_and_sees_who_placed(start, teacher_client, pupils, client):
    session = start(players=3, whole_class=True)
    url = reverse("games:session_cards", args=[session.pk])
    table = lea_table(session, pupils)
    state = state_of(table)
    set_state(table, GAME.apply(state, 0, bot_moves(state, 0, 0)[0]).state)
    html = teacher_client.get(url).content.decode()
    assert "Card 1 of 20" in html
    assert "1 of 3 placed" in html
    assert "2 pupils are still placing: " in html
    assert "Inès D." in html and "Noah B." in html
    assert f'<span class="n9-card-digit" aria-hidden="true">{state.deck[0]}</span>' in html

    turn = reverse("games:session_next_card", args=[session.pk])
    response = teacher_client.post(turn, {"shown": "1"})
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.cards_shown == 2
    # A second tap of the same button (it still says card 1) turns nothing.
    teacher_client.post(turn, {"shown": "1"})
    session.refresh_from_db()
    assert session.cards_shown == 2
    partial = teacher_client.post(turn, {"shown": "2"}, **HTMX)
    assert 'id="cards"' in partial.content.decode()
    assert "Card 3 of 20" in partial.content.decode()

    version = re.search(r'\?v=([^"]+)"', partial.content.decode()).group(1)
    assert teacher_client.get(url, {"v": version}, **HTMX).status_code == 204


def test_the_class_ranking_at_the_end(start, teacher_client, pupils):
    session = start(players=3, whole_class=True)
    for table in session.tables.all():
        state = all_placed(table)
        for move in bot_moves(state, 0, 0):
            state = GAME.apply(state, 0, move).state
        set_state(table, state)
    session.cards_shown = 20
    session.save()
    html = teacher_client.get(reverse("games:session_cards", args=[session.pk])).content.decode()
    assert "Ranking" in html
    assert "Turn the next card" not in html
    for pupil in pupils:
        assert pupil.short_name in html


def test_the_cards_page_is_the_session_teachers_only(start, client, other_teacher, pupils, teacher):
    session = start(players=2, whole_class=True)
    page = reverse("games:session_cards", args=[session.pk])
    turn = reverse("games:session_next_card", args=[session.pk])

    anonymous_get, anonymous_post = client.get(page), client.post(turn, {"shown": "1"})
    assert anonymous_get.status_code == 302 and "/login/" in anonymous_get.url
    assert anonymous_post.status_code == 302 and "/login/" in anonymous_post.url

    tap_pictures(client, pupils[0], pupils[0].password_pictures)
    assert client.get(page).status_code == 302
    assert client.post(turn, {"shown": "1"}).status_code == 302

    client.force_login(other_teacher)
    assert client.get(page).status_code == 404
    assert client.post(turn, {"shown": "1"}).status_code == 404
    session.refresh_from_db()
    assert session.cards_shown == 1

    client.force_login(teacher)
    assert client.get(turn).status_code == 405
    assert client.get(page).status_code == 200


def test_the_cards_page_of_a_game_at_tables_leads_to_the_live_view(start, teacher_client):
    session = start(players=2)
    url = reverse("games:session_cards", args=[session.pk])
    answer = teacher_client.get(url, follow=True)
    assert answer.redirect_chain == [(reverse("games:session_live", args=[session.pk]), 302)]
    assert "each table turns its own cards" in answer.content.decode()
    turn = teacher_client.post(reverse("games:session_next_card", args=[session.pk]), {"shown": 0})
    assert turn.status_code == 302
    session.refresh_from_db()
    assert session.cards_shown == 0


# --------------------------------------------------------------------------- the teacher's views


def test_the_live_view_and_projector_draw_every_stack(start, teacher_client, pupils):
    session = start(players=2, bots=1)
    table = lea_table(session, pupils)
    state = state_of(table)
    for player in range(3):
        state = GAME.apply(state, player, bot_moves(state, player, 0)[0]).state
    set_state(table, state)
    live = teacher_client.get(reverse("games:session_live", args=[session.pk]))
    assert live.status_code == 200
    assert live.content.decode().count('class="stack stack-mini"') == 3
    projector = teacher_client.get(reverse("games:table_projector", args=[table.pk]))
    assert projector.status_code == 200
    assert "Card 2 of 20" in projector.content.decode()


def test_a_pupil_who_counted_sees_the_class_ranking(start, pupil_client, pupils):
    session = start(players=3, whole_class=True)
    session.cards_shown = 20
    session.save()
    tables = list(session.tables.all())
    for table in tables:
        state = all_placed(table)
        if table.seats.get().pupil == pupils[2]:
            continue  # Inès is still counting
        for move in bot_moves(state, 0, 0):
            state = GAME.apply(state, 0, move).state
        set_state(table, state)
    html = page_of(pupil_client, lea_table(session, pupils))
    assert "The class" in html
    assert "Léa M." in html and "Noah B." in html
    assert "1 pupil is still playing." in html
    assert 'hx-trigger="every 10s [numboPollDue()], push"' in html


def test_the_stack_picture_shows_every_tile_and_its_level():
    from games.pages.nmbr9.drawing import stack_picture

    state = GAME.new({}, 1, 4)
    while state.card is not None:
        state = GAME.apply(state, 0, bot_moves(state, 0, 0)[0]).state
    tiles = state.stacks[0].tiles
    picture = stack_picture(tiles, state.board, crop=True, highlight_level=1)
    cells = [c for t in tiles for c in t.cells]
    x0, y0 = picture["x0"], picture["y0"]
    assert all(
        x0 <= x < x0 + picture["width"] and y0 <= y < y0 + picture["height"] for x, y in cells
    )
    assert len(picture["tiles"]) == 20
    assert sorted(t["digit"] for t in picture["tiles"]) == sorted(t.digit for t in tiles)
    # The level being counted is drawn last and not faded; the others are.
    counted = [t for t in picture["tiles"] if not t["faint"]]
    assert {t["level"] for t in counted} == {1}
    assert picture["tiles"][-len(counted) :] == counted
    # Higher is warmer and darker, with a longer shadow.
    by_level = {t["level"]: t for t in picture["tiles"]}
    assert len({t["fill"] for t in by_level.values()}) == len(by_level)
    assert by_level[0]["shadow"] == ""


def test_a_turned_card_reaches_a_waiting_tablet_through_the_poll(
    start, pupil_client, pupils, django_capture_on_commit_callbacks
):
    from games import live

    session = start(players=2, whole_class=True)
    table = lea_table(session, pupils)
    with django_capture_on_commit_callbacks(execute=True):
        post_move(pupil_client, table, **good_placement(table))
    table.refresh_from_db()
    stamp = live.stamp(table)
    url = reverse("games:table_poll", args=[table.pk])
    token = poll_token(table, pupils[0].pk, None)
    assert pupil_client.get(url, {"t": token, "v": stamp}, **HTMX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        services.show_next_card(session)
    answer = pupil_client.get(url, {"t": token, "v": stamp}, **HTMX)
    assert answer.status_code == 200


def test_a_second_tap_that_raced_the_first_turns_no_second_card(start, pupils):
    session = start(players=2, whole_class=True)
    assert services.show_next_card(session, expected=1) == 2
    # The second tap was sent from a screen that still showed one card.
    assert services.show_next_card(session, expected=1) == 2
    session.refresh_from_db()
    assert session.cards_shown == 2


def test_the_teacher_sees_each_tables_last_count_without_a_query_per_table(
    start, pupil_client, teacher, pupils
):
    session = start(players=3, whole_class=True, second_chance=True)
    teacher_client = Client()
    teacher_client.force_login(teacher)
    url = reverse("games:session_live", args=[session.pk])
    tables = list(session.tables.all())
    table = lea_table(session, pupils)
    teacher_client.get(url)

    def counting(chosen):
        for one in chosen:
            all_placed(one)
            Table.objects.filter(pk=one.pk).update(version=F("version") + 1)
            live.bump(one.pk)

    counting([table])
    with CaptureQueriesContext(connection) as one_counting:
        teacher_client.get(url)
    counting([other for other in tables if other != table])
    with CaptureQueriesContext(connection) as all_counting:
        teacher_client.get(url)
    assert len(all_counting) == len(one_counting)

    state = state_of(table)
    scores = level_scores(state.stacks[0])
    top = max(scores)
    post_move(pupil_client, table, type="level_score", level=top, value=scores[top] + 1)
    seen = teacher_client.get(url).content.decode()
    assert f"Léa M.: {top} × {scores[top] // top} = {scores[top] + 1} ✗" in seen
    post_move(pupil_client, table, type="level_score", level=top, value=scores[top])
    seen = teacher_client.get(url).content.decode()
    assert f"Léa M.: {top} × {scores[top] // top} = {scores[top]} ✓" in seen
    for level in sorted(scores, reverse=True)[1:]:
        post_move(pupil_client, table, type="level_score", level=level, value=scores[level])
    if len(scores) >= 2:
        post_move(pupil_client, table, type="total", value=sum(scores.values()))
        parts = " + ".join(str(scores[lv]) for lv in sorted(scores, reverse=True))
        seen = teacher_client.get(url).content.decode()
        assert f"Léa M.: {parts} = {sum(scores.values())} ✓" in seen


def test_a_paused_whole_class_game_turns_no_card(start):
    # The pupils cannot place while paused: a card turned then would be missed.
    session = start(players=2, whole_class=True)
    shown = session.cards_shown
    services.set_status(session, "paused")
    assert services.show_next_card(session, expected=shown) == shown
    services.set_status(session, "running")
    assert services.show_next_card(session, expected=shown) == shown + 1
