import pytest

from games import services
from games.models import GameSession
from games.pages import engine_of


def one_table(classroom, teacher, chosen, *, game, options, players=None, bot_level="",
              tablets=GameSession.Tablets.OWN, seed=7, ordered=True):
    """A session whose pupils all sit at table 1 (with computers up to
    ``players``); with ``ordered``, the pupils play in the order given."""
    session = services.start_session(
        classroom,
        teacher,
        game=game,
        options=options,
        pupils=chosen,
        table_size=players or len(chosen),
        tablets=tablets,
        bot_level=bot_level,
        seating={p.pk: 1 for p in chosen},
        seed=seed,
    )
    table = session.tables.get()
    if ordered:
        for index, pupil in enumerate(chosen):
            table.seats.filter(pupil=pupil).update(player=100 + index)
        for index, pupil in enumerate(chosen):
            table.seats.filter(pupil=pupil).update(player=index)
    return session, table


@pytest.fixture
def start(classroom, teacher, pupils):
    """Start a Number Quest session; Léa is player 0, Noah player 1 unless told."""

    def _start(players=2, bot_level="", options=None, tablets=GameSession.Tablets.OWN, seed=7):
        return one_table(
            classroom, teacher, pupils[:players], game="numberquest",
            options=options or {"preset": "addition"},
            players=2 if bot_level else players, bot_level=bot_level, tablets=tablets, seed=seed,
        )

    return _start


def state_of(table):
    table.refresh_from_db()
    return engine_of("numberquest").from_json(table.state)


def a_right_step(state):
    """The first two available numbers added, correctly."""
    (a, _), (b, _) = state.available[0], state.available[1]
    return {"type": "step", "left": a, "op": "+", "right": b, "result": a + b}
