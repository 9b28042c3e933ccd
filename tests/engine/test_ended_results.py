"""The teacher's end in every engine: the server's move, never a player's; the
result ranks as the game's rules do at that moment and says it was ended, with
no winner while the rules name none; the state keeps it through JSON."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalMove, rank_when_ended
from engine.nambarz import GAME as NAMBARZ
from engine.nmbr9 import GAME as NMBR9
from engine.numberquest import GAME as NUMBERQUEST
from engine.numx import GAME as NUMX
from engine.ultimes import GAME as ULTIMES

END = {"type": "end", "reason": "teacher"}


def ended(game, state):
    state = game.apply(state, None, END).state
    again = game.from_json(game.to_json(state))
    assert game.result(again) == game.result(state)
    with pytest.raises(IllegalMove):
        game.apply(state, None, END)
    return state, game.result(state)


def test_a_tie_at_nothing_crowns_nobody():
    assert rank_when_ended((0, 0, 0)) == ()
    assert rank_when_ended((0, 7, 0)) == ((1,), (0, 2))
    assert rank_when_ended((5, 5)) == ((0, 1),)


@pytest.mark.parametrize("game", [ULTIMES, NMBR9, NUMX], ids=lambda g: g.slug)
def test_no_player_may_end_the_game(game):
    state = game.new({}, 2, 5)
    for player in (0, 1):
        with pytest.raises(IllegalMove):
            game.apply(state, player, END)


def test_number_quest_ranks_by_money_and_nothing_earned_wins_nothing():
    state = NUMBERQUEST.new({"preset": "addition"}, 2, 1)
    _, result = ended(NUMBERQUEST, replace(state, balances=(20, 50)))
    assert result.ended and result.ranking == ((1,), (0,)) and result.scores == (20, 50)
    _, result = ended(NUMBERQUEST, state)
    assert result.ended and result.ranking == ()
    # The game's own time up (an end of its rules) with nobody paid: no winner either.
    timed = NUMBERQUEST.new({"preset": "addition", "time_limit_minutes": 10}, 2, 1)
    over = NUMBERQUEST.apply(timed, None, {"type": "end", "reason": "time"}).state
    assert NUMBERQUEST.result(over).ranking == () and not NUMBERQUEST.result(over).ended


def test_the_track_crowns_only_the_pawn_on_99():
    state = replace(ULTIMES.new({}, 3, 5), positions=(40, 97, 12))
    state, result = ended(ULTIMES, state)
    assert result.ended and result.ranking == () and result.scores == (40, 97, 12)
    assert ULTIMES.moves(state, state.turn) == []


def test_nambarz_keeps_the_points_earned_so_far():
    state = NAMBARZ.new({"rounds": 3}, 3, 5)
    # Round 2: round 1 paid 40/32/25; now Inès went out first and Léa made a bonus of 7.
    state = replace(state, round=2, scores=(32, 40, 25), history=((32, 40, 25),),
                    out=(2,), hands=state.hands[:2] + ((),), round_points=(7, 0, 0))
    state, result = ended(NAMBARZ, state)
    assert result.ended and result.scores == (39, 40, 65)
    assert result.ranking == ((2,), (1,), (0,))
    assert state.history[-1] == (7, 0, 40)
    # Nobody out, no bonus, no round finished: nobody has scored.
    _, result = ended(NAMBARZ, NAMBARZ.new({"rounds": 1}, 2, 5))
    assert result.ranking == () and result.scores == (0, 0)


def test_nmbr9_scores_each_stack_as_it_stands():
    from engine.nmbr9 import bot_moves
    from engine.nmbr9.stack import score

    state = NMBR9.new({}, 2, 4)
    _, result = ended(NMBR9, state)
    assert result.ranking == () and result.scores == (0, 0)
    for _card in range(14):
        for player in (0, 1):
            state = NMBR9.apply(state, player, bot_moves(state, player, player)[0]).state
    state, result = ended(NMBR9, state)
    assert result.ended and result.scores == tuple(score(s) for s in state.stacks)
    assert result.ranking == rank_when_ended(result.scores) != ()
    assert NMBR9.moves(state, 0) == [] and NMBR9.moves(state, 1) == []


def test_numx_counts_every_row_as_it_stands():
    state = NUMX.new({}, 2, 5)
    state = replace(state, phase="play", chosen=(), current=0,
                    rows=((("blue9", False),), (("red4", True), ("green4", True))))
    state, result = ended(NUMX, state)
    assert result.ended and result.scores == (9, 0) and result.ranking == ((0,), (1,))
    assert NUMX.view(state, 0)["count"] is not None
