"""Nambarz properties: random legal play conserves the deck, never loses a
card, replays to the same state and never shows another hand; bots finish
games at every level."""

from __future__ import annotations

import json
from collections import Counter
from itertools import islice, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalMove
from engine.nambarz import (
    GAME,
    LEVELS,
    bot_moves,
    missed_calculation,
    opportunity,
    reaches,
    simplest,
)
from engine.nambarz.bots import calculations
from engine.nambarz.calc import chain, run_steps
from tests.engine.nambarz_helpers import card_ids, dealt


def _conserved(state) -> None:
    held = sum(state.hands, ()) + state.pile + state.discard
    assert Counter(held) == Counter(range(len(state.cards)))


def _view_is_private(state) -> None:
    for viewer in [None, *range(state.players)]:
        text = json.dumps(GAME.view(state, viewer))
        seen = card_ids(json.loads(text))
        for other in range(state.players):
            if other != viewer:
                assert not seen & set(state.hands[other])


def _choices(state, player):
    """Concrete legal moves now: single cards, draw, pass, a few calculations
    (one with a wrong typed result)."""
    listed = [m for m in GAME.moves(state, player) if m["type"] != "calculate"]
    must = state.drawn if state.pending == "drawn" else None
    if any(m["type"] == "calculate" for m in GAME.moves(state, player)):
        size = len(state.hands[player])
        found = list(islice(calculations(state, player, range(2, min(size, 4) + 1), must), 2))
        listed.extend(found)
        if found:
            wrong = dict(found[0], results=[r + 1 for r in found[0]["results"]])
            listed.append(wrong)
    return listed


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6),
       picks=st.lists(st.integers(0, 10**4), min_size=1, max_size=120),
       brackets=st.booleans(), jokers=st.sampled_from([12, 8, 4]))
def test_random_legal_play(seed, players, picks, brackets, jokers):
    start = GAME.new({"brackets": brackets, "jokers": jokers, "rounds": 3}, players, seed)
    state, log = start, []
    for pick in picks:
        if GAME.result(state) is not None:
            break
        player = state.current
        moves = _choices(state, player)
        assert moves
        move = moves[pick % len(moves)]
        before = state
        out = GAME.apply(state, player, move)
        state = out.state
        log.append((player, move))
        _conserved(state)
        if state.round == before.round:
            # A legal move never loses a card: what left the hand is on the discard.
            gone = set(before.hands[player]) - set(state.hands[player])
            assert gone <= set(state.discard)
        if any(e.kind == "wrong_result" for e in out.events):
            assert state.hands == before.hands and state.current == player
            assert any(not a.correct for a in out.attempts)
        else:
            assert all(a.correct for a in out.attempts)
    _view_is_private(state)
    replayed = start
    for player, move in log:
        replayed = GAME.apply(replayed, player, move).state
    assert GAME.to_json(replayed) == GAME.to_json(state)
    assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state


@settings(max_examples=60, deadline=None)
@given(numbers=st.lists(st.integers(1, 10), min_size=2, max_size=4),
       target=st.integers(1, 10), brackets=st.booleans())
def test_reaches_agrees_with_trying_every_order(numbers, target, brackets):
    found = False
    for order in set(permutations(numbers)):
        for ops in _all_ops(len(numbers) - 1):
            try:
                steps = run_steps(list(order), ops, chain(len(order)))
            except IllegalMove:
                continue
            found = found or steps[-1].result == target
    if not brackets:
        assert reaches(numbers, target) == found
    else:
        assert reaches(numbers, target, brackets=True) >= found
    if simplest(numbers, target, brackets):
        assert reaches(numbers, target, brackets)


def _all_ops(count: int):
    if count == 0:
        yield []
        return
    for rest in _all_ops(count - 1):
        for op in "+-*/":
            yield [*rest, op]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("level", LEVELS)
def test_bots_finish_their_games(players, level):
    for seed in (1, 2):
        options = {"rounds": 1, "brackets": seed == 2, "strict_simplest": seed == 1}
        state = GAME.new(options, players, seed)
        bonus = 0
        for turn in range(3000):
            if GAME.result(state) is not None:
                break
            player = state.current
            moves = bot_moves(state, player, level, turn)
            assert len(moves) == 1
            if moves[0]["type"] in ("match", "draw") and state.pending in ("", "replay"):
                missed = missed_calculation(state, player)
                assert missed is None or set(missed) <= {"add", "sub", "mul", "div"}
            out = GAME.apply(state, player, moves[0])
            assert all(a.correct for a in out.attempts)
            bonus += sum(e.data.get("bonus", 0) for e in out.events if e.kind == "calculated")
            state = out.state
        assert GAME.result(state) is not None, (players, level, seed)
        assert sum(state.scores) >= bonus
        assert bot_moves(state, 0, level) == []


def test_the_strategist_looks_for_the_bonus():
    state = dealt([["6", "5", "1", "1", "2", "change_any"], ["5", "7"]], "9")
    move = bot_moves(state, 0, "strategist")[0]
    assert move["type"] == "calculate" and len(move["cards"]) == 4
    assert len(bot_moves(state, 0, "greedy")[0]["cards"]) == 3  # the shortest: no bonus
    out = GAME.apply(state, 0, move)
    assert out.state.round_points[0] == 7
    with pytest.raises(IllegalMove):
        bot_moves(state, 0, "genius")


def test_the_strategist_keeps_its_jokers():
    state = dealt([["5", "change_any", "replay", "8"], ["5", "7"]], "5-chat")
    for level in LEVELS:
        assert bot_moves(state, 0, level)[0]["type"] == "match"
    state = dealt([["change_any", "replay", "8"], ["5", "7"]], "5-chat")
    move = bot_moves(state, 0, "strategist")[0]
    assert move["type"] == "joker" and state.card(move["card"]).joker == "replay"


def test_opportunities_at_the_start_of_a_turn():
    state = dealt([["3", "3", "1", "8-abeille", "9"], ["5"]], "8")
    assert missed_calculation(state, 0) in (("add",), ("sub",))
    player, numbers, could = opportunity(state)
    assert player == 0 and numbers == [8, 1, 3, 3, 8, 9]
    assert set(could) == {"add", "sub", "mul", "div"} and could["mul"]
    drawn = GAME.apply(state, 0, {"type": "draw"}).state
    assert opportunity(drawn) is None
    nothing = dealt([["7", "7"], ["5"]], "3")
    assert missed_calculation(nothing, 0) is None
    assert opportunity(nothing)[2] == {"add": False, "sub": False, "mul": False, "div": False}


def test_random_legal_play_where_the_drawn_card_matches_the_target():
    """Found by hypothesis: a drawn card that matches the target was asked to
    stand in a calculation (ValueError in bots.calculation_move)."""
    test_random_legal_play.hypothesis.inner_test(
        seed=3568, players=3, picks=[94, 1, 0, 0], brackets=True, jokers=4
    )
