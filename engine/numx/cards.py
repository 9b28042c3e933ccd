"""The NUM-X deck (RULES.md 4.1): 102 numbered cards, 7 special cards, 16 actions.

A card is named by a short string id ("blue7", "rainbow10", "joker1",
"malus3"): ids go into states, moves and views, and a hidden card is simply an
id that a view leaves out. The eight Mémo cards are reference cards and are
never played, so the played deck has 125 cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CLASSIC_COLOURS: tuple[str, ...] = ("blue", "red", "yellow", "green")
RAINBOW = "rainbow"
SHADOW = "shadow"
COLOURS: tuple[str, ...] = CLASSIC_COLOURS + (RAINBOW, SHADOW)
VALUES: tuple[int, ...] = tuple(range(17))

SPECIALS: dict[str, int] = {"joker": 2, "infini": 4, "numx": 1}
ACTIONS: dict[str, int] = {"flip": 2, "swipe": 2, "eclair": 2, "quantique": 2, "block": 3,
                           "malus": 5}
# RULES 4.12: the five Malus values are unknown; these placeholders are
# (X for the hand, Y for the score row) and a game may replace them.
DEFAULT_MALUS: tuple[tuple[int, int], ...] = ((2, 0), (1, -1), (0, -2), (1, 1), (-1, -1))


@dataclass(frozen=True)
class Card:
    id: str
    kind: str  # "number", a special ("joker", "infini", "numx") or an action
    value: int | None = None
    colour: str | None = None
    malus: tuple[int, int] | None = None

    @property
    def is_number(self) -> bool:
        return self.kind == "number"

    @property
    def is_action(self) -> bool:
        return self.kind in ACTIONS

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.is_number:
            data.update(value=self.value, colour=self.colour)
        if self.malus is not None:
            data.update(x=self.malus[0], y=self.malus[1])
        return data


def _numbered() -> list[Card]:
    return [Card(f"{colour}{value}", "number", value, colour)
            for colour in COLOURS for value in VALUES]


def _specials() -> list[Card]:
    return [Card(f"{kind}{i}" if count > 1 else kind, kind)
            for kind, count in SPECIALS.items() for i in range(1, count + 1)]


def _actions(malus: tuple[tuple[int, int], ...]) -> list[Card]:
    cards = []
    for kind, count in ACTIONS.items():
        for i in range(1, count + 1):
            cards.append(Card(f"{kind}{i}", kind, malus=malus[i - 1] if kind == "malus" else None))
    return cards


def deck(malus: tuple[tuple[int, int], ...] | list[Any] = DEFAULT_MALUS,
         actions: bool = True) -> list[Card]:
    """The cards that are played: 125, or 109 without action cards (Family)."""
    malus = check_malus(malus)
    return _numbered() + _specials() + (_actions(malus) if actions else [])


def check_malus(malus: Any) -> tuple[tuple[int, int], ...]:
    """Five (X, Y) pairs of whole numbers from -3 to 3, or ValueError."""
    pairs = tuple(tuple(pair) for pair in malus)
    if len(pairs) != ACTIONS["malus"] or any(
            len(p) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or not -3 <= v <= 3
                               for v in p) for p in pairs):
        raise ValueError("five Malus cards, each (X, Y) with whole numbers from -3 to 3")
    return pairs  # type: ignore[return-value]


CARDS: dict[str, Card] = {c.id: c for c in deck()}


def card(card_id: str, malus: tuple[tuple[int, int], ...] = DEFAULT_MALUS) -> Card:
    """The card of an id; a Malus card carries this game's (X, Y)."""
    found = CARDS[card_id]
    if found.kind == "malus" and malus != DEFAULT_MALUS:
        return Card(found.id, "malus", malus=malus[int(found.id[5:]) - 1])
    return found


def score_pair(card_id: str) -> tuple[int | None, str]:
    """The ``(value, colour)`` pair :func:`engine.numx.scoring.score` reads;
    a card without a number is ``(None, kind)``."""
    found = CARDS[card_id]
    return (found.value, found.colour) if found.is_number else (None, found.kind)  # type: ignore[return-value]
