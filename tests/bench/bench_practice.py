"""The search behind ``engine.practice.CANDIDATES`` and the figures it chose on
(not in the default test run).

Run: .venv/bin/python tests/bench/bench_practice.py [--turns 2000] [--skip-search]

First every candidate of every game (``engine.practice.CANDIDATES``) at its
skill: its chances per table turn against its own game's default and against
Number Quest's classic preset (the same unit), whether it fits, and the
Nambarz set-ups again over 24,000 turns with another seed (how far a rate
moves). Then, over dice 2-4, every set of operations and a grid of boards, keeps the variants
the engine accepts whose games end in 15 to 60 table turns (median), and prints
for each operation the boards where it is most often the only way to cover a
square, among those asking for no operation learnt after it (+ − × ÷). Then
the chosen set-ups' figures and how long ``choose`` takes, cold and cached.
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.arithmetic import SKILL_OF  # noqa: E402
from engine.core import IllegalMove  # noqa: E402
from engine.nambarz.practice import chances as nambarz_chances  # noqa: E402
from engine.numberquest.practice import chances  # noqa: E402
from engine.numberquest.variants import expected_turns, validate_variant  # noqa: E402
from engine.practice import CANDIDATES, DEFAULTS, choose, fits, measure  # noqa: E402


def every_candidate() -> None:
    print("== every candidate: skill, set-up, only (could), own default, factor, "
          "Number Quest classic, fits")
    for skill, setups in CANDIDATES.items():
        classic = measure(DEFAULTS["numberquest"], skill)
        for setup in setups:
            found = measure(setup, skill)
            default = measure(DEFAULTS[setup.game], skill)
            factor = found.rate / default.rate if default.rate else float("inf")
            print(f"{skill:8} {setup.game:11} {dict(setup.options())} "
                  f"only {found.rate:.3f} (could {found.could:.3f}) over {found.turns} turns; "
                  f"default {default.rate:.3f}; factor {factor:.2f}; "
                  f"classic {classic.rate:.3f}; fits {fits(found, default)}")
    print("== Nambarz again: 24,000 turns, seed 2")
    for setup in {s for setups in CANDIDATES.values() for s in setups if s.game == "nambarz"} | {
            DEFAULTS["nambarz"]}:
        counted = nambarz_chances(setup.options(), turns=24_000, seed=2)
        rates = {k: round(counted.only_rate(k), 3) for k in counted.only}
        print(f"   {dict(setup.options())} over {counted.turns} turns: only {rates}")


LOS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30)
HIS = (6, 8, 10, 12, 15, 18, 20, 24, 30, 36, 42, 50, 60, 72, 100)
ORDER = "+-*/"


def search(turns: int) -> list[tuple]:
    found = []
    for dice in (2, 3, 4):
        for size in range(1, 5):
            for ops in combinations(ORDER, size):
                ops = "".join(ops)
                for lo in LOS:
                    for hi in HIS:
                        if hi <= lo + 4:
                            continue
                        try:
                            variant = validate_variant(dice, ops, lo, hi)
                        except IllegalMove:
                            continue
                        median, p90 = expected_turns(variant, games=200)
                        if not 15 <= median <= 60:
                            continue
                        counted = chances(dice, ops, lo, hi, turns=turns)
                        rates = {
                            SKILL_OF[op]: (
                                counted.only_rate(SKILL_OF[op]), counted.could_rate(SKILL_OF[op])
                            )
                            for op in ops
                        }
                        found.append((dice, ops, lo, hi, median, p90, rates))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--skip-search", action="store_true")
    args = parser.parse_args()
    start = time.perf_counter()
    cold = {}
    for skill in ("add", "sub", "mul", "div"):
        began = time.perf_counter()
        choice = choose(skill)
        cold[skill] = time.perf_counter() - began
        chosen, default = choice.chosen, choice.default
        if choice.second is not None:
            print(f"{skill}: second {choice.second.measured.setup} "
                  f"{choice.second.measured.rate:.3f}, factor {choice.second.factor:.1f}")
        print(
            f"{skill}: {chosen.setup} only {chosen.rate:.3f} could {chosen.could:.3f} over "
            f"{chosen.turns} turns, median {choice.median_turns} table turns; default "
            f"{default.rate:.3f} (could {default.could:.3f}); factor {choice.factor:.1f}; "
            f"cold {cold[skill]:.2f} s"
        )
    began = time.perf_counter()
    for skill in ("add", "sub", "mul", "div"):
        choose(skill)
    print(f"choose, 4 skills: cold {time.perf_counter() - start:.2f} s, "
          f"cached {(time.perf_counter() - began) * 1e6:.0f} µs")
    every_candidate()
    if args.skip_search:
        return
    found = search(args.turns)
    print(f"searched {len(found)} variants in {time.perf_counter() - began:.0f} s")
    for index, op in enumerate(ORDER):
        skill = SKILL_OF[op]
        learnt = set(ORDER[: index + 1])
        fitting = [row for row in found if op in row[1] and set(row[1]) <= learnt]
        print(f"== {skill}: dice ops lo hi median p90 only could")
        for dice, ops, lo, hi, median, p90, rates in sorted(
            fitting, key=lambda row: -row[6][skill][0]
        )[:8]:
            only, could = rates[skill]
            print(f"   {dice} {ops:4} {lo:3} {hi:3} {median:3} {p90:3} {only:.2f} {could:.2f}")


if __name__ == "__main__":
    main()
