"""How long expected_turns takes, per variant, cold (nothing cached in the
process) and cached: the start form asks for it at every change.

    .venv/bin/python tests/bench/bench_expected_turns.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.arithmetic import _trees, _values  # noqa: E402
from engine.numberquest import duration  # noqa: E402
from engine.numberquest.variants import (  # noqa: E402
    PRESETS,
    Variant,
    _expected_turns,
    expected_turns,
    makeable_numbers,
)

CUSTOM = [
    Variant("custom", 4, "+-", 1, 24),  # the seed's young board
    Variant("custom", 3, "+-*/", 1, 60),
    Variant("custom", 4, "+", 4, 24),
]


def forget() -> None:
    """Cold: as a fresh server process meets the variant."""
    for cached in (_expected_turns, duration._shape, makeable_numbers, _trees, _values):
        cached.cache_clear()


def main() -> None:
    print(f"{'variant':<28} {'median/p90':>11} {'cold s':>8} {'cached ms':>10}")
    for variant in [*PRESETS.values(), *CUSTOM]:
        forget()
        started = time.perf_counter()
        median, p90 = expected_turns(variant)
        cold = time.perf_counter() - started
        started = time.perf_counter()
        expected_turns(variant)
        cached = time.perf_counter() - started
        label = f"{variant.name} {variant.dice}d {variant.operations} {variant.lo}..{variant.hi}"
        print(f"{label:<28} {f'{median}/{p90}':>11} {cold:>8.3f} {cached * 1000:>10.3f}")


if __name__ == "__main__":
    main()
