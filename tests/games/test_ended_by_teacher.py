"""A game the teacher ends (issue 31, 3): each of the five games ranks its
players as its rules rank them at that moment, or names no winner where they
name none yet, and every page that names winners says the same: the pupils'
tablets, the projector, the live view, the session report and the pupils'
reports. A session whose every table has finished ends by itself."""

from __future__ import annotations

import html
import re
from dataclasses import replace

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.nmbr9 import bot_moves as nmbr9_bot_moves
from engine.nmbr9.stack import score as stack_score
from games import live, services
from games.models import GameSession, Table
from games.pages import engine_of
from tests.conftest import tap_pictures

from .conftest import one_table

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}

ENDED = {
    "en": {
        "tablet": "Your teacher ended the game.",
        "card": "Ended by the teacher.",
        "report": "ended by the teacher",
        "no_winner": "no winner",
        "you_win": "You win!",
        "wins": "wins",
    },
    "fr": {
        "tablet": "Ton enseignant a terminé la partie.",
        "card": "Terminée par l'enseignant.",
        "report": "terminée par l'enseignant",
        "no_winner": "pas de gagnant",
        "you_win": "Tu as gagné !",
        "wins": "gagne",
    },
}


def put(table, state):
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)


def state_of(table):
    table.refresh_from_db()
    return engine_of(table.session.game).from_json(table.state)


def label(pupil) -> str:
    return f"{pupil.first_name} {pupil.initial}."


def read(client: Client, name: str, *args) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200, name
    return html.unescape(response.content.decode())


def end_and_read(session, table, seated, language="en") -> dict[str, str]:
    """The teacher ends the game from the live view; then every page that
    names winners, as its reader sees it. The language a request activates
    is put back afterwards: the next test reads English."""
    with translation.override(translation.get_language()):
        return _end_and_read(session, table, seated, language)


def _end_and_read(session, table, seated, language) -> dict[str, str]:
    teacher = Client(HTTP_ACCEPT_LANGUAGE=language)
    teacher.force_login(session.teacher)
    teacher.post(reverse("games:session_control", args=[session.pk]), {"action": "end"})
    session.refresh_from_db()
    assert session.status == GameSession.Status.ENDED
    pages = {}
    for pupil in seated:
        tablet = Client(HTTP_ACCEPT_LANGUAGE=language)
        tap_pictures(tablet, pupil, pupil.password_pictures)
        pages[pupil.first_name] = read(tablet, "games:table_play", table.pk)
        pages[f"report {pupil.first_name}"] = read(teacher, "reports:pupil_report", pupil.pk)
    pages["projector"] = read(teacher, "games:table_projector", table.pk)
    pages["live"] = read(teacher, "games:session_live", session.pk)
    pages["report"] = read(teacher, "reports:session_report", session.pk)
    return pages


def live_winners(page: str) -> list[str]:
    """The players the live view's card crowns."""
    players = re.search(r'<ul class="mini-players">(.*?)</ul>', page, re.S).group(1)
    return [
        re.search(r"</span>([^:<]+)\s?:", item).group(1).strip()
        for item in re.findall(r"<li[^>]*>.*?</li>", players, re.S)
        if '<span class="vh">' in item
    ]


def ranking(page: str) -> list[tuple[str, str, str]]:
    """The session report's result: (place, player, score) per row."""
    body = re.search(r'data-testid="ranking-1">.*?<tbody>(.*?)</tbody>', page, re.S).group(1)
    rows = []
    for row in re.findall(r"<tr.*?</tr>", body, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        rows.append((cells[0], re.sub(r"<[^>]+>", " ", cells[1]).split("  ")[0].strip(),
                     cells[2]))
    return rows


def assert_nobody_won(pages, seated, no_winner: str, scores: list[str], language="en"):
    words = ENDED[language]
    for pupil in seated:
        page = pages[pupil.first_name]
        assert words["tablet"] in page and no_winner in page, pupil.first_name
        assert words["you_win"] not in page and f"{words['wins']} !" not in page
        assert "wins!" not in page
    assert words["tablet"] in pages["projector"] and no_winner in pages["projector"]
    assert "wins!" not in pages["projector"] and f"{words['wins']} !" not in pages["projector"]
    assert words["card"] in pages["live"] and live_winners(pages["live"]) == []
    report = pages["report"]
    assert words["report"] in report and words["no_winner"] in report
    assert [place for place, _name, _score in ranking(report)] == ["–"] * len(seated)
    for pupil, score in zip(seated, scores, strict=True):
        said = f"{words['no_winner']} · {score} · {words['report']}"
        assert said in pages[f"report {pupil.first_name}"], pupil.first_name


def assert_crowned(pages, seated, winner: str, places: list[tuple[str, str, str]],
                   results: dict[str, str]):
    for pupil in seated:
        page = pages[pupil.first_name]
        assert "Your teacher ended the game." in page
        if label(pupil) == winner:
            assert "You win!" in page
        else:
            assert f"{winner} wins!" in page and "You win!" not in page
    assert f"{winner} wins!" in pages["projector"]
    assert "Your teacher ended the game." in pages["projector"]
    assert "Ended by the teacher." in pages["live"] and live_winners(pages["live"]) == [winner]
    assert "ended by the teacher" in pages["report"]
    assert ranking(pages["report"]) == places
    for name, said in results.items():
        assert said in pages[f"report {name}"], name


# --------------------------------------------------------------------------- Nambarz


@pytest.fixture
def seated(pupils):
    return pupils[:2]


def nambarz_table(classroom, teacher, chosen):
    return one_table(classroom, teacher, chosen, game="nambarz", options={"rounds": 1},
                     players=len(chosen), seed=5)


def test_nambarz_ended_before_anybody_scored_crowns_nobody(classroom, teacher, seated):
    # The auditor's table: one round, Léa and Noah, one draws, the teacher ends.
    session, table = nambarz_table(classroom, teacher, seated)
    state = state_of(table)
    lea = Client()
    tap_pictures(lea, seated[0], seated[0].password_pictures)
    current = seated[state.current]
    tablet = lea if current == seated[0] else Client()
    if current != seated[0]:
        tap_pictures(tablet, current, current.password_pictures)
    table.refresh_from_db()
    tablet.post(reverse("games:table_move", args=[table.pk]),
                {"version": table.version, "move_id": "draw-1", "type": "draw"}, **HTMX)
    assert state_of(table).pending == "drawn"
    pages = end_and_read(session, table, seated)
    assert engine_of("nambarz").result(state_of(table)).ranking == ()
    assert_nobody_won(pages, seated, "Nobody had scored yet: no winner.",
                      ["0 points", "0 points"])


def test_nambarz_ended_ranks_by_the_points_earned_so_far(classroom, teacher, pupils):
    # Three at the table: Noah went out first (40 points, his place is his),
    # Léa made a 4-card calculation this round (7 points); Inès has nothing yet.
    chosen = pupils[:3]
    session, table = nambarz_table(classroom, teacher, chosen)
    state = state_of(table)
    hands = (state.hands[0], (), state.hands[2] + state.hands[1])
    put(table, replace(state, hands=hands, out=(1,), round_points=(7, 0, 0), current=2,
                       pending="", drawn=None))
    pages = end_and_read(session, table, chosen)
    assert_crowned(
        pages, chosen, "Noah B.",
        [("1", "Noah B.", "40"), ("2", "Léa M.", "7"), ("3", "Inès D.", "0")],
        {"Noah": "won · 40 points · ended by the teacher",
         "Léa": "place 2 of 3 · 7 points · ended by the teacher",
         "Inès": "place 3 of 3 · 0 points · ended by the teacher"},
    )
    # The tablets' score table counts what the report counts.
    assert re.search(r"Noah B\.</th>.*?<strong>40</strong>", pages["Noah"], re.S) or \
        ">40<" in pages["Noah"]


# --------------------------------------------------------------------------- Number Quest


def test_number_quest_ended_ranks_by_money(classroom, teacher, seated):
    session, table = one_table(classroom, teacher, seated, game="numberquest",
                               options={"preset": "addition"}, seed=7)
    put(table, replace(state_of(table), balances=(0, 30)))
    pages = end_and_read(session, table, seated)
    assert "Noah B. wins with 30!" in pages["Léa"] and "Noah B. wins with 30!" in pages["Noah"]
    assert "Your teacher ended the game." in pages["Léa"]
    assert "Ended by the teacher." in pages["live"] and live_winners(pages["live"]) == ["Noah B."]
    assert ranking(pages["report"]) == [("1", "Noah B.", "30"), ("2", "Léa M.", "0")]
    assert "won · 30 points · ended by the teacher" in pages["report Noah"]
    assert "place 2 of 2 · 0 points · ended by the teacher" in pages["report Léa"]


def test_number_quest_ended_before_anybody_earned_crowns_nobody(classroom, teacher, seated):
    session, table = one_table(classroom, teacher, seated, game="numberquest",
                               options={"preset": "addition"}, seed=7)
    pages = end_and_read(session, table, seated)
    assert_nobody_won(pages, seated, "Nobody earned any money.", ["0 points", "0 points"])


# --------------------------------------------------------------------------- the track


def test_the_track_ended_before_99_crowns_nobody(classroom, teacher, seated):
    # A race crowns only the pawn on 99: Noah is ahead, but has not won.
    session, table = one_table(classroom, teacher, seated, game="ultimes", options={}, seed=7)
    put(table, replace(state_of(table), turn=0, phase="sum", dice=(2, 2), positions=(40, 60)))
    pages = end_and_read(session, table, seated)
    assert_nobody_won(pages, seated, "No pawn reached 99: no winner.",
                      ["square 40", "square 60"])
    assert ranking(pages["report"]) == [("–", "Léa M.", "40"), ("–", "Noah B.", "60")]


# --------------------------------------------------------------------------- NMBR 9


def test_nmbr9_ended_ranks_the_stacks_as_they_stand(classroom, teacher, seated):
    session, table = one_table(classroom, teacher, seated, game="nmbr9", options={}, seed=4)
    state = state_of(table)
    for _card in range(14):
        for player in (0, 1):
            move = nmbr9_bot_moves(state, player, player)[0]
            state = engine_of("nmbr9").apply(state, player, move).state
    put(table, state)
    scores = [stack_score(s) for s in state.stacks]
    assert scores[0] != scores[1] and min(scores) > 0  # the seed was chosen so
    best = scores.index(max(scores))
    winner, other = seated[best], seated[1 - best]
    pages = end_and_read(session, table, seated)
    assert_crowned(
        pages, seated, label(winner),
        [("1", label(winner), str(scores[best])), ("2", label(other), str(scores[1 - best]))],
        {winner.first_name: f"won · {scores[best]} points · ended by the teacher",
         other.first_name: f"place 2 of 2 · {scores[1 - best]} points · ended by the teacher"},
    )


def test_nmbr9_ended_before_a_tile_climbed_crowns_nobody(classroom, teacher, seated):
    session, table = one_table(classroom, teacher, seated, game="nmbr9", options={}, seed=4)
    pages = end_and_read(session, table, seated)
    assert_nobody_won(pages, seated, "Nobody had scored yet: no winner.",
                      ["0 points", "0 points"])


# --------------------------------------------------------------------------- NUM-X


def test_numx_ended_counts_the_rows_as_they_stand(classroom, teacher, seated):
    session, table = one_table(classroom, teacher, seated, game="numx", options={}, seed=5)
    state = state_of(table)
    used = {"blue9", "red4", "green4"}
    hands = tuple(tuple(c for c in hand if c not in used) for hand in state.hands)
    pile = tuple(c for c in state.pile if c not in used)
    # Léa's row: a 9 (face down: it counts all the same). Noah's: a pair of 4s, which cancel.
    put(table, replace(state, phase="play", chosen=(), current=0, hands=hands, pile=pile,
                       rows=((("blue9", False),), (("red4", True), ("green4", True)))))
    pages = end_and_read(session, table, seated)
    assert_crowned(
        pages, seated, "Léa M.",
        [("1", "Léa M.", "9"), ("2", "Noah B.", "0")],
        {"Léa": "won · 9 points · ended by the teacher",
         "Noah": "place 2 of 2 · 0 points · ended by the teacher"},
    )


# --------------------------------------------------------------------------- French


def test_an_ended_game_says_so_in_french(classroom, teacher, seated):
    session, table = one_table(classroom, teacher, seated, game="ultimes", options={}, seed=7)
    put(table, replace(state_of(table), positions=(40, 60)))
    pages = end_and_read(session, table, seated, language="fr")
    assert_nobody_won(pages, seated, "Aucun pion n'a atteint 99 : pas de gagnant.",
                      ["case 40", "case 60"], language="fr")


# --------------------------------------------------------------------------- the session


def finish_track(table, client):
    """The pupil whose turn it is lands on 99."""
    state = state_of(table)
    put(table, replace(state, turn=0, phase="sum", dice=(2, 4),
                       positions=(93,) + state.positions[1:]))
    table.refresh_from_db()
    for fields in ({"type": "sum", "value": "6"}, {"type": "reach", "square": "99"}):
        client.post(reverse("games:table_move", args=[table.pk]),
                    {"version": table.version, "move_id": f"m{table.version}", **fields}, **HTMX)
        table.refresh_from_db()
    assert table.finished


def test_a_session_whose_every_table_has_finished_ends_and_the_live_view_says_so(
    classroom, teacher, pupils, django_capture_on_commit_callbacks
):
    # Two tables of the track: Léa alone at table 1, Noah alone at table 2.
    session = services.start_session(
        classroom, teacher, game="ultimes", options={}, pupils=pupils[:2], table_size=1,
        seating={pupils[0].pk: 1, pupils[1].pk: 2}, seed=7,
    )
    teacher_client = Client()
    teacher_client.force_login(teacher)
    tablets = []
    for pupil in pupils[:2]:
        tablet = Client()
        tap_pictures(tablet, pupil, pupil.password_pictures)
        tablets.append(tablet)
    first, second = (Table.objects.get(session=session, number=n) for n in (1, 2))
    live_page = read(teacher_client, "games:session_live", session.pk)
    token = re.search(r'hx-get="[^"]*\?v=([^"]+)"', live_page).group(1)

    with django_capture_on_commit_callbacks(execute=True):
        finish_track(first, tablets[0])
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING  # table 2 still plays

    with django_capture_on_commit_callbacks(execute=True):
        finish_track(second, tablets[1])
    session.refresh_from_db()
    assert session.status == GameSession.Status.ENDED and session.ended_at is not None

    page = read(teacher_client, "games:session_live", session.pk)
    assert "Every table has finished." in page and "Playing" not in page
    assert 'value="pause"' not in page and 'value="end"' not in page
    # The live view open all along hears it at its next poll: the status, and
    # its Pause and End buttons taken away.
    poll = teacher_client.get(
        reverse("games:session_live", args=[session.pk]) + f"?v={token}", **HTMX,
        HTTP_HX_TARGET="live",
    )
    said = html.unescape(poll.content.decode())
    assert "Every table has finished." in said
    assert '<span id="session-controls" hx-swap-oob="true"></span>' in said
    # The pupils' list of games has nothing left to play, as the live view says.
    home = read(tablets[0], "classroom:pupil_home")
    assert "No game to play right now" in home
    # Nobody ended it early: the report says the tables finished.
    report = read(teacher_client, "reports:session_report", session.pk)
    assert "every table has finished" in report and "ended by the teacher" not in report


def test_a_session_the_teacher_ends_says_ended_not_finished(classroom, teacher, seated):
    session, table = one_table(classroom, teacher, seated, game="ultimes", options={}, seed=7)
    pages = end_and_read(session, table, seated)
    assert "Every table has finished." not in pages["live"]
    assert 'data-testid="session-status">Ended<' in pages["live"]


# --------------------------------------------------------------------------- NMBR 9, the class


@pytest.mark.parametrize("placed", [0, 6])
def test_nmbr9_with_the_whole_class_ranks_the_stacks_when_the_teacher_ends(
    classroom, teacher, pupils, placed
):
    session = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils[:2], table_size=1,
        whole_class=True, seed=4,
    )
    tables = list(session.tables.order_by("number"))
    scores = []
    for index, table in enumerate(tables):
        state = state_of(table)
        for _card in range(placed):
            state = engine_of("nmbr9").apply(
                state, 0, nmbr9_bot_moves(state, 0, index)[0]).state
        put(table, state)
        scores.append(stack_score(state.stacks[0]))
    GameSession.objects.filter(pk=session.pk).update(cards_shown=placed + 1)
    pages = end_and_read(session, tables[0], pupils[:1])
    teacher_client = Client()
    teacher_client.force_login(teacher)
    cards = read(teacher_client, "games:session_cards", session.pk)
    lea = pages["Léa"]
    assert any(scores) == bool(placed)  # the seed was chosen so
    if not any(scores):
        # Nothing climbed yet: nobody to rank, on the pupils' tablets nor the teacher's screen.
        assert 'data-testid="class-ranking"' not in cards and "The class" not in lea
        assert "Nobody had scored yet: no winner." in lea
    else:
        shown = re.findall(r'<span class="place">(\d+)</span> ([^<]+) <strong>(\d+)</strong>',
                           cards)
        assert sorted(int(score) for _place, _name, score in shown) == sorted(scores)
        assert "The class" in lea and "Your teacher ended the game." in lea
