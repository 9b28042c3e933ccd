"""Bots play only legal moves, and games between bots end."""

from dataclasses import replace

import pytest

from engine.core import IllegalMove
from engine.numberquest import GAME, bot_moves
from engine.numberquest.bots import LEVELS, choose_square
from engine.numberquest.variants import PRESETS

# RULES 0.2: every preset ends within a lesson, bots or not.
TURN_CAP = 2_000


def rolled(state, *dice):
    return replace(
        state, dice=dice, available=tuple((d, f"die:{i}") for i, d in enumerate(dice)), steps=()
    )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_games_between_bots_end(preset):
    state = GAME.new({"preset": preset, "second_chance": True}, 3, seed=11)
    levels = dict(enumerate(LEVELS))
    turns = 0
    while GAME.result(state) is None and turns < TURN_CAP:
        player = state.current
        moves = bot_moves(state, player, levels[player], rng_seed=3)
        assert moves
        for move in moves:
            outcome = GAME.apply(state, player, move)  # an illegal move would raise
            assert all(a.correct for a in outcome.attempts)
            state = outcome.state
        turns += 1
    result = GAME.result(state)
    assert result is not None, f"{preset} did not end in {turns} turns"
    assert state.ended == "chain"
    assert sorted(p for rank in result.ranking for p in rank) == [0, 1, 2]


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_plays_a_classic_game_alone_against_itself(level):
    state = GAME.new({"preset": "classic"}, 2, seed=99)
    for _ in range(2_000):
        if GAME.result(state):
            break
        player = state.current
        for move in bot_moves(state, player, level, 5):
            state = GAME.apply(state, player, move).state
    assert GAME.result(state) is not None


def test_bots_only_move_on_their_turn():
    state = GAME.new({}, 2, 1)
    assert bot_moves(state, 1, "greedy") == []
    with pytest.raises(IllegalMove):
        bot_moves(state, 0, "genius")


def test_greedy_takes_the_best_payout():
    from engine.arithmetic import reachable
    from engine.numberquest.board import payout

    state = rolled(GAME.new({}, 2, 1), 6, 5, 4, 3)
    best = max(payout(n) for n in reachable([6, 5, 4, 3]) if 1 <= n <= 100)
    assert payout(choose_square(state, 0, "greedy")) == best == 500
    # A Nubble on a cheaper colour beats nothing on the same colour.
    state = replace(rolled(GAME.new({}, 2, 1), 1, 1, 1, 1), covered=((1, 1), (2, 1)))
    assert choose_square(state, 0, "greedy") == 3
    beginner = {
        choose_square(rolled(GAME.new({}, 2, s), 6, 4, 3, 1), 0, "beginner", s) for s in range(10)
    }
    assert len(beginner) > 1


def test_strategist_finishes_the_chain_only_when_ahead():
    line = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 64, 72, 79, 85, 90, 94, 97, 99}
    base = GAME.new({"pupils_bank": False}, 2, 1)
    base = replace(rolled(base, 5, 5, 4, 1), covered=tuple(sorted((s, 1) for s in line)))
    ahead = replace(base, balances=(1000, 200))
    behind = replace(base, balances=(0, 2000))
    assert choose_square(ahead, 0, "strategist") == 100
    assert choose_square(behind, 0, "strategist") != 100
    assert choose_square(behind, 0, "greedy") == 96  # 500 + a Nubble with 97 and 99


def test_a_bot_that_cannot_make_a_number_says_so():
    state = GAME.new({"preset": "addition"}, 2, 1)
    state = replace(rolled(state, 6, 6, 6, 6), covered=((24, 1),))
    assert bot_moves(state, 0, "strategist") == [{"type": "cant"}]


def test_bot_clears_a_half_done_calculation_and_banks():
    state = rolled(GAME.new({"preset": "classic"}, 2, 1), 6, 4, 3, 1)
    state = GAME.apply(
        state, 0, {"type": "step", "left": 6, "op": "+", "right": 4, "result": 10}
    ).state
    moves = bot_moves(state, 0, "greedy")
    assert moves[0] == {"type": "clear"} and moves[-1]["type"] == "bank"
    for move in moves:
        state = GAME.apply(state, 0, move).state
    assert state.current == 1
