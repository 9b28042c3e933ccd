"""How long the Number Quest variants last (RULES.md 0.2): the presets end
within a lesson, the simulation agrees with the rules' table, old boards load."""

import random
import time

import pytest

from engine.numberquest import GAME, bot_moves
from engine.numberquest.duration import _shape, simulate
from engine.numberquest.game import State
from engine.numberquest.variants import (
    OLD_PRESETS,
    PRESETS,
    Variant,
    expected_turns,
    pinned_old_preset,
    resolve,
)

# RULES.md 0.2, "table turns to the end (median / 90th pct.)", 600 games each.
RULES_TABLE = {
    "addition-3": (27, 62),
    "addition": (29, 71),
    "plus-minus": (22, 45),
    "three-dice": (48, 73),
    "classic": (110, 135),
}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_ends_before_400_table_turns_in_99_percent_of_seeds(preset):
    variant = PRESETS[preset]
    shape = _shape(variant.dice, variant.operations, variant.lo, variant.hi)
    lengths = [simulate(shape, random.Random(seed)) for seed in range(500)]
    assert sum(turns >= 400 for turns in lengths) <= 5


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_expected_turns_agree_with_the_rules_table(preset):
    median, p90 = expected_turns(PRESETS[preset])
    rules_median, rules_p90 = RULES_TABLE[preset]
    assert abs(median - rules_median) <= max(3, rules_median // 10)
    assert abs(p90 - rules_p90) <= max(8, rules_p90 // 8)
    assert median <= p90


def test_the_seeds_young_board_lasts_far_too_long():
    median, p90 = expected_turns(OLD_PRESETS["plus-minus"], games=200)
    assert median > 400 and p90 > median


def test_expected_turns_is_deterministic_and_fast():
    custom = Variant("custom", 4, "+-*/", 1, 100)
    started = time.perf_counter()
    first = expected_turns(custom, seed=7)
    cold = time.perf_counter() - started
    started = time.perf_counter()
    assert expected_turns(custom, seed=7) == first
    assert time.perf_counter() - started < 0.01  # cached
    # Under 1 s on a quiet machine (see tests/bench); room here for a busy one.
    assert cold < 3


@pytest.mark.parametrize("preset", sorted(OLD_PRESETS))
def test_options_saved_with_an_old_preset_keep_their_board(preset):
    old = OLD_PRESETS[preset]
    variant, _ = resolve(pinned_old_preset({"preset": preset, "second_chance": True}))
    assert (variant.dice, variant.operations, variant.lo, variant.hi) == (
        old.dice,
        old.operations,
        old.lo,
        old.hi,
    )
    assert pinned_old_preset({"preset": "classic"}) == {"preset": "classic"}


def test_a_game_saved_on_the_old_addition_board_loads_and_finishes():
    saved = GAME.new({"preset": "addition"}, 2, seed=3).to_json()
    saved["variant"] = {"name": "addition", "dice": 4, "operations": "+", "lo": 4, "hi": 24}
    state = State.from_json(saved)
    assert (state.variant.lo, state.variant.hi) == (4, 24)
    for _ in range(20_000):
        if GAME.result(state) is not None:
            break
        player = state.current
        for move in bot_moves(state, player, "beginner", rng_seed=1):
            state = GAME.apply(state, player, move).state
    assert state.ended == "chain"
    assert {4, 24} <= state.covered_squares()
