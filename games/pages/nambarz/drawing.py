"""Nambarz cards as pictures: what a child tells apart at a glance.

A number card (the rules' "symbol" family) is white with a blue frame and
diamonds in its corners; an animal card (the "drawing" family) is cream
with a green frame and its animal in a coloured disc; a joker is purple
with what it does. The number is always the largest thing on the card. Only
cards a page may show come here: a pupil's own hand, the
discard, a card just drawn by the pupil who drew it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

# The animal table of the engine is a reconstruction (engine.nambarz.cards):
# only the bee, the hippo and the cat are known. The placeholders A1..A7 get
# names, colours and pictures (templates/games/nambarz/_animal.html, keyed by
# these ids) so that pupils can tell them apart; replace the three together
# when the real table is known.
ANIMALS: dict[str, tuple[Any, str]] = {
    "abeille": (_("bee"), "#f9a825"),
    "hippopotame": (_("hippo"), "#7e57c2"),
    "chat": (_("cat"), "#ef6c00"),
    "A1": (_("fox"), "#d84315"),
    "A2": (_("owl"), "#6d4c41"),
    "A3": (_("frog"), "#43a047"),
    "A4": (_("fish"), "#039be5"),
    "A5": (_("duck"), "#fdd835"),
    "A6": (_("mouse"), "#78909c"),
    "A7": (_("snail"), "#ec407a"),
}

JOKERS: dict[str, tuple[Any, Any, str]] = {
    # kind: (what a child reads on the card, what it does, the sign drawn)
    "change_number": (_("number"), _("The next card must be a number card (any number)."), "⇄"),
    "change_drawing": (_("animal"), _("The next card must be an animal card (any animal)."), "⇄"),
    "change_any": (_("any card"), _("The next card can be any number card or animal card."),
                   "⇄"),
    "replay": (_("again"), _("Play again: lay another card on the same target."), "↻"),
}


def card(data: dict[str, Any]) -> dict[str, Any]:
    """A card of the engine's view (``Card.to_json``) with what its picture needs."""
    shown = dict(data)
    shown["name"] = label(data)
    if data.get("animal"):
        animal, colour = ANIMALS.get(data["animal"], (data["animal"], "#607d8b"))
        shown["animal_name"] = str(animal)
        shown["animal_colour"] = colour
        shown["animal_letter"] = str(animal)[:1].upper()  # an animal without a picture
    if data.get("joker"):
        caption, meaning, sign = JOKERS[data["joker"]]
        shown["caption"] = str(caption)
        shown["meaning"] = str(meaning)
        shown["sign"] = sign
    return shown


def label(data: dict[str, Any]) -> str:
    """How a child reads a card aloud, and a screen reader its button: "3",
    "8 bee", "“again” joker". No article: the sentences that name a card
    bring their own ("the 8 bee", "la carte 8 abeille"), so that French
    needs no gender for each animal."""
    if data.get("joker"):
        return str(_("“%(what)s” joker") % {"what": JOKERS[data["joker"]][0]})
    if data.get("animal"):
        animal = ANIMALS.get(data["animal"], (data["animal"],))[0]
        return f"{data['number']} {animal}"
    return str(data.get("number"))
