"""La piste des nombres ultimes: track rules, turn steps, attempts, bots."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalMove
from engine.ultimes import (
    ELEVATED,
    GAME,
    ULTIMATES,
    UltimesState,
    bot_moves,
    choose_dice,
    destination,
    first_player,
    move_pawn,
    square_kind,
)

FAST = settings(max_examples=60, deadline=None)


def test_ultimate_and_elevated_squares_match_the_rules():
    assert len(ULTIMATES) == 27
    assert ULTIMATES[:4] == (0, 1, 2, 3) and ULTIMATES[-1] == 97
    assert ELEVATED == {4: 2, 8: 2, 16: 2, 32: 2, 64: 2, 9: 3, 27: 3, 81: 3, 25: 5, 49: 7}
    assert square_kind(12) == "plain"


def test_quick_reference_from_0():
    expected = {2: 3, 3: 5, 4: 2, 5: 7, 6: 6, 7: 11, 8: 2, 9: 3, 10: 10, 11: 13, 12: 12}
    assert {s: destination(0, s) for s in range(2, 13)} == expected


def test_97_and_the_bounce():
    assert move_pawn(90, 7).effect == "reset_97" and destination(90, 7) == 0
    assert destination(86, 3) == 97  # 89 jumps to 97: not "directly", so it stays
    assert move_pawn(86, 3, jump_97_resets=True).end == 0
    assert destination(90, 7, passed_99=True) == 0
    assert move_pawn(90, 7, True, passed_97_back=True).end == 89
    assert destination(92, 9) == 89  # 101 bounces to 97, then the previous ultimate
    bounce = move_pawn(95, 9)  # 104 bounces to 94: plain, stays
    assert (bounce.reached, bounce.bounced, bounce.overshoot, bounce.end) == (94, True, 5, 94)
    assert destination(98, 12) == 88
    assert destination(98, 11) == 83  # 109 bounces to 89, then the previous ultimate
    assert destination(88, 12) == 98
    assert destination(93, 6) == 99 and move_pawn(93, 6).effect == "win"


@FAST
@given(st.integers(0, 98), st.integers(1, 12), st.booleans(), st.booleans(), st.booleans())
def test_destination_properties(position, total, passed, jump_resets, back):
    pawn = move_pawn(position, total, passed, jump_97_resets=jump_resets, passed_97_back=back)
    assert 0 <= pawn.end <= 99
    assert pawn.end not in ELEVATED
    if pawn.bounced:
        assert 88 <= pawn.reached <= 98 and pawn.effect in ("stay", "previous_ultimate")
    if pawn.effect == "stay":
        assert square_kind(pawn.end) == "plain"
    if square_kind(pawn.end) == "ultimate" and pawn.end != 99:
        # Only a jump, a fall back to a source, or the 97 rules end on an ultimate.
        assert pawn.effect in (
            "next_ultimate",
            "previous_ultimate",
            "source",
            "reset_97",
            "back_97",
        )
    assert destination(position, total, passed) == move_pawn(position, total, passed).end


def _state(**changes) -> UltimesState:
    return replace(GAME.new({}, 2, 1), **changes)


def test_opening_roll_decides_the_first_player():
    for seed in range(30):
        state = GAME.new({}, 4, seed)
        last = state.opening[-1]
        best = max(d for _, d in last)
        assert [p for p, d in last if d == best] == [state.turn] == [first_player(state)]
        for earlier in state.opening[:-1]:  # a tie round is re-rolled by the tied players
            top = max(d for _, d in earlier)
            assert sum(d == top for _, d in earlier) >= 2
        assert state.phase == "sum" and len(state.dice) == 2
    kinds = [e.kind for e in GAME.opening_events(GAME.new({}, 3, 5))]
    assert kinds[-1] == "first_player"
    solo = GAME.new({}, 1, 3)
    assert solo.opening == () and solo.turn == 0


def test_a_turn_step_by_step():
    state = _state(turn=0, positions=(10, 0), dice=(3, 4), phase="sum")
    out = GAME.apply(state, 0, {"type": "sum", "value": 7})
    (attempt,) = out.attempts
    assert (attempt.skill, attempt.operands, attempt.expected, attempt.correct) == (
        "add",
        (3, 4),
        7,
        True,
    )
    out = GAME.apply(out.state, 0, {"type": "reach", "square": 17})
    assert out.attempts[0].operands == (10, 7) and out.state.phase == "send"
    out = GAME.apply(out.state, 0, {"type": "send", "square": 19})
    assert out.attempts[0].skill == "primes" and out.attempts[0].operands == (17,)
    assert out.state.positions == (19, 0) and out.state.turn == 1
    assert out.state.phase == "sum" and len(out.state.dice) == 2


def test_elevated_is_powers_and_plain_is_primes_evidence():
    state = _state(turn=0, positions=(10, 0), dice=(3, 3), phase="reach", total=6)
    state = GAME.apply(state, 0, {"type": "reach", "square": 16}).state
    out = GAME.apply(state, 0, {"type": "send", "square": 2})
    assert out.attempts[0].skill == "powers" and out.attempts[0].correct
    state = _state(turn=0, positions=(10, 0), dice=(1, 1), phase="reach", total=2)
    state = GAME.apply(state, 0, {"type": "reach", "square": 12}).state
    out = GAME.apply(state, 0, {"type": "send", "square": 12})
    assert out.attempts[0].skill == "primes" and out.attempts[0].expected == 12


def test_bounce_is_a_subtraction_and_marks_passed_99():
    state = _state(turn=0, positions=(95, 0), dice=(4, 5), phase="reach", total=9)
    out = GAME.apply(state, 0, {"type": "reach", "square": 95})
    attempt = out.attempts[0]
    assert (attempt.skill, attempt.operands, attempt.expected, attempt.correct) == (
        "sub",
        (99, 5),
        94,
        False,
    )
    assert out.events[0].data["expected"] == 94  # the right value is shown
    out = GAME.apply(out.state, 0, {"type": "send", "square": 94})
    assert out.state.positions[0] == 94 and out.state.passed_99 == (True, False)
    state = replace(out.state, turn=0, phase="dice", dice=(), total=None)
    assert GAME.moves(state, 0) == [{"type": "dice", "count": 1}, {"type": "dice", "count": 2}]
    out = GAME.apply(state, 0, {"type": "dice", "count": 1})
    assert out.state.phase == "reach" and len(out.state.dice) == 1  # one die: no sum step
    assert out.state.total == out.state.dice[0]


def test_exact_99_wins_without_a_send_step():
    state = _state(turn=1, positions=(0, 93), dice=(3, 3), phase="reach", total=6)
    out = GAME.apply(state, 1, {"type": "reach", "square": 99})
    assert out.state.phase == "over" and out.state.winner == 1
    assert [e.kind for e in out.events][-1] == "won"
    result = GAME.result(out.state)
    assert result is not None and result.winners == (1,)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(out.state, 1, {"type": "sum", "value": 2})
    assert err.value.code == "game_over"


def test_wrong_answers_continue_with_the_right_value():
    state = _state(turn=0, positions=(0, 0), dice=(2, 2), phase="sum")
    out = GAME.apply(state, 0, {"type": "sum", "value": 5})
    assert not out.attempts[0].correct and out.state.total == 4
    out = GAME.apply(out.state, 0, {"type": "reach", "square": 5})
    assert out.state.reached == 4
    out = GAME.apply(out.state, 0, {"type": "send", "square": 4})
    assert out.attempts[0].skill == "powers" and out.state.positions[0] == 2


def test_second_chance_retries_once_without_showing_the_answer():
    state = _state(turn=0, dice=(2, 3), phase="sum", second_chance=True)
    out = GAME.apply(state, 0, {"type": "sum", "value": 6})
    assert out.state.phase == "sum" and out.state.retrying
    assert "expected" not in out.events[0].data
    out = GAME.apply(out.state, 0, {"type": "sum", "value": 5})
    assert out.attempts[0].correct and not out.attempts[0].first_try
    assert out.state.phase == "reach" and not out.state.retrying


def test_view_never_gives_the_answer_away():
    state = _state(turn=0, positions=(10, 0), dice=(3, 4), phase="sum", mark_ultimates=True)
    view = GAME.view(state, 0)
    json.dumps(view)
    assert view["sum"] is None and view["reached"] is None and view["mark_ultimates"]
    assert view["track"][16] == {"square": 16, "kind": "elevated", "source": 2}
    assert view["track"][97]["kind"] == "ultimate" and len(view["track"]) == 100
    assert all("value" not in m and "square" not in m for m in view["moves"])


@pytest.mark.parametrize(
    "move, code",
    [
        ("sum 7", "malformed"),
        ({}, "malformed"),
        ({"type": "sum"}, "malformed"),
        ({"type": "sum", "value": "7"}, "malformed"),
        ({"type": "sum", "value": True}, "malformed"),
        ({"type": "sum", "value": 10**30}, "malformed"),
        ({"type": "sum", "value": -1}, "malformed"),
        ({"type": "sum", "value": 7.0}, "malformed"),
        ({"type": "jump", "value": 7}, "malformed"),
        ({"type": "reach", "square": 7}, "wrong_phase"),
        ({"type": "dice", "count": 2}, "wrong_phase"),
    ],
)
def test_malformed_and_refused_moves(move, code):
    state = _state(turn=0, dice=(3, 4), phase="sum")
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, move)
    assert err.value.code == code and err.value.reason


def test_turn_and_player_checks():
    state = _state(turn=0, dice=(3, 4), phase="sum")
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 1, {"type": "sum", "value": 7})
    assert err.value.code == "not_your_turn" and err.value.details == {"player": 1, "turn": 0}
    for who in (2, -1, True, "0"):
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, who, {"type": "sum", "value": 7})
        assert err.value.code == "no_such_player"
    state = _state(turn=0, positions=(94, 0), passed_99=(True, False), phase="dice")
    for count in (0, 3, "1", None):
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, 0, {"type": "dice", "count": count})
        assert err.value.code == "malformed"
    for bad in ({"second_chance": 1}, {"colour": True}):
        with pytest.raises(IllegalMove) as err:
            GAME.new(bad, 2, 1)
        assert err.value.code == "bad_option"
    for players in (0, 5, True):
        with pytest.raises(IllegalMove) as err:
            GAME.new({}, players, 1)
        assert err.value.code == "bad_players"


junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
moves = st.fixed_dictionaries(
    {"type": st.sampled_from(["dice", "sum", "reach", "send", "x"])},
    optional={
        "value": junk | st.integers(-5, 120),
        "square": junk | st.integers(-5, 120),
        "count": junk | st.integers(0, 3),
    },
)


@FAST
@given(st.lists(moves, max_size=12), st.integers(0, 10**6))
def test_any_input_is_a_move_or_an_illegal_move(sequence, seed):
    state = GAME.new({"second_chance": True}, 2, seed)
    for move in sequence:
        try:
            state = GAME.apply(state, state.turn, move).state
        except IllegalMove as err:
            assert err.code and err.reason
        assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state


def _play(seed: int, players: int, options: dict | None = None, turns: int = 400):
    state = GAME.new(options or {}, players, seed)
    log = []
    for _ in range(turns):
        if state.phase == "over":
            break
        player = state.turn
        for move in bot_moves(state, player, seed):
            out = GAME.apply(state, player, move)
            assert all(a.correct for a in out.attempts)
            assert all(0 <= square <= 99 for square in out.state.positions)
            log.append((player, move))
            state = out.state
        assert GAME.from_json(GAME.to_json(state)) == state
    return state, log


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 4), st.booleans())
def test_bot_games_end_and_replay(seed, players, jump_resets):
    options = {"jump_97_resets": jump_resets}
    state, log = _play(seed, players, options)
    assert state.phase == "over" and GAME.result(state) is not None
    replay = GAME.new(options, players, seed)
    for player, move in log:
        replay = GAME.apply(replay, player, move).state
    assert replay == state
    result = GAME.result(state)
    assert result.scores[result.winners[0]] == 99
    assert sorted(p for rank in result.ranking for p in rank) == list(range(players))


def test_choose_dice():
    assert choose_dice(95) == 1  # 4 to go: only one die has a fair chance
    assert choose_dice(90) == 2  # 9 to go: one die can never make it
    assert choose_dice(0) == 2
