"""The final count of a score row (RULES.md 4.10), as the steps a pupil takes.

:func:`count_steps` lists the groups a pupil values, in order, each with its
right worth; :func:`score` is their sum, so the engine's count phase and the
score can never disagree. A row is a sequence of ``(value, colour)`` pairs; a
card without a number is ``(None, kind)`` and scores 0 (no step).

The groups, for each value from 0 up (rules by number, RULES 4.10):

* ``xtrem`` (rule 3): 5 cards or more of one value with a Rainbow and/or a
  Shadow: 100.
* ``shadow_cancels`` (rule 1): a Shadow cancels the Rainbow of its value; both
  are worth 0, and what is left of the value is valued as below.
* ``combi`` (rule 3): 3 cards or more (a Shadow is a member worth 0):
  value x (classic cards + Rainbow).
* ``pair`` (rule 4): two classic cards cancel: 0.
* ``rainbow`` (rule 2): a Rainbow and one classic card: value x 2.
* ``shadow``: a Shadow beside one classic card, or alone: 0 (the classic card,
  if any, becomes a single: RULES 4.10, L).

Then the cards left alone ("singles"), colour by colour (rule 5): in each
colour only the smallest value counts. Rule 5 does not touch cards already in a
group (L). With a rule left out (Family mode: ``rules=(2, 4)``), the cards it
would have grouped stay singles, and without rule 5 the singles are one step
whose worth is their sum.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.numx.cards import CLASSIC_COLOURS, COLOURS, RAINBOW, SHADOW

ALL_RULES: tuple[int, ...] = (1, 2, 3, 4, 5)
XTREM_POINTS = 100
XTREM_SIZE = 5
SINGLE_COLOURS: tuple[str, ...] = CLASSIC_COLOURS + (RAINBOW,)
ALL_SINGLES = "any"

ScorePair = tuple[int | None, str]


@dataclass(frozen=True)
class CountStep:
    """One group the pupil values. ``key`` is the value (a value group) or the
    colour (singles of one colour; ``"any"`` for all singles without rule 5).
    ``mul`` is ``(value, count)`` when the worth is a value times a count."""

    kind: str  # "value" or "colour"
    key: int | str
    rule: str
    cards: tuple[ScorePair, ...]
    worth: int
    mul: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "key": self.key, "rule": self.rule,
                "cards": [list(c) for c in self.cards], "worth": self.worth,
                "mul": list(self.mul) if self.mul else None}

    def move_key(self) -> dict[str, Any]:
        """The field a ``count_group`` move names this group by."""
        return {"value": self.key} if self.kind == "value" else {"colour": self.key}


def _value_group(v: int, cards: list[ScorePair], rules: frozenset[int]
                 ) -> tuple[CountStep | None, list[ScorePair]]:
    """The step of value ``v`` (None when every card is a single) and its singles."""
    classic = [c for c in cards if c[1] in CLASSIC_COLOURS]
    rainbow = [c for c in cards if c[1] == RAINBOW]
    shadow = [c for c in cards if c[1] == SHADOW]
    everything = tuple(sorted(cards, key=_colour_order))
    if 3 in rules and len(cards) >= XTREM_SIZE and (rainbow or shadow):
        return CountStep("value", v, "xtrem", everything, XTREM_POINTS), []
    cancelled: list[ScorePair] = []
    if 1 in rules and rainbow and shadow:
        cancelled, rainbow, shadow = rainbow + shadow, [], []
    members = classic + rainbow + shadow
    if len(members) >= 3 and 3 in rules:
        counted = len(classic) + len(rainbow)
        return (CountStep("value", v, "combi", everything, v * counted, (v, counted)), [])
    if len(members) == 2 and len(classic) == 2 and 4 in rules:
        return CountStep("value", v, "pair", everything, 0), []
    if len(members) == 2 and rainbow and classic and 2 in rules:
        return CountStep("value", v, "rainbow", everything, 2 * v, (v, 2)), []
    # What is left is single cards; a Shadow never scores.
    singles = classic + rainbow
    grouped = tuple(sorted(cancelled + shadow, key=_colour_order))
    if not grouped:
        return None, singles
    rule = "shadow_cancels" if cancelled else "shadow"
    return CountStep("value", v, rule, grouped, 0), singles


def _colour_order(card: ScorePair) -> int:
    return COLOURS.index(card[1])


def count_steps(row: Iterable[ScorePair], rules: Iterable[int] = ALL_RULES) -> list[CountStep]:
    """The groups of ``row`` to value, in order: values from 0 up, then the
    singles colour by colour (blue, red, yellow, green, rainbow)."""
    rule_set = frozenset(rules)
    by_value: dict[int, list[ScorePair]] = {}
    for value, colour in row:
        if value is not None:
            by_value.setdefault(value, []).append((value, colour))
    steps: list[CountStep] = []
    singles: list[ScorePair] = []
    for v in sorted(by_value):
        step, alone = _value_group(v, by_value[v], rule_set)
        if step is not None:
            steps.append(step)
        singles += alone
    if 5 not in rule_set:
        if singles:
            cards = tuple(sorted(singles))
            steps.append(CountStep("colour", ALL_SINGLES, "singles", cards,
                                   sum(v for v, _ in cards)))  # type: ignore[misc]
        return steps
    for colour in SINGLE_COLOURS:
        mine = sorted(c for c in singles if c[1] == colour)
        if mine:
            rule = "colour" if len(mine) > 1 else "single"
            steps.append(CountStep("colour", colour, rule, tuple(mine), mine[0][0]))  # type: ignore[arg-type]
    return steps


def score(row: Sequence[ScorePair] | Iterable[ScorePair], rules: Iterable[int] = ALL_RULES) -> int:
    """The points of a row of score cards (RULES 4.10), X-Trem included."""
    return sum(step.worth for step in count_steps(row, rules))
