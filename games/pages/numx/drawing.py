"""NUM-X cards as pictures a child tells apart without seeing colours.

Each colour has its own shape in the corners (blue a circle, red a square,
yellow a triangle, green a diamond, Rainbow a star, Shadow a moon) and its
name under the number, so a colour-blind pupil reads "blue 7" as well as a
pupil who sees blue. The Rainbow has stripes of every colour, the Shadow is
dark with a white number. Special and action cards carry a sign and their
name. Only cards a page may show come here: the pupil's own hand, the tricks,
face-up score cards; a face-down card is drawn as a back, with no name.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from engine.numx.cards import CARDS

# colour: (paper, frame, ink, corner shape, the colour's name on the card)
COLOURS: dict[str, tuple[str, str, str, str, Any]] = {
    "blue": ("#dceafc", "#1565c0", "#0d3c7a", "circle", _("blue")),
    "red": ("#fde2de", "#c62828", "#8e1b1b", "square", _("red")),
    "yellow": ("#fff4c2", "#d49b00", "#5e4500", "triangle", _("yellow")),
    "green": ("#dcf2df", "#2e7d32", "#1b5e20", "diamond", _("green")),
    "rainbow": ("#ffffff", "#6a3d9a", "#3b1f63", "star", _("Rainbow")),
    "shadow": ("#232a4d", "#0b0f24", "#ffffff", "moon", _("Shadow")),
}
# The stripes across a Rainbow card, top and bottom.
RAINBOW_STRIPES = ["#c62828", "#ef6c00", "#f9c80e", "#2e7d32", "#1565c0", "#6a3d9a"]

SPECIALS: dict[str, tuple[Any, str, str]] = {
    # kind: (name, fill, sign)
    "joker": (_("Joker"), "#6a1b9a", "J"),
    "infini": (_("Infinity"), "#00695c", "∞"),
    "numx": (_("Num-X"), "#111418", "X"),
}
ACTIONS: dict[str, tuple[Any, Any]] = {
    # kind: (name, what it does, in a child's words)
    "flip": (_("Flip"), _("Turns over every score card of a player, or of everyone.")),
    "swipe": (_("Swipe"), _("Slides the end card of score rows to the next player.")),
    "eclair": (_("Lightning"), _("Swaps one of your score cards with one of another player's.")),
    "quantique": (
        _("Quantum"),
        _("Protects a player's score cards until the end of the lap: no score cards either."),
    ),
    "block": (_("Block"), _("The player must pass at their next turn in this lap.")),
    "malus": (_("Penalty"), _("Changes the cards in a player's hand and score row.")),
}


def number_name(value: Any, colour: str) -> str:
    """"blue 7", "Rainbow 7" ("7 bleu", "Arc-en-ciel 7" in French)."""
    names = {
        "blue": _("blue %(n)s"),
        "red": _("red %(n)s"),
        "yellow": _("yellow %(n)s"),
        "green": _("green %(n)s"),
        "rainbow": _("Rainbow %(n)s"),
        "shadow": _("Shadow %(n)s"),
    }
    return str(names.get(colour, "%(n)s")) % {"n": value}


def label(card: dict[str, Any] | str | None) -> str:
    """How the page names a card, from its id or its ``to_json``."""
    if card is None:
        return ""
    if isinstance(card, str):
        found = CARDS.get(card)
        if found is None:
            return ""
        card = found.to_json()
    kind = card.get("kind")
    if kind == "number":
        return number_name(card.get("value"), card.get("colour", ""))
    if kind in SPECIALS:
        return str(SPECIALS[kind][0])
    if kind in ACTIONS:
        return str(ACTIONS[kind][0])
    return ""


def face(card: dict[str, Any]) -> dict[str, Any]:
    """A card of the engine's view (``Card.to_json``) with what its picture needs."""
    try:
        key = (tuple(card.items()), get_language())
        hash(key)
    except TypeError:
        return _face(card)
    # A page shows 20-40 cards, each named in the language: worked out once
    # per process. A copy: the callers add their own marks (chosen, drawn).
    return dict(_kept_face(key))


@lru_cache(maxsize=2048)
def _kept_face(key: tuple) -> dict[str, Any]:
    items, _language = key  # the language is the active one: it keys the names
    return _face(dict(items))


def _face(card: dict[str, Any]) -> dict[str, Any]:
    shown = dict(card)
    kind = card.get("kind")
    shown["name"] = label(card)
    if kind == "number":
        paper, frame, ink, shape, word = COLOURS[card["colour"]]
        shown.update(paper=paper, frame=frame, ink=ink, shape=shape, word=str(word))
        shown["stripes"] = (
            [(4 + i * 12, colour) for i, colour in enumerate(RAINBOW_STRIPES)]
            if card["colour"] == "rainbow" else []
        )
    elif kind in SPECIALS:
        _name, fill, sign = SPECIALS[kind]
        shown.update(fill=fill, sign=sign, word=str(_name).upper())
    elif kind in ACTIONS:
        shown["help"] = str(ACTIONS[kind][1])
        shown["word"] = str(ACTIONS[kind][0]).upper()
        if kind == "malus":
            shown["x_text"] = _signed(card.get("x", 0))
            shown["y_text"] = _signed(card.get("y", 0))
            shown["help"] = str(
                _("Hand %(x)s cards, score row %(y)s cards.")
                % {"x": shown["x_text"], "y": shown["y_text"]}
            )
    return shown


def faces_of(card_ids: list[str] | tuple[str, ...]) -> list[dict[str, Any]]:
    return [face(CARDS[c].to_json()) for c in card_ids if c in CARDS]


def _signed(number: Any) -> str:
    return f"+{number}" if isinstance(number, int) and number > 0 else str(number)
