"""Computer players and the report's missed calculations.

Bots play only legal moves, with right results. Levels:

* ``beginner``: a concordance if it has one, else a calculation of 2 cards, else a
  joker, else it draws.
* ``greedy``: the shortest calculation it finds, else a concordance, else a joker.
* ``strategist``: the longest legal calculation (the bonus), else a
  concordance; it keeps its jokers until nothing else can be played.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations
from typing import Any

from engine.core import IllegalMove
from engine.nambarz.calc import run_steps, simplest, solve
from engine.nambarz.cards import FAMILIES, JOKER, REPLAY, match_kind
from engine.nambarz.game import _bound_families
from engine.nambarz.state import NambarzState

LEVELS = ("beginner", "greedy", "strategist")
# Calculations longer than this are not looked for (a 7-card legal calculation
# is very rare, and searching a big hand for one would slow the table down).
MAX_SEARCH = 6


@cache
def _simplest(numbers: tuple[int, ...], target: int, brackets: bool, ops: str) -> bool:
    return simplest(numbers, target, brackets, ops)


def calculations(state: NambarzState, player: int, sizes: range,
                 must: int | None = None) -> Iterator[dict[str, Any]]:
    """Legal calculation moves of ``player`` on the target, by card count in
    the order of ``sizes``, each with the right results. ``must``: a card id
    every calculation must use (the card just drawn)."""
    target = state.target
    if target is None or target.joker is not None:
        return
    options = state.options
    for size in sizes:
        for family in FAMILIES:
            by_number: dict[int, list[int]] = {}
            for card_id in state.hands[player]:
                card = state.card(card_id)
                if card.family == family and match_kind(card, target) is None:
                    by_number.setdefault(card.number, []).append(card_id)  # type: ignore[arg-type]
            numbers = sorted(n for n, ids in by_number.items() for _ in ids)
            if len(numbers) < size:
                continue
            needed = state.card(must).number if must is not None else None
            if must is not None and state.card(must).family != family:
                continue
            for part in sorted(set(combinations(numbers, size))):
                if needed is not None and needed not in part:
                    continue
                if not _simplest(part, target.number, options.brackets,  # type: ignore[arg-type]
                                 options.operations):
                    continue
                found = solve(part, target.number, options.brackets,  # type: ignore[arg-type]
                              options.operations)
                assert found is not None
                order, ops, steps = found
                pools = {n: list(ids) for n, ids in by_number.items()}
                if must is not None:
                    pools[needed].remove(must)  # type: ignore[index]
                    pools[needed].insert(0, must)  # type: ignore[index]
                ids = [pools[n].pop(0) for n in order]
                results = [s.result for s in run_steps(order, ops, steps)]
                move: dict[str, Any] = {"type": "calculate", "cards": ids, "ops": ops,
                                        "results": results}
                if options.brackets:
                    move["steps"] = steps
                yield move


def missed_calculation(state: NambarzState, player: int) -> tuple[str, ...] | None:
    """The operations of one legal calculation ``player`` could make on the
    target from their hand now (the fewest cards first), or None. The pages
    call it before applying a concordance or a draw, to report the chance."""
    if state.over or _bound_families(state) is not None:
        return None
    for move in calculations(state, player, range(2, min(len(state.hands[player]),
                                                         MAX_SEARCH) + 1)):
        return tuple(sorted(set(move["ops"]), key="+-*/".index))
    return None


def _single_cards(state: NambarzState, player: int, hand: tuple[int, ...],
                  ) -> tuple[list[int], list[int]]:
    """Cards that may be laid alone now, and jokers."""
    bound = _bound_families(state)
    target = state.target
    singles, jokers = [], []
    for card_id in hand:
        card = state.card(card_id)
        if card.family == JOKER:
            jokers.append(card_id)
        elif bound is not None:
            if card.family in bound:
                singles.append(card_id)
        elif target is not None and match_kind(card, target) is not None:
            singles.append(card_id)
    return singles, jokers


def bot_moves(state: NambarzState, player: int, level: str = "greedy",
              seed: int = 0) -> list[dict[str, Any]]:
    """The bot's next move (one move: what follows a draw depends on the card).
    Empty when it is not this player's turn or the game is over."""
    if level not in LEVELS:
        raise IllegalMove("Unknown bot level.", "bad_option", option="level", levels=list(LEVELS))
    if state.over or state.current != player:
        return []
    pending = state.pending
    hand = state.hands[player]
    must = None
    if pending == "drawn":
        if state.drawn is None:
            return [{"type": "pass"}]
        hand, must = (state.drawn,), state.drawn
    singles, jokers = _single_cards(state, player, hand)
    if pending == "follow":
        return [{"type": "match", "card": singles[seed % len(singles)]}] if singles \
            else [{"type": "pass"}]
    size = len(state.hands[player])
    top = min(size, MAX_SEARCH)
    if level == "beginner":
        sizes = range(2, 3)
    elif level == "greedy":
        sizes = range(2, top + 1)
    else:
        sizes = range(top, 1, -1)
    calculation = next(calculations(state, player, sizes, must), None) \
        if _bound_families(state) is None else None
    match = {"type": "match", "card": singles[seed % len(singles)]} if singles else None
    order = [match, calculation] if level == "beginner" else [calculation, match]
    for move in order:
        if move is not None:
            return [move]
    if jokers:
        if level == "strategist":
            # A play-again joker first: it keeps the turn.
            jokers.sort(key=lambda c: state.card(c).joker != REPLAY)
        return [{"type": "joker", "card": jokers[0]}]
    if pending == "drawn":
        return [{"type": "pass"}]
    return [{"type": "draw"}]
