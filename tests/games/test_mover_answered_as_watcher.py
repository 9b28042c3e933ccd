"""A mover made a watcher is answered with the watchers' page made theirs
(games.views.play._answer_as_watcher): each case compares that answer, byte
for byte, with the page the mover's own render draws with the feedback on
their move, in the games and states where it can differ."""

# ruff: noqa: F811

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from engine.numx.tricks import Trick
from games import services, watching
from games.models import GameSession, Move, Table
from games.pages import engine_of
from games.views.tables import table_context

from .test_card_watchers import signed_in, team_seat_table
from .test_push_pages import NEEDS_REDIS

pytestmark = [NEEDS_REDIS]
HTMX = {"HTTP_HX_REQUEST": "true"}


def fresh(table) -> Table:
    from games import seating

    found = Table.objects.select_related("session").get(pk=table.pk)
    seating.load(found)
    return found


def post(client, table, language="en", **fields):
    table.refresh_from_db()
    data = {"version": table.version, "move_id": f"tap-{table.version}", **fields}
    return client.post(reverse("games:table_move", args=[table.pk]), data,
                       HTTP_ACCEPT_LANGUAGE=language, **HTMX)


def expected_answer(table, pupil, language="en") -> str:
    """The answer the mover's own render gives (the path before 7373b21)."""
    found = fresh(table)
    events = Move.objects.filter(table=found).order_by("-number").first().events
    state = engine_of(found.session.game).from_json(found.state)
    player = services.player_for(found, pupil, state)
    with translation.override(language):
        context = table_context(found, player=player, pupil=pupil, feedback=events, state=state)
        return render_to_string(f"games/{found.session.game}/_table.html", context)


def norm(page: str) -> str:
    page = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">', "", page)
    page = re.sub(r'name="move_id" value="[^"]*"', 'name="move_id" value="ID"', page)
    page = re.sub(r"\?t=[^&\"]+", "?t=TOKEN", page)
    page = re.sub(r"<!--you:\d+-->", "", page)
    return page


def took_shared_path(answer) -> bool:
    names = [t.name for t in answer.templates if t.name and t.name.endswith("/_table.html")]
    return len(names) == 1


def check_mover(answer, table, pupil, language="en", must_share=True):
    assert answer.status_code == 200, answer.status_code
    page = answer.content.decode()
    assert watching.FEEDBACK_SLOT not in page and watching.OWN_SLOT not in page
    assert "<!--you-class:" not in page
    if must_share:
        assert took_shared_path(answer), "the answer was drawn by the mover's own render"
    expected = expected_answer(table, pupil, language)
    assert norm(page) == norm(expected)
    return page


# --------------------------------------------------------------------------- Number Quest

@pytest.fixture
def nq_start(classroom, teacher, pupils):
    from .conftest import one_table

    def _start(players=3, tablets=GameSession.Tablets.OWN):
        return one_table(classroom, teacher, pupils[:players], game="numberquest",
                         options={"preset": "addition"}, players=players, tablets=tablets)

    return _start


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_numberquest_cant(nq_start, pupil_client, pupils, language):
    session, table = nq_start(players=3)
    answer = post(pupil_client, table, language=language, type="cant")
    check_mover(answer, table, pupils[0], language)


# --------------------------------------------------------------------------- the track


@pytest.fixture
def ult_table(classroom, teacher, pupils):
    """The track at three: Léa's pawn has reached 17 and she says where it goes."""
    from .conftest import one_table
    from .test_ultimes_pages import set_state

    _session, table = one_table(
        classroom, teacher, pupils[:3], game="ultimes", players=3, seed=3,
        options={"second_chance": False, "mark_ultimates": False},
    )
    set_state(table, turn=0, phase="send", dice=(3, 4), total=7, reached=17,
              positions=(10, 0, 0))
    return table


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("square", "verdict"), [("19", "right"), ("23", "wrong")])
def test_the_track_s_last_tap_of_a_turn(ult_table, pupil_client, pupils, language, square,
                                         verdict):
    answer = post(pupil_client, ult_table, language=language, type="send", square=square)
    page = check_mover(answer, ult_table, pupils[0], language)
    assert f'class="feedback-box {verdict}"' in page


@pytest.mark.django_db(transaction=True)
def test_the_track_s_other_watchers_see_no_verdict(ult_table, pupil_client, pupils):
    from html import unescape

    from django.test import Client

    from .test_card_watchers import signed_in

    post(pupil_client, ult_table, type="send", square="23")
    ines = signed_in(Client, pupils[2])
    page = ines.get(reverse("games:table_play", args=[ult_table.pk]), **HTMX).content.decode()
    poll = unescape(re.search(r'hx-get="([^"]+)"', page).group(1)).rsplit("&v=", 1)[0]
    answer = ines.get(poll + "&v=0", **HTMX)
    assert answer.status_code == 200
    assert answer.templates == [], "not the copy the mover's request kept"
    copy = answer.content.decode()
    assert watching.FEEDBACK_SLOT not in copy and "feedback-box" not in copy
    assert "23" in copy and "Noah" in copy


# --------------------------------------------------------------------------- Nambarz

@pytest.fixture
def nz_start(classroom, teacher, pupils):
    from .conftest import one_table

    def _start(players=3, options=None):
        return one_table(classroom, teacher, pupils[:players], game="nambarz",
                         options=options or {}, players=players, seed=5)

    return _start


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_nambarz_match(nz_start, pupil_client, pupils, language):
    from .test_card_watchers import HANDS
    from .test_nambarz_pages import deal, sym

    session, table = nz_start(players=3)
    deal(table, HANDS, target=sym(5))
    answer = post(pupil_client, table, language=language, type="match", card=str(sym(5, 1)))
    check_mover(answer, table, pupils[0], language)


@pytest.mark.django_db(transaction=True)
def test_nambarz_team_seat(pupil_client, pupils, classroom, teacher):
    from .test_card_watchers import HANDS
    from .test_nambarz_pages import deal, sym

    table, seats = team_seat_table(classroom, teacher, pupils, "nambarz")
    mover = next(p for p in pupils[:3] if seats[p.pk] == 0)
    deal(table, HANDS[:2], target=sym(5))
    client = signed_in(pupil_client.__class__, mover)
    answer = post(client, table, type="match", card=str(sym(5, 1)))
    check_mover(answer, table, mover)


# --------------------------------------------------------------------------- NUM-X

@pytest.fixture
def nx_start(classroom, teacher, pupils):
    from .conftest import one_table

    def _start(players=3, pupils_seated=None, bot_level="", options=None):
        seated = pupils[: pupils_seated if pupils_seated is not None else players]
        return one_table(classroom, teacher, seated, game="numx", options=options or {},
                         players=players, bot_level=bot_level, seed=5)

    return _start


NX_HANDS = [["blue7", "red7", "green3", "yellow12"], ["blue5", "yellow9", "red9", "green12"],
            ["green2", "blue10", "red11"]]
NX_ROWS = [[("green8", True), ("yellow1", False)], [("red3", True), ("blue4", False)],
           [("rainbow11", False)]]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_numx_plain_trick(nx_start, pupil_client, pupils, language):
    from .test_numx_pages import deal

    session, table = nx_start(players=3)
    deal(table, NX_HANDS, rows=NX_ROWS)
    answer = post(pupil_client, table, language=language, type="trick", cards="blue7,red7")
    check_mover(answer, table, pupils[0], language)


@pytest.mark.django_db(transaction=True)
def test_numx_team_seat(pupil_client, pupils, classroom, teacher):
    from .test_numx_pages import deal

    table, seats = team_seat_table(classroom, teacher, pupils, "numx")
    mover = next(p for p in pupils[:3] if seats[p.pk] == 0)
    deal(table, NX_HANDS[:2], rows=NX_ROWS[:2], current=0)
    client = signed_in(pupil_client.__class__, mover)
    answer = post(client, table, type="trick", cards="blue7,red7")
    check_mover(answer, table, mover)


@pytest.mark.django_db(transaction=True)
def test_numx_malus_on_everyone(nx_start, pupil_client, pupils):
    from .test_numx_pages import deal

    session, table = nx_start(players=3)
    deal(table, [["blue2", "malus4"], ["blue5", "red9"], ["green2", "blue10"]],
         rows=[[], [("red3", True)], [("rainbow11", False)]])
    answer = post(pupil_client, table, type="action", card="malus4", target="all")
    check_mover(answer, table, pupils[0], must_share=True)


@pytest.mark.django_db(transaction=True)
def test_numx_mover_with_a_rainbow_for_the_next_trick(nx_start, pupil_client, pupils):
    """Léa passes; Noah... the mover holds a Rainbow that fits a trick laid by another."""
    from .test_numx_pages import deal

    session, table = nx_start(players=3)
    # Inès laid 7s; Léa (current) holds rainbow7 but passes.
    deal(table, [["rainbow7", "green2"], ["blue5", "red9"], ["green3", "blue10"]],
         tricks=[Trick(2, ("blue7", "red7"), 7, "number")], current=0)
    answer = post(pupil_client, table, type="pass")
    check_mover(answer, table, pupils[0], must_share=False)


def _nx_check(answer, table, mover, language="en"):
    """Compare always; report whether the shared path was taken."""
    check_mover(answer, table, mover, language, must_share=False)
    return took_shared_path(answer)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("rulebook, then", [(2, {"type": "trick", "cards": "yellow6"}),
                                             (1, {"type": "keep"})])
def test_numx_draw_then_keep(nx_start, pupil_client, pupils, rulebook, then):
    from dataclasses import replace

    from .test_numx_pages import deal, put

    # A drawn card that can be played is played; rulebook 1 games may keep it.
    session, table = nx_start(players=3, options={"rulebook": rulebook})
    state = deal(table, [["blue2", "red4"], NX_HANDS[1], NX_HANDS[2]], rows=NX_ROWS,
                 tricks=[Trick(1, ("green3",), 3, "number")])
    put(table, replace(state, pile=tuple(c for c in state.pile if c != "yellow6") + ("yellow6",)))
    _nx_check(post(pupil_client, table, type="draw"), table, pupils[0])
    assert _nx_check(post(pupil_client, table, **then), table, pupils[0])


@pytest.mark.django_db(transaction=True)
def test_numx_shadow_bonus_then_block(nx_start, pupil_client, pupils):
    from .test_numx_pages import deal

    session, table = nx_start(players=3)
    deal(table, [["shadow6", "block2", "blue1"], NX_HANDS[1], NX_HANDS[2]], rows=NX_ROWS,
         tricks=[Trick(1, ("green5", "red5"), 5, "number")], current=0)
    _nx_check(post(pupil_client, table, type="trick", cards="shadow6"), table, pupils[0])
    assert _nx_check(post(pupil_client, table, type="action", card="block2", target="1"),
                     table, pupils[0])


@pytest.mark.django_db(transaction=True)
def test_numx_eclair(nx_start, pupil_client, pupils):
    from .test_numx_pages import deal

    session, table = nx_start(players=3)
    deal(table, [["blue2", "eclair1"], NX_HANDS[1], NX_HANDS[2]],
         rows=[[("green8", True)], [("red3", True), ("blue4", False)], [("rainbow11", False)]],
         tricks=[Trick(1, ("green3",), 3, "number")])
    _nx_check(post(pupil_client, table, type="action", card="eclair1", mine="0", theirs="1:0"),
              table, pupils[0])


@pytest.mark.django_db(transaction=True)
def test_numx_malus_on_another_with_held_cards(nx_start, pupil_client, pupils):
    from dataclasses import replace

    from .test_numx_pages import deal, put

    session, table = nx_start(players=3)
    state = deal(table, [["blue2", "malus4"], ["blue5", "red9"], NX_HANDS[2]],
                 rows=[[], [("red3", True)], [("rainbow11", False)]])
    put(table, replace(state, pile=tuple(c for c in state.pile if c not in ("green5", "blue9"))
                       + ("green5", "blue9")))
    page = post(pupil_client, table, type="action", card="malus4", target="1")
    assert _nx_check(page, table, pupils[0])
    body = page.content.decode()
    assert "green5" not in body and "blue9" not in body


@pytest.mark.django_db(transaction=True)
def test_numx_malus_discard_by_noah(nx_start, pupil_client, pupils):
    from .test_numx_pages import deal

    session, table = nx_start(players=3)
    deal(table, [["blue2", "malus5"], ["blue5", "red9", "green11"], NX_HANDS[2]],
         rows=[[], [("red3", True), ("yellow4", False)], []])
    _nx_check(post(pupil_client, table, type="action", card="malus5", target="1"),
              table, pupils[0])
    noah = signed_in(pupil_client.__class__, pupils[1])
    _nx_check(post(noah, table, type="malus_discard", cards="red9"), table, pupils[1])


@pytest.mark.django_db(transaction=True)
def test_numx_blocked_noah_passes(nx_start, pupil_client, pupils):
    from dataclasses import replace

    from .test_numx_pages import deal, put

    session, table = nx_start(players=3)
    state = deal(table, [["blue2", "red4"], ["blue9", "numx"], NX_HANDS[2]],
                 tricks=[Trick(0, ("green3",), 3, "number")], current=1)
    put(table, replace(state, blocked=(False, True, False)))
    noah = signed_in(pupil_client.__class__, pupils[1])
    _nx_check(post(noah, table, type="pass"), table, pupils[1])


@pytest.mark.django_db(transaction=True)
def test_numx_protected(nx_start, pupil_client, pupils):
    from .test_numx_pages import deal

    session, table = nx_start(players=3)
    deal(table, [["blue2", "quantique1", "red4"], NX_HANDS[1], NX_HANDS[2]], rows=NX_ROWS,
         tricks=[Trick(1, ("green3",), 3, "number")])
    _nx_check(post(pupil_client, table, type="action", card="quantique1", target="0"),
              table, pupils[0])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_numx_hand_out(nx_start, pupil_client, pupils, language):
    from dataclasses import replace

    from .test_numx_pages import deal, put

    session, table = nx_start(players=3)
    hands = [["blue2", "red4"], ["blue5", "red9"], ["green2", "blue10"]]
    tricks = [Trick(1, ("green3",), 3, "number"),
              Trick(0, ("blue6", "shadow6"), 6, "number"),
              Trick(1, ("red8", "rainbow8", "yellow8"), 8, "number")]
    state = deal(table, hands, rows=[[("yellow1", False)], [], []], tricks=tricks)
    put(table, replace(state, phase="distribute", winner=0, current=0))
    offered = "blue6,shadow6,red8,rainbow8,yellow8"
    _nx_check(post(pupil_client, table, language=language, type="distribute", offered=offered,
                   **{"to-red8": "1", "face-red8": "down", "to-blue6": "2",
                      "to-shadow6": "0", "to-yellow8": "1", "to-rainbow8": "2"}),
              table, pupils[0], language)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("options", [{}, {"teams": [[0, 2], [1, 3]]}])
def test_numx_four_players(pupil_client, pupils, classroom, teacher, options):
    from classroom.models import Pupil

    from .conftest import one_table
    from .test_numx_pages import deal

    zoe = Pupil.objects.create(classroom=classroom, first_name="Zoé", initial="K",
                               avatar="owl", picture_password="sun,tree,car")
    four = [*pupils[:3], zoe]
    session, table = one_table(classroom, teacher, four, game="numx", options=options, seed=5)
    deal(table, [*NX_HANDS, ["red13", "blue13"]], rows=[*NX_ROWS, [("green13", False)]])
    assert _nx_check(post(pupil_client, table, type="trick", cards="blue7,red7"),
                     table, pupils[0])


@pytest.mark.django_db(transaction=True)
def test_numx_hidden_cards_draw(nx_start, pupil_client, pupils):
    from .test_numx_pages import hidden_cards_table

    session, table = hidden_cards_table(nx_start)
    _nx_check(post(pupil_client, table, type="draw"), table, pupils[0])


@pytest.mark.django_db(transaction=True)
def test_nambarz_calculation_draw_pass_and_anothers_wrong_calculation(
        pupil_client, pupils, classroom, teacher):
    from classroom.models import Pupil

    from .conftest import one_table
    from .test_nambarz_pages import deal, sym

    zoe = Pupil.objects.create(classroom=classroom, first_name="Zoé", initial="K",
                               avatar="owl", picture_password="sun,tree,car")
    four = [*pupils[:3], zoe]
    session, table = one_table(classroom, teacher, four, game="nambarz", options={}, seed=5)
    deal(table, [[sym(9), sym(10)], [sym(3), sym(3, 1), sym(1), sym(10, 1)],
                 [sym(8, 1), sym(2)], [sym(7), sym(4)]], target=sym(8), current=1)
    noah = signed_in(pupil_client.__class__, pupils[1])
    ines = signed_in(pupil_client.__class__, pupils[2])
    # Noah's wrong result (second chance), then he draws and passes.
    for fields in ({"type": "calculate", "cards": f"{sym(3)},{sym(3, 1)},{sym(1)}",
                    "ops": "*,-", "results": "6,5"}, {"type": "draw"}, {"type": "pass"}):
        answer = post(noah, table, **fields)
        _nx_check(answer, table, pupils[1])
    # Inès matches: Zoé plays, Léa and Inès watch; Noah's wrong calculation is in the log.
    answer = post(ines, table, type="match", card=str(sym(8, 1)))
    assert _nx_check(answer, table, pupils[2])
