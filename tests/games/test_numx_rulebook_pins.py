"""Sessions saved under NUM-X rulebook 2 keep it when rulebook 3 becomes the
default (migration 0008), as 0006 kept rulebook 1; and sessions saved under
rulebook 3 keep it when rulebook 4 does (0009)."""

import importlib

import pytest
from django.apps import apps

from engine.numx import GAME
from engine.numx.state import RULEBOOK
from games.services import start_session

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0008_pin_numx_rulebook_2")
migration_3 = importlib.import_module("games.migrations.0009_pin_numx_rulebook_3")


def test_sessions_saved_under_rulebook_2_keep_it(classroom, teacher, pupils):
    def start(options, game="numx"):
        return start_session(
            classroom, teacher, game=game, options=options, pupils=pupils[:2], table_size=2,
        )

    saved = start({"mode": "family"})
    first = start({"mode": "speed_run", "rulebook": 1})
    other_game = start({"preset": "classic"}, game="numberquest")
    migration.pin_rulebook_2(apps, None)
    later = start({"mode": "x_game"})
    for session in (saved, first, other_game, later):
        session.refresh_from_db()
    assert saved.options == {"mode": "family", "rulebook": 2}
    assert first.options == {"mode": "speed_run", "rulebook": 1}
    assert other_game.options == {"preset": "classic"}
    assert later.options == {"mode": "x_game"}
    # A replay (or a late pupil's table) starts from the session's options.
    assert GAME.new(saved.options, 2, 1).rulebook == 2
    assert GAME.new(first.options, 2, 1).rulebook == 1
    assert GAME.new(later.options, 2, 1).rulebook == RULEBOOK


def test_sessions_saved_under_rulebook_3_keep_it(classroom, teacher, pupils):
    def start(options, game="numx"):
        return start_session(
            classroom, teacher, game=game, options=options, pupils=pupils[:2], table_size=2,
        )

    saved = start({"mode": "speed_run", "teams": []})
    second = start({"mode": "x_game", "rulebook": 2})
    other_game = start({"preset": "classic"}, game="numberquest")
    migration_3.pin_rulebook_3(apps, None)
    later = start({"mode": "family"})
    for session in (saved, second, other_game, later):
        session.refresh_from_db()
    assert saved.options == {"mode": "speed_run", "teams": [], "rulebook": 3}
    assert second.options == {"mode": "x_game", "rulebook": 2}
    assert other_game.options == {"preset": "classic"}
    assert later.options == {"mode": "family"}
    # A replay (or a late pupil's table) starts from the session's options;
    # the migration leaves the tables' stored states alone (each says the
    # rulebook it was started with: here the test's, 4).
    assert GAME.new(saved.options, 2, 1).rulebook == 3
    assert GAME.new(second.options, 2, 1).rulebook == 2
    assert GAME.new(later.options, 2, 1).rulebook == RULEBOOK == 4
    table = saved.tables.first()
    assert GAME.from_json(table.state).rulebook == 4
