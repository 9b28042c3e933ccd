"""The out-of-turn Rainbow (RULES.md 4.6): any player, at any moment, may add
the Rainbow of the last trick's value to it.

The trick grows by one card, becomes eligible, and is the completer's from
then on (L); play goes on with the player after the completer, and the
players it jumps over lose their turn (:func:`skipped_players`). The pages
ask :func:`can_add_rainbow` for every tablet. Two racing Rainbows are made
deterministic by the server's order: a move naming a trick (``trick``: its
index in the tour, ``size``) that is no longer the last one, or no longer that
size, is refused with ``trick_changed``.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, IllegalMove
from engine.numx.cards import RAINBOW
from engine.numx.flow import Events, end_tour, hand_on, new_top_trick
from engine.numx.state import NumxState, set_fields, with_item


def can_add_rainbow(state: NumxState, player: int) -> bool:
    """Whether ``player`` may add a Rainbow to the last trick now (cheap)."""
    last = state.last
    return (state.phase == "play" and state.pending is None and last is not None
            and last.kind == "number" and last.owner != player
            and f"{RAINBOW}{last.value}" in state.hands[player])


def rainbow_refusal(state: NumxState, player: int, move: dict[str, Any]) -> IllegalMove | None:
    last = state.last
    seen = move.get("trick")
    if seen is not None and (not isinstance(seen, int) or seen != len(state.tricks) - 1
                             or (last is not None and move.get("size") not in (None, last.size))):
        return IllegalMove("Too late: the trick changed.", "trick_changed")
    if state.phase != "play" or state.pending is not None or last is None:
        return IllegalMove("There is no trick to complete now.", "no_trick")
    if last.kind != "number":
        return IllegalMove("A Rainbow completes a trick of numbers.", "no_trick")
    if last.owner == player:
        return IllegalMove("This trick is yours already.", "own_trick")
    card_id = move.get("card")
    if card_id != f"{RAINBOW}{last.value}":
        return IllegalMove(f"Only the Rainbow {last.value} completes this trick.",
                           "rainbow_wrong_value", value=last.value)
    if card_id not in state.hands[player]:
        return IllegalMove("This card is not in your hand.", "not_in_hand")
    return None


def skipped_players(state: NumxState, completer: int) -> list[int]:
    """The players whose turn the completer's Rainbow jumps over (RULES 4.6:
    "the players in between lose their turn"), from public facts only.

    The turn goes round from the top trick's owner back to them. When the
    completer's turn on this trick is still to come, play jumps forward from
    the current player to the one after the completer: the players from the
    current one up to the completer lose their turn. When it has come already
    (they passed, drew, played an action, or made a Block's forced pass; or
    the owner plays again after their Block), play goes back to the player
    after the completer: those after them play again on the grown trick and
    no one is jumped over, so no one loses a turn.
    """
    current, owner = state.current, state.owner
    assert current is not None and owner is not None
    lost: list[int] = []
    p = current
    while p != completer:
        if p == owner:
            return []
        lost.append(p)
        p = (p + 1) % state.players
    return lost


def add_rainbow(state: NumxState, player: int, card_id: str) -> tuple[NumxState, Events]:
    """The Rainbow goes on the last trick (checked by :func:`rainbow_refusal`)."""
    last = state.last
    assert last is not None and state.current is not None
    hand = list(state.hands[player])
    hand.remove(card_id)
    # Laying one's last card ends the round at once: play does not resume,
    # so no one loses a turn.
    lost = skipped_players(state, player) if hand else []
    state = set_fields(state, hands=with_item(state.hands, player, tuple(hand)),
                       tricks=state.tricks[:-1] + (last.with_rainbow(player, card_id),))
    state = new_top_trick(state)
    events: Events = [Event("rainbow", player, {"card": card_id, "size": last.size + 1,
                                                "lost_turn": lost})]
    if lost:
        events.append(Event("lost_turn", None, {"players": lost}))
    if not state.hands[player]:
        more_state, more = end_tour(state, player, round_over=True)
    else:
        more_state, more = hand_on(state, player, voluntary=False)
    return more_state, events + more
