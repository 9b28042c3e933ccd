"""Number Quest variants (RULES.md 0.2): the five presets, custom boards, and
the table options a teacher may set."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from typing import Any

from engine.arithmetic import normalise_operations, reachable_frozen
from engine.core import IllegalMove
from engine.numberquest.board import FIRST, LAST, region_connects
from engine.numberquest.duration import DEFAULT_GAMES, turns_to_end


@dataclass(frozen=True)
class Variant:
    """How many dice, which operations, which part of the board."""

    name: str
    dice: int
    operations: str
    lo: int
    hi: int

    def on_board(self, square: int) -> bool:
        return self.lo <= square <= self.hi

    def squares(self) -> range:
        return range(self.lo, self.hi + 1)


# RULES.md 0.2: the young boards end on squares the dice make often, so a game
# ends within a lesson (the seed's 1..24 hardly ever ends).
PRESETS: dict[str, Variant] = {
    "addition-3": Variant("addition-3", 3, "+", 6, 15),
    "addition": Variant("addition", 4, "+", 9, 19),
    "plus-minus": Variant("plus-minus", 4, "+-", 1, 18),
    "three-dice": Variant("three-dice", 3, "+-*/", 1, 42),
    "classic": Variant("classic", 4, "+-*/", 1, 100),
}
# RULES.md 0.2: the pupil types the new balance in the harder presets only.
BANK_BY_DEFAULT = frozenset({"three-dice", "classic"})
END_CONDITIONS = ("each_colour", "colour_full", "board_full")


# The boards of the presets before RULES 0.2, for sessions saved with them.
OLD_PRESETS: dict[str, Variant] = {
    "addition": Variant("addition", 4, "+", 4, 24),
    "plus-minus": Variant("plus-minus", 4, "+-", 1, 24),
}


@dataclass(frozen=True)
class Options:
    fractions: bool = False
    second_chance: bool = False
    pupils_bank: bool = False
    turn_seconds: int | None = None  # timed turns: the server keeps the clock
    time_limit_minutes: int | None = None  # the server sends {"type": "end"}
    end_conditions: tuple[str, ...] = ()
    end_bonus: int = 0

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["end_conditions"] = list(self.end_conditions)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        return cls(**{**data, "end_conditions": tuple(data["end_conditions"])})


@cache
def makeable_numbers(dice: int, operations: str, fractions: bool = False) -> frozenset[int]:
    """Every whole number that some roll of ``dice`` dice can make."""
    made: set[int] = set()
    for roll in combinations_with_replacement(range(1, 7), dice):
        made |= reachable_frozen(roll, operations, fractions)
    return frozenset(made)


def _bad(reason: str, code: str, **details: Any) -> IllegalMove:
    return IllegalMove(reason, code, **details)


def validate_variant(
    dice: int,
    operations: str,
    lo: int,
    hi: int,
    fractions: bool = False,
    name: str = "custom",
) -> Variant:
    """A custom variant, or IllegalMove saying why its chain can never be
    completed: lo and hi must be makeable and linked through board squares in
    lo..hi that some roll can make."""
    if not isinstance(dice, int) or isinstance(dice, bool) or not 2 <= dice <= 4:
        raise _bad("Choose 2, 3 or 4 dice.", "variant_dice", dice=str(dice))
    if not isinstance(operations, str) or not operations:
        raise _bad(
            "Choose at least one operation.", "variant_operations", operations=str(operations)
        )
    ops = normalise_operations(operations)
    for value in (lo, hi):
        if not isinstance(value, int) or isinstance(value, bool):
            raise _bad("The board must start and end on whole numbers.", "variant_range")
    if not (FIRST <= lo < hi <= LAST):
        raise _bad(
            f"The board must go from a smaller to a bigger number between {FIRST} and {LAST}.",
            "variant_range",
            lo=lo,
            hi=hi,
        )
    made = makeable_numbers(dice, ops, bool(fractions))
    for end in (lo, hi):
        if end not in made:
            raise _bad(
                f"No roll of {dice} dice can make {end}, so the chain could never reach it.",
                "variant_end_unmakeable",
                square=end,
                dice=dice,
                operations=ops,
            )
    usable = [n for n in range(lo, hi + 1) if n in made]
    if not region_connects(usable, lo, hi):
        raise _bad(
            f"The squares {lo} and {hi} can never be joined: the dice cannot make "
            "enough of the squares between them.",
            "variant_no_chain",
            lo=lo,
            hi=hi,
            dice=dice,
            operations=ops,
        )
    return Variant(name, dice, ops, lo, hi)


def _flag(options: dict[str, Any], key: str, default: bool) -> bool:
    value = options.get(key, default)
    if not isinstance(value, bool):
        raise _bad(f"The option {key} must be on or off.", "bad_option", option=key)
    return value


def _whole(options: dict[str, Any], key: str, low: int, high: int) -> int | None:
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(
            f"The option {key} must be a whole number from {low} to {high}.",
            "bad_option",
            option=key,
            low=low,
            high=high,
        )
    return value


KNOWN_OPTIONS = frozenset(
    {
        "preset",
        "dice",
        "operations",
        "lo",
        "hi",
        "fractions",
        "second_chance",
        "pupils_bank",
        "turn_seconds",
        "time_limit_minutes",
        "end_conditions",
        "end_bonus",
    }
)


def resolve(options: dict[str, Any] | None) -> tuple[Variant, Options]:
    """Read a teacher's table options: a preset (default "classic"), possibly
    adjusted by "dice", "operations", "lo", "hi", plus the play options."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _bad("The options are not readable.", "bad_option", option="options")
    unknown = sorted(str(k) for k in options if k not in KNOWN_OPTIONS)
    if unknown:
        raise _bad(f"I don't know the option {unknown[0]}.", "bad_option", option=unknown[0])
    preset_name = options.get("preset", "classic")
    if preset_name not in PRESETS:
        raise _bad(
            f"There is no game called {preset_name!r}.",
            "unknown_preset",
            preset=str(preset_name),
            presets=sorted(PRESETS),
        )
    preset = PRESETS[preset_name]
    fractions = _flag(options, "fractions", False)
    shape = {k: options.get(k, getattr(preset, k)) for k in ("dice", "operations", "lo", "hi")}
    if isinstance(shape["operations"], str):
        try:
            shape["operations"] = normalise_operations(shape["operations"])
        except IllegalMove as error:
            raise _bad(error.reason, "variant_operations", operations=shape["operations"]) from None
    if all(shape[k] == getattr(preset, k) for k in shape):
        variant = preset
    else:
        variant = validate_variant(fractions=fractions, **shape)
    ends = options.get("end_conditions", [])
    if not isinstance(ends, (list, tuple)) or any(e not in END_CONDITIONS for e in ends):
        raise _bad(
            "Unknown way to end the game.",
            "bad_option",
            option="end_conditions",
            allowed=list(END_CONDITIONS),
        )
    play = Options(
        fractions=fractions,
        second_chance=_flag(options, "second_chance", False),
        pupils_bank=_flag(options, "pupils_bank", preset.name in BANK_BY_DEFAULT),
        turn_seconds=_whole(options, "turn_seconds", 5, 600),
        time_limit_minutes=_whole(options, "time_limit_minutes", 1, 600),
        end_conditions=tuple(e for e in END_CONDITIONS if e in ends),
        end_bonus=_whole(options, "end_bonus", 0, 10_000) or 0,
    )
    return variant, play


def expected_turns(
    variant: Variant, games: int = DEFAULT_GAMES, seed: int = 0
) -> tuple[int, int]:
    """(median, 90th percentile) of table turns to the end of ``variant``,
    simulated as RULES.md 0.2 says. Cached: the presets are simulated once per
    process, and a teacher trying custom boards back and forth pays once each."""
    return _expected_turns(variant.dice, variant.operations, variant.lo, variant.hi, games, seed)


@lru_cache(maxsize=128)
def _expected_turns(
    dice: int, operations: str, lo: int, hi: int, games: int, seed: int
) -> tuple[int, int]:
    return turns_to_end(dice, operations, lo, hi, games=games, seed=seed)


def pinned_old_preset(options: dict[str, Any]) -> dict[str, Any]:
    """Options saved with a preset whose board RULES 0.2 changed, made to keep
    their old board (the game a class already plays must not change under it):
    the old shape is written out, as a custom variant would be."""
    old = OLD_PRESETS.get(options.get("preset"))
    if old is None or any(key in options for key in ("dice", "operations", "lo", "hi")):
        return options
    return {**options, "dice": old.dice, "operations": old.operations, "lo": old.lo, "hi": old.hi}
