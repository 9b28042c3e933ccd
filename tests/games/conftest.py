import pytest

from engine.registry import get_game
from games import services
from games.models import GameSession


@pytest.fixture
def start(classroom, teacher, pupils):
    """Start a Number Quest session; Léa is player 0, Noah player 1 unless told."""

    def _start(players=2, bot_level="", options=None, tablets=GameSession.Tablets.OWN, seed=7):
        chosen = pupils[:players]
        seating = {p.pk: 1 for p in chosen}
        session = services.start_session(
            classroom,
            teacher,
            game="numberquest",
            options=options or {"preset": "addition"},
            pupils=chosen,
            table_size=2 if bot_level else players,
            tablets=tablets,
            bot_level=bot_level,
            seating=seating,
            seed=seed,
        )
        table = session.tables.get()
        # Seat order follows the pupils' order, so tests know who plays first.
        for index, pupil in enumerate(chosen):
            table.seats.filter(pupil=pupil).update(player=100 + index)
        for index, pupil in enumerate(chosen):
            table.seats.filter(pupil=pupil).update(player=index)
        return session, table

    return _start


def state_of(table):
    table.refresh_from_db()
    return get_game("numberquest").from_json(table.state)


def a_right_step(state):
    """The first two available numbers added, correctly."""
    (a, _), (b, _) = state.available[0], state.available[1]
    return {"type": "step", "left": a, "op": "+", "right": b, "result": a + b}
