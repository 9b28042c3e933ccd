"""The set-up chosen for each operation gives at least twice the chances at it
per table turn that its game's default gives, measured in the engine's own
games; every candidate of every game is measured against its own game's
default; a chance counted by the simulation is one the game would offer."""

import pytest

from engine import practice
from engine.arithmetic import SKILL_OF, operations_that_make, reachable_frozen
from engine.nambarz import GAME as NAMBARZ
from engine.nambarz import bot_moves as nambarz_bot_moves
from engine.nambarz.cards import JOKER, match_kind
from engine.nambarz.practice import turn_chances as nambarz_turn_chances
from engine.numberquest import GAME, bot_moves
from engine.numberquest.game import free_makeable
from engine.numberquest.practice import chances, turn_chances
from engine.numberquest.variants import resolve
from engine.practice import (
    CANDIDATES,
    DEFAULT_PRESET,
    DEFAULTS,
    FACTOR,
    MIN_RATE,
    GameSetup,
    Setup,
    choose,
    fits,
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
    assert choice.second is None


@pytest.mark.parametrize("skill", sorted(CANDIDATES))
def test_every_candidate_is_measured_against_its_own_games_default(skill):
    """The fit of each set-up of each game: at least MIN_RATE of the turns and
    FACTOR times its own game's default, measured alike; the chosen one has
    the most chances of those that fit, the second is of another game."""
    choice = choose(skill)
    measured = {m.setup: m for m in choice.candidates}
    assert set(measured) == set(CANDIDATES[skill])
    fitting = []
    for setup, found in measured.items():
        default = measure(DEFAULTS[setup.game], skill)
        assert found.turns >= 3000 and default.turns >= 3000
        assert fits(found, default) == (
            found.rate >= MIN_RATE and found.rate >= FACTOR * default.rate
        )
        if fits(found, default):
            fitting.append(found)
    if not fitting:
        assert choice.chosen is None
        return
    assert choice.chosen == max(fitting, key=lambda m: m.rate)
    assert choice.default == measure(DEFAULTS[choice.chosen.setup.game], skill)
    others = [m for m in fitting if m.setup.game != choice.chosen.setup.game]
    assert (choice.second.measured if choice.second else None) == max(
        others, key=lambda m: m.rate, default=None
    )


def test_no_set_up_of_another_game_fits_today():
    """What the measures found (engine.practice's docstring): the best Nambarz
    set-up for − comes close to both bars and reaches neither, the track's
    marks change nothing a turn asks, NUM-X asks × and + rarely."""
    plus_minus = measure(DEFAULTS["nambarz"].with_options(young=True, jokers=4), "sub")
    default = measure(DEFAULTS["nambarz"], "sub")
    assert 0.15 < plus_minus.rate < MIN_RATE
    assert 1.5 * default.rate < plus_minus.rate
    # Against Number Quest's classic game, in the same unit, it gives far more.
    assert plus_minus.rate > 4 * measure(DEFAULTS["numberquest"], "sub").rate
    marked = measure(DEFAULTS["ultimes"].with_options(mark_ultimates=True), "primes")
    assert marked.rate == measure(DEFAULTS["ultimes"], "primes").rate > 0.8
    assert measure(DEFAULTS["numx"].with_options(mode="x_game"), "mul").rate < 0.05
    for skill in CANDIDATES:
        assert choose(skill).second is None


def test_a_set_up_of_another_game_that_fits_is_proposed_second(monkeypatch):
    """With lower bars the Nambarz game of + and − fits subtraction: it is
    proposed beside Number Quest's, never instead of a better one."""
    choose.cache_clear()
    monkeypatch.setattr(practice, "MIN_RATE", 0.15)
    monkeypatch.setattr(practice, "FACTOR", 1.8)
    try:
        choice = choose("sub")
        assert choice.chosen.setup.game == "numberquest"
        assert choice.second is not None
        assert choice.second.measured.setup == DEFAULTS["nambarz"].with_options(
            young=True, jokers=4)
        assert choice.second.default.setup == DEFAULTS["nambarz"]
        assert choice.second.factor >= practice.FACTOR
        assert choice.reference.setup == Setup.of_preset(DEFAULT_PRESET)
    finally:
        choose.cache_clear()


@pytest.mark.parametrize("skill", OPERATIONS)
def test_candidates_ask_for_no_operation_learnt_later(skill):
    learnt = set(OPERATIONS[: OPERATIONS.index(skill) + 1])
    for setup in CANDIDATES[skill]:
        if isinstance(setup, Setup):
            variant, _options = resolve(setup.options())
            operations = variant.operations
            GAME.new(setup.options(), 2, 0)  # the engine accepts it
        elif setup.game == "nambarz":
            operations = NAMBARZ.new(setup.options(), 2, 0).options.operations
        else:
            continue  # the track and NUM-X ask their own steps, none an operation after
        assert {SKILL_OF[op] for op in operations} <= learnt
        assert skill in {SKILL_OF[op] for op in operations}


def test_a_nambarz_chance_counted_is_one_the_hand_holds():
    """Turn by turn in real Nambarz games: "only" is what a search of every
    set of cards of the hand finds (no card to lay alone, no joker, and no
    legal set of cards makes the target without the operation)."""
    from itertools import combinations

    from engine.nambarz.calc import reaches, simplest

    setup = GameSetup.of("nambarz", rounds=1, jokers=4, brackets=False, young=True)
    checked = onlies = 0
    for game in range(6):
        state = NAMBARZ.new(setup.options(), 2, 900 + game)
        for _ in range(400):
            if state.over:
                break
            player = state.current
            if state.pending == "":
                could, only = nambarz_turn_chances(state)
                target = state.target
                hand = [state.card(c) for c in state.hands[player]]
                free = target is not None and target.joker is None and not any(
                    c.family == JOKER or match_kind(c, target) is not None for c in hand)
                expected = set()
                if free and could:
                    ops = state.options.operations
                    legal = [
                        part for family in ("symbol", "drawing")
                        for size in range(2, 7)
                        for part in set(combinations(sorted(
                            c.number for c in hand if c.family == family), size))
                        if simplest(part, target.number, False, ops)
                    ]
                    for op in ops:
                        rest = ops.replace(op, "")
                        if legal and not any(reaches(p, target.number, False, rest) for p in legal):
                            expected.add(SKILL_OF[op])
                assert only == expected, (game, state.turn)
                onlies += bool(only)
                checked += 1
            move = nambarz_bot_moves(state, player, "beginner", seed=state.turn)[0]
            state = NAMBARZ.apply(state, player, move).state
    assert checked > 100 and onlies > 10


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
