"""Timing of the ultimes and NMBR 9 engines (not in the default test run).

Run: .venv/bin/python tests/bench/bench_games.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import nmbr9, ultimes  # noqa: E402
from engine.nmbr9.stack import Stack, score  # noqa: E402


def bench_nmbr9(games: int = 20) -> None:
    slowest, total, points = 0.0, 0.0, []
    for seed in range(games):
        stack = Stack()
        for digit in nmbr9.deck_for(seed):
            start = time.perf_counter()
            p = nmbr9.bot_place(stack, digit, seed)
            spent = time.perf_counter() - start
            slowest, total = max(slowest, spent), total + spent
            stack = stack.place(digit, *p)
        points.append(score(stack))
    print(
        f"nmbr9 bot: {1000 * total / (20 * games):.1f} ms/placement on average, "
        f"slowest {1000 * slowest:.1f} ms; mean score {sum(points) / games:.1f}, "
        f"best {max(points)}"
    )
    start = time.perf_counter()
    state = nmbr9.GAME.new({}, 32, 1)
    while nmbr9.GAME.result(state) is None:
        for player in range(32):
            for move in nmbr9.bot_moves(state, player, player):
                state = nmbr9.GAME.apply(state, player, move).state
    print(f"nmbr9 32-player table played by bots: {time.perf_counter() - start:.1f} s")


def bench_ultimes(games: int = 200) -> None:
    start = time.perf_counter()
    turns = 0
    for seed in range(games):
        state = ultimes.GAME.new({}, 4, seed)
        while state.phase != "over":
            for move in ultimes.bot_moves(state, state.turn, seed):
                state = ultimes.GAME.apply(state, state.turn, move).state
            turns += 1
    spent = time.perf_counter() - start
    print(
        f"ultimes: {games} 4-player bot games, {turns / games:.0f} turns each, "
        f"{1000 * spent / turns:.2f} ms/turn"
    )


if __name__ == "__main__":
    bench_ultimes()
    bench_nmbr9()
