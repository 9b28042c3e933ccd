"""How often a Nambarz set-up gives a pupil a chance at each operation, counted
turn by turn in whole games played by the engine's own computer players, in
the unit Number Quest's chances use (``engine.numberquest.practice``): the
share of table turns.

A table turn is one player's turn from its start (a player who drew, or who
laid a joker, is still in the same turn). Two counts per operation, from the
target and the hand the player holds as the turn starts:

* ``could``: a legal calculation on the target (the simplest-calculation rule
  kept) uses the operation, as the game records it for the reports
  (``bots.opportunity``: a turn where the operation would help);
* ``only``: the turn's only way to shed a card is a calculation, and every
  legal calculation found needs the operation: the player holds no card
  matching the target and no joker, and no legal set of cards makes the target
  without it. A pupil who wants to lay a card must use it; one who avoids it
  draws, and shows it.

The players are the engine's ``beginner`` computer players (a concordance
first, else a calculation of two cards, else a joker, else a draw), the
computer a pupil who needs a skill is seated against (``learning.table_plan``),
at a table of two, the table ``table_plan`` proposes. Calculations are those the
computer players find (``bots.simplest_parts``: up to 6 cards, 120 sets of
cards a turn), so a chance is one a reasonable search sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from statistics import median
from typing import Any

from engine.arithmetic import SKILL_OF, normalise_operations
from engine.nambarz.bots import bot_moves, opportunity, simplest_parts
from engine.nambarz.calc import reaches
from engine.nambarz.cards import JOKER, match_kind
from engine.nambarz.game import GAME
from engine.nambarz.state import NambarzState

DEFAULT_TURNS = 6000
"""Table turns counted per set-up, as many as Number Quest's rolls (about a
second a set-up): at 1,500 the best candidate read 0.206 with one seed and
0.19 with others; at 6,000 two seeds agree within 0.01, and 24,000 turns
(``tests/bench/bench_practice.py``) agree with them."""
PLAYERS = 2
LEVEL = "beginner"
# A game that lasts longer is cut here: a round of two beginners ends in about
# 30 to 60 turns, and a blocked one after a turn of passes.
MOST_MOVES = 3000


@dataclass(frozen=True)
class Chances:
    """Table turns counted, and per operation (skill name) the turns where it
    could help and those where it was the only way to shed a card."""

    turns: int
    could: dict[str, int]
    only: dict[str, int]
    games: int = 0
    median_turns: int = 0  # table turns of a game (its round), median

    def could_rate(self, skill: str) -> float:
        return self.could.get(skill, 0) / self.turns if self.turns else 0.0

    def only_rate(self, skill: str) -> float:
        return self.only.get(skill, 0) / self.turns if self.turns else 0.0


def turn_chances(state: NambarzState) -> tuple[set[str], set[str]]:
    """(could, only) as skill names for the turn ``state`` starts (module
    docstring); two empty sets where the turn is not a fresh one."""
    found = opportunity(state)
    if found is None:
        return set(), set()
    player, _numbers, helped = found
    could = {skill for skill, used in helped.items() if used}
    if not could:
        return set(), set()
    target = state.target
    assert target is not None
    for card_id in state.hands[player]:
        card = state.card(card_id)
        if card.family == JOKER or match_kind(card, target) is not None:
            return could, set()
    options = state.options
    parts = [part for _family, part in simplest_parts(state, player)]
    only = set()
    for op in options.operations:
        rest = options.operations.replace(op, "")
        if rest and any(
            reaches(part, target.number, options.brackets, rest) for part in parts
        ):
            continue
        only.add(SKILL_OF[op])
    return could, only


def _key(options: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(options.items()))


def chances(
    options: dict[str, Any], turns: int = DEFAULT_TURNS, seed: int = 0
) -> Chances:
    """The counts over whole games of the set-up's ``options`` (the engine's,
    as the start form sends them), at least ``turns`` table turns in all.
    Cached: a class report asks for the same few set-ups again and again."""
    return _chances(_key(options), turns, seed)


@lru_cache(maxsize=32)
def _chances(options: tuple[tuple[str, Any], ...], wanted: int, seed: int) -> Chances:
    operations = GAME.new(dict(options), PLAYERS, 0).options.operations
    could = dict.fromkeys(normalise_operations(operations), 0)
    only = dict.fromkeys(normalise_operations(operations), 0)
    turns = games = 0
    lengths = []
    while turns < wanted:
        state = GAME.new(dict(options), PLAYERS, seed * 100_000 + games)
        games += 1
        counted = -1
        began = turns
        for _move in range(MOST_MOVES):
            if state.over:
                break
            player = state.current
            if state.pending == "" and state.turn != counted:
                counted = state.turn
                turns += 1
                helped, needed = turn_chances(state)
                for skill in helped:
                    could[_op(skill)] += 1
                for skill in needed:
                    only[_op(skill)] += 1
            move = bot_moves(state, player, LEVEL, seed=state.turn)[0]
            state = GAME.apply(state, player, move).state
        lengths.append(turns - began)
    return Chances(
        turns,
        {SKILL_OF[op]: n for op, n in could.items()},
        {SKILL_OF[op]: n for op, n in only.items()},
        games,
        round(median(lengths)),
    )


def _op(skill: str) -> str:
    return next(op for op, name in SKILL_OF.items() if name == skill)
