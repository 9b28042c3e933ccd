"""Engine timings: run ``.venv/bin/python tests/bench/bench_engine.py``.

Goals: every 4-dice roll's ``reachable`` cold < 0.5 s in total; one bot move
< 5 ms; one ``apply`` < 1 ms. Named bench_* so the default pytest run skips it.
"""

from __future__ import annotations

import statistics
import sys
import time
from itertools import combinations_with_replacement
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import arithmetic  # noqa: E402
from engine.numberquest import GAME, bot_moves  # noqa: E402


def _figures(samples: list[float]) -> tuple[float, float]:
    """(median, p95) in milliseconds."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return statistics.median(ordered) * 1000, p95 * 1000


def bench_reachable() -> dict[str, float]:
    timings = {}
    for fractions in (False, True):
        arithmetic.clear_caches()
        start = time.perf_counter()
        for roll in combinations_with_replacement(range(1, 7), 4):
            arithmetic.reachable(roll, "+-*/", fractions)
        timings[f"fractions={fractions}"] = time.perf_counter() - start
    return timings


def mid_game_positions(count: int = 200, seed: int = 2024) -> list:
    """Classic positions after 10-40 placed turns, at the start of a turn."""
    positions = []
    game_seed = seed
    while len(positions) < count:
        state = GAME.new({"preset": "classic"}, 3, game_seed)
        game_seed += 1
        while GAME.result(state) is None and state.turn < 60:
            player = state.current
            if state.phase == "calculate" and not state.steps and state.turn >= 10:
                positions.append(state)
            for move in bot_moves(state, player, "greedy", game_seed):
                state = GAME.apply(state, player, move).state
    return positions[:count]


def bench_bots(positions: list) -> dict[str, tuple[float, float]]:
    figures = {}
    for level in ("greedy", "strategist"):
        samples = []
        for state in positions:
            start = time.perf_counter()
            bot_moves(state, state.current, level, 1)
            samples.append(time.perf_counter() - start)
        figures[level] = _figures(samples)
        samples = []
        for state in positions[:50]:
            arithmetic.clear_caches()
            start = time.perf_counter()
            bot_moves(state, state.current, level, 1)
            samples.append(time.perf_counter() - start)
        figures[f"{level}, cold caches"] = _figures(samples)
    return figures


def bench_opportunities() -> float:
    """operations_that_make for every 4-dice roll against the whole board, cold."""
    arithmetic.clear_caches()
    start = time.perf_counter()
    for roll in combinations_with_replacement(range(1, 7), 4):
        arithmetic.operations_that_make(roll, range(1, 101))
    return time.perf_counter() - start


def bench_apply(positions: list) -> dict[str, tuple[float, float]]:
    steps, places = [], []
    for state in positions:
        player = state.current
        moves = bot_moves(state, player, "greedy", 1)
        for move in moves:
            start = time.perf_counter()
            state = GAME.apply(state, player, move).state
            elapsed = time.perf_counter() - start
            if move["type"] == "step":
                steps.append(elapsed)
            elif move["type"] == "place":
                places.append(elapsed)
    return {"step": _figures(steps), "place": _figures(places)}


def main() -> None:
    cold = bench_reachable()
    for label, seconds in cold.items():
        print(f"reachable, 126 rolls of 4 dice, cold, {label}: {seconds * 1000:.1f} ms total")
    print(f"operations_that_make, 126 rolls, cold: {bench_opportunities() * 1000:.1f} ms total")
    positions = mid_game_positions()
    print(f"{len(positions)} classic mid-game positions (the cold rows use the first 50)")
    for level, (median, p95) in bench_bots(positions).items():
        print(f"bot move {level:26}: median {median:.3f} ms, p95 {p95:.3f} ms")
    for kind, (median, p95) in bench_apply(positions).items():
        print(f"apply {kind:5}: median {median:.3f} ms, p95 {p95:.3f} ms")


if __name__ == "__main__":
    main()
