"""The set-up chosen for each operation gives at least twice the chances at it
per table turn that the game's default preset gives, measured in the engine's
own games; a chance counted by the simulation is one the game would offer."""

import pytest

from engine.arithmetic import SKILL_OF, operations_that_make, reachable_frozen
from engine.numberquest import GAME, bot_moves
from engine.numberquest.game import free_makeable
from engine.numberquest.practice import chances, turn_chances
from engine.numberquest.variants import resolve
from engine.practice import (
    CANDIDATES,
    DEFAULT_PRESET,
    FACTOR,
    MIN_RATE,
    Setup,
    choose,
    measure,
)

OPERATIONS = ("add", "sub", "mul", "div")


def only_without(dice, operations, free) -> set[str]:
    """The operations without which no free square can be made, worked out
    from the solver alone."""
    if not free:
        return set()
    found = set()
    for op in operations:
        rest = operations.replace(op, "")
        made = reachable_frozen(tuple(dice), rest) if rest else frozenset()
        if not made & set(free):
            found.add(SKILL_OF[op])
    return found


def play(setup: Setup, games: int, seed: int = 0):
    """Whole games of the real engine, a player choosing any free square at
    random (the simulation's player: the engine's beginner); yields each turn's
    state as its roll is shown."""
    for game in range(games):
        state = GAME.new(setup.options(), 2, seed * 1000 + game)
        for _ in range(2000):
            if GAME.result(state) is not None:
                break
            if state.phase == "calculate" and not state.steps:
                yield state
            player = state.current
            for move in bot_moves(state, player, "beginner", rng_seed=game):
                state = GAME.apply(state, player, move).state
        else:
            raise AssertionError("a game that never ends")


def engine_rates(setup: Setup, games: int) -> tuple[int, dict[str, int]]:
    turns, only = 0, dict.fromkeys(OPERATIONS, 0)
    variant, _options = resolve(setup.options())
    for state in play(setup, games):
        turns += 1
        for skill in only_without(state.dice, variant.operations, free_makeable(state)):
            only[skill] += 1
    return turns, only


@pytest.mark.parametrize("skill", OPERATIONS)
def test_the_chosen_set_up_doubles_the_chances_of_the_default_preset(skill):
    choice = choose(skill)
    assert choice.chosen is not None, skill
    assert choice.chosen.rate >= FACTOR * choice.default.rate
    assert choice.chosen.rate >= MIN_RATE
    assert choice.factor >= FACTOR
    # Measured again in the engine's own games, as a class would play them.
    chosen_turns, chosen_only = engine_rates(choice.chosen.setup, games=60)
    default_turns, default_only = engine_rates(Setup.of_preset(DEFAULT_PRESET), games=6)
    chosen_rate = chosen_only[skill] / chosen_turns
    default_rate = default_only[skill] / default_turns
    assert chosen_rate >= FACTOR * default_rate, (skill, chosen_rate, default_rate)
    assert chosen_rate >= MIN_RATE, (skill, chosen_rate)
    # The simulation and the engine agree on the chosen set-up's rate.
    assert abs(chosen_rate - choice.chosen.rate) < 0.1, (skill, chosen_rate, choice.chosen.rate)


@pytest.mark.parametrize("skill", ["primes", "powers", "brackets", "scoring", "multi_step"])
def test_a_skill_no_set_up_exercises_gets_no_choice(skill):
    choice = choose(skill)
    assert choice.chosen is None
    assert choice.factor is None


@pytest.mark.parametrize("skill", OPERATIONS)
def test_candidates_ask_for_no_operation_learnt_later(skill):
    for setup in CANDIDATES[skill]:
        variant, _options = resolve(setup.options())
        learnt = set(OPERATIONS[: OPERATIONS.index(skill) + 1])
        assert {SKILL_OF[op] for op in variant.operations} <= learnt
        assert skill in {SKILL_OF[op] for op in variant.operations}
        GAME.new(setup.options(), 2, 0)  # the engine accepts it


def test_a_chance_counted_is_one_the_game_offers():
    """Turn by turn in real games: the simulation's "could" is what the game
    records as an opportunity (the pages call operations_that_make on the
    free squares), and its "only" is what the solver says without the operation."""
    checked = 0
    for skill in OPERATIONS:
        setup = choose(skill).chosen.setup
        variant, _options = resolve(setup.options())
        for state in play(setup, games=3, seed=7):
            free = free_makeable(state)
            could, only = turn_chances(
                variant.dice, variant.operations, variant.lo, variant.hi,
                state.dice, state.covered_squares(),
            )
            recorded = operations_that_make(list(state.dice), free, variant.operations)
            assert could == {SKILL_OF[op] for op, ok in recorded.items() if ok}
            assert only == only_without(state.dice, variant.operations, free)
            checked += 1
    assert checked > 50


def test_measures_are_cached_and_seeded():
    setup = Setup.of_preset("plus-minus")
    assert measure(setup, "sub") == measure(setup, "sub")
    first = chances(4, "+-", 1, 18, turns=300, seed=3)
    again = chances(4, "+-", 1, 18, turns=300, seed=3)
    assert first is again
    assert first.turns >= 300
    assert chances(4, "+-", 1, 18, turns=300, seed=4) != first
