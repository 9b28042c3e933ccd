"""Sessions saved under NUM-X rulebook 2 keep it when rulebook 3 becomes the
default (migration 0008), as 0006 kept rulebook 1."""

import importlib

import pytest
from django.apps import apps

from engine.numx import GAME
from games.services import start_session

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0008_pin_numx_rulebook_2")


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
    assert GAME.new(later.options, 2, 1).rulebook == 3
