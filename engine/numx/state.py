"""The state of a NUM-X table: an immutable value that round-trips through JSON.

Cards are string ids (:mod:`engine.numx.cards`). A score row is a tuple of
``(card id, face up)`` in table order, left to right. The pile's top card is
its last one. Modes and options (RULES 4.2, 4.12) are plain data here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from engine.core import IllegalMove
from engine.numx.cards import CARDS, DEFAULT_MALUS, check_malus, score_pair
from engine.numx.scoring import ALL_RULES, CountStep, count_steps
from engine.numx.tricks import Trick

MIN_PLAYERS, MAX_PLAYERS = 2, 6
TEAM_SIZE = 2
# The edition of the rules a game plays by, so that a stored game replays as it
# was played. 1: a player passed over by anyone's Block gives the turn back to
# the trick's owner, and a drawn card may be kept. 2 (RULES 4.5, 4.8): only
# the owner's own Block gives them the turn back, and a drawn card that can be
# played is played. 3: that Block must have been laid on the owner's top trick;
# one laid before the trick was laid or completed lets it stand (in 2 it gave the
# turn back). 4: a blocked player is asked when the turn reaches them, holding
# Num-X or not (pass, or Num-X if they hold it); until 3 one without Num-X was
# passed over at once, so every tablet saw from whose turn came next whether a
# blocked player held Num-X. A state stored without it is of edition 1.
RULEBOOK = 4
RULEBOOKS = (1, 2, 3, 4)


@dataclass(frozen=True)
class Mode:
    hand: int
    rounds: int
    actions: bool
    rules: tuple[int, ...]


# RULES 4.2. Family scoring keeps rules 2 and 4 (RULES 4.10, L; option "rules").
MODES: dict[str, Mode] = {
    "speed_run": Mode(13, 1, True, ALL_RULES),
    "x_game": Mode(10, 2, True, ALL_RULES),
    "family": Mode(12, 1, False, (2, 4)),
}

Row = tuple[tuple[str, bool], ...]
# A choice a Malus leaves to its target: (player, "discard"|"remove"|"place", count, cards).
Owed = tuple[int, str, int, tuple[str, ...]]


@dataclass(frozen=True)
class Pending:
    """A decision the game waits for inside a turn.

    ``drawn``: ``player`` drew ``card`` and plays it or keeps it. ``bonus``:
    ``player``'s trick had a Shadow, they may play an action card now.
    ``malus``: the targets of a Malus still owe ``owed`` choices, in order;
    ``voluntary`` says whether the actor's turn counts as not covering.
    """

    kind: str
    player: int
    card: str | None = None
    owed: tuple[Owed, ...] = ()
    voluntary: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "card": self.card,
                "owed": [[p, what, n, list(cards)] for p, what, n, cards in self.owed],
                "voluntary": self.voluntary}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pending:
        return cls(data["kind"], data["player"], data["card"],
                   tuple((p, w, n, tuple(c)) for p, w, n, c in data["owed"]), data["voluntary"])


@dataclass(frozen=True)
class NumxState:
    players: int
    seed: int
    draws: int
    mode: str
    rules: tuple[int, ...]
    malus: tuple[tuple[int, int], ...]
    teams: tuple[tuple[int, ...], ...]
    phase: str  # "choose", "play", "distribute", "refill", "count", "over"
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    discard: tuple[str, ...]
    used: tuple[str, ...]  # action cards played: out of the game (RULES 4.9)
    rows: tuple[Row, ...]
    round_no: int = 1
    chosen: tuple[str | None, ...] = ()  # setup cards, then X-Game refill choices
    tricks: tuple[Trick, ...] = ()
    current: int | None = None
    passed: tuple[int, ...] = ()  # players who did not cover since the last trick
    blocked: tuple[bool, ...] = ()
    protected: tuple[bool, ...] = ()
    pending: Pending | None = None
    winner: int | None = None  # the tour's winner while they hand out cards
    round_over: bool = False  # a hand emptied: the round ends after this distribution
    tour: int = 0
    counts: tuple[tuple[int, ...], ...] = ()
    totals: tuple[int | None, ...] = ()
    rulebook: int = 1
    # Who blocked each player (rulebook 2); from rulebook 3 only while the
    # top trick stays the one the Block was laid on.
    blocked_by: tuple[int | None, ...] = ()
    ended: bool = False  # the teacher ended the game: the rows count as they stand

    @property
    def last(self) -> Trick | None:
        return self.tricks[-1] if self.tricks else None

    @property
    def owner(self) -> int | None:
        return self.tricks[-1].owner if self.tricks else None

    @property
    def rounds(self) -> int:
        return MODES[self.mode].rounds

    @property
    def hand_size(self) -> int:
        return MODES[self.mode].hand

    @property
    def actions(self) -> bool:
        return MODES[self.mode].actions

    def team_of(self, player: int) -> tuple[int, ...]:
        for team in self.teams:
            if player in team:
                return team
        return (player,)

    def count_row(self, player: int) -> Row:
        """The row a player counts: in teams, the team's rows merged (RULES 4.2)."""
        return tuple(entry for p in self.team_of(player) for entry in self.rows[p])

    def steps(self, player: int) -> list[CountStep]:
        """The groups ``player`` counts, in order (:func:`count_steps`)."""
        return count_steps((score_pair(c) for c, _ in self.count_row(player)), self.rules)

    def all_cards(self) -> list[str]:
        """Every card of the game wherever it is (for conservation checks)."""
        cards = [c for hand in self.hands for c in hand] + list(self.pile) + list(self.discard)
        cards += list(self.used) + [c for row in self.rows for c, _ in row]
        cards += [c for t in self.tricks for c in t.cards]
        if self.pending is not None:
            cards += [c for *_, held in self.pending.owed for c in held]
        return cards

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "tricks":
                value = [t.to_json() for t in value]
            elif f.name == "pending":
                value = value.to_json() if value is not None else None
            elif f.name in ("rows", "hands", "malus", "teams", "counts"):
                value = [[list(x) if isinstance(x, tuple) else x for x in inner]
                         for inner in value]
            elif isinstance(value, tuple):
                value = list(value)
            data[f.name] = value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NumxState:
        values = dict(data)
        values["tricks"] = tuple(Trick.from_json(t) for t in data["tricks"])
        values["pending"] = Pending.from_json(data["pending"]) if data["pending"] else None
        values["rows"] = tuple(tuple((c, bool(up)) for c, up in row) for row in data["rows"])
        values["malus"] = tuple(tuple(p) for p in data["malus"])
        for name in ("hands", "teams", "counts"):
            values[name] = tuple(tuple(inner) for inner in data[name])
        for name in ("rules", "pile", "discard", "used", "chosen", "passed", "blocked",
                     "protected", "totals", "blocked_by"):
            if name in data:
                values[name] = tuple(data[name])
        return cls(**values)


def read_options(options: dict[str, Any] | None, players: int) -> dict[str, Any]:
    """The game's options checked: mode, rules, malus, teams, rulebook."""
    options = dict(options or {})
    mode = options.pop("mode", "speed_run")
    if mode not in MODES:
        raise IllegalMove("This game has no such mode.", "bad_option", option="mode")
    rules = options.pop("rules", None)
    if rules is None:
        rules = MODES[mode].rules
    if not isinstance(rules, list | tuple) or not set(rules) <= set(ALL_RULES) or not rules:
        raise IllegalMove("Choose scoring rules among 1 to 5.", "bad_option", option="rules")
    try:
        malus = check_malus(options.pop("malus", DEFAULT_MALUS))
    except (TypeError, ValueError):
        raise IllegalMove("Each Malus card needs two whole numbers from -3 to 3.", "bad_option",
                          option="malus") from None
    teams = tuple(tuple(t) for t in options.pop("teams", ()) or ())
    seated = [p for t in teams for p in t]
    if teams and (sorted(seated) != list(range(players))
                  or any(len(t) != TEAM_SIZE for t in teams)):
        raise IllegalMove("Teams are pairs, and every player is in one team.", "bad_option",
                          option="teams")
    rulebook = options.pop("rulebook", RULEBOOK)
    if rulebook not in RULEBOOKS or isinstance(rulebook, bool):
        raise IllegalMove("This game has no such option.", "bad_option", option="rulebook")
    if options:
        raise IllegalMove("This game has no such option.", "bad_option", option=sorted(options)[0])
    return {"mode": mode, "rules": tuple(sorted(set(rules))), "malus": malus, "teams": teams,
            "rulebook": rulebook}


def with_item(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1:]


def set_fields(state: NumxState, **changes: Any) -> NumxState:
    return replace(state, **changes)


def card_count(mode: str) -> int:
    return sum(1 for c in CARDS.values() if MODES[mode].actions or not c.is_action)
