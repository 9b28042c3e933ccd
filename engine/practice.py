"""The game set-up that gives a pupil the most chances at one operation.

For each skill a few candidate set-ups are written here, of every game where an
option can change how often the skill is asked (the choices; never their
figures). Each is simulated with the engines and measured in chances per table
turn, the turns where the skill is the only way to play on:

* Number Quest (``engine.numberquest.practice``): rolls where only a calculation
  with the operation covers a free square; its variants choose the dice, the
  operations and the board, so they can make an operation the only way.
* Nambarz (``engine.nambarz.practice``): turns of whole games where the only way
  to shed a card is a calculation, and every legal one needs the operation (no
  card matches the target, no joker in hand). Its options: + and − only (the
  young players' game), 12, 8 or 4 jokers, brackets, the strict simplest rule.
  Its targets are the cards' own numbers, 1 to 10: "targets up to 60" is no
  option of the game.
* The track of ultimate numbers and NUM-X (``engine.turn_skills``): turns whose
  attempts include the skill (each asked step must be typed to play on). The
  track's options mark the special squares, which changes nothing a turn asks
  (the pupil still types where a square sends the pawn); NUM-X's modes change
  the hands and the count rules, and the count comes once a game.

Each game's default (``DEFAULTS``: what its start form offers first) is
measured the same way. A candidate is chosen when it gives at least ``FACTOR``
times the chances of the default of its own game and at least ``MIN_RATE`` of
the turns; of those, the one with the most chances, across the games (the unit
is the same table turn). A second proposal, for variety, is the best fitting
set-up of another game. When none fits, there is no choice, and the report
says so. Number Quest's classic preset is measured at every skill too
(``Choice.reference``), so a set-up of another game is also read against it.

What the measures found (``tests/bench/bench_practice.py``, the figures are in
docs/EVIDENCE.md): no Nambarz set-up reaches both bars (its best, + and − with
4 jokers, gives subtraction in 19.7 turns of 100 over 24,000 turns, 2.0 times
its default and 9 times the classic Number Quest's, just under ``MIN_RATE``);
the track's options change no rate (its every turn asks + and a prime already,
and its default is its only set-up), and NUM-X's modes ask × or + in under 5
turns of 100. So today every chosen set-up is a Number Quest one and no
second game is proposed; the rule, not a list, decides it, and a candidate
that comes to fit is proposed as soon as it is written here.

Why these candidates: each keeps to the operation and those a pupil learns
before it (+ − × ÷), so a pupil who needs help with + is never asked for ×
(Nambarz plays + − × ÷ or + and − only: no Nambarz game for + alone nor
for ×); Number
Quest's boards were picked, from a search over dice, operations and
boards (``tests/bench/bench_practice.py``), among those whose games end in 15 to
60 table turns (a lesson, RULES.md 0.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine import turn_skills, ultimes
from engine.nambarz import practice as nambarz_practice
from engine.numberquest.practice import chances
from engine.numberquest.variants import PRESETS, Variant, expected_turns
from engine.numx import GAME as NUMX
from engine.numx import bot_moves as numx_bot_moves
from engine.numx import waiting_on as numx_waiting_on

FACTOR = 2.0
MIN_RATE = 0.2
GAME = "numberquest"
DEFAULT_PRESET = "classic"


@dataclass(frozen=True)
class Setup:
    """A Number Quest variant: a preset by its name, or "custom"."""

    preset: str
    dice: int
    operations: str
    lo: int
    hi: int
    game: str = GAME

    @classmethod
    def of_preset(cls, name: str) -> Setup:
        variant = PRESETS[name]
        return cls(name, variant.dice, variant.operations, variant.lo, variant.hi)

    def options(self) -> dict[str, Any]:
        """The engine's options for this set-up (``variants.resolve`` reads them)."""
        if self.preset != "custom":
            return {"preset": self.preset}
        return {
            "preset": DEFAULT_PRESET,
            "dice": self.dice,
            "operations": self.operations,
            "lo": self.lo,
            "hi": self.hi,
        }


@dataclass(frozen=True)
class GameSetup:
    """A set-up of another game: its engine options as its start form sends
    them (sorted items, so that a set-up is a value and a cache key)."""

    game: str
    settings: tuple[tuple[str, Any], ...]

    @classmethod
    def of(cls, game: str, **options: Any) -> GameSetup:
        return cls(game, tuple(sorted(options.items())))

    def options(self) -> dict[str, Any]:
        return dict(self.settings)

    def with_options(self, **changes: Any) -> GameSetup:
        return GameSetup.of(self.game, **{**self.options(), **changes})


AnySetup = Setup | GameSetup

# What each game's start form sends with its first choices (games/pages/*/options.py).
DEFAULTS: dict[str, AnySetup] = {
    GAME: Setup.of_preset(DEFAULT_PRESET),
    "nambarz": GameSetup.of("nambarz", rounds=1, jokers=12, brackets=False, young=False),
    "ultimes": GameSetup.of(
        "ultimes", second_chance=False, mark_ultimates=False, mark_elevated=False
    ),
    "numx": GameSetup.of("numx", mode="speed_run"),
}
_NAMBARZ = DEFAULTS["nambarz"]
_TRACK = DEFAULTS["ultimes"]
_NUMX = DEFAULTS["numx"]

CANDIDATES: dict[str, tuple[AnySetup, ...]] = {
    "add": (
        Setup.of_preset("addition"),
        Setup.of_preset("addition-3"),
    ),
    "sub": (
        Setup.of_preset("plus-minus"),
        Setup("custom", 4, "+-", 1, 15),
        _NAMBARZ.with_options(young=True, jokers=4),
    ),
    "mul": (
        Setup("custom", 4, "+*", 20, 42),
        Setup("custom", 3, "-*", 6, 24),
        # Not Nambarz: its only × game has ÷ too, learnt after × (see below).
        _NUMX.with_options(mode="x_game"),
    ),
    "div": (
        Setup("custom", 4, "*/", 1, 10),
        Setup("custom", 2, "/", 1, 6),
        Setup("custom", 3, "+/", 1, 12),
        _NAMBARZ.with_options(jokers=4, brackets=True),
    ),
    "primes": (_TRACK.with_options(mark_ultimates=True),),
    "powers": (_TRACK.with_options(mark_ultimates=True),),
    "scoring": (_NUMX.with_options(mode="family"),),
}

# How the track and NUM-X are played through for ``turn_skills``: the player
# the game waits on, with the computer's whole turn.
_PLAYERS = {
    "ultimes": turn_skills.Player(
        ultimes.GAME,
        lambda state: None if state.phase == "over" else state.turn,
        lambda state, player, seed: ultimes.bot_moves(state, player, seed),
    ),
    "numx": turn_skills.Player(
        NUMX,
        lambda state: min(numx_waiting_on(state), default=None),
        lambda state, player, seed: numx_bot_moves(state, player, "beginner", seed),
    ),
}


@dataclass(frozen=True)
class Measured:
    """A set-up's chances at ``skill``: the share of table turns where it is
    the only way to play on (``rate``) or could help (``could``), over
    ``turns`` simulated turns, and how long its games last (median table turns)."""

    setup: AnySetup
    skill: str
    rate: float
    could: float
    turns: int
    median_turns: int | None = None


@dataclass(frozen=True)
class Pick:
    """A fitting set-up with the default of its own game, measured alike."""

    measured: Measured
    default: Measured

    @property
    def factor(self) -> float:
        return _factor(self.measured, self.default)


@dataclass(frozen=True)
class Choice:
    """For one skill: the set-up chosen (None when none fits), the default of
    its game (Number Quest's when none fits), every candidate measured, how
    long the chosen set-up's games last (median table turns, as the start form
    says), a second proposal of another game (``second``), and Number Quest's
    classic preset at the skill (``reference``)."""

    skill: str
    chosen: Measured | None
    default: Measured | None
    candidates: tuple[Measured, ...] = ()
    median_turns: int | None = None
    second: Pick | None = None
    reference: Measured | None = None

    @property
    def factor(self) -> float | None:
        """How many times the default's chances the chosen set-up gives."""
        if self.chosen is None or self.default is None:
            return None
        return _factor(self.chosen, self.default)


def _factor(measured: Measured, default: Measured) -> float:
    if not default.rate:
        return float("inf")
    return measured.rate / default.rate


def measure(setup: AnySetup, skill: str) -> Measured:
    """A set-up's chances at ``skill`` (module docstring), simulated; cached."""
    if isinstance(setup, Setup):
        counted = chances(setup.dice, setup.operations, setup.lo, setup.hi)
        return Measured(
            setup, skill, counted.only_rate(skill), counted.could_rate(skill), counted.turns
        )
    if setup.game == "nambarz":
        found = nambarz_practice.chances(setup.options())
        return Measured(
            setup, skill, found.only_rate(skill), found.could_rate(skill), found.turns,
            found.median_turns,
        )
    asked = turn_skills.counted(_PLAYERS[setup.game], setup.settings)
    return Measured(
        setup, skill, asked.only_rate(skill), asked.could_rate(skill), asked.turns,
        asked.median_turns,
    )


def fits(measured: Measured, default: Measured) -> bool:
    """The rule a chosen set-up keeps (module docstring)."""
    return measured.rate >= MIN_RATE and measured.rate >= FACTOR * default.rate


def median_turns(measured: Measured) -> int | None:
    """How long a game of the set-up lasts, in table turns (median)."""
    setup = measured.setup
    if isinstance(setup, Setup):
        median, _p90 = expected_turns(
            Variant(setup.preset, setup.dice, setup.operations, setup.lo, setup.hi)
        )
        return median
    return measured.median_turns


@lru_cache(maxsize=16)
def choose(skill: str) -> Choice:
    """The set-up for ``skill``, or a Choice with none (module docstring)."""
    candidates = CANDIDATES.get(skill)
    if not candidates:
        return Choice(skill, None, None)
    reference = measure(DEFAULTS[GAME], skill)
    defaults = {
        game: measure(DEFAULTS[game], skill) for game in {setup.game for setup in candidates}
    }
    measured = tuple(measure(setup, skill) for setup in candidates)
    fitting = sorted(
        (m for m in measured if fits(m, defaults[m.setup.game])),
        key=lambda m: m.rate,
        reverse=True,
    )
    if not fitting:
        # The default beside the figures is that of the game which came closest.
        best = max(measured, key=lambda m: m.rate)
        return Choice(skill, None, defaults[best.setup.game], measured, reference=reference)
    chosen = fitting[0]
    other = next((m for m in fitting if m.setup.game != chosen.setup.game), None)
    second = Pick(other, defaults[other.setup.game]) if other is not None else None
    return Choice(
        skill, chosen, defaults[chosen.setup.game], measured, median_turns(chosen), second,
        reference,
    )
