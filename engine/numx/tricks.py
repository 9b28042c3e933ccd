"""Tricks (RULES.md 4.6): what may be laid on the centre of the table.

A trick is one or more cards of one value; a Joker stands for a classic card
of any value. The first trick of a tour has 1 to 3 cards (3 only with a Rainbow
or a Shadow); a later one is higher and has the size of the trick below, one
more with a Rainbow, one fewer with a Shadow (RULES 4.6, M). Infini covers any
numbered trick and only Num-X covers Infini (Infini over Infini: no, L);
Num-X covers anything and ends the tour.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from engine.core import IllegalMove
from engine.numx.cards import CARDS, RAINBOW, SHADOW, VALUES

NUMX = "numx"
INFINI = "infini"
OPENING_MAX = 3


@dataclass(frozen=True)
class Trick:
    """Cards laid in one go. ``value`` is None for Infini and Num-X.
    ``completed_by`` is the player who added a Rainbow out of turn: the trick
    is theirs from then on (they laid its last card, L)."""

    player: int
    cards: tuple[str, ...]
    value: int | None
    kind: str  # "number", "infini" or "numx"
    completed_by: int | None = None

    @property
    def owner(self) -> int:
        return self.player if self.completed_by is None else self.completed_by

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def eligible(self) -> bool:
        """A trick with a Rainbow or a Shadow gives score cards."""
        return any(CARDS[c].colour in (RAINBOW, SHADOW) for c in self.cards)

    def with_rainbow(self, player: int, card_id: str) -> Trick:
        return replace(self, cards=self.cards + (card_id,), completed_by=player)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "cards": list(self.cards), "value": self.value,
                "kind": self.kind, "completed_by": self.completed_by}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Trick:
        return cls(data["player"], tuple(data["cards"]), data["value"], data["kind"],
                   data["completed_by"])


def _colours(cards: tuple[str, ...]) -> set[str | None]:
    return {CARDS[c].colour for c in cards}


def allowed_sizes(cards: tuple[str, ...], last: Trick | None) -> set[int]:
    """The sizes a numbered trick with these cards may have over ``last``."""
    colours = _colours(cards)
    if last is None:
        sizes = {1, 2}
        if colours & {RAINBOW, SHADOW}:
            sizes.add(OPENING_MAX)
        return sizes
    sizes = {last.size}
    if RAINBOW in colours:
        sizes.add(last.size + 1)
    if SHADOW in colours and last.size > 1:
        sizes.add(last.size - 1)
    return sizes


def check_trick(cards: tuple[str, ...], value: int | None, last: Trick | None
                ) -> tuple[int | None, str]:
    """``(value, kind)`` of these cards laid over ``last``, or IllegalMove."""
    kinds = [CARDS[c].kind for c in cards]
    if NUMX in kinds or INFINI in kinds:
        if len(cards) > 1:
            raise IllegalMove("Num-X and Infini are played alone.", "special_alone")
        if kinds[0] == NUMX:
            return None, NUMX
        if last is not None and last.kind != "number":
            raise IllegalMove("Only Num-X can cover Infini.", "only_numx")
        return None, INFINI
    if any(k not in ("number", "joker") for k in kinds):
        raise IllegalMove("An action card is not part of a trick.", "action_in_trick")
    values = {CARDS[c].value for c in cards if CARDS[c].kind == "number"}
    if len(values) > 1:
        raise IllegalMove("All the cards of a trick have the same number.", "mixed_values",
                          values=sorted(values))  # type: ignore[type-var]
    if values:
        (found,) = values
        if value is not None and value != found:
            raise IllegalMove("The Joker takes the number of the other cards.", "joker_value",
                              value=found)
        value = found
    elif value is None or value not in VALUES:
        raise IllegalMove("Say which number the Joker stands for (0 to 16).", "joker_value")
    if last is not None:
        if last.kind != "number":
            raise IllegalMove("Only Num-X can cover Infini.", "only_numx")
        assert last.value is not None
        if value <= last.value:
            raise IllegalMove(f"Play higher than {last.value}.", "not_higher", last=last.value)
    sizes = allowed_sizes(cards, last)
    if len(cards) not in sizes:
        if last is None:
            reason = ("A first trick of 3 cards needs a Rainbow or a Shadow."
                      if len(cards) == OPENING_MAX else "A first trick has 1, 2 or 3 cards.")
        else:
            reason = (f"Play {last.size} cards, one more with a Rainbow, "
                      "one fewer with a Shadow.")
        raise IllegalMove(reason, "wrong_size", size=len(cards), sizes=sorted(sizes))
    return value, "number"


def legal_tricks(hand: tuple[str, ...], last: Trick | None, must_include: str | None = None
                 ) -> list[tuple[tuple[str, ...], int | None]]:
    """Every ``(cards, value)`` trick these cards can make over ``last``, with
    ``must_include`` among them if given (a drawn or taken-back card)."""
    found: list[tuple[tuple[str, ...], int | None]] = []
    if last is not None and last.kind == NUMX:
        return found
    for c in hand:
        kind = CARDS[c].kind
        if kind == NUMX or (kind == INFINI and (last is None or last.kind == "number")):
            found.append(((c,), None))
    if last is None or last.kind == "number":
        jokers = tuple(c for c in hand if CARDS[c].kind == "joker")
        by_value: dict[int, list[str]] = {}
        for c in hand:
            if CARDS[c].kind == "number":
                by_value.setdefault(CARDS[c].value, []).append(c)  # type: ignore[arg-type]
        low = -1 if last is None else last.value
        sizes = range(1, OPENING_MAX + 1) if last is None \
            else range(max(1, last.size - 1), last.size + 2)
        for v in VALUES:
            if v <= low:  # type: ignore[operator]
                continue
            pool = tuple(by_value.get(v, ())) + jokers
            for size in sizes:
                for cards in combinations(pool, size):
                    if len(cards) in allowed_sizes(cards, last):
                        found.append((cards, v))
    return [t for t in found if must_include is None or must_include in t[0]]
