"""How a NUM-X tablet's form becomes an engine move.

Cards travel as their ids ("blue7", "rainbow10"), a list of them joined by
commas; positions in a score row as whole numbers. Anything else is refused
before the engine sees it (``{"type": ..., "invalid": field}``), and the
engine checks the rules again.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import QueryDict

from engine.numx.cards import CARDS, COLOURS

MAX_FIELD = 40
# No hand, row or tour holds more: a longer list is a forged form.
MAX_CARDS = 40
# ASCII digits only: \d alone takes "٣" and "７", which int() reads too.
SMALL_NUMBER = re.compile(r"\d{1,3}", re.ASCII)
TYPED_NUMBER = re.compile(r"\d{1,4}", re.ASCII)
COUNT_COLOURS = frozenset(COLOURS) | {"any"}

SIMPLE = frozenset({"draw", "keep", "pass"})
KINDS = frozenset({
    "choose", "trick", "action", "draw", "keep", "pass", "rainbow", "distribute",
    "malus_discard", "malus_remove", "malus_place", "refill", "count_group", "count_total",
})


class Invalid(Exception):
    """A field that is not what it must be; ``field`` names it."""

    def __init__(self, field: str) -> None:
        super().__init__(field)
        self.field = field


def _raw(post: QueryDict, name: str) -> str:
    return post.get(name, "").strip()[:MAX_FIELD]


def _card(post: QueryDict, name: str = "card") -> str:
    raw = _raw(post, name)
    if raw not in CARDS:
        raise Invalid(name)
    return raw


def _cards(post: QueryDict, name: str = "cards") -> list[str]:
    raw = post.get(name, "")[: MAX_CARDS * 12]
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items or len(items) > MAX_CARDS or any(item not in CARDS for item in items):
        raise Invalid(name)
    return items


def _number(post: QueryDict, name: str, pattern: re.Pattern[str] = SMALL_NUMBER) -> int:
    raw = _raw(post, name)
    if not pattern.fullmatch(raw):
        raise Invalid(name)
    return int(raw)


def _optional_number(post: QueryDict, name: str) -> int | None:
    return _number(post, name) if _raw(post, name) else None


def _placed(post: QueryDict, card: str) -> tuple[bool, str]:
    """Face up or down, left or right end, as the radio buttons of a card say."""
    face = _raw(post, f"face-{card}") or "up"
    end = _raw(post, f"end-{card}") or "right"
    if face not in ("up", "down") or end not in ("left", "right"):
        raise Invalid("cards")
    return face == "up", end


def _target(post: QueryDict, move: dict[str, Any]) -> None:
    """A player's index, "all", "between" (Block in teams) or "team:N" (Quantique)."""
    raw = _raw(post, "target")
    if raw in ("all", "between"):
        move["target"] = raw
    elif raw.startswith("team:") and SMALL_NUMBER.fullmatch(raw[5:]):
        move["target"], move["team"] = "team", int(raw[5:])
    elif SMALL_NUMBER.fullmatch(raw):
        move["target"] = int(raw)
    elif raw:
        raise Invalid("target")


def _action(post: QueryDict, move: dict[str, Any]) -> None:
    move["card"] = _card(post)
    _target(post, move)
    direction = _raw(post, "direction")
    if direction:
        if direction not in ("left", "right"):
            raise Invalid("direction")
        move["direction"] = direction
    if _raw(post, "mine"):
        move["mine"] = _number(post, "mine")
    theirs = _raw(post, "theirs")
    if theirs:
        # Éclair: "player:position", one radio button per card of another row.
        player, _, position = theirs.partition(":")
        if not (SMALL_NUMBER.fullmatch(player) and SMALL_NUMBER.fullmatch(position)):
            raise Invalid("theirs")
        move["target"], move["theirs"] = int(player), int(position)
    if "target" not in move:
        raise Invalid("target")


def read(post: QueryDict) -> dict[str, Any] | None:
    """The move a form posted; None for an unknown type."""
    kind = post.get("type", "")
    if kind not in KINDS:
        return None
    move: dict[str, Any] = {"type": kind}
    try:
        _fill(post, kind, move)
    except Invalid as invalid:
        return {"type": kind, "invalid": invalid.field}
    return move


def _fill(post: QueryDict, kind: str, move: dict[str, Any]) -> None:
    if kind in SIMPLE:
        return
    if kind == "choose":
        move["card"] = _card(post)
    elif kind == "trick":
        move["cards"] = _cards(post)
        value = _optional_number(post, "value")
        if value is not None:
            move["value"] = value
    elif kind == "action":
        _action(post, move)
    elif kind == "rainbow":
        move["card"] = _card(post)
        move["trick"] = _number(post, "trick")
        move["size"] = _number(post, "size")
    elif kind == "distribute":
        given = []
        for card in _offered(post):
            to = _raw(post, f"to-{card}")
            if not to:
                continue  # not handed out: it goes to the discard
            if not SMALL_NUMBER.fullmatch(to):
                raise Invalid("cards")
            face_up, end = _placed(post, card)
            given.append({"card": card, "to": int(to), "face_up": face_up, "end": end})
        move["cards"] = given
    elif kind == "malus_discard":
        move["cards"] = _cards(post)
    elif kind == "malus_remove":
        raw = post.get("indices", "")[:200]
        items = [item.strip() for item in raw.split(",") if item.strip()]
        if not items or len(items) > MAX_CARDS or not all(SMALL_NUMBER.fullmatch(i) for i in items):
            raise Invalid("indices")
        move["indices"] = [int(i) for i in items]
    elif kind == "malus_place":
        placed = []
        for card in _offered(post):
            face_up, end = _placed(post, card)
            placed.append({"card": card, "face_up": face_up, "end": end})
        move["cards"] = placed
    elif kind == "refill":
        choice = _raw(post, "choice")
        if choice not in ("top_up", "redraw"):
            raise Invalid("choice")
        move["choice"] = choice
    elif kind == "count_group":
        colour = _raw(post, "colour")
        if colour:
            if colour not in COUNT_COLOURS:
                raise Invalid("colour")
            move["colour"] = colour
        else:
            move["value"] = _number(post, "value")
        move["worth"] = _number(post, "worth", TYPED_NUMBER)
    elif kind == "count_total":
        move["total"] = _number(post, "total", TYPED_NUMBER)
    if kind in ("trick", "action") and _raw(post, "from_row"):
        move["from_row"] = _number(post, "from_row")


def _offered(post: QueryDict) -> list[str]:
    """The cards the form laid out (each with its radio buttons)."""
    return _cards(post, "offered")
