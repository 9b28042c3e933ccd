"""Number Quest / Nubble (RULES.md section 1, decisions in 0.2).

``GAME`` is the object the registry serves; it follows :class:`engine.core.Game`
and adds ``bot_moves``.
"""

from __future__ import annotations

from typing import Any

from engine.core import Outcome, Result, StateStoresItself
from engine.numberquest import game as _rules
from engine.numberquest.bots import LEVELS, bot_moves
from engine.numberquest.game import State
from engine.numberquest.variants import PRESETS, validate_variant


class NumberQuest(StateStoresItself):
    state_class = State
    slug = _rules.SLUG
    presets = tuple(PRESETS)
    bot_levels = LEVELS

    def new(self, options: dict[str, Any] | None, players: int, seed: int) -> State:
        return _rules.new(options, players, seed)

    def moves(self, state: State, player: int | None) -> list[dict[str, Any]]:
        return _rules.moves(state, player)

    def apply(self, state: State, player: int | None, move: dict[str, Any]) -> Outcome:
        return _rules.apply(state, player, move)

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        return _rules.view(state, player)

    def result(self, state: State) -> Result | None:
        return _rules.result(state)

    def rule_on_kept_steps(self, state: State, player: int, steps: Any) -> Outcome:
        return _rules.rule_on_kept_steps(state, player, steps)

    def bot_moves(
        self, state: State, player: int, level: str = "greedy", rng_seed: int = 0
    ) -> list[dict[str, Any]]:
        return bot_moves(state, player, level, rng_seed)


GAME = NumberQuest()

__all__ = ["GAME", "NumberQuest", "State", "bot_moves", "validate_variant"]
