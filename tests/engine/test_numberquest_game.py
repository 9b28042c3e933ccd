"""Number Quest turns, payouts, end of game, JSON and replay (RULES.md 0.2, 1.6, 1.7)."""

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalMove
from engine.numberquest import GAME, bot_moves
from engine.numberquest.game import State
from engine.numberquest.variants import validate_variant

FAST = settings(max_examples=25, deadline=None)


def rolled(state, *dice):
    """The same position with a chosen roll (tests only: the engine rolls)."""
    return replace(
        state,
        dice=dice,
        available=tuple((d, f"die:{i}") for i, d in enumerate(dice)),
        steps=(),
        phase="calculate",
    )


def covering(state, *squares, player=1):
    return replace(state, covered=tuple(sorted((s, player) for s in squares)))


def play(state, player, *moves):
    outcomes = []
    for move in moves:
        outcome = GAME.apply(state, player, move)
        outcomes.append(outcome)
        state = outcome.state
    return state, outcomes


def step(left, op, right, result):
    return {"type": "step", "left": left, "op": op, "right": right, "result": result}


def refused(state, player, move):
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, player, move)
    assert caught.value.reason
    return caught.value


@pytest.fixture
def classic():
    return GAME.new({"preset": "classic", "pupils_bank": False}, 2, seed=1)


# ------------------------------------------------------------------ setup


@pytest.mark.parametrize(
    "preset, dice, ops, lo, hi, bank",
    [
        ("addition-3", 3, "+", 6, 15, False),
        ("addition", 4, "+", 9, 19, False),
        ("plus-minus", 4, "+-", 1, 18, False),
        ("three-dice", 3, "+-*/", 1, 42, True),
        ("classic", 4, "+-*/", 1, 100, True),
    ],
)
def test_presets(preset, dice, ops, lo, hi, bank):
    state = GAME.new({"preset": preset}, 3, seed=5)
    variant = state.variant
    assert (variant.dice, variant.operations, variant.lo, variant.hi) == (dice, ops, lo, hi)
    assert state.options.pupils_bank is bank
    assert len(state.dice) == dice and state.phase == "calculate"
    first_roll = state.events[0]
    assert first_roll.kind == "first_roll" and state.current == first_roll.player


def test_the_highest_die_starts_and_ties_roll_again():
    from engine.numberquest.game import roll_for_first

    seen_tie = False
    for seed in range(60):
        first, rounds, draws = roll_for_first(seed, 4)
        assert draws == len(rounds) and (first, rounds) == roll_for_first(seed, 4)[:2]
        for index, rolls in enumerate(rounds):
            top = max(die for _, die in rolls)
            leaders = [player for player, die in rolls if die == top]
            if index + 1 < len(rounds):
                seen_tie = True
                assert len(leaders) > 1
                assert [player for player, _ in rounds[index + 1]] == leaders
            else:
                assert leaders == [first]
        state = GAME.new({"preset": "addition-3"}, 4, seed)
        assert state.current == first and state.events[0].data["rounds"] == rounds
    assert seen_tie
    assert roll_for_first(5, 1) == (0, [], 0)
    assert GAME.new({"preset": "addition-3"}, 1, 5).events[0].kind == "rolled"


def test_custom_variants_are_checked():
    assert (
        GAME.new({"dice": 3, "operations": "+-", "lo": 1, "hi": 18}, 2, 1).variant.name == "custom"
    )
    cases = [
        ({"dice": 5}, "variant_dice"),
        ({"operations": ""}, "variant_operations"),
        ({"operations": "+^"}, "variant_operations"),
        ({"lo": 50, "hi": 10}, "variant_range"),
        ({"hi": 101}, "variant_range"),
        ({"dice": 2, "operations": "+", "lo": 1, "hi": 12}, "variant_end_unmakeable"),
        ({"dice": 2, "operations": "*", "lo": 1, "hi": 36}, "variant_no_chain"),
        ({"preset": "chess"}, "unknown_preset"),
        ({"colour": "red"}, "bad_option"),
        ({"second_chance": "yes"}, "bad_option"),
        ({"turn_seconds": 10**9}, "bad_option"),
        ({"end_conditions": ["never"]}, "bad_option"),
    ]
    for options, code in cases:
        with pytest.raises(IllegalMove) as caught:
            GAME.new(options, 2, 1)
        assert caught.value.code == code, options
    with pytest.raises(IllegalMove) as caught:
        GAME.new({}, 7, 1)
    assert caught.value.code == "bad_players"
    assert validate_variant(2, "+", 2, 12).hi == 12


# ------------------------------------------------------------------ a turn


def test_a_whole_turn_pays_and_passes(classic):
    state = rolled(classic, 6, 4, 3, 1)
    state, outcomes = play(
        state, 0, step(6, "×", 4, 24), step(24, "+", 3, 27), step(27, "-", 1, 26)
    )
    attempts = [a for o in outcomes for a in o.attempts]
    assert [(a.skill, a.operands, a.correct) for a in attempts] == [
        ("mul", (6, 4), True),
        ("add", (24, 3), True),
        ("sub", (27, 1), True),
        ("multi_step", (6, 4, 3, 1), True),
    ]
    assert state.phase == "place" and state.result_number() == 26
    assert outcomes[-1].events[-1].data["text"] == "6 × 4 + 3 − 1"
    wrong = refused(state, 0, {"type": "place", "square": 27})
    assert wrong.code == "wrong_square"
    assert wrong.reason == "That square is not 26. Tap the square 26."
    assert wrong.details == {"square": 27, "number": 26}
    state, (outcome,) = play(state, 0, {"type": "place", "square": 26})
    assert state.balances == (20, 0) and state.owner(26) == 0
    assert state.current == 1 and state.phase == "calculate" and state.turn == 2
    assert [e.kind for e in outcome.events] == ["placed", "rolled"]
    assert all(e.player is not None for e in outcome.events)


def test_seed_example_24_beside_18_and_25_pays_120(classic):
    state = covering(rolled(classic, 6, 4, 1, 1), 18, 25)
    state, outcomes = play(
        state,
        0,
        step(6, "*", 4, 24),
        step(24, "*", 1, 24),
        step(24, "*", 1, 24),
        {"type": "place", "square": 24},
    )
    placed = outcomes[-1].events[0].data
    assert (placed["amount"], placed["bonus"], placed["nubble"], placed["paid"]) == (
        20,
        100,
        "nubble",
        120,
    )
    assert state.balances[0] == 120


def test_seed_example_prime_43_closing_a_triangle_pays_250(classic):
    state = covering(rolled(classic, 6, 6, 6, 5), 34, 35, 42)  # two triangles: one bonus
    state, outcomes = play(
        state, 0, step(6, "*", 6, 36), step(36, "+", 6, 42), step(42, "+", 5, 47)
    )
    state = rolled(classic, 6, 6, 6, 1)
    state = covering(state, 34, 35, 42)
    state, outcomes = play(
        state,
        0,
        step(6, "*", 6, 36),
        step(36, "+", 6, 42),
        step(42, "+", 1, 43),
        {"type": "place", "square": 43},
    )
    placed = outcomes[-1].events[0].data
    assert (placed["bonus"], placed["nubble"], placed["paid"]) == (200, "double_nubble", 250)
    assert state.balances[0] == 250


def test_prime_without_triangle_pays_colour_only(classic):
    state = rolled(classic, 6, 6, 6, 1)
    state, _ = play(
        state,
        0,
        step(6, "*", 6, 36),
        step(36, "+", 6, 42),
        step(42, "+", 1, 43),
        {"type": "place", "square": 43},
    )
    assert state.balances[0] == 50


def test_a_wrong_step_loses_the_turn_and_shows_the_right_result(classic):
    state = rolled(classic, 6, 4, 3, 1)
    state, (outcome,) = play(state, 0, step(6, "*", 4, 26))
    attempt, plan = outcome.attempts
    assert (attempt.skill, attempt.expected, attempt.given, attempt.correct) == (
        "mul",
        24,
        26,
        False,
    )
    # The calculation tried counts as several steps, cut short: no answer
    # to show, never the wrong 26.
    assert (plan.skill, plan.operands, plan.given, plan.correct) == (
        "multi_step", (6, 4, 3, 1), "", False
    )
    wrong = outcome.events[0]
    assert wrong.kind == "wrong_step" and wrong.data["expected"] == 24
    assert state.current == 1 and state.phase == "calculate"


def test_second_chance_counts_only_the_first_try():
    state = rolled(GAME.new({"second_chance": True}, 2, 3), 6, 4, 3, 1)
    state, outcomes = play(state, 0, step(6, "*", 4, 26), step(4, "*", 6, 24))
    first, retry = outcomes[0].attempts[0], outcomes[1].attempts[0]
    assert (first.correct, first.first_try) == (False, True)
    assert (retry.correct, retry.first_try) == (True, False)
    assert outcomes[0].events[0].kind == "try_again"
    assert "expected" not in outcomes[0].events[0].data
    assert state.current == 0
    state, (outcome,) = play(state, 0, step(24, "+", 3, 28))
    assert outcome.events[0].kind == "wrong_step" and state.current == 1


def test_a_slip_put_right_on_its_second_chance_is_the_steps_mistake_alone():
    state = rolled(GAME.new({"second_chance": True}, 2, 3), 6, 4, 3, 1)
    state, outcomes = play(
        state, 0, step(6, "*", 4, 26), step(6, "*", 4, 24), step(24, "+", 3, 27),
        step(27, "-", 1, 26),
    )
    whole = [a for o in outcomes for a in o.attempts if a.skill == "multi_step"]
    assert [(a.given, a.correct, a.first_try) for a in whole] == [(26, True, True)]


def test_a_wrong_last_step_is_one_mistake_the_plan_was_whole(classic):
    state = rolled(classic, 6, 4, 3, 1)
    state, outcomes = play(state, 0, step(6, "*", 4, 24), step(24, "+", 3, 27),
                           step(27, "-", 1, 25))
    assert [(a.skill, a.correct) for a in outcomes[-1].attempts] == [
        ("sub", False), ("multi_step", True)]
    assert state.current == 1


def test_undo_does_not_make_a_step_typed_again_a_first_try(classic):
    state = rolled(classic, 6, 4, 3, 1)
    state, outcomes = play(
        state, 0, step(6, "*", 4, 24), {"type": "undo"}, step(4, "*", 6, 24),
        {"type": "clear"}, step(6, "*", 4, 24), step(24, "+", 3, 27), step(27, "-", 1, 26),
        {"type": "undo"}, step(27, "+", 1, 28),
    )
    typed = [(a.skill, a.first_try) for o in outcomes for a in o.attempts]
    assert typed == [
        ("mul", True), ("mul", False), ("mul", False), ("add", True), ("sub", True),
        ("multi_step", True), ("add", True), ("multi_step", False),
    ]
    assert GAME.from_json(state.to_json()) == state


def test_refused_steps_keep_the_turn(classic):
    state = rolled(classic, 6, 4, 4, 1)
    codes = {
        "not_available": step(6, "+", 5, 11),
        "below_zero": step(1, "-", 6, 0),
        "not_whole": step(6, "/", 4, 1),
        "divide_by_zero": None,
    }
    for code, move in codes.items():
        if move is None:
            state2, _ = play(state, 0, step(4, "-", 4, 0))
            assert refused(state2, 0, step(6, "/", 0, 0)).code == code
        else:
            assert refused(state, 0, move).code == code
    plus = rolled(GAME.new({"preset": "plus-minus"}, 2, 1), 6, 4, 3, 1)
    assert refused(plus, 0, step(6, "*", 4, 24)).code == "op_not_allowed"


def steps(*typed, ms=None):
    """Steps typed on the tablet and sent together."""
    found = [{k: v for k, v in step(*one).items() if k != "type"} for one in typed]
    for one, time in zip(found, ms or [], strict=False):
        one["ms"] = time
    return {"type": "steps", "steps": found}


def test_steps_sent_together_are_the_same_steps_one_by_one(classic):
    state = rolled(classic, 6, 4, 3, 1)
    typed = [(6, "*", 4, 24), (24, "-", 3, 21), (21, "*", 1, 21)]
    one_by_one, outcomes = play(state, 0, *(step(*t) for t in typed))
    together, (outcome,) = play(state, 0, steps(*typed, ms=[4000, 2500, 1800]))
    assert together == one_by_one and together.phase == "place"
    assert outcome.events == tuple(e for o in outcomes for e in o.events)
    assert [replace(a, ms=None) for a in outcome.attempts] == [
        a for o in outcomes for a in o.attempts
    ]
    # Each typed step keeps its own time; the whole calculation's tags have none.
    assert [a.ms for a in outcome.attempts] == [4000, 2500, 1800] + [None] * (
        len(outcome.attempts) - 3
    )


def test_steps_stop_at_a_wrong_result(classic):
    state = rolled(classic, 6, 4, 3, 1)
    after, (outcome,) = play(state, 0, steps((6, "*", 4, 24), (24, "-", 3, 20), (20, "+", 1, 21)))
    assert [(a.skill, a.correct) for a in outcome.attempts] == [
        ("mul", True), ("sub", False), ("multi_step", False)]
    assert "wrong_step" in [e.kind for e in outcome.events] and after.current == 1
    # With a second chance the pupil types the wrong step again, the right one kept.
    second = rolled(GAME.new({"second_chance": True}, 2, 3), 6, 4, 3, 1)
    after, (outcome,) = play(second, 0, steps((6, "*", 4, 24), (24, "-", 3, 20), (20, "+", 1, 21)))
    assert outcome.events[-1].kind == "try_again" and after.current == 0
    assert [s.text() for s in after.steps] == ["6 × 4 = 24"]
    after, (outcome,) = play(after, 0, steps((24, "-", 3, 21), (21, "+", 1, 22)))
    assert [(a.correct, a.first_try) for a in outcome.attempts[:2]] == [(True, False), (True, True)]
    assert after.phase == "place"


def test_steps_the_rules_refuse_are_all_refused(classic):
    state = rolled(classic, 6, 4, 3, 1)
    assert refused(state, 0, steps((6, "*", 4, 24), (3, "-", 24, 0))).code == "below_zero"
    assert refused(state, 0, steps((6, "*", 4, 24), (6, "+", 3, 9))).code == "not_available"
    four = steps((6, "*", 4, 24), (24, "-", 3, 21), (21, "*", 1, 21), (21, "+", 0, 21))
    bad = [
        {"type": "steps"},
        {"type": "steps", "steps": []},
        {"type": "steps", "steps": "6*4=24"},
        {"type": "steps", "steps": [5]},
        four,
        steps((6, "*", 4, 24), ms=[-1]),
        steps((6, "*", 4, 24), ms=[True]),
    ]
    for move in bad:
        assert refused(state, 0, move).code == "malformed", move
    assert refused(state, 1, steps((6, "*", 4, 24))).code == "not_your_turn"
    # A step thought over for ever still counts, as ten minutes.
    (outcome,) = play(state, 0, steps((6, "*", 4, 24), ms=[10**9]))[1]
    assert outcome.attempts[0].ms == 600_000


def test_steps_with_their_square_are_the_steps_then_the_tap(classic):
    state = rolled(classic, 6, 4, 3, 1)
    typed = [(6, "*", 4, 24), (24, "-", 3, 21), (21, "*", 1, 21)]
    one_by_one, outcomes = play(state, 0, steps(*typed), {"type": "place", "square": 21})
    together, (outcome,) = play(state, 0, {**steps(*typed), "square": 21})
    assert together == one_by_one and together.current == 1  # the computer banks for it
    assert outcome.events == tuple(e for o in outcomes for e in o.events)
    assert outcome.attempts == outcomes[0].attempts


def test_steps_with_a_square_they_do_not_make_are_refused_whole(classic):
    state = rolled(classic, 6, 4, 3, 1)
    typed = [(6, "*", 4, 24), (24, "-", 3, 21), (21, "*", 1, 21)]
    assert refused(state, 0, {**steps(*typed), "square": 22}).code == "wrong_square"
    taken = covering(state, 21)
    assert refused(taken, 0, {**steps(*typed), "square": 21}).code == "square_taken"
    # Numbers still to join: no square yet.
    assert refused(state, 0, {**steps(*typed[:2]), "square": 21}).code == "wrong_phase"
    # A wrong step stops there: the tap is not made, as step by step.
    after, (outcome,) = play(state, 0, {**steps((6, "*", 4, 25)), "square": 25})
    assert [a.correct for a in outcome.attempts] == [False, False] and not after.covered


def giving_up_after(*typed, ms=None):
    """ "I can't make a number", with the steps kept on the tablet before it."""
    return {**steps(*typed, ms=ms), "type": "cant"}


def test_giving_up_keeps_the_steps_typed_on_the_tablet(classic):
    state = rolled(classic, 6, 4, 3, 1)
    after, (outcome,) = play(state, 0, giving_up_after((6, "*", 4, 24), ms=[4000]))
    # The step is the pupil's work, ruled on as if sent before giving up.
    assert [(a.correct, a.ms) for a in outcome.attempts] == [(True, 4000)]
    kinds = [e.kind for e in outcome.events]
    assert kinds[0] == "step" and {"could_have_made", "no_number"} & set(kinds)
    assert after.current == 1 and after.phase == "calculate"
    alone, (plain,) = play(play(state, 0, step(6, "*", 4, 24))[0], 0, {"type": "cant"})
    assert after == alone


def test_giving_up_after_a_wrong_kept_step_shows_the_wrong_step_first():
    second = rolled(GAME.new({"second_chance": True}, 2, 3), 6, 4, 3, 1)
    after, (outcome,) = play(second, 0, giving_up_after((6, "*", 4, 25)))
    assert outcome.events[-1].kind == "try_again" and after.current == 0
    assert [a.correct for a in outcome.attempts] == [False]


def test_giving_up_with_steps_is_refused_whole_when_a_step_is(classic):
    state = rolled(classic, 6, 4, 3, 1)
    assert refused(state, 0, giving_up_after((6, "*", 4, 24), (3, "-", 24, 0))).code == (
        "below_zero"
    )
    assert refused(state, 0, {"type": "cant", "steps": []}).code == "malformed"
    assert refused(state, 0, {"type": "cant", "steps": "6*4"}).code == "malformed"
    placing, _ = play(state, 0, steps((6, "*", 4, 24), (24, "-", 3, 21), (21, "*", 1, 21)))
    assert refused(placing, 0, giving_up_after((21, "+", 1, 22))).code == "wrong_phase"
    # Without steps, giving up from the place phase is still allowed.
    assert play(placing, 0, {"type": "cant"})[0].current == 1


def ended_by_the_teacher(state):
    return GAME.apply(state, None, {"type": "end", "reason": "teacher"}).state


def test_steps_kept_on_the_tablet_when_the_teacher_ended_the_game_are_evidence(classic):
    state = rolled(classic, 6, 4, 3, 1)
    ended = ended_by_the_teacher(state)
    kept = steps((6, "*", 4, 24), (24, "-", 3, 20), ms=[4000, 2500])
    outcome = GAME.rule_on_kept_steps(ended, 0, kept["steps"])
    # Ruled as in the turn the game ended in; the game stays as it ended.
    assert [(a.skill, a.correct, a.ms) for a in outcome.attempts] == [
        ("mul", True, 4000), ("sub", False, 2500), ("multi_step", False, None)
    ]
    assert outcome.state == ended and outcome.events == ()
    # The last numbers joined: the whole calculation's tags come with it.
    whole = GAME.rule_on_kept_steps(
        ended, 0, steps((6, "*", 4, 24), (24, "-", 3, 21), (21, "*", 1, 21))["steps"]
    )
    assert len(whole.attempts) > 3 and all(a.correct for a in whole.attempts)


def test_kept_steps_only_after_the_teachers_end_and_in_the_turn_it_ended(classic):
    state = rolled(classic, 6, 4, 3, 1)
    kept = steps((6, "*", 4, 24))["steps"]

    def refusal(game_state, player, typed=kept):
        with pytest.raises(IllegalMove) as caught:
            GAME.rule_on_kept_steps(game_state, player, typed)
        return caught.value.code

    assert refusal(state, 0) == "not_ended"
    timed = rolled(GAME.new({"time_limit_minutes": 30}, 2, 1), 6, 4, 3, 1)
    assert refusal(GAME.apply(timed, None, {"type": "end", "reason": "time"}).state, 0) == (
        "not_ended"
    )
    ended = ended_by_the_teacher(state)
    assert refusal(ended, 1) == "not_your_turn"
    assert refusal(ended, 0, steps((9, "+", 4, 13))["steps"]) == "not_available"
    assert refusal(ended, 0, "6*4") == "malformed"


def test_undo_and_clear(classic):
    state = rolled(classic, 6, 4, 3, 1)
    assert refused(state, 0, {"type": "undo"}).code == "nothing_to_undo"
    state, _ = play(state, 0, step(6, "+", 4, 10), step(10, "+", 3, 13))
    undone, _ = play(state, 0, {"type": "undo"})
    assert sorted(v for v, _ in undone.available) == [1, 3, 10]
    cleared, _ = play(state, 0, {"type": "clear"})
    assert cleared.available == rolled(classic, 6, 4, 3, 1).available and not cleared.steps
    done, _ = play(state, 0, step(13, "+", 1, 14))
    back, _ = play(done, 0, {"type": "undo"})
    assert back.phase == "calculate"


def test_a_number_already_covered_cannot_be_placed(classic):
    state = covering(rolled(classic, 6, 4, 3, 1), 14)
    state, outcomes = play(
        state, 0, step(6, "+", 4, 10), step(10, "+", 3, 13), step(13, "+", 1, 14)
    )
    assert outcomes[-1].events[-1].data["placeable"] is False
    assert refused(state, 0, {"type": "place", "square": 14}).code == "square_taken"
    assert {"type": "place", "square": 14} not in GAME.moves(state, 0)


def test_off_board_number():
    state = rolled(GAME.new({"preset": "three-dice"}, 2, 1), 6, 6, 6)
    state, _ = play(state, 0, step(6, "*", 6, 36), step(36, "+", 6, 42))
    assert state.phase == "place"
    state = rolled(GAME.new({"preset": "three-dice"}, 2, 1), 6, 6, 2)
    state, _ = play(state, 0, step(6, "*", 6, 36), step(36, "*", 2, 72))
    error = refused(state, 0, {"type": "place", "square": 72})
    assert error.code == "off_board" and error.details["hi"] == 42


def test_cant_with_a_makeable_number_shows_one_calculation(classic):
    state = rolled(classic, 6, 4, 3, 1)
    state, (outcome,) = play(state, 0, {"type": "cant"})
    shown = outcome.events[0]
    assert shown.kind == "could_have_made" and shown.data["square"] == 1
    assert shown.data["text"] and state.current == 1


def test_cant_with_nothing_to_make():
    state = GAME.new({"preset": "addition"}, 2, 1)
    state = covering(rolled(state, 6, 6, 6, 6), 24)
    state, (outcome,) = play(state, 0, {"type": "cant"})
    assert outcome.events[0].kind == "no_number" and state.current == 1


def test_the_pupil_banks_the_new_balance():
    state = rolled(GAME.new({"preset": "classic"}, 2, 1), 6, 4, 3, 1)
    state = replace(state, balances=(130, 0))
    state, _ = play(state, 0, step(6, "+", 4, 10), step(10, "+", 3, 13), step(13, "+", 1, 14))
    state, _ = play(state, 0, {"type": "place", "square": 14})
    assert state.phase == "bank" and state.balances == (140, 0)
    assert GAME.moves(state, 0) == [{"type": "bank", "old": 130, "paid": 10}]
    after, (outcome,) = play(state, 0, {"type": "bank", "balance": 150})
    (attempt,) = outcome.attempts
    assert (attempt.skill, attempt.operands, attempt.expected, attempt.correct) == (
        "add",
        (130, 10),
        140,
        False,
    )
    assert outcome.events[0].data["balance"] == 140
    assert after.balances == (140, 0) and after.current == 1
    right, (outcome,) = play(state, 0, {"type": "bank", "balance": 140})
    assert outcome.attempts[0].correct


def test_timeout_and_turn_order(classic):
    assert refused(classic, 1, {"type": "cant"}).code == "not_your_turn"
    state, (outcome,) = play(classic, 0, {"type": "timeout"})
    assert outcome.events[0].kind == "timeout" and state.current == 1
    state = GAME.apply(state, None, {"type": "timeout"}).state
    assert state.current == 0
    timed = GAME.new({"turn_seconds": 45}, 2, 1)
    assert timed.deadline == 45 and GAME.view(timed, 0)["deadline_seconds"] == 45


def test_server_ends_a_timed_game(classic):
    assert refused(classic, None, {"type": "end", "reason": "time"}).code == "end_not_enabled"
    timed = GAME.new({"time_limit_minutes": 30}, 2, 1)
    timed = replace(timed, balances=(50, 50))
    state = GAME.apply(timed, None, {"type": "end", "reason": "time"}).state
    assert state.phase == "over" and state.ended == "time"
    assert GAME.result(state).ranking == ((0, 1),)  # a shared win
    assert refused(state, 0, {"type": "cant"}).code == "game_over"


def test_the_chain_ends_the_game_and_the_richest_wins():
    state = GAME.new({"preset": "classic", "pupils_bank": False, "end_bonus": 100}, 2, 1)
    line = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 64, 72, 79, 85, 90, 94, 97, 99}
    state = replace(covering(rolled(state, 5, 5, 4, 1), *line), balances=(0, 500))
    state, (*_, placed) = play(
        state,
        0,
        step(5, "*", 5, 25),
        step(25, "*", 4, 100),
        step(100, "*", 1, 100),
        {"type": "place", "square": 100},
    )
    assert state.phase == "over" and state.ended == "chain" and state.ender == 0
    assert state.balances == (600, 500)
    assert GAME.result(state).ranking == ((0,), (1,))
    assert [e.kind for e in placed.events] == ["placed", "end_bonus", "game_over"]


def test_only_board_squares_count_for_the_chain():
    state = GAME.new({"preset": "three-dice"}, 2, 1)
    assert GAME.result(state) is None
    from engine.numberquest.game import would_end

    assert would_end(covering(state, 1, 3, 6, 10, 15, 21, 28, 36), 0, 45) is None


@pytest.mark.parametrize(
    "ends, covered, square, reason",
    [
        # A full board always links the ends too; the chain is named first.
        (["board_full"], set(range(4, 24)), 24, "chain"),
        (["colour_full"], set(range(4, 15)), 15, "colour_full"),
        (["each_colour"], {4}, 16, "each_colour"),
    ],
)
def test_optional_ends(ends, covered, square, reason):
    from engine.numberquest.game import would_end

    # The board of 4..24 (the addition preset before RULES 0.2) spans two colours.
    board = {"preset": "addition", "lo": 4, "hi": 24}
    state = GAME.new({**board, "end_conditions": ends}, 2, 1)
    mine = replace(state, covered=tuple(sorted((s, 0) for s in covered)))
    assert would_end(mine, 0, square) == reason
    plain = replace(GAME.new(board, 2, 1), covered=mine.covered)
    assert would_end(plain, 0, square) in (None, "chain")


# ------------------------------------------------------------------ shapes and defence


def test_calculation_move_is_a_bot_move(classic):
    state = rolled(classic, 6, 4, 3, 1)
    state, (outcome,) = play(state, 0, {"type": "calculation", "text": "(6+4)*(3-1)"})
    assert outcome.attempts == () and outcome.events[0].data["bot"] is True
    assert state.result_number() == 20 and len(state.steps) == 3
    assert refused(rolled(classic, 6, 4, 3, 1), 0, {"type": "calculation", "text": "64"}).code == (
        "juxtaposed"
    )


def test_fractions_option():
    state = rolled(GAME.new({"fractions": True, "pupils_bank": False}, 2, 1), 6, 4, 3, 1)
    state, outcomes = play(state, 0, step(6, "/", 4, "3/2"), step("3/2", "*", 3, "9/2"))
    assert outcomes[1].attempts[0].operands == ("3/2", 3)
    assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state
    assert refused(state, 0, step("9/2", "+", 1, "11/2")).code == "fraction_final"
    assert refused(state, 0, step("9/2", "+", 1, "x/2")).code == "malformed"
    whole = rolled(GAME.new({}, 2, 1), 6, 4, 3, 1)
    assert refused(whole, 0, step(6, "/", 4, "3/2")).code == "malformed"


BAD_MOVES = [
    None,
    [],
    "step",
    {},
    {"type": 3},
    {"type": "fly"},
    {"type": "step"},
    {"type": "step", "left": "6", "op": "+", "right": 4, "result": 10},
    {"type": "step", "left": 6, "op": "^", "right": 4, "result": 10},
    {"type": "step", "left": 6, "op": "+", "right": 4, "result": 10**100},
    {"type": "step", "left": True, "op": "+", "right": 4, "result": 10},
    {"type": "step", "left": 6.0, "op": "+", "right": 4, "result": 10},
    {"type": "calculation", "text": ["6"]},
    {"type": "end", "reason": 5},
]


@pytest.mark.parametrize("move", BAD_MOVES)
def test_malformed_moves(classic, move):
    error = refused(rolled(classic, 6, 4, 3, 1), 0, move)
    assert error.code in {"malformed", "unknown_move"}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)
move_like = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["step", "steps", "undo", "clear", "place", "cant", "bank", "timeout", "end",
             "calculation"]
        )
    },
    optional={
        key: json_values | st.integers(-20, 200)
        for key in ("left", "op", "right", "result", "square", "balance", "text", "reason", "steps")
    },
)


@FAST
@given(move_like, st.sampled_from([None, 0, 1, 2, -1, "0"]))
def test_any_move_is_applied_or_refused_never_crashes(move, player):
    state = rolled(GAME.new({"preset": "classic"}, 2, 1), 6, 4, 3, 1)
    for phase_state in (state, play(state, 0, {"type": "calculation", "text": "6+4+3+1"})[0]):
        try:
            GAME.apply(phase_state, player, move)
        except IllegalMove as error:
            assert isinstance(error.code, str) and error.reason


def test_view_and_moves_are_plain_json(classic):
    view = GAME.view(classic, 0)
    json.dumps(view)
    for key in (
        "game",
        "phase",
        "current",
        "you",
        "your_turn",
        "players",
        "scores",
        "events",
        "moves",
        "result",
        "board",
        "dice",
        "available",
        "steps",
    ):
        assert key in view
    assert len(view["board"]["squares"]) == 100
    assert GAME.moves(classic, 1) == []
    assert GAME.moves(classic, 0)[0]["type"] == "step"


# ------------------------------------------------------------------ JSON and replay


def random_game(seed, level_seed, mistakes):
    """A game played by bots with some wrong steps; returns the log and states."""
    options = {
        "preset": ["classic", "three-dice", "plus-minus"][seed % 3],
        "second_chance": seed % 2 == 0,
    }
    state = GAME.new(options, 2 + seed % 3, seed)
    log, states = [], [state]
    for _ in range(40):
        if GAME.result(state):
            break
        player = state.current
        turn = bot_moves(state, player, ["beginner", "greedy", "strategist"][level_seed % 3], seed)
        if mistakes and state.turn % 3 == 0 and turn[0]["type"] == "step":
            wrong = dict(turn[0], result=turn[0]["result"] + 1)
            turn = [wrong]
        for move in turn:
            if state.current != player or state.phase == "over":
                break
            state = GAME.apply(state, player, move).state
            log.append((player, move))
            states.append(state)
    return options, log, states


@FAST
@given(st.integers(0, 10**6), st.integers(0, 2), st.booleans())
def test_replay_from_seed_and_log_reaches_the_same_state(seed, level, mistakes):
    options, log, states = random_game(seed, level, mistakes)
    state = GAME.new(options, states[0].players, seed)
    for player, move in log:
        state = GAME.apply(state, player, json.loads(json.dumps(move))).state
    assert state == states[-1]


@FAST
@given(st.integers(0, 10**6), st.integers(0, 2), st.booleans())
def test_json_round_trip(seed, level, mistakes):
    _, _, states = random_game(seed, level, mistakes)
    for state in states:
        data = json.loads(json.dumps(GAME.to_json(state)))
        assert State.from_json(data) == state
