"""The Nambarz state: options, hands, piles, whose turn, and what the turn allows."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.arithmetic import ALL_OPERATIONS
from engine.core import IllegalMove
from engine.nambarz.cards import JOKER_LEVELS, REPLAY, Card, cards_of

ROUNDS = (1, 3, 5)
MIN_PLAYERS, MAX_PLAYERS = 2, 12
HAND = 7


@dataclass(frozen=True)
class Options:
    """What the teacher chooses before play. The L decisions of RULES 3 are here."""

    jokers: int = 12             # 12 beginner, 8 confirmed, 4 experienced (3.3)
    rounds: int = 1              # 1 quick, 3 classic, 5 long (3.3)
    brackets: bool = False       # the brackets variant (3.4 b4)
    operations: str = ALL_OPERATIONS  # "+-" for young players (3.8)
    teams: bool = False          # teams of two neighbours, shared score (3.5)
    last_paid: bool = True       # L (3.5): the last player of a 2-5 round gets its rank's points
    tie_break: bool = True       # extra rounds while the leaders tie (3.5)
    # The stricter reading of 3.4 b5: no calculation with fewer cards from
    # anywhere in the hand may make the target (off: it forbids most bonuses).
    strict_simplest: bool = False

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def read(cls, raw: dict[str, Any] | None, players: int) -> Options:
        raw = dict(raw or {})
        if raw.pop("young", False):
            raw.setdefault("operations", "+-")
        names = {f.name for f in fields(cls)}
        for name in raw:
            if name not in names:
                raise IllegalMove("This game has no such option.", "bad_option", option=name)
        options = cls(**raw)
        if isinstance(options.jokers, bool) or options.jokers not in JOKER_LEVELS:
            raise IllegalMove("Play with 12, 8 or 4 jokers.", "bad_option", option="jokers")
        if isinstance(options.rounds, bool) or options.rounds not in ROUNDS:
            raise IllegalMove("Play 1, 3 or 5 rounds.", "bad_option", option="rounds")
        if options.operations not in (ALL_OPERATIONS, "+-"):
            raise IllegalMove("Play with + − × ÷, or + and − only.", "bad_option",
                              option="operations")
        for name in ("brackets", "teams", "last_paid", "tie_break", "strict_simplest"):
            if not isinstance(getattr(options, name), bool):
                raise IllegalMove("This option is on or off.", "bad_option", option=name)
        if options.teams and players % 2:
            raise IllegalMove("Teams of two need an even number of players.", "bad_option",
                              option="teams")
        return options


@dataclass(frozen=True)
class NambarzState:
    players: int
    seed: int
    options: Options
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]          # the draw pile; its top is the last id
    discard: tuple[int, ...]       # the played cards; the top is the last id
    current: int
    round: int = 1
    turn: int = 0
    draws: int = 0                 # the Dice position
    scores: tuple[int, ...] = ()   # per player, rounds already finished
    round_points: tuple[int, ...] = ()  # per player, bonuses of this round
    out: tuple[int, ...] = ()      # this round's players who went out, in order
    # What the current turn allows now: "" (a fresh turn), "replay" (after a
    # play-again joker), "follow" (after a change joker: one more card may go),
    # "drawn" (after a draw: play the drawn card or pass).
    pending: str = ""
    drawn: int | None = None       # the card drawn this turn
    retrying: bool = False         # a wrong typed result was made this turn
    stalled: int = 0               # passes in a row with nothing to draw
    over: bool = False
    ended: bool = False            # the teacher ended the game before its last round did
    history: tuple[tuple[int, ...], ...] = field(default=())  # finished rounds' points

    @property
    def cards(self) -> tuple[Card, ...]:
        return cards_of(self.options.jokers)

    def card(self, card_id: int) -> Card:
        return self.cards[card_id]

    @property
    def target(self) -> Card | None:
        """The card to play on: the top of the discard, under any play-again joker."""
        for card_id in reversed(self.discard):
            card = self.cards[card_id]
            if card.joker != REPLAY:
                return card
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players, "seed": self.seed, "options": self.options.to_json(),
            "hands": [list(h) for h in self.hands], "pile": list(self.pile),
            "discard": list(self.discard), "current": self.current, "round": self.round,
            "turn": self.turn, "draws": self.draws, "scores": list(self.scores),
            "round_points": list(self.round_points), "out": list(self.out),
            "pending": self.pending, "drawn": self.drawn, "retrying": self.retrying,
            "stalled": self.stalled, "over": self.over, "ended": self.ended,
            "history": [list(h) for h in self.history],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NambarzState:
        return cls(
            players=data["players"], seed=data["seed"], options=Options(**data["options"]),
            hands=tuple(tuple(h) for h in data["hands"]), pile=tuple(data["pile"]),
            discard=tuple(data["discard"]), current=data["current"], round=data["round"],
            turn=data["turn"], draws=data["draws"], scores=tuple(data["scores"]),
            round_points=tuple(data["round_points"]), out=tuple(data["out"]),
            pending=data["pending"], drawn=data["drawn"], retrying=data["retrying"],
            stalled=data["stalled"], over=data["over"], ended=data.get("ended", False),
            history=tuple(tuple(h) for h in data["history"]),
        )


def team_of(state: NambarzState, player: int) -> tuple[int, ...]:
    """The players who share ``player``'s score (neighbours in turn order)."""
    if not state.options.teams:
        return (player,)
    first = player - player % 2
    return (first, first + 1)
