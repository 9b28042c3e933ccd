"""Who loses a turn to an out-of-turn Rainbow, and who plays next (RULES.md 4.6):
"play then resumes with the player after the completing player; the players in
between lose their turn". Every situation is played through ``GAME.apply``.

The turn goes round from the top trick's owner back to them. A completer whose
turn on this trick is still to come makes play jump forward over the players
before them; one who has had it already (passed, or made a Block's forced
pass) sends play back to the player after them, and no one is jumped over.
"""

from __future__ import annotations

from engine.numx import task
from engine.numx.tricks import Trick

from .test_numx_game import forced_passes, play, table

PASS = {"type": "pass"}


def five(hand_of: dict[int, list[str]], owner: int, current: int, players: int = 5, **more):
    """A tour of ``players`` where ``owner`` has laid a single blue 5 and it is
    ``current``'s turn; every hand keeps spare cards so no one empties it."""
    hands = [hand_of.get(p, []) + [f"red{p + 1}", f"green{p + 1}"] for p in range(players)]
    return table(hands, players=players, current=current,
                 tricks=(Trick(owner, ("blue5",), 5, "number"),), **more)


def rainbow(state, player, card="rainbow5"):
    """The Rainbow added: the new state, the players told they lost their turn
    (None when no ``lost_turn`` event was sent), and the whole outcome."""
    state, kinds, out = play(state, player, {"type": "rainbow", "card": card})
    told = [e.data["players"] for e in out.events if e.kind == "lost_turn"]
    assert len(told) <= 1
    in_rainbow = next(e.data["lost_turn"] for e in out.events if e.kind == "rainbow")
    assert in_rainbow == (told[0] if told else [])
    return state, (told[0] if told else None), out


def test_the_players_between_the_current_one_and_the_completer_lose_their_turn():
    # 0 laid the trick; it is 1's turn; 4 completes: 1, 2 and 3 are jumped
    # over, and play goes on with 0, who may now cover the grown trick.
    state = five({4: ["rainbow5"]}, owner=0, current=1)
    state, lost, out = rainbow(state, 4)
    assert lost == [1, 2, 3]
    assert state.current == 0 and state.owner == 4 and state.last.size == 2
    assert [e.player for e in out.events if e.kind == "turn"] == [0]


def test_the_jump_wraps_round_past_player_0():
    # 2 laid the trick, 3 passed, it is 4's turn; 1 completes: 4 and 0 lose
    # their turn and play goes on with 2.
    state = five({1: ["rainbow5"]}, owner=2, current=3)
    state, _, _ = play(state, 3, PASS)
    assert state.current == 4
    state, lost, _ = rainbow(state, 1)
    assert lost == [4, 0] and state.current == 2


def test_a_completer_who_passed_just_before_the_current_player_costs_no_one_a_turn():
    # 0 laid the trick, 1 passed, it is 2's turn; 1 completes. Play resumes
    # with the player after 1, who is 2: 2 keeps the turn, no one loses one
    # (the players from 2 round to 0 were once all told they lost it).
    state = five({1: ["rainbow5"]}, owner=0, current=1, players=4)
    state, _, _ = play(state, 1, PASS)
    state, lost, out = rainbow(state, 1)
    assert lost is None and "lost_turn" not in [e.kind for e in out.events]
    assert state.current == 2 and state.owner == 1


def test_a_completer_who_has_had_their_turn_sends_play_back_and_no_one_loses_a_turn():
    # 0 laid the trick, 1 and 2 passed, it is 3's turn; 1 completes. Play goes
    # back to 2, who may now cover the grown trick; 3, 4 and 0 still play after
    # 2, and the players who passed cannot lose a turn they no longer had.
    state = five({1: ["rainbow5"]}, owner=0, current=1)
    state, _, _ = play(state, 1, PASS)
    state, _, _ = play(state, 2, PASS)
    assert state.current == 3
    state, lost, _ = rainbow(state, 1)
    assert lost is None and state.current == 2 and state.passed == ()
    state, _, _ = play(state, 2, PASS)
    assert state.current == 3


def test_the_completer_whose_turn_it_is_costs_no_one_a_turn_even_past_player_0():
    state = five({0: ["rainbow5"]}, owner=3, current=4)
    state, _, _ = play(state, 4, PASS)
    assert state.current == 0
    state, lost, _ = rainbow(state, 0)
    assert lost is None and state.current == 1


def test_the_owner_playing_again_after_their_block_loses_no_turn_to_a_rainbow():
    # 0 lays a Shadow and blocks everyone: the others make their forced pass
    # and 0 plays again (seed example 2). 2, who passed already, completes:
    # play goes back to 3; 0 plays after 3, like everyone on the grown trick.
    hands = [["shadow5", "block1", "red9", "green9"], ["red1", "green1"],
             ["rainbow5", "red3", "green3"], ["red4", "green4"]]
    state = table(hands, tricks=(Trick(3, ("blue4",), 4, "number"),), current=0)
    state, kinds, _ = play(state, 0, {"type": "trick", "cards": ["shadow5"]})
    assert "shadow_bonus" in kinds
    state, kinds, _ = play(state, 0, {"type": "action", "card": "block1", "target": "all"})
    state = forced_passes(state, 1, 2, 3)
    assert state.current == 0 == state.owner
    state, lost, _ = rainbow(state, 2)
    assert lost is None and state.current == 3 and state.owner == 2


def test_a_team_mate_in_between_loses_their_turn_like_anyone():
    # Teams 0+2 and 1+3: 0 laid the trick, it is 1's turn, 3 completes. 1 is
    # 3's partner and loses the turn all the same; play goes on with 0.
    state = five({3: ["rainbow5"]}, owner=0, current=1, players=4,
                 options={"teams": [[0, 2], [1, 3]]})
    state, lost, _ = rainbow(state, 3)
    assert lost == [1, 2] and state.current == 0


def test_a_blocked_player_jumped_over_loses_the_turn_and_still_owes_the_pass():
    # 0 laid the trick; 2 is blocked (it has not come to them yet); it is 1's
    # turn and 3 completes. 1 and 2 lose their turn: who is blocked or holds
    # Num-X is not asked (a hand is no one else's business). 2's Block waits
    # for their next chance in the tour, when they make the forced pass.
    state = five({3: ["rainbow5"]}, owner=0, current=1, players=4,
                 blocked=(False, False, True, False), blocked_by=(None, None, 1, None))
    state, lost, _ = rainbow(state, 3)
    assert lost == [1, 2] and state.current == 0 and state.blocked[2]
    state, _, _ = play(state, 0, PASS)
    state, _, _ = play(state, 1, PASS)
    assert state.current == 2 and task(state, 2) == "blocked"
    state, kinds, out = play(state, 2, PASS)
    assert [e.player for e in out.events if e.kind == "blocked"] == [2]
    assert state.phase == "distribute" and state.winner == 3


def test_a_blocked_player_asked_and_jumped_over_still_owes_the_pass():
    # 0 blocks 1 on 3's trick; 1 is asked, and 2 completes before 1 taps: 1
    # loses the turn, keeps the Block for their next chance, and that pass
    # lets 2's trick stand: 2 wins the lap.
    state = five({0: ["block1"], 2: ["rainbow5"]}, owner=3, current=0, players=4)
    state, _, _ = play(state, 0, {"type": "action", "card": "block1", "target": 1})
    assert state.current == 1 and task(state, 1) == "blocked"
    state, lost, _ = rainbow(state, 2)
    assert lost == [1] and state.current == 3 and state.blocked[1]
    state, _, _ = play(state, 3, PASS)
    state, _, _ = play(state, 0, PASS)
    state = forced_passes(state, 1)
    assert state.phase == "distribute" and state.winner == 2


def test_blocked_players_after_the_completer_are_asked_not_told_of_a_lost_turn():
    # 0 laid the trick, it is 1's turn, 2 completes; 3 is blocked: 3 is asked
    # and makes the forced pass, and play goes on with 0. Only 1 lost a turn
    # to the Rainbow.
    state = five({2: ["rainbow5"]}, owner=0, current=1, players=4,
                 blocked=(False, False, False, True), blocked_by=(None, None, None, 1))
    state, lost, out = rainbow(state, 2)
    assert lost == [1] and "blocked" not in [e.kind for e in out.events]
    state = forced_passes(state, 3)
    assert state.current == 0 and not state.blocked[3]


def test_in_the_third_rulebook_blocked_players_after_the_completer_are_passed_over():
    state = five({2: ["rainbow5"]}, owner=0, current=1, players=4,
                 blocked=(False, False, False, True), blocked_by=(None, None, None, 1),
                 options={"rulebook": 3})
    state, lost, out = rainbow(state, 2)
    assert lost == [1]
    assert [e.player for e in out.events if e.kind == "blocked"] == [3]
    assert state.current == 0 and not state.blocked[3]


def test_a_rainbow_that_is_the_completers_last_card_ends_the_round_and_costs_no_one_a_turn():
    # 0 laid the trick, it is 1's turn; 3 lays their last card: they win the
    # tour and the round ends, so play never resumes and no one lost a turn.
    hands = [["red1", "green1"], ["red2", "green2"], ["red3", "green3"], ["rainbow5"]]
    state = table(hands, tricks=(Trick(0, ("blue5",), 5, "number"),), current=1)
    state, lost, out = rainbow(state, 3)
    assert lost is None
    assert [e.kind for e in out.events][:2] == ["rainbow", "tour_won"]
    assert state.phase == "distribute" and state.winner == 3 and state.round_over


def test_the_seed_reading_holds_in_a_second_lap_after_the_owner_played_again():
    # 0 lays a Shadow and blocks 2 only; 1 and 3 pass, 2 makes the forced
    # pass, and 0 plays again, then passes too: a second lap starts with 1. 2 completes:
    # 1, whose turn it is (though they passed in the first lap), loses it.
    hands = [["shadow5", "block1", "red9", "green9"], ["red1", "green1"],
             ["rainbow5", "red3", "green3"], ["red4", "green4"]]
    state = table(hands, tricks=(Trick(3, ("blue4",), 4, "number"),), current=0)
    state, _, _ = play(state, 0, {"type": "trick", "cards": ["shadow5"]})
    state, _, _ = play(state, 0, {"type": "action", "card": "block1", "target": 2})
    assert state.current == 1
    state, _, _ = play(state, 1, PASS)
    state = forced_passes(state, 2)
    state, _, _ = play(state, 3, PASS)
    assert state.current == 0 and 1 in state.passed
    state, _, _ = play(state, 0, PASS)
    assert state.current == 1
    state, lost, _ = rainbow(state, 2)
    assert lost == [1] and state.current == 3


def test_who_loses_a_turn_depends_on_no_hand():
    # The same table with other hidden cards (Num-X with the jumped-over
    # blocked player, or not): the same players are told of a lost turn.
    told = []
    for spare in (["numx"], ["red13"]):
        state = five({3: ["rainbow5"], 2: spare}, owner=0, current=1, players=4,
                     blocked=(False, False, True, False), blocked_by=(None, None, 1, None))
        after, lost, _ = rainbow(state, 3)
        told.append((lost, after.current))
    assert told[0] == told[1] == ([1, 2], 0)
