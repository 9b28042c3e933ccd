"""The Nambarz deck as data (RULES.md 3.2, 3.3) and how two cards match (3.4 a).

The animal table is a reconstruction (RULES 3.2, L): only abeille on 3 and 8,
hippopotame on 3 and chat on 5 are known. ``ANIMALS`` is the one place to
replace it with the real table; nothing else names an animal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

SYMBOL, DRAWING, JOKER = "symbol", "drawing", "joker"
FAMILIES = (SYMBOL, DRAWING)
NUMBERS = tuple(range(1, 11))

# number -> the two animals drawn on it. Pairs (n, n + 5) share their animals
# (the reconstruction of RULES 3.2); A1..A7 stand for the animals not yet known.
ANIMALS: dict[int, tuple[str, str]] = {
    1: ("A1", "A2"), 6: ("A1", "A2"),
    2: ("A3", "A4"), 7: ("A3", "A4"),
    3: ("abeille", "hippopotame"), 8: ("abeille", "hippopotame"),
    4: ("A5", "A6"), 9: ("A5", "A6"),
    5: ("chat", "A7"), 10: ("chat", "A7"),
}
SYMBOL_COPIES = 4
DRAWING_COPIES = 2

# The four jokers (RULES 3.6) and the family of the card each lets follow.
CHANGE_NUMBER, CHANGE_DRAWING, CHANGE_ANY, REPLAY = (
    "change_number", "change_drawing", "change_any", "replay",
)
JOKER_KINDS = (CHANGE_NUMBER, CHANGE_DRAWING, CHANGE_ANY, REPLAY)
JOKER_FOLLOWS: dict[str, tuple[str, ...]] = {
    CHANGE_NUMBER: (SYMBOL,),
    CHANGE_DRAWING: (DRAWING,),
    CHANGE_ANY: (SYMBOL, DRAWING),
}
JOKER_NAMES = {
    CHANGE_NUMBER: "joker change-number",
    CHANGE_DRAWING: "joker change-drawing",
    CHANGE_ANY: "joker change-number-or-drawing",
    REPLAY: "joker play-again",
}
# Difficulty by jokers (RULES 3.3 step 5): beginner 12, confirmed 8, experienced 4.
JOKER_LEVELS = (12, 8, 4)


@dataclass(frozen=True)
class Card:
    """One card of the deck; ``id`` is its index in :func:`deck`."""

    id: int
    number: int | None
    family: str
    animal: str | None = None
    joker: str | None = None

    @property
    def label(self) -> str:
        """How a child names it: "3", "8-abeille", "joker play-again"."""
        if self.joker is not None:
            return JOKER_NAMES[self.joker]
        if self.animal is not None:
            return f"{self.number}-{self.animal}"
        return str(self.number)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "number": self.number, "family": self.family,
                "animal": self.animal, "joker": self.joker, "label": self.label}


@cache
def _deck(jokers: int) -> tuple[Card, ...]:
    faces: list[tuple[int | None, str, str | None, str | None]] = []
    for number in NUMBERS:
        faces.extend([(number, SYMBOL, None, None)] * SYMBOL_COPIES)
    for number in NUMBERS:
        for animal in ANIMALS[number]:
            faces.extend([(number, DRAWING, animal, None)] * DRAWING_COPIES)
    for kind in JOKER_KINDS:
        faces.extend([(None, JOKER, None, kind)] * (jokers // len(JOKER_KINDS)))
    return tuple(Card(i, *face) for i, face in enumerate(faces))


def deck(jokers: int = 12) -> list[Card]:
    """The whole deck, in id order: 40 symbol cards, 40 drawing cards, then the
    jokers (12, 8 or 4: as many of each of the four kinds)."""
    if isinstance(jokers, bool) or jokers not in JOKER_LEVELS:
        raise ValueError(f"jokers must be one of {JOKER_LEVELS}")
    return list(_deck(jokers))


def cards_of(jokers: int) -> tuple[Card, ...]:
    """:func:`deck` as a shared tuple, for lookups by id."""
    return _deck(jokers)


def match_kind(card: Card, target: Card) -> str | None:
    """``"number"`` or ``"drawing"`` when ``card`` is concordant with ``target``
    (RULES 3.4 a), else None. Jokers match nothing this way."""
    if card.joker is not None or target.joker is not None:
        return None
    if card.number == target.number:
        return "number"
    if card.animal is not None and card.animal == target.animal:
        return "drawing"
    return None
