"""Shared helpers for the Nambarz engine tests: states dealt by hand."""

from __future__ import annotations

from dataclasses import replace

from engine.nambarz import GAME
from engine.nambarz.cards import cards_of


def ids_by_label(jokers: int = 12) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for card in cards_of(jokers):
        name = card.joker if card.joker else card.label
        out.setdefault(name, []).append(card.id)
    return out


def dealt(hands: list[list[str]], target: str | list[str], players: int | None = None,
          current: int = 0, **options):
    """A state whose hands and discard are these labels ("3", "8-abeille",
    "replay", ...); every other card is in the draw pile."""
    players = players or len(hands)
    state = GAME.new(options, players, 1)
    free = ids_by_label(state.options.jokers)

    def take(label: str) -> int:
        return free[label].pop(0)

    discard = tuple(take(t) for t in ([target] if isinstance(target, str) else target))
    hands_ids = [tuple(take(label) for label in hand) for hand in hands]
    hands_ids += [()] * (players - len(hands_ids))
    pile = tuple(i for ids in free.values() for i in ids)
    return replace(state, hands=tuple(hands_ids), discard=discard, pile=pile, current=current)


def label_of(state, card_id: int) -> str:
    card = state.card(card_id)
    return card.joker if card.joker else card.label


def hand_labels(state, player: int) -> list[str]:
    return [label_of(state, c) for c in state.hands[player]]


def play(state, player: int, move: dict):
    return GAME.apply(state, player, move)


def calc(state, player: int, labels: list[str], ops: list[str], results: list[int], **extra):
    """Play a calculation naming the cards by label (the first free copies in hand)."""
    hand = list(state.hands[player])
    ids = []
    for label in labels:
        card_id = next(c for c in hand if label_of(state, c) == label)
        hand.remove(card_id)
        ids.append(card_id)
    return play(state, player, {"type": "calculate", "cards": ids, "ops": ops,
                                "results": results, **extra})


def card_in_hand(state, player: int, label: str) -> int:
    return next(c for c in state.hands[player] if label_of(state, c) == label)


def card_ids(value) -> set[int]:
    """Ids of every card shown in a (JSON) view."""
    if isinstance(value, dict):
        found = {value["id"]} if "family" in value and "id" in value else set()
        return found.union(*(card_ids(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(card_ids(v) for v in value))
    return set()
