"""The contract every game of the engine follows.

States are immutable values; the server is the only authority. A game is an
object with the methods of :class:`Game`. ``apply`` either returns an
:class:`Outcome` or raises :class:`IllegalMove` whose ``reason`` a child can
read. ``attempts`` are the learning records: one per calculation step the pupil
typed (the engine never computes a step for a pupil, it only checks it).
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Protocol

# Skills the engine tags (RULES.md 0.4). Reports order them this way.
SKILLS: tuple[str, ...] = (
    "add",
    "sub",
    "mul",
    "div",
    "brackets",
    "multi_step",
    "primes",
    "powers",
    "left_to_right",
    "scoring",
)


class IllegalMove(Exception):
    """A move the rules refuse. ``reason`` is short and readable by a child;
    ``code`` is stable for programs and translations."""

    def __init__(self, reason: str, code: str = "illegal", **details: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.details = details


def read_int_field(move: dict[str, Any], key: str, lo: int, hi: int) -> int:
    """A whole-number field of a move, or IllegalMove("malformed"): tablets and
    forged forms send strings, booleans and huge numbers too."""
    value = move.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise IllegalMove(
            f"Please give a whole number from {lo} to {hi}.", "malformed", field=key, min=lo, max=hi
        )
    return value


def check_players(players: Any, lo: int, hi: int, reason: str) -> None:
    """IllegalMove("bad_players") unless ``players`` is a whole number from
    ``lo`` to ``hi`` (a form may send a string or a boolean)."""
    if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
        raise IllegalMove(reason, "bad_players", players=repr(players), min=lo, max=hi)


def check_in_game(player: Any, players: int) -> None:
    """IllegalMove("no_such_player") unless ``player`` is the index of one of
    the ``players`` of a game (a forged request may send a string or a boolean)."""
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise IllegalMove("You are not in this game.", "no_such_player", player=repr(player))


def read_move_type(move: Any, known: Collection[str], unreadable: str) -> str:
    """The ``type`` of a move: IllegalMove("malformed", sentence ``unreadable``)
    when the move is no dict or its type no string, IllegalMove("unknown_move")
    when the type is none of ``known``."""
    if not isinstance(move, dict):
        raise IllegalMove(unreadable, "malformed", field="move")
    kind = move.get("type")
    if not isinstance(kind, str):
        raise IllegalMove(unreadable, "malformed", field="type")
    if kind not in known:
        raise IllegalMove("I don't know that move.", "unknown_move", type=kind[:40])
    return kind


@dataclass(frozen=True)
class Attempt:
    """One step a pupil typed: evidence for one skill."""

    skill: str
    operands: tuple[Any, ...]
    expected: Any
    given: Any
    correct: bool
    first_try: bool = True
    # How long the pupil took over this step, as their tablet measured it: set
    # when a calculation's steps reach the server together. None: the time
    # since the table's last move says it.
    ms: int | None = None

    def to_json(self) -> dict[str, Any]:
        found = {
            "skill": self.skill,
            "operands": list(self.operands),
            "expected": self.expected,
            "given": self.given,
            "correct": self.correct,
            "first_try": self.first_try,
        }
        if self.ms is not None:
            found["ms"] = self.ms
        return found


@dataclass(frozen=True)
class Event:
    """Something that happened, for the pages to show ("rolled", "paid", ...)."""

    kind: str
    player: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "data": self.data}


@dataclass(frozen=True)
class Outcome:
    state: Any
    events: tuple[Event, ...] = ()
    attempts: tuple[Attempt, ...] = ()


@dataclass(frozen=True)
class Result:
    """Final scores (index = player) and ranking (list of lists: ties share a rank).

    ``ended``: the teacher ended the game before its rules did. The scores and
    the ranking are then the rules' at that moment (:func:`rank_when_ended`),
    and the ranking is empty where the rules name no winner yet."""

    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    ended: bool = False

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranking": [list(r) for r in self.ranking],
            "ended": self.ended,
        }


def rank_by_score(scores: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Players grouped by score, best first; equal scores share a rank."""
    ranking: list[tuple[int, ...]] = []
    for value in sorted(set(scores), reverse=True):
        ranking.append(tuple(p for p, s in enumerate(scores) if s == value))
    return tuple(ranking)


def rank_when_ended(scores: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The ranking of a game the teacher ended: by the points scored so far,
    none at all while nobody has scored (a tie at nothing crowns nobody)."""
    if not any(score > 0 for score in scores):
        return ()
    return rank_by_score(scores)


class Dice:
    """A seeded generator whose whole position is a plain JSON value.

    The state stores ``(seed, draws)``: replaying from the log reaches the same
    rolls, and a state restored from JSON continues the same sequence.
    """

    @staticmethod
    def roll(seed: int, draws: int, count: int, sides: int = 6) -> tuple[tuple[int, ...], int]:
        rng = random.Random(f"{seed}:{draws}")
        return tuple(rng.randint(1, sides) for _ in range(count)), draws + 1

    @staticmethod
    def shuffle(seed: int, draws: int, items: list[Any]) -> tuple[list[Any], int]:
        rng = random.Random(f"{seed}:{draws}")
        shuffled = list(items)
        rng.shuffle(shuffled)
        return shuffled, draws + 1


class StateStoresItself:
    """to_json and from_json for a game whose state class writes and reads
    itself (``state.to_json()``, ``State.from_json(data)``): every game here."""

    state_class: Any

    def to_json(self, state: Any) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> Any:
        return self.state_class.from_json(data)


class Game(Protocol):
    """What every game in the registry provides."""

    slug: str

    def new(self, options: dict[str, Any], players: int, seed: int) -> Any: ...

    def moves(self, state: Any, player: int) -> list[dict[str, Any]]: ...

    def apply(self, state: Any, player: int, move: dict[str, Any]) -> Outcome: ...

    def view(self, state: Any, player: int | None) -> dict[str, Any]: ...

    def result(self, state: Any) -> Result | None: ...

    def to_json(self, state: Any) -> dict[str, Any]: ...

    def from_json(self, data: dict[str, Any]) -> Any: ...
