"""NUM-X rules, one test per rule (RULES.md 4.4-4.9), with the seed's examples of 4.6."""

from __future__ import annotations

import json
import time

import pytest

from engine.core import IllegalMove
from engine.numx import GAME, can_add_rainbow, score, task, waiting_on
from engine.numx.cards import score_pair
from engine.numx.count import start_count
from engine.numx.state import NumxState, set_fields
from engine.numx.tricks import Trick

N = 4


def table(hands, players=N, rows=None, mode="speed_run", current=0, **more) -> NumxState:
    """A state in the middle of a tour: these hands, nothing on the table yet."""
    state = GAME.new({"mode": mode, **more.pop("options", {})}, players, 7)
    dealt = {c for h in hands for c in h} | {c for r in (rows or []) for c, _ in r}
    pile = tuple(c for c in state.hands[0] + state.pile
                 + tuple(c for h in state.hands[1:] for c in h) if c not in dealt)
    return set_fields(state, phase="play", hands=tuple(tuple(h) for h in hands), pile=pile,
                      rows=tuple(tuple(r) for r in rows) if rows else ((),) * players,
                      chosen=(), current=current, **more)


def play(state, player, move):
    out = GAME.apply(state, player, move)
    return out.state, [e.kind for e in out.events], out


def trick(*cards, value=None):
    move = {"type": "trick", "cards": list(cards)}
    if value is not None:
        move["value"] = value
    return move


def forced_passes(state, *players):
    """Each blocked player in turn is asked (rulebook 4, Num-X in hand or not)
    and makes the forced pass."""
    for p in players:
        assert state.current == p and task(state, p) == "blocked", (state.current, p)
        state, kinds, _ = play(state, p, {"type": "pass"})
        assert kinds[0] == "blocked" and not state.blocked[p]
    return state


def refused(state, player, move) -> str:
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, player, move)
    assert err.value.reason
    return err.value.code


# ------------------------------------------------------------------ setup (4.4)

def test_the_secret_choice_in_any_order_then_the_smallest_unique_value_starts():
    state = GAME.new({}, 3, 1)
    assert waiting_on(state) == {0, 1, 2} and all(len(h) == 13 for h in state.hands)
    picks = {0: "blue5", 1: "red3", 2: "green3"}
    hands = tuple((picks[p],) + tuple(c for c in h if c not in picks.values())[:12]
                  for p, h in enumerate(state.hands))
    state = set_fields(state, hands=hands)
    state, kinds, _ = play(state, 2, {"type": "choose", "card": "green3"})
    assert waiting_on(state) == {0, 1} and kinds == ["chose"]
    for viewer in (0, 1, None):
        assert "green3" not in json.dumps(GAME.view(state, viewer))
    assert GAME.view(state, 2)["your_choice"] == "green3"
    state, _, _ = play(state, 0, {"type": "choose", "card": "blue5"})
    state, kinds, out = play(state, 1, {"type": "choose", "card": "red3"})
    assert "revealed" in kinds and state.phase == "play"
    assert state.rows == ((("blue5", True),), (("red3", True),), (("green3", True),))
    # 3 is held twice, so 5 is the smallest unique value.
    assert state.current == 0 and waiting_on(state) == {0}
    assert all(len(h) == 12 for h in state.hands)


# ------------------------------------------------------------------ tricks (4.6)

def test_first_trick_sizes():
    state = table([["blue4", "red4", "green4", "rainbow4", "joker1"], ["blue9"], ["blue1"],
                   ["red1"]])
    assert refused(state, 0, trick("blue4", "red4", "green4")) == "wrong_size"
    assert refused(state, 0, trick("blue4", "red4", "green4", "rainbow4")) == "wrong_size"
    after, _, _ = play(state, 0, trick("blue4", "red4", "rainbow4"))
    assert after.last.size == 3 and after.last.eligible
    after, _, _ = play(state, 0, trick("blue4", "joker1"))
    assert after.last.value == 4
    assert refused(state, 0, trick("joker1")) == "joker_value"
    assert play(state, 0, trick("joker1", value=12))[0].last.value == 12
    assert refused(state, 0, trick("blue4", "yellow4")) == "not_in_hand"
    assert refused(state, 0, {"type": "pass"}) == "must_open"


def test_later_tricks_are_higher_and_the_same_size_rainbow_one_more_shadow_one_fewer():
    last = Trick(3, ("blue5", "red5"), 5, "number")
    state = table([["blue6", "red6", "green6", "rainbow6", "shadow7", "blue7", "blue4", "red4"],
                   ["blue1"], ["blue2"], ["blue3"]], tricks=(last,))
    assert refused(state, 0, trick("blue4", "red4")) == "not_higher"
    assert refused(state, 0, trick("blue6")) == "wrong_size"
    assert refused(state, 0, trick("blue6", "red6", "green6")) == "wrong_size"
    assert play(state, 0, trick("blue6", "red6"))[0].last.size == 2
    assert play(state, 0, trick("blue6", "red6", "rainbow6"))[0].last.size == 3
    assert play(state, 0, trick("shadow7"))[0].last.size == 1
    assert play(state, 0, trick("shadow7", "blue7"))[0].last.size == 2
    assert refused(state, 0, trick("blue6", "blue7")) == "mixed_values"


def test_infini_and_num_x():
    last = Trick(3, ("blue5", "red5"), 5, "number")
    state = table([["infini1", "infini2", "blue9"], ["numx", "blue16"], ["blue2"], ["blue3"]],
                  tricks=(last,))
    state, _, _ = play(state, 0, trick("infini1"))
    assert state.current == 1
    assert refused(state, 1, trick("blue16")) == "only_numx"
    state, kinds, _ = play(state, 1, trick("numx"))
    # Num-X ends the tour at once; its player wins and hands out the eligible cards.
    assert "tour_won" in kinds and state.winner == 1
    infini = table([["infini1", "infini2", "blue9"], ["numx"], ["blue2"], ["blue3"]],
                   tricks=(Trick(3, ("infini3",), None, "infini"),))
    assert refused(infini, 0, trick("infini1")) == "only_numx"


def test_seed_example_one_out_of_turn_rainbow_and_num_x():
    # Mendy 0, Sasha 1, Elya 2, Luka 3 (RULES 4.6, seed example 1).
    state = table([["blue1", "red12"], ["blue3", "rainbow3", "rainbow10", "red15"],
                   ["blue7", "red7", "numx", "green2"], ["shadow10", "red13"]])
    state, _, _ = play(state, 0, trick("blue1"))
    state, _, _ = play(state, 1, trick("blue3", "rainbow3"))
    state, _, _ = play(state, 2, trick("blue7", "red7"))
    state, _, _ = play(state, 3, trick("shadow10"))
    assert state.current == 0 and state.last.size == 1
    assert can_add_rainbow(state, 1) and not can_add_rainbow(state, 2)
    state, kinds, out = play(state, 1, {"type": "rainbow", "card": "rainbow10",
                                        "trick": 3, "size": 1})
    assert "lost_turn" in kinds
    assert [e.data for e in out.events if e.kind == "lost_turn"] == [{"players": [0]}]
    assert state.last.size == 2 and state.current == 2 and state.owner == 1
    state, kinds, _ = play(state, 2, trick("numx"))
    assert state.phase == "distribute" and state.winner == 2
    view = GAME.view(state, 2)["distribution"]
    assert sorted(view["cards"]) == ["blue3", "rainbow10", "rainbow3", "shadow10"]
    assert view["min"] == 2


def test_seed_example_two_block_all_lets_the_blocker_play_again():
    # Mendy 0, Luka 1, Elya 2, Sasha 3 (seed "exemple de tour", tour 2).
    state = table([["blue0", "red11"], ["blue5", "red14"], ["blue9", "rainbow9", "red16"],
                   ["shadow10", "block1", "infini1", "red2"]])
    state, _, _ = play(state, 0, trick("blue0"))
    state, _, _ = play(state, 1, trick("blue5"))
    state, _, _ = play(state, 2, trick("blue9", "rainbow9"))
    state, kinds, _ = play(state, 3, trick("shadow10"))
    assert "shadow_bonus" in kinds and waiting_on(state) == {3}
    assert task(state, 3) == "bonus" and task(state, 0) == "wait"
    state, kinds, _ = play(state, 3, {"type": "action", "card": "block1", "target": "all"})
    assert "blocked" not in kinds and state.current == 0
    state = forced_passes(state, 0, 1, 2)
    assert state.current == 3 and task(state, 3) == "play"
    state, _, _ = play(state, 3, trick("infini1"))
    for p in (0, 1, 2):
        state, _, _ = play(state, p, {"type": "pass"})
    assert state.phase == "distribute" and state.winner == 3
    offered = GAME.view(state, 3)["distribution"]
    assert sorted(offered["cards"]) == ["blue9", "rainbow9", "shadow10"] and offered["min"] == 2


def test_a_racing_rainbow_is_refused_because_the_trick_changed():
    state = table([["blue7", "red2"], ["blue9", "red3"], ["rainbow7", "red4"], ["red5"]])
    state, _, _ = play(state, 0, trick("blue7"))
    seen = {"type": "rainbow", "card": "rainbow7", "trick": 0, "size": 1}
    state, _, _ = play(state, 1, trick("blue9"))   # the server took this move first
    assert refused(state, 2, seen) == "trick_changed"
    assert not can_add_rainbow(state, 2)
    assert refused(state, 2, {"type": "rainbow", "card": "rainbow7"}) == "rainbow_wrong_value"


def test_a_tour_ends_when_everyone_passes_and_a_virgin_tour_gives_one_card():
    state = table([["blue3", "red9"], ["blue8", "red10"], ["green1", "red11"], ["red5", "red12"]])
    state, _, _ = play(state, 0, trick("blue3"))
    state, _, _ = play(state, 1, trick("blue8"))
    for p in (2, 3, 0):
        state, _, _ = play(state, p, {"type": "pass"})
    assert state.phase == "distribute" and state.winner == 1
    offered = GAME.view(state, None)["distribution"]
    assert offered["virgin"] and (offered["min"], offered["max"]) == (1, 1)
    assert refused(state, 1, {"type": "distribute", "cards": []}) == "too_few"
    state, _, _ = play(state, 1, {"type": "distribute", "cards": [
        {"card": "blue8", "to": 1, "face_up": False, "end": "left"}]})
    assert state.rows[1] == (("blue8", False),) and state.phase == "play"
    assert state.current == 1 and "blue3" in state.discard and not state.tricks


def test_distribution_limits_name_the_rule_broken():
    tricks = (Trick(0, ("blue4", "rainbow4"), 4, "number"),
              Trick(1, ("red6", "shadow6"), 6, "number"),
              Trick(2, ("green9", "rainbow9"), 9, "number"))
    state = table([["red1"], ["red2"], ["red3"], ["red4"]], tricks=tricks)
    state = set_fields(state, phase="distribute", winner=2, current=2,
                       protected=(False, False, False, True))
    cards = ["blue4", "rainbow4", "red6", "shadow6", "green9", "rainbow9"]

    def hand_out(*to):
        return {"type": "distribute", "cards": [
            {"card": c, "to": p, "face_up": True, "end": "right"}
            for c, p in zip(cards, to, strict=False)]}

    assert refused(state, 2, hand_out(0, 1)) == "too_few"                # 6 eligible: >= 3
    assert refused(state, 2, hand_out(2, 2, 2, 0)) == "more_than_half"   # 4 handed: <= 2 each
    assert refused(state, 2, hand_out(0, 1, 3)) == "protected"           # Quantique
    assert refused(state, 1, hand_out(0, 1, 2)) == "not_your_turn"
    state, _, _ = play(state, 2, hand_out(2, 0, 1, 2))
    assert [c for c, _ in state.rows[2]] == ["blue4", "shadow6"]
    assert state.rows[0] == (("rainbow4", True),) and state.rows[1] == (("red6", True),)
    assert {"green9", "rainbow9"} <= set(state.discard) and state.phase == "play"


def test_laying_the_last_card_wins_the_tour_and_ends_the_round():
    state = table([["blue3"], ["blue8", "red10"], ["green1"], ["red5"]],
                  rows=[[("red13", True)], [], [], []])
    state, kinds, _ = play(state, 0, trick("blue3"))
    # A virgin tour: the winner gives the 3; then the round is over, and the count starts.
    assert state.phase == "distribute" and state.round_over
    state, kinds, _ = play(state, 0, {"type": "distribute", "cards": [
        {"card": "blue3", "to": 0, "face_up": True, "end": "left"}]})
    assert state.phase == "count" and "count_started" in kinds


def test_take_back_a_face_up_score_card_and_play_it():
    state = table([["blue2", "red9"], ["blue1"], ["blue0"], ["red0"]],
                  rows=[[("red7", False), ("blue7", True)], [], [], []])
    assert refused(state, 0, {**trick("red7"), "from_row": 0}) == "not_face_up"
    state, _, _ = play(state, 0, {**trick("blue7"), "from_row": 1})
    assert state.rows[0] == (("red7", False),) and state.last.cards == ("blue7",)
    assert state.hands[0] == ("blue2", "red9")


def test_a_drawn_card_that_can_be_played_is_played_at_once():
    # RULES 4.5: "draw from the pile and play that card at once if possible".
    state = table([["blue2", "red9"], ["blue1"], ["blue0"], ["red0"]])
    state = set_fields(state, pile=state.pile + ("green5",))
    state, kinds, _ = play(state, 0, {"type": "draw"})
    assert waiting_on(state) == {0} and GAME.view(state, 0)["pending"]["card"] == "green5"
    assert "green5" not in json.dumps(GAME.view(state, 1))
    assert GAME.moves(state, 0) == [{"type": "trick", "cards": ["green5"], "value": 5}]
    assert refused(state, 0, {"type": "keep"}) == "play_drawn_now"
    assert refused(state, 0, trick("blue2")) == "play_drawn_now"
    state, _, _ = play(state, 0, trick("green5"))
    assert state.last.cards == ("green5",) and state.current == 1


def test_a_drawn_card_that_cannot_be_played_is_kept():
    state = table([["blue2", "red9"], ["blue1"], ["blue0"], ["red0"]],
                  tricks=(Trick(3, ("blue12",), 12, "number"),))
    state = set_fields(state, pile=state.pile + ("green5",))
    state, kinds, _ = play(state, 0, {"type": "draw"})
    assert "kept" in kinds and state.current == 1 and "green5" in state.hands[0]


def test_a_game_of_the_first_rulebook_may_still_keep_a_drawn_card():
    state = table([["blue2", "red9"], ["blue1"], ["blue0"], ["red0"]],
                  options={"rulebook": 1})
    state = set_fields(state, pile=state.pile + ("green5",))
    state, kinds, _ = play(state, 0, {"type": "draw"})
    assert {"type": "keep"} in GAME.moves(state, 0)
    assert refused(state, 0, trick("blue2")) == "play_drawn"
    state, kinds, _ = play(state, 0, {"type": "keep"})
    assert "kept" in kinds and state.current == 1 and "green5" in state.hands[0]


# ------------------------------------------------------------------ actions (4.8)

ROWS = [[("blue1", True), ("blue2", False)], [("red1", True), ("red2", True)],
        [("green1", False)], [("yellow1", True)]]


def _acting(card, **move):
    state = table([[card, "blue9", "red12"], ["blue10", "red11"], ["green10"], ["yellow10"]],
                  rows=ROWS, tricks=(Trick(3, ("blue5",), 5, "number"),))
    return state, {"type": "action", "card": card, **move}


def test_flip_one_player_or_all():
    state, move = _acting("flip1", target=1)
    after, _, _ = play(state, 0, move)
    assert after.rows[1] == (("red1", False), ("red2", False)) and after.current == 1
    after, _, _ = play(state, 0, {**move, "target": "all"})
    assert after.rows[0] == (("blue1", False), ("blue2", True))


def test_swipe_right_moves_each_rightmost_card_to_the_next_row():
    state, move = _acting("swipe1", target="all", direction="right")
    after, _, _ = play(state, 0, move)
    assert after.rows == ((("yellow1", True), ("blue1", True)), (("blue2", False), ("red1", True)),
                          (("red2", True),), (("green1", False),))
    after, _, _ = play(state, 0, {**move, "target": 1, "direction": "left"})
    assert after.rows[0][-1] == ("red1", True) and after.rows[1] == (("red2", True),)


def test_eclair_swaps_two_cards_each_keeping_its_face():
    state, move = _acting("eclair1", target=2, mine=0, theirs=0)
    after, _, _ = play(state, 0, move)
    assert after.rows[0][0] == ("green1", False) and after.rows[2] == (("blue1", True),)


def test_quantique_shields_a_row_from_actions_and_from_score_cards():
    state, move = _acting("quantique1", target=1)
    after, _, _ = play(state, 0, move)
    assert after.protected[1]
    after = set_fields(after, hands=(("eclair1", "blue9"),) + after.hands[1:], current=0)
    assert refused(after, 0, {"type": "action", "card": "eclair1", "target": 1, "mine": 0,
                              "theirs": 0}) == "protected"


def test_block_one_player_makes_them_pass_their_next_chance():
    state, move = _acting("block1", target=1)
    after, kinds, _ = play(state, 0, move)
    assert "blocked" not in kinds and after.current == 1 and task(after, 1) == "blocked"
    assert forced_passes(after, 1).current == 2


def test_a_blocked_player_may_still_play_num_x():
    state, move = _acting("block1", target=1)
    state = set_fields(state, hands=(state.hands[0], ("numx", "red11")) + state.hands[2:])
    after, _, _ = play(state, 0, move)
    assert after.current == 1 and task(after, 1) == "blocked"
    assert GAME.moves(after, 1) == [trick("numx"), {"type": "pass"}]
    assert refused(after, 1, {"type": "draw"}) == "blocked"
    after, kinds, _ = play(after, 1, trick("numx"))
    assert "tour_won" in kinds


def test_malus_draws_and_asks_the_targets_their_choices():
    state, move = _acting("malus2", target=1)   # (+1, -1) by default
    after, _, _ = play(state, 0, move)
    assert len(after.hands[1]) == 3 and waiting_on(after) == {1}
    assert task(after, 1) == "malus_remove"
    assert refused(after, 1, {"type": "malus_remove", "indices": [0, 1]}) == "malus_choice"
    after, kinds, _ = play(after, 1, {"type": "malus_remove", "indices": [1]})
    assert after.rows[1] == (("red1", True),) and after.current == 1 and after.pending is None
    state, move = _acting("malus4", target="all")   # (+1, +1)
    after, _, _ = play(state, 0, move)
    assert waiting_on(after) == {1}
    owed = GAME.view(after, 1)["pending"]["owed"][0]
    placed = [{"card": c["id"], "face_up": False, "end": "left"} for c in owed["cards"]]
    assert GAME.view(after, 2)["pending"]["owed"][0]["cards"] is None
    after, _, _ = play(after, 1, {"type": "malus_place", "cards": placed})
    assert waiting_on(after) == {2} and len(after.rows[1]) == 3


def test_family_has_no_action_cards():
    state = GAME.new({"mode": "family"}, 3, 4)
    everything = state.all_cards()
    assert len(everything) == 109 and all(len(h) == 12 for h in state.hands)
    assert not any(c.startswith(("flip", "malus", "block")) for c in everything)


# ------------------------------------------------------------------ count (4.10)

def _counting(rows, players=2, **more):
    state = table([["blue9"]] * players, players=players, rows=rows, **more)
    return start_count(state)


def test_the_count_step_by_step_with_a_wrong_step_shown_right():
    state = _counting([[("rainbow6", False), ("blue6", True), ("green13", True), ("green1", True)],
                       [("red4", True)]])
    assert waiting_on(state) == {0, 1}
    assert GAME.moves(state, 0) == [{"type": "count_group", "value": 6, "min": 0, "max": 999}]
    view = json.dumps(GAME.view(state, 0)["count"])
    assert '"worth": 12' not in view
    assert refused(state, 0, {"type": "count_group", "colour": "green", "worth": 1}) \
        == "count_in_order"
    wrong_product = GAME.apply(state, 0, {"type": "count_group", "value": 6, "worth": 14})
    assert [(a.skill, a.expected, a.correct) for a in wrong_product.attempts] == [
        ("scoring", 12, False), ("mul", 12, False)]
    # 36 is six 6s, not a product of 6 and 2 gone wrong: a wrong count, the
    # scoring's mistake alone.
    state, _, out = play(state, 0, {"type": "count_group", "value": 6, "worth": 36})
    assert [(a.skill, a.expected, a.correct) for a in out.attempts] == [("scoring", 12, False)]
    # The cards' colours say why the group is worth 12: the report names them.
    assert out.attempts[0].operands == ("blue6", "rainbow6")
    assert out.events[0].data["expected"] == 12
    assert refused(state, 0, {"type": "count_total", "total": 13}) == "groups_first"
    state, _, out = play(state, 0, {"type": "count_group", "colour": "green", "worth": 1})
    assert out.attempts[0].correct
    state, _, out = play(state, 0, {"type": "count_total", "total": 13})
    assert (out.attempts[0].skill, out.attempts[0].operands, out.attempts[0].correct) == (
        "add", (12, 1), True)
    assert GAME.result(state) is None
    state, kinds, _ = play(state, 1, {"type": "count_group", "colour": "red", "worth": 4})
    assert "game_over" in kinds and GAME.result(state).scores == (13, 4)


def test_teams_merge_their_score_cards():
    rows = [[("blue5", True)], [("red5", True)], [("rainbow5", True)], [("green2", True)]]
    state = _counting(rows, players=4, options={"teams": [[0, 2], [1, 3]]})
    assert state.count_row(0) == (("blue5", True), ("rainbow5", True))
    assert [s.worth for s in state.steps(2)] == [10]
    assert [s.worth for s in state.steps(1)] == [5, 2]


def test_x_game_refill_and_the_round_two_start():
    state = table([["blue3"], ["blue8", "red10"]], players=2, mode="x_game",
                  rows=[[("red6", True), ("blue2", True)], [("green2", True), ("red9", False)]])
    state, _, _ = play(state, 0, trick("blue3"))
    state, _, _ = play(state, 0, {"type": "distribute", "cards": [
        {"card": "blue3", "to": 1, "face_up": True, "end": "left"}]})
    assert state.phase == "refill" and waiting_on(state) == {0, 1}
    state, _, _ = play(state, 1, {"type": "refill", "choice": "redraw"})
    state, kinds, _ = play(state, 0, {"type": "refill", "choice": "top_up"})
    assert state.phase == "play" and state.round_no == 2
    assert [len(h) for h in state.hands] == [10, 10] and "blue8" not in state.hands[1]
    # Face-up score cards 6, 2, 3, 2: the 3 is the smallest held once, and it is player 1's.
    assert state.current == 1


def test_views_hide_hands_and_face_down_cards():
    state = table([["blue2", "red9"], ["blue1", "green16"], ["blue0"], ["red0"]],
                  rows=[[("yellow11", False), ("blue7", True)], [], [], []])
    teacher = GAME.view(state, None)
    assert teacher["hand"] is None and teacher["hand_sizes"] == [2, 2, 1, 1]
    for viewer in (0, 1, None):
        text = json.dumps(GAME.view(state, viewer))
        assert '"yellow11"' not in text and '"blue7"' in text
    assert '"green16"' not in json.dumps(GAME.view(state, 0))
    assert '"green16"' in json.dumps(GAME.view(state, 1))


# ------------------------------------------------------------------ more edges

def test_new_checks_players_and_options():
    for players in (1, 7):
        with pytest.raises(IllegalMove) as err:
            GAME.new({}, players, 1)
        assert err.value.code == "bad_players"
    for options in ({"mode": "blitz"}, {"rules": [6]}, {"malus": [[1, 1]]}, {"colour": 1},
                    {"teams": [[0, 1], [2]]}):
        with pytest.raises(IllegalMove) as err:
            GAME.new(options, 4, 1)
        assert err.value.code == "bad_option"
    six = GAME.new({"mode": "x_game", "malus": [[3, 0]] * 5}, 6, 1)
    assert [len(h) for h in six.hands] == [10] * 6 and six.malus == ((3, 0),) * 5


def test_a_choice_may_change_until_everyone_has_chosen():
    state = GAME.new({}, 2, 3)
    first, second = state.hands[0][:2]
    state, _, _ = play(state, 0, {"type": "choose", "card": first})
    state, _, _ = play(state, 0, {"type": "choose", "card": second})
    state, _, _ = play(state, 1, {"type": "choose", "card": state.hands[1][0]})
    assert state.rows[0] == ((second, True),) and first in state.hands[0]


def test_infini_may_open_and_a_joker_stands_beside_a_rainbow():
    state = table([["infini2", "joker2", "rainbow8", "blue8"], ["red1"], ["red2"], ["red3"]])
    assert play(state, 0, trick("infini2"))[0].last.kind == "infini"
    after, _, _ = play(state, 0, trick("joker2", "rainbow8", "blue8"))
    assert after.last.value == 8 and after.last.size == 3 and after.last.eligible


def test_a_rainbow_on_ones_own_turn_costs_no_one_a_turn_and_never_on_ones_own_trick():
    state = table([["blue5", "red1"], ["rainbow5", "red9"], ["rainbow3", "red2"], ["red3"]])
    state, _, _ = play(state, 0, trick("blue5"))
    assert refused(state, 0, {"type": "rainbow", "card": "rainbow5"}) in (
        "own_trick", "not_in_hand")
    state, kinds, out = play(state, 1, {"type": "rainbow", "card": "rainbow5"})
    assert "lost_turn" not in kinds and state.current == 2 and state.last.size == 2
    assert refused(state, 1, {"type": "rainbow", "card": "rainbow5"}) == "own_trick"
    infini = table([["infini1", "red1"], ["rainbow5"], ["red2"], ["red3"]])
    infini, _, _ = play(infini, 0, trick("infini1"))
    assert refused(infini, 1, {"type": "rainbow", "card": "rainbow5"}) == "no_trick"


def test_a_shadow_bonus_may_be_declined():
    state = table([["shadow4", "flip1", "red1"], ["red9"], ["red10"], ["red11"]])
    state, kinds, _ = play(state, 0, trick("shadow4"))
    assert "shadow_bonus" in kinds and not can_add_rainbow(state, 1)
    assert refused(state, 0, trick("red1")) == "bonus_action"
    state, _, _ = play(state, 0, {"type": "pass"})
    assert state.current == 1 and "flip1" in state.hands[0]


def test_quantique_keeps_a_swipe_off_the_shielded_row():
    state, move = _acting("swipe1", target="all", direction="right")
    state = set_fields(state, protected=(False, True, False, False))
    after, _, _ = play(state, 0, move)
    # Row 1 neither gives nor receives; row 0's card stays home, row 2 and 3 pass theirs.
    assert after.rows[1] == state.rows[1] and after.rows[0][-1] == ("blue2", False)
    assert after.rows[3] == (("green1", False),) and after.rows[0][0] == ("yellow1", True)


def test_malus_leaves_a_hand_one_card_at_least():
    state, move = _acting("malus5", target=3)   # (-1, -1): yellow player has one card
    after, _, _ = play(state, 0, move)
    assert waiting_on(after) == {3}
    assert GAME.moves(after, 3) == [{"type": "malus_remove", "count": 1, "cards": []}]


def _lap_of_four(**more) -> NumxState:
    """Player 0 owns the top trick; player 1 has passed; it is player 2's turn,
    with a Block; player 3 is the last who could cover."""
    state = table([["blue3", "red9"], ["blue1", "red1"], ["block1", "red2"], ["yellow10", "red3"]],
                  tricks=(Trick(0, ("blue5",), 5, "number"),), current=1, **more)
    state, _, _ = play(state, 1, {"type": "pass"})
    assert state.current == 2
    return state


def test_another_players_block_on_the_last_who_could_cover_ends_the_lap():
    # RULES 4.6, 4.8: nobody covered the trick, so its owner wins the lap.
    state = _lap_of_four()
    state, _, _ = play(state, 2, {"type": "action", "card": "block1", "target": 3})
    after, kinds, _ = play(state, 3, {"type": "pass"})
    assert kinds.count("blocked") == 1 and "tour_won" in kinds
    assert after.winner == 0 and after.phase == "distribute"
    assert task(after, 0) == "distribute"


def test_a_blocked_player_passed_over_lets_the_trick_stand_for_later_players_too():
    # Block on player 3 by player 1; player 2 covers; player 3 passes, forced:
    # their pass lets 2's trick stand, so 0 and 1 passing ends the lap.
    state = table([["blue3", "red9"], ["block1", "red1"], ["blue7", "red2"], ["yellow10", "red3"]],
                  tricks=(Trick(0, ("blue5",), 5, "number"),), current=1)
    state, _, _ = play(state, 1, {"type": "action", "card": "block1", "target": 3})
    state, _, _ = play(state, 2, trick("blue7"))
    state = forced_passes(state, 3)
    assert state.current == 0
    state, _, _ = play(state, 0, {"type": "pass"})
    state, kinds, _ = play(state, 1, {"type": "pass"})
    assert "tour_won" in kinds and state.winner == 2


def test_a_blocked_player_with_num_x_who_passes_lets_the_trick_stand():
    state = _lap_of_four()
    state = set_fields(state, hands=state.hands[:3] + (("numx", "red3"),))
    state, _, _ = play(state, 2, {"type": "action", "card": "block1", "target": 3})
    assert state.current == 3 and task(state, 3) == "blocked"
    state, kinds, _ = play(state, 3, {"type": "pass"})
    assert "tour_won" in kinds and state.winner == 0


def test_a_game_of_the_first_rulebook_gives_the_owner_the_turn_back_after_a_block():
    # Games stored before RULES 4.8 was followed replay as they were played.
    state = _lap_of_four(options={"rulebook": 1})
    after, kinds, _ = play(state, 2, {"type": "action", "card": "block1", "target": 3})
    assert "tour_won" not in kinds and after.current == 0 and task(after, 0) == "play"
    stored = {k: v for k, v in state.to_json().items() if k not in ("rulebook", "blocked_by")}
    old = NumxState.from_json(json.loads(json.dumps(stored)))
    assert old.rulebook == 1 and old.blocked_by == ()
    assert GAME.apply(old, 2, {"type": "action", "card": "block1", "target": 3}).state.current == 0


def _blocker_completes_the_trick(rulebook: int) -> tuple[NumxState, list[str]]:
    """Player 1 blocks player 0, who owns the top trick, then takes the trick
    over with a Rainbow out of turn; player 2 lets it stand."""
    state = table([["blue3", "red9"], ["block1", "rainbow5", "red1"], ["yellow10", "red3"]],
                  players=3, tricks=(Trick(0, ("blue5",), 5, "number"),), current=1,
                  options={"rulebook": rulebook})
    state, _, _ = play(state, 1, {"type": "action", "card": "block1", "target": 0})
    state, kinds, _ = play(state, 1, {"type": "rainbow", "card": "rainbow5"})
    assert state.owner == 1 and state.current == 2 and state.blocked[0]
    state, kinds, _ = play(state, 2, {"type": "pass"})
    return state, kinds


def test_a_block_laid_before_the_blocker_completed_the_trick_lets_it_stand():
    # RULES 4.6, 4.8: only the owner's Block on their own trick lets them play
    # again; 1 laid this one on 0's trick, so 0's forced pass lets 1's trick stand.
    state, kinds = _blocker_completes_the_trick(3)
    assert kinds.count("blocked") == 1 and "tour_won" in kinds
    assert state.winner == 1 and state.phase == "distribute"


def test_a_game_of_the_second_rulebook_gives_that_blocker_the_turn_back():
    # Games stored under rulebook 2 replay as they were played.
    state, kinds = _blocker_completes_the_trick(2)
    assert "tour_won" not in kinds and state.current == 1 and task(state, 1) == "play"


def test_the_owners_block_on_their_own_trick_still_lets_them_play_again():
    # Seed example 2: the trick, then the Block with the Shadow's bonus.
    state = table([["blue3", "red9"], ["shadow6", "block1", "red1"], ["yellow10", "red3"]],
                  players=3, tricks=(Trick(0, ("blue5",), 5, "number"),), current=1)
    state, kinds, _ = play(state, 1, trick("shadow6"))
    assert "shadow_bonus" in kinds
    state, kinds, _ = play(state, 1, {"type": "action", "card": "block1", "target": "all"})
    state = forced_passes(state, 2, 0)
    assert state.phase == "play" and state.current == 1 and task(state, 1) == "play"


def test_the_rulebook_is_an_option_with_four_editions():
    assert GAME.new({}, 3, 1).rulebook == 4
    for edition in (1, 2, 3):
        assert GAME.new({"rulebook": edition}, 3, 1).rulebook == edition
    for wrong in (0, 5, True, "3"):
        with pytest.raises(IllegalMove):
            GAME.new({"rulebook": wrong}, 3, 1)


def test_block_between_team_mates():
    state = table([["block1", "red9"], ["blue10"], ["green10"], ["yellow10", "red3"]],
                  tricks=(Trick(3, ("blue5",), 5, "number"),),
                  options={"teams": [[0, 2], [1, 3]]})
    after, _, _ = play(state, 0, {"type": "action", "card": "block1", "target": "between"})
    assert after.blocked == (False, True, False, False)
    assert forced_passes(after, 1).current == 2


# ------------------------------------------------------------------ the blocked player is asked

# Rulebook 4: when the turn reaches a blocked player they are asked, holding
# Num-X or not, so whose turn it is tells no one what is in their hand. Until
# rulebook 3 one without Num-X was passed over at once.


BLOCK_1 = {"type": "action", "card": "block1", "target": 1}


def _before_block(spare: str, rulebook: int = 4) -> NumxState:
    """Player 0, on 3's trick, is about to block player 1, whose spare card is
    ``spare`` (Num-X, or a card that was in the pile)."""
    hands = [["block1", "blue9", "red12"], ["blue10", spare], ["green10", "red2"],
             ["yellow10", "red3"]]
    return table(hands, tricks=(Trick(3, ("blue5",), 5, "number"),),
                 options={"rulebook": rulebook})


def _blocks_1(spare: str, rulebook: int = 4) -> NumxState:
    return play(_before_block(spare, rulebook), 0, BLOCK_1)[0]


def test_a_blocked_player_without_num_x_is_asked_and_may_only_pass():
    state = _blocks_1("red11")
    assert state.current == 1 and waiting_on(state) == {1} and task(state, 1) == "blocked"
    assert GAME.moves(state, 1) == [{"type": "pass"}]
    assert refused(state, 1, {"type": "draw"}) == "blocked"
    assert refused(state, 1, trick("red11")) == "blocked"
    assert refused(state, 1, trick("numx")) == "not_in_hand"
    after, kinds, _ = play(state, 1, {"type": "pass"})
    assert kinds == ["blocked", "turn"] and after.current == 2 and not after.blocked[1]


def test_a_blocked_player_with_num_x_is_asked_as_before():
    state = _blocks_1("numx")
    assert state.current == 1 and task(state, 1) == "blocked"
    assert GAME.moves(state, 1) == [trick("numx"), {"type": "pass"}]
    after, kinds, _ = play(state, 1, trick("numx"))
    assert "tour_won" in kinds and after.winner == 1


def _seen(state: NumxState, viewers) -> str:
    return json.dumps([GAME.view(state, v) for v in viewers], sort_keys=True)


def test_whose_turn_it_is_does_not_tell_who_holds_num_x():
    # Num-X in the blocked player's hand, or in the pile (a card of the pile
    # in their hand instead): every other tablet sees the same, before and
    # after their pass, and hears the same events.
    others = (0, 2, 3, None)
    seen = []
    for spare in ("numx", "red11"):
        state = _blocks_1(spare)
        if spare == "red11":  # the same pile, Num-X where red 11 was
            state = set_fields(state, pile=tuple("numx" if c == "red11" else c
                                                 for c in state.pile))
        after, _, out = play(state, 1, {"type": "pass"})
        seen.append((_seen(state, others), _seen(after, others),
                     json.dumps([e.to_json() for e in out.events], sort_keys=True)))
    assert seen[0] == seen[1]


def test_a_game_of_the_third_rulebook_still_passes_over_a_blocked_player_without_num_x():
    # Games stored under rulebooks 1 to 3 replay as they were played.
    state = _blocks_1("red11", rulebook=3)
    assert state.current == 2 and not state.blocked[1] and 1 in state.passed
    assert task(state, 1) == "wait"
    state = _blocks_1("numx", rulebook=3)
    assert state.current == 1 and task(state, 1) == "blocked"


def _forced(rulebook: int, case: str) -> tuple[NumxState, list[str]]:
    """A Block's position played out: the blocker's move, then (rulebook 4)
    the forced pass of each blocked player asked. The state and event kinds."""
    options = {"rulebook": rulebook}
    if case == "one":  # 1 blocked by 0 on 3's trick: 1's pass lets it stand
        state, kinds, _ = play(_before_block("red11", rulebook), 0, BLOCK_1)
    elif case == "last":  # 3, the last who could cover, blocked: the lap ends
        state = _lap_of_four(options=options)
        state, kinds, _ = play(state, 2, {"type": "action", "card": "block1", "target": 3})
    else:  # the owner's Block on their own trick: they play again
        state = table([["blue3", "red9"], ["shadow6", "block1", "red1"], ["yellow10", "red3"]],
                      players=3, tricks=(Trick(0, ("blue5",), 5, "number"),), current=1,
                      options=options)
        state, _, _ = play(state, 1, trick("shadow6"))
        state, kinds, _ = play(state, 1, {"type": "action", "card": "block1", "target": "all"})
    while state.phase == "play" and task(state, state.current) == "blocked":
        kinds.pop()  # the turn that reached the blocked player
        state, more, _ = play(state, state.current, {"type": "pass"})
        kinds += more
    return state, kinds


@pytest.mark.parametrize("case", ["one", "last", "owner"])
def test_the_forced_pass_has_the_effects_the_pass_over_had(case):
    # The blocked player's tap aside, rulebook 4 reaches the state rulebook 3
    # reached by passing them over: the trick let stand or not, the Block
    # spent, the same events.
    old, old_kinds = _forced(3, case)
    new, new_kinds = _forced(4, case)
    assert set_fields(new, rulebook=3) == old and new_kinds == old_kinds
    assert "blocked" in new_kinds


def test_an_empty_pile_takes_the_discard_back():
    state = table([["blue2", "red9"], ["blue1"], ["blue0"], ["red0"]])
    state = set_fields(state, pile=(), discard=("green5", "green6"))
    state, kinds, _ = play(state, 0, {"type": "draw"})
    assert "reshuffled" in kinds and len(state.pile) == 1 and not state.discard


def test_the_count_of_an_x_trem_and_of_family_singles():
    xtrem = _counting([[("blue2", True), ("red2", False), ("green2", True), ("yellow2", True),
                        ("shadow2", True)], []])
    assert GAME.moves(xtrem, 1) == [] and waiting_on(xtrem) == {0}
    state, kinds, out = play(xtrem, 0, {"type": "count_group", "value": 2, "worth": 100})
    assert out.attempts[0].correct and "game_over" in kinds
    family = _counting([[("blue9", True), ("red9", True), ("blue5", True), ("blue8", True)],
                        []], mode="family")
    assert GAME.moves(family, 0)[0]["value"] == 9
    family, _, _ = play(family, 0, {"type": "count_group", "value": 9, "worth": 0})
    assert GAME.moves(family, 0)[0]["colour"] == "any"
    family, _, out = play(family, 0, {"type": "count_group", "colour": "any", "worth": 13})
    assert [(a.skill, a.correct) for a in out.attempts] == [("scoring", True)]
    family, _, out = play(family, 0, {"type": "count_total", "total": 13})
    assert GAME.result(family).scores == (13, 0)


def test_can_add_rainbow_is_cheap():
    state = table([["blue7", "red2"], ["blue9", "red3"], ["rainbow7", "red4"], ["red5"]])
    state, _, _ = play(state, 0, trick("blue7"))
    start = time.perf_counter()
    for _ in range(1000):
        can_add_rainbow(state, 2)
    assert (time.perf_counter() - start) / 1000 < 0.0001


def test_seed_tour_one_the_winner_hands_out_four_of_seven():
    # Elya 0, Sasha 1, Mendy 2, Luka 3 (seed "exemple de tour", tour 1).
    state = table([["blue3", "red12"], ["blue5", "rainbow5", "rainbow10", "red15"],
                   ["green9", "shadow9", "numx", "green2"], ["blue10", "red10", "red13"]])
    state, _, _ = play(state, 0, trick("blue3"))
    state, _, _ = play(state, 1, trick("blue5", "rainbow5"))
    state, _, _ = play(state, 2, trick("green9", "shadow9"))   # no reduction used
    state, _, _ = play(state, 3, trick("blue10", "red10"))
    state, _, out = play(state, 1, {"type": "rainbow", "card": "rainbow10"})
    assert [e.data["players"] for e in out.events if e.kind == "lost_turn"] == [[0]]
    assert state.current == 2   # Elya cannot play: the tour goes on after Sasha
    state, _, _ = play(state, 2, trick("numx"))
    offered = GAME.view(state, 2)["distribution"]
    assert len(offered["cards"]) == 7 and offered["min"] == 4
    state, _, _ = play(state, 2, {"type": "distribute", "cards": [
        {"card": "blue10", "to": 2, "face_up": True, "end": "right"},
        {"card": "rainbow10", "to": 2, "face_up": False, "end": "right"},
        {"card": "rainbow5", "to": 0, "face_up": True, "end": "right"},
        {"card": "blue5", "to": 1, "face_up": True, "end": "right"}]})
    assert score([score_pair(c) for c, _ in state.rows[2]]) == 20   # "20 points" for Mendy
    assert state.current == 2 and state.phase == "play"
