"""The game set-up that gives a pupil the most chances at one operation.

For each operation a few candidate set-ups of Number Quest are written here (the
choices; never their figures): each is simulated with the solver
(``engine.numberquest.practice``) and measured in chances per table turn, the
turns where the operation is the only way to cover a square. The game's default
preset (``classic``, what the start form offers first) is measured the same way.
A candidate is chosen when it gives at least ``FACTOR`` times the default's
chances and at least ``MIN_RATE`` of the turns; of those, the one with the most
chances. When none does, there is no choice, and the report says so.

Why only Number Quest: its variants choose the dice, the operations and the
board, so they can make an operation the only way to play. The other games'
skills are fixed by their rules (NMBR 9's count is always × and +, NUM-X's a
count, the track of ultimate numbers + and − with primes and powers), and
Nambarz's options (+ and − only, brackets) take operations away rather than
make one needed.

Why these candidates: each keeps to the operation and those a pupil learns
before it (+ − × ÷), so a pupil who needs help with + is never asked for ×;
their boards were picked, from a search over dice, operations and boards
(``tests/bench/bench_practice.py``), among those whose games end in 15 to 60
table turns (a lesson, RULES.md 0.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.numberquest.practice import chances
from engine.numberquest.variants import PRESETS, Variant, expected_turns

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


CANDIDATES: dict[str, tuple[Setup, ...]] = {
    "add": (Setup.of_preset("addition"), Setup.of_preset("addition-3")),
    "sub": (Setup.of_preset("plus-minus"), Setup("custom", 4, "+-", 1, 15)),
    "mul": (
        Setup("custom", 4, "+*", 20, 42),
        Setup("custom", 3, "-*", 6, 24),
    ),
    "div": (
        Setup("custom", 4, "*/", 1, 10),
        Setup("custom", 2, "/", 1, 6),
        Setup("custom", 3, "+/", 1, 12),
    ),
}


@dataclass(frozen=True)
class Measured:
    """A set-up's chances at ``skill``: the share of table turns where it is
    the only way to cover a square (``rate``) or could help (``could``), over
    ``turns`` simulated turns."""

    setup: Setup
    skill: str
    rate: float
    could: float
    turns: int


@dataclass(frozen=True)
class Choice:
    """For one skill: the set-up chosen (None when none fits), the default
    preset's figures, every candidate measured, and how long the chosen
    set-up's games last (median table turns, as the start form says)."""

    skill: str
    chosen: Measured | None
    default: Measured | None
    candidates: tuple[Measured, ...] = ()
    median_turns: int | None = None

    @property
    def factor(self) -> float | None:
        """How many times the default's chances the chosen set-up gives."""
        if self.chosen is None or self.default is None:
            return None
        if not self.default.rate:
            return float("inf")
        return self.chosen.rate / self.default.rate


def measure(setup: Setup, skill: str) -> Measured:
    """A set-up's chances at ``skill`` (module docstring), simulated; cached."""
    counted = chances(setup.dice, setup.operations, setup.lo, setup.hi)
    return Measured(
        setup, skill, counted.only_rate(skill), counted.could_rate(skill), counted.turns
    )


def fits(measured: Measured, default: Measured) -> bool:
    """The rule a chosen set-up keeps (module docstring)."""
    return measured.rate >= MIN_RATE and measured.rate >= FACTOR * default.rate


@lru_cache(maxsize=16)
def choose(skill: str) -> Choice:
    """The set-up for ``skill``, or a Choice with none (module docstring)."""
    candidates = CANDIDATES.get(skill)
    if not candidates:
        return Choice(skill, None, None)
    default = measure(Setup.of_preset(DEFAULT_PRESET), skill)
    measured = tuple(measure(setup, skill) for setup in candidates)
    fitting = [m for m in measured if fits(m, default)]
    if not fitting:
        return Choice(skill, None, default, measured)
    chosen = max(fitting, key=lambda m: m.rate)
    setup = chosen.setup
    median, _p90 = expected_turns(
        Variant(setup.preset, setup.dice, setup.operations, setup.lo, setup.hi)
    )
    return Choice(skill, chosen, default, measured, median)
