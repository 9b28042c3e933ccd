"""NUM-X timings: run ``.venv/bin/python tests/bench/bench_numx.py``.

Goals: one bot move (a ``bot_moves`` call for the player the game waits on)
under 20 ms at every level, median and p95 over positions from real bot games;
``score`` of a row under 0.1 ms. Named bench_* so the default pytest run skips it.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.numx import GAME, LEVELS, bot_moves, score, waiting_on  # noqa: E402
from engine.numx.cards import score_pair  # noqa: E402


def _figures(samples: list[float]) -> tuple[float, float]:
    """(median, p95) in milliseconds."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return statistics.median(ordered) * 1000, p95 * 1000


def positions_from_games(games: int = 30, seed: int = 2025) -> list[tuple]:
    """(state, player) where a bot is waited on while playing or handing out,
    from whole strategist games of 2 to 6 players in every mode."""
    found = []
    modes = ("speed_run", "x_game", "family")
    for g in range(games):
        players = 2 + g % 5
        state = GAME.new({"mode": modes[g % 3]}, players, seed + g)
        while state.phase != "over":
            for p in range(players):
                if p not in waiting_on(state):
                    for move in bot_moves(state, p, "strategist", g):
                        state = GAME.apply(state, p, move).state
            if state.phase == "over":
                break
            player = min(waiting_on(state))
            if state.phase in ("play", "distribute"):
                found.append((state, player))
            for move in bot_moves(state, player, "strategist", g):
                state = GAME.apply(state, player, move).state
    return found


def _time_bots(positions: list[tuple], level: str) -> tuple[float, float]:
    samples = []
    for state, player in positions:
        start = time.perf_counter()
        bot_moves(state, player, level, 1)
        samples.append(time.perf_counter() - start)
    return _figures(samples)


def bench_bots(positions: list[tuple]) -> dict[str, tuple[float, float]]:
    figures = {level: _time_bots(positions, level) for level in LEVELS}
    distributing = [(s, p) for s, p in positions if s.phase == "distribute"]
    for level in LEVELS:
        figures[f"{level}, handing out only"] = _time_bots(distributing, level)
    return figures


def bench_score(positions: list[tuple]) -> tuple[int, float, float, float]:
    """Rows of the real positions, each scored 20 times: (rows, mean cards, median, p95)."""
    rows = [[score_pair(c) for c, _ in row] for state, _ in positions for row in state.rows]
    rows = [r for r in rows if r]
    samples = []
    for row in rows:
        start = time.perf_counter()
        for _ in range(20):
            score(row)
        samples.append((time.perf_counter() - start) / 20)
    median, p95 = _figures(samples)
    return len(rows), statistics.mean(len(r) for r in rows), median, p95


# The seed's worked example: 15 score cards, every rule at work.
ELMA = [(6, "rainbow"), (6, "blue"), (5, "rainbow"), (5, "red"), (5, "green"),
        (3, "shadow"), (3, "yellow"), (3, "blue"), (7, "shadow"), (7, "rainbow"),
        (7, "red"), (7, "green"), (13, "green"), (1, "green"), (16, "red")]


def bench_long_row(repeat: int = 5000) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        score(ELMA)
    return (time.perf_counter() - start) / repeat


def main() -> None:
    start = time.perf_counter()
    positions = positions_from_games()
    print(f"{len(positions)} positions from 30 strategist games "
          f"({time.perf_counter() - start:.1f} s to play them)")
    for level, (median, p95) in bench_bots(positions).items():
        print(f"bot move {level:30}: median {median:.3f} ms, p95 {p95:.3f} ms")
    count, cards, median, p95 = bench_score(positions)
    print(f"score, {count} rows of {cards:.1f} cards on average: "
          f"median {median * 1000:.1f} us, p95 {p95 * 1000:.1f} us")
    print(f"score, the seed's 15-card row: {bench_long_row() * 1e6:.1f} us")


if __name__ == "__main__":
    main()
