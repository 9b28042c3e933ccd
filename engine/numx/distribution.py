"""The tour winner hands out score cards (RULES.md 4.7).

At least half of the eligible cards, rounded up, are handed out; when more
than one card is handed out, no player gets more than half of them, rounded
down (M). When Quantique leaves too few players to receive, so that both
limits cannot hold, the winner hands out as many as the per-player limit
allows (L). In a virgin tour the winner picks one numbered card of the tour.
"""

from __future__ import annotations

from typing import Any

from engine.core import IllegalMove
from engine.numx.flow import eligible_cards, receivers, tour_numbers
from engine.numx.state import NumxState

ENDS = ("left", "right")


def per_player(k: int) -> int:
    return k // 2 if k > 1 else 1


def feasible(k: int, receiving: int) -> bool:
    """Whether k cards can be handed out to this many players within the half limit."""
    return k >= 1 and receiving * per_player(k) >= k


def limits(offered: int, receiving: int, virgin: bool) -> tuple[int, int]:
    """(fewest, most) cards to hand out."""
    if virgin or receiving == 0:
        return min(1, offered, receiving), min(1, offered, receiving)
    possible = [k for k in range(1, offered + 1) if feasible(k, receiving)]
    need = -(-offered // 2)
    enough = [k for k in possible if k >= need]
    return (enough[0] if enough else possible[-1]), possible[-1]


def offer(state: NumxState) -> dict[str, Any]:
    """What the winner hands out now: the cards, the limits, who may receive."""
    eligible = eligible_cards(state)
    cards = eligible or tour_numbers(state)
    who = receivers(state)
    fewest, most = limits(len(cards), len(who), not eligible)
    return {"winner": state.winner, "cards": list(cards), "virgin": not eligible,
            "min": fewest, "max": most, "receivers": who}


def read_distribution(state: NumxState, move: dict[str, Any]
                      ) -> list[tuple[str, int, bool, str]]:
    """``(card, player, face up, end)`` for each card handed out, or IllegalMove
    whose reason names the limit broken."""
    offered = offer(state)
    given = move.get("cards")
    if not isinstance(given, list) or not all(isinstance(g, dict) for g in given):
        raise IllegalMove("Say who gets each card.", "malformed", field="cards")
    handed: list[tuple[str, int, bool, str]] = []
    for g in given:
        card_id, to, face_up, end = g.get("card"), g.get("to"), g.get("face_up"), g.get("end")
        if card_id not in offered["cards"] or any(card_id == h[0] for h in handed):
            raise IllegalMove("Hand out the cards of this tour, each once.", "not_offered",
                              card=str(card_id)[:20])
        if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to < state.players:
            raise IllegalMove("Choose a player of this table.", "bad_target")
        if to not in offered["receivers"]:
            raise IllegalMove("Quantique protects this player: no score cards this tour.",
                              "protected", target=to)
        if not isinstance(face_up, bool) or end not in ENDS:
            raise IllegalMove("Say face up or down, left or right.", "malformed", field="cards")
        handed.append((card_id, to, face_up, end))  # type: ignore[arg-type]
    k = len(handed)
    if k < offered["min"]:
        raise IllegalMove(f"Hand out at least {offered['min']} cards.", "too_few",
                          min=offered["min"], given=k)
    if k > offered["max"]:
        raise IllegalMove(f"Hand out at most {offered['max']} cards.", "too_many",
                          max=offered["max"], given=k)
    cap = per_player(k)
    for p in set(h[1] for h in handed):
        if sum(1 for h in handed if h[1] == p) > cap:
            raise IllegalMove(f"No one may get more than half of the cards: {cap} each.",
                              "more_than_half", cap=cap, player=p)
    return handed
