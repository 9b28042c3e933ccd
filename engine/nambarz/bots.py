"""Computer players and the report's missed calculations.

Bots play only legal moves, with right results. Levels:

* ``beginner``: a concordance if it has one, else a calculation of 2 cards, else a
  joker, else it draws.
* ``greedy``: the shortest calculation it finds, else a concordance, else a joker.
* ``strategist``: the longest legal calculation (the bonus), else a
  concordance; it keeps its jokers until nothing else can be played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from engine.arithmetic import SKILL_OF
from engine.core import IllegalMove
from engine.nambarz.calc import reaches, run_steps, solve
from engine.nambarz.cards import FAMILIES, JOKER, REPLAY, match_kind
from engine.nambarz.game import _bound_families
from engine.nambarz.state import NambarzState

LEVELS = ("beginner", "greedy", "strategist")
# Calculations longer than this are not looked for (a 7-card legal calculation
# is very rare, and searching a big hand for one would slow the table down).
MAX_SEARCH = 6
# At most this many sets of cards are checked for one move: a hand grown big
# by drawing must not keep the table waiting (a few milliseconds each).
BUDGET = 120


def _family_cards(state: NambarzState, player: int, family: str) -> dict[int, list[int]]:
    """number -> ids of the player's cards of ``family`` that may go in a calculation."""
    target = state.target
    by_number: dict[int, list[int]] = {}
    for card_id in state.hands[player]:
        card = state.card(card_id)
        if card.family == family and match_kind(card, target) is None:  # type: ignore[arg-type]
            by_number.setdefault(card.number, []).append(card_id)  # type: ignore[arg-type]
    return by_number


def _contains(big: Counter, small: Counter) -> bool:
    return all(big[n] >= count for n, count in small.items())


def simplest_parts(state: NambarzState, player: int, max_size: int = MAX_SEARCH,
                   must: int | None = None) -> list[tuple[str, tuple[int, ...]]]:
    """Every (family, numbers) the player could lay as a legal calculation on
    the target, fewest cards first, up to ``max_size`` cards and ``BUDGET``
    checks (beyond the budget, what was found so far). Sizes go up one by one,
    so a set holding a smaller set that already reaches the target is never
    simplest and is skipped unchecked."""
    target = state.target
    if target is None or target.joker is not None:
        return []
    options = state.options
    found: list[tuple[str, tuple[int, ...]]] = []
    checks = 0
    needed = state.card(must).number if must is not None else None
    families = [f for f in FAMILIES if must is None or state.card(must).family == f]
    pools = {f: _family_cards(state, player, f) for f in families}
    if must is not None and not any(must in ids for f in families for ids in pools[f].values()):
        # The drawn card matches the target: it is laid as a match, never
        # calculated with (another card of its number must not stand for it).
        return []
    numbers = {f: sorted(n for n, ids in pools[f].items() for _ in ids) for f in families}
    reaching: dict[str, list[Counter]] = {f: [] for f in families}
    shortest = 0  # the fewest cards that reach: under strict_simplest, the only legal size
    # Sizes outside, families inside: the budget never starves a family's pairs.
    for size in range(2, max_size + 1):
        for family in families:
            if len(numbers[family]) < size:
                continue
            for part in sorted(set(combinations(numbers[family], size))):
                counted = Counter(part)
                if any(_contains(counted, smaller) for smaller in reaching[family]):
                    continue
                checks += 1
                if checks > BUDGET:
                    return found
                if reaches(part, target.number, options.brackets,  # type: ignore[arg-type]
                           options.operations):
                    reaching[family].append(counted)
                    shortest = shortest or size
                    if (needed is None or needed in part) and not (
                            options.strict_simplest and size > shortest):
                        found.append((family, part))
    return found


def calculation_move(state: NambarzState, player: int, family: str, part: tuple[int, ...],
                     must: int | None = None) -> dict[str, Any]:
    """The move laying ``part`` (numbers of ``family``) with the right results."""
    target = state.target
    assert target is not None
    options = state.options
    found = solve(part, target.number, options.brackets, options.operations)  # type: ignore[arg-type]
    assert found is not None
    order, ops, steps = found
    pools = _family_cards(state, player, family)
    if must is not None:
        pools[state.card(must).number].remove(must)  # type: ignore[index]
        pools[state.card(must).number].insert(0, must)  # type: ignore[index]
    ids = [pools[n].pop(0) for n in order]
    results = [s.result for s in run_steps(order, ops, steps)]
    move: dict[str, Any] = {"type": "calculate", "cards": ids, "ops": ops, "results": results}
    if options.brackets:
        move["steps"] = steps
    return move


def calculations(state: NambarzState, player: int, sizes: range,
                 must: int | None = None) -> Iterator[dict[str, Any]]:
    """Legal calculation moves of ``player`` on the target, with the card
    counts in the order of ``sizes``, each with the right results. ``must``: a
    card id every calculation must use (the card just drawn)."""
    parts = simplest_parts(state, player, max(sizes, default=0), must)
    for size in sizes:
        for family, part in parts:
            if len(part) == size:
                yield calculation_move(state, player, family, part, must)


def missed_calculation(state: NambarzState, player: int) -> tuple[str, ...] | None:
    """The skills (``add`` ``sub`` ``mul`` ``div``) of one legal calculation
    ``player`` could make on the target from their hand now (the fewest cards
    first), or None. The pages call it before applying a concordance or a
    draw, to report the calculation that was missed."""
    if state.over or _bound_families(state) is not None or state.pending == "follow":
        return None
    parts = simplest_parts(state, player)
    if not parts:
        return None
    ops = calculation_move(state, player, *parts[0])["ops"]
    return tuple(SKILL_OF[op] for op in "+-*/" if op in ops)


def opportunity(state: NambarzState) -> tuple[int, list[int], dict[str, bool]] | None:
    """At the start of a turn, ``(player, numbers, could)`` in the shape of
    Number Quest's opportunities: ``numbers`` is the target's number then the
    numbers in the hand, ``could`` says for each allowed operation whether a
    legal calculation found on this turn uses it (one calculation per set of
    cards, so a False is "not found", within the bots' search budget)."""
    if state.over or state.pending != "" or _bound_families(state) is not None:
        return None
    player = state.current
    target = state.target
    assert target is not None
    used: set[str] = set()
    for family, part in simplest_parts(state, player):
        used.update(calculation_move(state, player, family, part)["ops"])
    numbers = [target.number] + sorted(
        state.card(c).number for c in state.hands[player]  # type: ignore[misc]
        if state.card(c).number is not None)
    return player, numbers, {SKILL_OF[op]: op in used for op in state.options.operations}


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
    elif state.options.strict_simplest:
        sizes = range(2, top + 1)  # a longer one would be refused
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
