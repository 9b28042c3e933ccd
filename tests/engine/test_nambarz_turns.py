"""Nambarz turns: jokers (RULES 3.6), drawing and passing (3.4 d), going out,
rounds and scoring (3.5), teams, the view, and the server's moves."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.core import IllegalMove
from engine.nambarz import GAME
from tests.engine.nambarz_helpers import (
    calc,
    card_ids,
    card_in_hand,
    dealt,
    hand_labels,
    ids_by_label,
    label_of,
    play,
)


def _joker(state, player, kind):
    return play(state, player, {"type": "joker", "card": card_in_hand(state, player, kind)})


def _match(state, player, label):
    return play(state, player, {"type": "match", "card": card_in_hand(state, player, label)})


def _pile_top(state, label):
    """The same state with a free copy of ``label`` on top of the draw pile."""
    card_id = next(c for c in state.pile if label_of(state, c) == label)
    return replace(state, pile=tuple(c for c in state.pile if c != card_id) + (card_id,))


# --------------------------------------------------------------------------- jokers (3.6)


def test_play_again_joker_plays_again_on_the_card_under_it():
    state = dealt([["replay", "5", "9"], ["1"]], "5-chat")
    out = _joker(state, 0, "replay")
    assert out.state.current == 0 and out.state.pending == "replay"
    assert out.state.target.label == "5-chat"
    with pytest.raises(IllegalMove) as err:
        play(out.state, 0, {"type": "pass"})
    assert err.value.code == "draw_first"
    out = _match(out.state, 0, "5")
    assert out.state.current == 1 and hand_labels(out.state, 0) == ["9"]


def test_play_again_joker_as_last_card_means_drawing():
    state = _pile_top(dealt([["replay"], ["1", "2"]], "5-chat"), "5")
    out = _joker(state, 0, "replay")
    assert 0 not in out.state.out
    assert GAME.moves(out.state, 0) == [{"type": "draw"}]
    out = play(out.state, 0, {"type": "draw"})
    assert hand_labels(out.state, 0) == ["5"]
    out = _match(out.state, 0, "5")
    assert out.state.out == (0,) and out.state.over  # two players: the round is over
    # Drawn card that cannot be played: kept, and the turn passes.
    state = _pile_top(dealt([["replay"], ["1", "2"]], "5-chat"), "7")
    out = play(_joker(state, 0, "replay").state, 0, {"type": "draw"})
    with pytest.raises(IllegalMove) as err:
        _match(out.state, 0, "7")
    assert err.value.code == "no_match"
    out = play(out.state, 0, {"type": "pass"})
    assert out.state.current == 1 and hand_labels(out.state, 0) == ["7"]


@pytest.mark.parametrize("kind, good, bad", [
    ("change_number", "9", "9-A6"), ("change_drawing", "9-A6", "9"), ("change_any", "9-A6", None),
])
def test_change_jokers_allow_one_card_of_their_family(kind, good, bad):
    state = dealt([[kind, "9", "9-A6", "1"], ["1"]], "5-chat")
    out = _joker(state, 0, kind)
    assert out.state.pending == "follow" and out.state.current == 0
    if bad is not None:
        with pytest.raises(IllegalMove) as err:
            _match(out.state, 0, bad)
        assert err.value.code == "joker_family"
    with pytest.raises(IllegalMove) as err:
        play(out.state, 0, {"type": "draw"})
    assert err.value.code == "follow_card"
    done = _match(out.state, 0, good)
    assert done.state.target.label == good and done.state.current == 1


def test_a_lone_change_joker_binds_the_next_player():
    state = dealt([["change_number", "1"], ["2", "3", "4-A5", "change_any"]], "5-chat")
    out = play(_joker(state, 0, "change_number").state, 0, {"type": "pass"})
    assert out.state.current == 1
    bound = out.state
    with pytest.raises(IllegalMove) as err:
        calc(bound, 1, ["2", "3"], ["+"], [5])
    assert err.value.code == "no_calculation_on_joker"
    with pytest.raises(IllegalMove) as err:
        _match(bound, 1, "4-A5")
    assert err.value.code == "joker_family"
    assert _match(bound, 1, "3").state.target.label == "3"  # any number of the family
    assert _joker(bound, 1, "change_any").state.pending == "follow"
    assert GAME.view(bound, 1)["bound"] == ["symbol"]


def test_going_out_on_a_change_joker():
    state = dealt([["change_drawing"], ["2"], ["3"]], "5-chat")
    out = _joker(state, 0, "change_drawing")
    assert out.state.out == (0,) and out.state.current == 1
    assert GAME.moves(out.state, 1) == [{"type": "draw"}]  # 2 is a symbol card


# --------------------------------------------------------------------------- draw, pass (3.4 d)


def test_draw_then_play_the_drawn_card_or_pass():
    state = _pile_top(dealt([["1", "4"], ["2"]], "5-chat"), "5")
    out = play(state, 0, {"type": "draw"})
    assert out.state.pending == "drawn" and len(out.state.hands[0]) == 3
    with pytest.raises(IllegalMove) as err:
        calc(out.state, 0, ["1", "4"], ["+"], [5])
    assert err.value.code == "play_drawn"
    with pytest.raises(IllegalMove) as err:
        play(out.state, 0, {"type": "draw"})
    assert err.value.code == "already_drawn"
    assert _match(out.state, 0, "5").state.current == 1
    assert play(out.state, 0, {"type": "pass"}).state.current == 1
    # The drawn card may go inside a calculation with the hand.
    state = _pile_top(dealt([["1", "4"], ["2"]], "6"), "2")
    drawn = play(state, 0, {"type": "draw"}).state
    assert calc(drawn, 0, ["4", "2"], ["+"], [6]).state.current == 1


def test_the_discard_is_reshuffled_when_the_pile_runs_out():
    state = dealt([["1"], ["2"]], ["7", "8", "9", "replay"])
    state = replace(state, pile=())
    out = play(state, 0, {"type": "draw"})
    assert [e.kind for e in out.events][:1] == ["reshuffled"]
    assert [label_of(out.state, c) for c in out.state.discard] == ["9", "replay"]
    assert len(out.state.pile) == 1 and out.state.target.label == "9"


def test_a_blocked_round_ends():
    state = replace(dealt([["1"], ["2"]], "7"), pile=())
    for player in (0, 1):
        state = play(state, player, {"type": "draw"}).state
        assert state.drawn is None
        state = play(state, player, {"type": "pass"}).state
    assert state.over and state.scores == (40, 32)


# --------------------------------------------------------------------------- rounds (3.5)


def test_two_to_five_players_end_with_one_holding_cards():
    state = replace(dealt([["5"], ["1"], ["2", "3"]], "5-chat"), out=(1,))
    out = _match(state, 0, "5")
    assert out.state.over
    assert out.state.scores == (32, 40, 25)
    lone = replace(state, options=replace(state.options, last_paid=False))
    assert _match(lone, 0, "5").state.scores == (32, 40, 0)
    result = GAME.result(out.state)
    assert result.ranking == ((1,), (0,), (2,))


def test_six_to_twelve_players_end_when_five_are_out():
    state = replace(dealt([["5"], [], [], [], [], ["1"], ["2"]], "5-chat"), out=(1, 2, 3, 4))
    state = replace(state, hands=state.hands[:1] + ((),) * 4 + state.hands[5:])
    assert state.players == 7
    out = _match(state, 0, "5")
    assert out.state.over and out.state.scores == (14, 40, 32, 25, 19, 0, 0)
    state = replace(state, out=(1, 2, 3))
    out = _match(state, 0, "5")
    assert not out.state.over and out.state.out == (1, 2, 3, 0)


def test_classic_game_of_three_rounds_and_the_leader_starts():
    state = dealt([["5"], ["1", "2"]], "5-chat", rounds=3)
    out = _match(state, 0, "5")
    assert not out.state.over and out.state.round == 2 and out.state.scores == (40, 32)
    assert out.state.current == 0 and [len(h) for h in out.state.hands] == [7, 7]
    assert [e.kind for e in out.events][-2:] == ["round_over", "round_started"]
    assert out.state.history == ((40, 32),)


def test_extra_rounds_break_a_tie():
    state = replace(dealt([["5"], ["1", "2"]], "5-chat"), round_points=(0, 8))
    out = _match(state, 0, "5")
    assert out.state.scores == (40, 40) and not out.state.over and out.state.round == 2
    assert out.events[-1].data["extra"] is True
    plain = replace(state, options=replace(state.options, tie_break=False))
    assert _match(plain, 0, "5").state.over


def test_teams_of_two_share_their_score():
    state = replace(dealt([["5"], ["1"], ["2", "3"], ["4"]], "5-chat", teams=True),
                    out=(1,))
    out = _match(state, 0, "5")
    assert not out.state.over
    out = _match(replace(out.state, current=3, hands=out.state.hands[:3] + (
        (card_in_hand(out.state, 3, "4"),),), discard=out.state.discard + (
        ids_by_label()["4-A5"][0],)), 3, "4")
    assert out.state.over
    result = GAME.result(out.state)
    # Ranks: 1 (40), 0 (32), 3 (25), 2 (19): team 0-1 has 72, team 2-3 has 44.
    assert result.scores == (72, 72, 44, 44)
    assert result.ranking == ((0, 1), (2, 3))


# --------------------------------------------------------------------------- view, server moves


def test_view_hides_other_hands():
    state = GAME.new({}, 3, 4)
    for player in (0, 1, 2, None):
        view = json.loads(json.dumps(GAME.view(state, player)))
        seen = card_ids(view)
        for other in range(3):
            if other != player:
                assert not seen & set(state.hands[other])
        assert view["hand_sizes"] == [7, 7, 7]
        assert ("hand" in view) == (player is not None)
    assert {c["id"] for c in GAME.view(state, 1)["hand"]} == set(state.hands[1])


def test_timeout_and_end():
    state = GAME.new({}, 2, 3)
    out = GAME.apply(state, None, {"type": "timeout"})
    assert out.state.current == 1 and len(out.state.hands[0]) == 8
    out = GAME.apply(out.state, None, {"type": "end"})
    assert GAME.result(out.state) is not None
    with pytest.raises(IllegalMove) as err:
        GAME.apply(out.state, 1, {"type": "draw"})
    assert err.value.code == "game_over"


def test_json_round_trip():
    state = GAME.new({"rounds": 3, "brackets": True, "jokers": 8}, 4, 9)
    data = json.loads(json.dumps(GAME.to_json(state)))
    assert GAME.from_json(data) == state
