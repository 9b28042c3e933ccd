"""The skills a game asks of a player turn by turn, counted in whole games the
engine's computer players play: for the games where a turn's calculations are
asked, not chosen (the track of ultimate numbers: the dice's sum, the square
reached, where it sends the pawn; NUM-X: the final count).

There a step of a skill is the only way to play the turn on (the pupil types
it, or the game does not go on), so a turn's chance at a skill is a turn whose
attempts include it: "could" and "only" are the same count, in the unit of
``engine.numberquest.practice`` (the share of table turns). A table turn is one
call of the computer player the game waits on for its whole turn (NUM-X: its
count is one turn, as a pupil counts their row at once).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from statistics import median
from typing import Any

from engine.core import Game

DEFAULT_TURNS = 3000
PLAYERS = 2
# A game that has not ended after this many turns is cut (a blocked NUM-X
# table, a track race of two slow pawns): its turns still count.
MOST_TURNS = 1000


@dataclass(frozen=True)
class TurnSkills:
    """Table turns counted, per skill the turns whose attempts include it,
    and the median table turns of a game."""

    turns: int
    asked: dict[str, int]
    median_turns: int = 0

    def only_rate(self, skill: str) -> float:
        return self.asked.get(skill, 0) / self.turns if self.turns else 0.0

    could_rate = only_rate


@dataclass(frozen=True)
class Player:
    """How a game is played through: who the game waits on (None: nobody),
    and the computer player's moves for their whole turn."""

    game: Game
    waiting: Callable[[Any], int | None]
    moves: Callable[[Any, int, int], list[dict[str, Any]]]


def counted(
    player: Player, options: tuple[tuple[str, Any], ...], turns: int = DEFAULT_TURNS,
    seed: int = 0,
) -> TurnSkills:
    """The counts over whole games played by ``player`` with ``options`` (the
    engine's, as sorted items), at least ``turns`` table turns in all. Cached."""
    return _counted(player, options, turns, seed)


@lru_cache(maxsize=32)
def _counted(player: Player, options: tuple[tuple[str, Any], ...], wanted: int, seed: int
             ) -> TurnSkills:
    asked: Counter = Counter()
    turns, lengths, games = 0, [], 0
    while turns < wanted:
        state = player.game.new(_options(options), PLAYERS, seed * 100_000 + games)
        games += 1
        length = 0
        while length < MOST_TURNS and player.game.result(state) is None:
            who = player.waiting(state)
            if who is None:
                break
            moves = player.moves(state, who, length)
            if not moves:
                break
            skills = set()
            for move in moves:
                outcome = player.game.apply(state, who, move)
                state = outcome.state
                skills.update(attempt.skill for attempt in outcome.attempts)
            length += 1
            asked.update(skills)
        turns += length
        lengths.append(length)
    return TurnSkills(turns, dict(asked), round(median(lengths)))


def _options(items: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, tuple) else value for key, value in items}
