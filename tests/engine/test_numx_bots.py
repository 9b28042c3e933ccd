"""NUM-X bots: whole games at every level, mode and table size, legal moves only."""

from __future__ import annotations

import pytest

from engine.numx import GAME, waiting_on
from engine.numx.bots import LEVELS, bot_moves
from engine.numx.state import card_count, set_fields
from engine.numx.tricks import Trick


def play_out(players: int, level: str, mode: str, seed: int, options=None):
    """A whole bot game; apply() refuses any illegal move, so this checks them all."""
    state = GAME.new({"mode": mode, **(options or {})}, players, seed)
    kinds: list[str] = []
    for _ in range(3000):
        if state.phase == "over":
            return state, kinds
        for p in range(players):
            if p not in waiting_on(state):
                for move in bot_moves(state, p, level, seed):
                    out = GAME.apply(state, p, move)
                    kinds += [e.kind for e in out.events]
                    state = out.state
        for p in sorted(waiting_on(state))[:1]:
            moves = bot_moves(state, p, level, seed)
            assert moves, (state.phase, p)
            for move in moves:
                out = GAME.apply(state, p, move)
                assert all(a.correct for a in out.attempts)
                kinds += [e.kind for e in out.events]
                state = out.state
        assert len(state.all_cards()) == card_count(mode)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("mode", ["speed_run", "x_game", "family"])
def test_bot_games_end_with_legal_moves_only(level, mode):
    for players in range(2, 7):
        for seed in ((1, 2) if players <= 3 else (1,)):
            state, kinds = play_out(players, level, mode, seed * 100 + players)
            result = GAME.result(state)
            assert result is not None and len(result.scores) == players
            if mode == "x_game":
                assert state.round_no == 2


def test_bots_play_in_teams():
    state, _ = play_out(4, "strategist", "speed_run", 5, {"teams": [[0, 2], [1, 3]]})
    scores = GAME.result(state).scores
    assert scores[0] == scores[2] and scores[1] == scores[3]


def test_bots_use_the_out_of_turn_rainbow():
    seen = 0
    for seed in range(6):
        _, kinds = play_out(4, "greedy", "speed_run", seed)
        seen += kinds.count("rainbow")
    assert seen > 0


def test_a_bot_hands_a_bad_card_to_the_leader():
    state = GAME.new({}, 3, 1)
    state = set_fields(
        state, phase="distribute", winner=0, current=0, chosen=(),
        hands=(("blue1",), ("blue2",), ("blue3",)),
        rows=((), (("blue9", True), ("red16", True)), (("green5", True),)),
        tricks=(Trick(2, ("red9", "shadow9"), 9, "number"),
                Trick(0, ("rainbow12",), 12, "number")))
    for level in ("greedy", "strategist"):
        (move,) = bot_moves(state, 0, level, 3)
        given = {h["card"]: h["to"] for h in move["cards"]}
        assert given.get("red9") == 1   # the red 9 cancels the leader's blue 9
        GAME.apply(state, 0, move)


@pytest.mark.parametrize("level", LEVELS)
def test_a_blocked_bot_is_asked_and_passes_or_plays_num_x(level):
    # Rulebook 4: a blocked bot is asked like a pupil; without Num-X it makes
    # the forced pass; with it, Num-X takes a lap worth taking.
    for spare, expected in (("red11", {"type": "pass"}),
                            ("numx", {"type": "trick", "cards": ["numx"]})):
        state = GAME.new({"mode": "speed_run"}, 3, 1)
        state = set_fields(state, phase="play", chosen=(), current=1,
                           hands=(("blue3",), ("blue10", spare), ("green10",)),
                           tricks=(Trick(0, ("blue5", "shadow5"), 5, "number"),),
                           blocked=(False, True, False), blocked_by=(None, 2, None))
        assert bot_moves(state, 1, level, 1) == [expected]
