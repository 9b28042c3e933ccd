"""How long the Number Quest game chosen on the start form will last, in table
turns and in minutes of a lesson (RULES.md 0.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from engine.core import IllegalMove
from engine.numberquest.variants import PRESETS, Variant, expected_turns, validate_variant

# The usual pace of a class (RULES.md 0.2): 30 to 60 s a turn.
SECONDS_A_TURN = (30, 60)
# Above this median a game rarely ends within a lesson: allowed, with a warning.
LONG_GAME_TURNS = 150


@dataclass(frozen=True)
class Duration:
    median: int = 0
    p90: int = 0
    refused: str = ""  # why the dice can never finish this board

    @property
    def minutes(self) -> tuple[int, int]:
        low, high = SECONDS_A_TURN
        return round(self.median * low / 60), round(self.median * high / 60)

    @property
    def too_long(self) -> bool:
        return not self.refused and self.median > LONG_GAME_TURNS


def chosen_variant(data: dict[str, Any]) -> Variant:
    """The preset, or the custom variant, from the form's (raw or clean) data;
    IllegalMove when a custom one cannot be played."""
    preset = data.get("preset") or "classic"
    if preset != "custom":
        return PRESETS.get(preset, PRESETS["classic"])
    try:
        dice, lo, hi = (int(data.get(key)) for key in ("dice", "lo", "hi"))
    except (TypeError, ValueError):
        raise IllegalMove(_("Give the dice and both ends of the board."), "variant_range") from None
    return validate_variant(dice, "".join(data.get("operations") or []), lo, hi)


def duration_of(data: dict[str, Any]) -> Duration:
    try:
        variant = chosen_variant(data)
    except IllegalMove as refusal:
        return Duration(refused=refusal.reason)
    median, p90 = expected_turns(variant)
    return Duration(median=median, p90=p90)


def form_values(query) -> dict[str, Any]:
    """The start form's variant fields from a request's GET or POST."""
    return {
        "preset": query.get("preset"),
        "dice": query.get("dice"),
        "lo": query.get("lo"),
        "hi": query.get("hi"),
        "operations": query.getlist("operations"),
    }
