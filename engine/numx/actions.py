"""Action cards (RULES.md 4.8). Each names its target in the move:

* ``target``: a player index, ``"all"``, and in teams ``"between"`` (Block:
  the players between you and your partner) or ``"team"`` with ``team`` (Quantique).
* Swipe: ``direction`` ``"left"`` or ``"right"``. Éclair: ``mine`` and
  ``theirs``, positions in the two rows (a face-down card is picked blind).

Interpretations (L): "all" is every row for Flip and Swipe, every other player
for Block and Malus. Quantique shields a row from the *other* players'
actions; with "all", shielded rows are left out, a shielded target alone is
refused. Swipe-right moves each targeted row's rightmost card to the left end
of the next player's row (the conveyor belt of RULES 4.8); left is the mirror.
Malus: +X is drawn at once; -X, -Y and +Y are the target's choices, asked in
turn (:class:`engine.numx.state.Pending`); a hand always keeps one card.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, IllegalMove
from engine.numx.cards import card
from engine.numx.distribution import ENDS
from engine.numx.flow import Events, draw_cards, hand_on, to_discard
from engine.numx.state import NumxState, Owed, Pending, set_fields, with_item

TARGETED = {"flip", "swipe", "block", "quantique", "malus"}


def shielded(state: NumxState, actor: int, target: int) -> bool:
    """Quantique keeps the other players' actions off this row."""
    return state.protected[target] and target not in state.team_of(actor)


def _player_target(state: NumxState, move: dict[str, Any]) -> int | None:
    target = move.get("target")
    if isinstance(target, bool) or not isinstance(target, int):
        return None
    if not 0 <= target < state.players:
        raise IllegalMove("Choose a player of this table.", "bad_target")
    return target


def targets(state: NumxState, actor: int, kind: str, move: dict[str, Any]) -> list[int]:
    """The players the action touches, or IllegalMove."""
    target = move.get("target")
    player = _player_target(state, move)
    others = [(actor + i) % state.players for i in range(1, state.players)]
    if player is not None:
        if kind in ("block", "malus", "eclair") and player in state.team_of(actor):
            raise IllegalMove("Choose another player.", "bad_target")
        if kind != "quantique" and shielded(state, actor, player):
            raise IllegalMove("Quantique protects this player's score cards.", "protected",
                              target=player)
        return [player]
    if target == "all" and kind != "eclair":
        everyone = [actor] + others if kind in ("flip", "swipe") else others
        if kind == "quantique":
            raise IllegalMove("Quantique protects one player.", "bad_target")
        return [p for p in everyone if not shielded(state, actor, p)]
    if target == "between" and kind == "block" and state.teams:
        mate = next(p for p in state.team_of(actor) if p != actor)
        between = []
        for p in others:
            if p == mate:
                return between
            between.append(p)
    if target == "team" and kind == "quantique" and state.teams:
        team = move.get("team")
        if isinstance(team, int) and not isinstance(team, bool) and 0 <= team < len(state.teams):
            return list(state.teams[team])
    raise IllegalMove("Choose who the card is for.", "bad_target")


def play_action(state: NumxState, actor: int, card_id: str, move: dict[str, Any],
                voluntary: bool) -> tuple[NumxState, Events]:
    """The card's effect. A Malus may leave choices owed (``state.pending``)."""
    kind = card(card_id).kind
    event_data: dict[str, Any] = {"card": card_id, "kind": kind}
    if kind == "eclair":
        return _eclair(state, actor, move, event_data)
    hit = targets(state, actor, kind, move)
    event_data["targets"] = hit
    if kind == "flip":
        rows = list(state.rows)
        for p in hit:
            rows[p] = tuple((c, not up) for c, up in rows[p])
        state = set_fields(state, rows=tuple(rows))
    elif kind == "swipe":
        direction = move.get("direction")
        if direction not in ("left", "right"):
            raise IllegalMove("Swipe to the left or to the right.", "bad_direction")
        event_data["direction"] = direction
        state = _swipe(state, actor, hit, direction)
    elif kind == "block":
        blocked, blockers = list(state.blocked), list(state.blocked_by)
        for p in hit:
            blocked[p] = p != actor
            if blockers and p != actor:
                blockers[p] = actor
        state = set_fields(state, blocked=tuple(blocked), blocked_by=tuple(blockers))
    elif kind == "quantique":
        protected = list(state.protected)
        for p in hit:
            protected[p] = True
        state = set_fields(state, protected=tuple(protected))
    else:
        return _malus(state, actor, card_id, hit, voluntary, event_data)
    return state, [Event("action", actor, event_data)]


def _swipe(state: NumxState, actor: int, hit: list[int], direction: str) -> NumxState:
    step = 1 if direction == "right" else -1
    moving = []
    for p in hit:
        to = (p + step) % state.players
        if state.rows[p] and not shielded(state, actor, to):
            moving.append((p, to, state.rows[p][-1 if step == 1 else 0]))
    rows = list(state.rows)
    for p, _, _entry in moving:
        rows[p] = rows[p][:-1] if step == 1 else rows[p][1:]
    for _, to, entry in moving:
        rows[to] = (entry,) + rows[to] if step == 1 else rows[to] + (entry,)
    return set_fields(state, rows=tuple(rows))


def _eclair(state: NumxState, actor: int, move: dict[str, Any], event_data: dict[str, Any]
            ) -> tuple[NumxState, Events]:
    other = _player_target(state, move)
    if other is None or other in state.team_of(actor):
        raise IllegalMove("Choose an opponent to swap with.", "bad_target")
    if shielded(state, actor, other):
        raise IllegalMove("Quantique protects this player's score cards.", "protected",
                          target=other)
    mine, theirs = move.get("mine"), move.get("theirs")
    for index, row in ((mine, state.rows[actor]), (theirs, state.rows[other])):
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(row):
            raise IllegalMove("Choose one of your score cards and one of theirs.", "bad_card")
    assert isinstance(mine, int) and isinstance(theirs, int)
    a, b = state.rows[actor][mine], state.rows[other][theirs]
    rows = with_item(state.rows, actor, with_item(state.rows[actor], mine, b))
    rows = with_item(rows, other, with_item(rows[other], theirs, a))
    event_data.update(targets=[other], mine=mine, theirs=theirs)
    return set_fields(state, rows=rows), [Event("action", actor, event_data)]


def _malus(state: NumxState, actor: int, card_id: str, hit: list[int], voluntary: bool,
           event_data: dict[str, Any]) -> tuple[NumxState, Events]:
    x, y = card(card_id, state.malus).malus  # type: ignore[misc]
    event_data.update(x=x, y=y)
    events: Events = [Event("action", actor, event_data)]
    owed: list[Owed] = []
    for p in hit:
        if x > 0:
            state, drawn, more = draw_cards(state, x)
            state = set_fields(state, hands=with_item(state.hands, p, state.hands[p] + drawn))
            events += more + [Event("malus_drew", p, {"count": len(drawn)})]
        elif x < 0 and len(state.hands[p]) > 1:
            owed.append((p, "discard", min(-x, len(state.hands[p]) - 1), ()))
        if y < 0 and state.rows[p]:
            owed.append((p, "remove", min(-y, len(state.rows[p])), ()))
        elif y > 0:
            state, drawn, more = draw_cards(state, y)
            events += more
            if drawn:
                owed.append((p, "place", len(drawn), drawn))
    if owed:
        state = set_fields(state, pending=Pending("malus", actor, card_id, tuple(owed),
                                                  voluntary))
    return state, events


def answer_malus(state: NumxState, player: int, kind: str, move: dict[str, Any]
                 ) -> tuple[NumxState, Events]:
    """A Malus target's choice: the cards to throw away, the score cards to
    remove, or where the drawn cards go; then the turn goes on."""
    pending = state.pending
    assert pending is not None
    _, what, count, held = pending.owed[0]
    if kind != f"malus_{what}":
        raise IllegalMove(_MALUS_HINT[what].format(count=count), "malus_choice", owed=what)
    events: Events = []
    if what == "discard":
        cards = move.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards) \
                or len(set(cards)) != len(cards):
            raise IllegalMove(_MALUS_HINT[what].format(count=count), "malus_choice")
        hand = list(state.hands[player])
        if len(cards) != count or any(c not in hand for c in cards):
            raise IllegalMove(_MALUS_HINT[what].format(count=count), "malus_choice")
        state = set_fields(state, hands=with_item(state.hands, player, tuple(
            c for c in hand if c not in cards)))
        state = to_discard(state, cards)
        events.append(Event("malus_discarded", player, {"count": count}))
    elif what == "remove":
        indices = move.get("indices")
        row = state.rows[player]
        if not isinstance(indices, list) or len(indices) != count or any(
                isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(row)
                for i in indices) or len(set(indices)) != count:
            raise IllegalMove(_MALUS_HINT[what].format(count=count), "malus_choice")
        removed = [row[i][0] for i in indices]
        state = set_fields(state, rows=with_item(state.rows, player, tuple(
            e for i, e in enumerate(row) if i not in indices)))
        state = to_discard(state, removed)
        events.append(Event("malus_removed", player, {"count": count}))
    else:
        placed = move.get("cards")
        if not isinstance(placed, list) or sorted(
                str(g.get("card")) if isinstance(g, dict) else "" for g in placed
        ) != sorted(held) or any(not isinstance(g.get("face_up"), bool)
                                 or g.get("end") not in ENDS for g in placed):
            raise IllegalMove(_MALUS_HINT[what].format(count=count), "malus_choice")
        row = state.rows[player]
        for g in placed:
            entry = ((g["card"], g["face_up"]),)
            row = entry + row if g["end"] == "left" else row + entry
        state = set_fields(state, rows=with_item(state.rows, player, row))
        events.append(Event("malus_placed", player, {"count": count}))
    owed = pending.owed[1:]
    if owed:
        return set_fields(state, pending=Pending(
            "malus", pending.player, pending.card, owed, pending.voluntary)), events
    state = set_fields(state, pending=None)
    more_state, more = hand_on(state, pending.player, pending.voluntary)
    return more_state, events + more


_MALUS_HINT = {
    "discard": "Malus: choose {count} cards of your hand to throw away.",
    "remove": "Malus: choose {count} of your score cards to remove.",
    "place": "Malus: place the cards you drew in your score row.",
}
