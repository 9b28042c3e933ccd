"""Sessions saved before RULES 0.2 changed the young boards keep their board."""

import importlib

import pytest
from django.apps import apps

from engine.numberquest.variants import resolve
from games.models import GameSession
from games.services import start_session

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0003_pin_old_numberquest_presets")


def test_the_migration_writes_the_old_board_into_old_sessions(classroom, teacher, pupils):
    def start(options):
        return start_session(
            classroom, teacher, game="numberquest", options=options, pupils=pupils[:2],
            table_size=2,
        )

    old = start({"preset": "addition", "turn_seconds": 30})
    mine = start({"preset": "classic"})
    migration.pin_old_boards(apps, None)
    old.refresh_from_db()
    mine.refresh_from_db()
    assert old.options == {
        "preset": "addition", "turn_seconds": 30, "dice": 4, "operations": "+", "lo": 4, "hi": 24
    }
    variant, _ = resolve(old.options)
    assert (variant.lo, variant.hi) == (4, 24)
    assert mine.options == {"preset": "classic"}
    assert GameSession.objects.count() == 2


numx_migration = importlib.import_module("games.migrations.0006_pin_old_numx_rulebook")


def test_old_numx_sessions_keep_the_rulebook_they_were_played_by(classroom, teacher, pupils):
    from engine.numx import GAME
    from engine.numx.state import RULEBOOK

    def start(options):
        return start_session(
            classroom, teacher, game="numx", options=options, pupils=pupils[:2], table_size=2,
        )

    old = start({"mode": "family"})
    numx_migration.pin_old_rulebook(apps, None)
    mine = start({"mode": "speed_run"})
    old.refresh_from_db()
    mine.refresh_from_db()
    assert old.options == {"mode": "family", "rulebook": 1}
    assert mine.options == {"mode": "speed_run"}
    # A replay (or a late pupil's table) starts from the session's options.
    assert GAME.new(old.options, 2, 1).rulebook == 1
    assert GAME.new(mine.options, 2, 1).rulebook == RULEBOOK
