"""How play moves on (RULES.md 4.4, 4.6, 4.7, 4.9): turns, tours, rounds.

A tour ends when the turn comes back to the owner of the top trick and every
other player has let it stand since it was laid (a pass, an action, a draw
kept). A player the owner's own Block forced to pass has not let it stand:
when the owner's Block kept all the others out, the turn comes back to the
owner, who plays again ("permet de rejouer", seed example 2). A player
another player blocked has let it stand (RULES 4.6, 4.8): when they were the
last who could cover, the tour ends and the owner wins it (rulebook 2; in
games of rulebook 1 no forced pass let it stand).

When the turn reaches a blocked player they are asked, holding Num-X or not:
Num-X if they hold it, or the forced pass (rulebook 4). Whose turn comes next
must not tell the other tablets what is in their hand. Until rulebook 3 only
a player holding Num-X was asked, and one without it was passed over at once;
their forced pass has the same effects either way (:func:`let_stand`, the
Block spent, the event ``blocked``).

Only a Block its player laid on their own top trick gives them the turn back:
a Block laid before (on someone else's trick, which the blocker then covered
or completed with a Rainbow) still forces its pass, but that pass lets the new
trick stand (rulebook 3; in rulebook 2 any pending Block of the new owner
brought the turn back to them).
"""

from __future__ import annotations

from engine.core import Dice, Event
from engine.numx.cards import CARDS
from engine.numx.count import start_count
from engine.numx.state import NumxState, set_fields, with_item
from engine.numx.tricks import NUMX

Events = list[Event]


def draw_cards(state: NumxState, count: int) -> tuple[NumxState, tuple[str, ...], Events]:
    """Up to ``count`` cards from the pile; an empty pile takes the discard
    back, shuffled (RULES 4.9, L)."""
    events: Events = []
    pile, discard, draws = list(state.pile), state.discard, state.draws
    taken: list[str] = []
    for _ in range(count):
        if not pile and discard:
            pile, draws = Dice.shuffle(state.seed, draws, sorted(discard))
            discard = ()
            events.append(Event("reshuffled", None, {"pile": len(pile)}))
        if not pile:
            break
        taken.append(pile.pop())
    state = set_fields(state, pile=tuple(pile), discard=discard, draws=draws)
    return state, tuple(taken), events


def to_discard(state: NumxState, cards: tuple[str, ...] | list[str]) -> NumxState:
    """Cards out of play: action cards leave the game (RULES 4.9), the rest can come back."""
    actions = tuple(c for c in cards if CARDS[c].is_action)
    others = tuple(c for c in cards if not CARDS[c].is_action)
    return set_fields(state, discard=state.discard + others, used=state.used + actions)


def let_stand(state: NumxState, player: int) -> bool:
    """Whether ``player``'s forced pass (Block) lets the top trick stand: yes,
    unless the trick's owner blocked them (see the module's docstring)."""
    return state.rulebook >= 2 and state.blocked_by[player] != state.owner


def asks_the_blocked(state: NumxState) -> bool:
    """Whether a blocked player is asked even without Num-X (rulebook 4)."""
    return state.rulebook >= 4


def new_top_trick(state: NumxState) -> NumxState:
    """A trick was laid or completed: the lap starts again, and the Blocks
    still pending were not laid to keep anyone off this trick (rulebook 3)."""
    state = set_fields(state, passed=())
    if state.rulebook >= 3:
        state = set_fields(state, blocked_by=(None,) * state.players)
    return state


def hand_on(state: NumxState, player: int, voluntary: bool) -> tuple[NumxState, Events]:
    """After ``player``'s turn: end the tour, or give the turn to the next player."""
    if not state.hands[player]:
        return end_tour(state, player, round_over=True)
    passed = state.passed
    if voluntary and player not in passed:
        passed = tuple(sorted(passed + (player,)))
    state = set_fields(state, passed=passed, pending=None)
    events: Events = []
    following = player
    owner = state.owner
    for _ in range(2 * state.players + 1):
        following = (following + 1) % state.players
        if owner is not None and following == owner and all(
                p in state.passed for p in range(state.players) if p != owner):
            more_state, more = end_tour(state, owner)
            return more_state, events + more
        if state.blocked[following]:
            if asks_the_blocked(state) or NUMX in state.hands[following]:
                break
            if let_stand(state, following) and following not in state.passed:
                state = set_fields(state, passed=tuple(sorted(state.passed + (following,))))
            state = set_fields(state, blocked=with_item(state.blocked, following, False))
            events.append(Event("blocked", following, {}))
            continue
        break
    return set_fields(state, current=following), events + [Event("turn", following, {})]


def eligible_cards(state: NumxState) -> tuple[str, ...]:
    """Numbered cards of the tour's eligible tricks (RULES 4.7: no Joker, Infini, Num-X)."""
    return tuple(c for t in state.tricks if t.eligible for c in t.cards if CARDS[c].is_number)


def tour_numbers(state: NumxState) -> tuple[str, ...]:
    return tuple(c for t in state.tricks for c in t.cards if CARDS[c].is_number)


def receivers(state: NumxState) -> list[int]:
    """Who may receive score cards: not those Quantique protects this tour."""
    return [p for p in range(state.players) if not state.protected[p]]


def end_tour(state: NumxState, winner: int, round_over: bool = False) -> tuple[NumxState, Events]:
    events: Events = [Event("tour_won", winner, {"round_over": round_over})]
    state = set_fields(state, winner=winner, round_over=round_over, pending=None, current=winner)
    offered = eligible_cards(state) or tour_numbers(state)
    if not offered or not receivers(state):
        state, more = close_tour(state, ())
        return state, events + more
    events.append(Event("distribution", winner, {
        "cards": list(offered), "virgin": not eligible_cards(state)}))
    return set_fields(state, phase="distribute"), events


def close_tour(state: NumxState, handed: tuple[str, ...]) -> tuple[NumxState, Events]:
    """Every card of the tour not handed out goes to the discard; the winner
    starts the next tour, or the round ends."""
    left = [c for t in state.tricks for c in t.cards if c not in handed]
    state = to_discard(state, left)
    winner = state.winner
    assert winner is not None
    state = set_fields(state, tricks=(), passed=(), blocked=(False,) * state.players,
                       protected=(False,) * state.players, pending=None, tour=state.tour + 1)
    if state.round_over:
        return end_round(state)
    state = set_fields(state, phase="play", current=winner, winner=None)
    return state, [Event("tour_started", winner, {"tour": state.tour})]


def end_round(state: NumxState) -> tuple[NumxState, Events]:
    events = [Event("round_over", state.winner, {"round": state.round_no})]
    state = set_fields(state, winner=None, current=None, round_over=False)
    if state.round_no < state.rounds:
        return set_fields(state, phase="refill", chosen=(None,) * state.players), events
    return start_count(state), events + [Event("count_started", None, {})]


def smallest_unique(cards: list[tuple[int, str]], seed: int, draws: int) -> tuple[int, int]:
    """The player of the smallest value held by one player alone (RULES 4.4);
    else the smallest value, ties drawn at random; non-numbered cards count
    as infinite (L). ``cards`` are ``(player, card id)``. Returns (player, draws)."""
    numbered = [(CARDS[c].value, p) for p, c in cards if CARDS[c].is_number]
    counts: dict[int, int] = {}
    for v, _ in numbered:
        counts[v] = counts.get(v, 0) + 1  # type: ignore[index]
    unique = [(v, p) for v, p in numbered if counts[v] == 1]  # type: ignore[index]
    if unique:
        return min(unique)[1], draws
    if numbered:
        low = min(v for v, _ in numbered)  # type: ignore[type-var]
        tied = sorted({p for v, p in numbered if v == low})
    else:
        tied = sorted({p for p, _ in cards})
    order, draws = Dice.shuffle(seed, draws, tied)
    return order[0], draws
