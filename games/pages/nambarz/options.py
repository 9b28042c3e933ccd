"""Nambarz's part of the start form: rounds, jokers, brackets, the young variant."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

ROUND_CHOICES = [
    ("1", _("1 round (quick)")),
    ("3", _("3 rounds")),
    ("5", _("5 rounds (long)")),
]
# RULES 3.3: fewer jokers, harder game.
JOKER_CHOICES = [
    ("12", _("12 jokers: beginners")),
    ("8", _("8 jokers: confirmed")),
    ("4", _("4 jokers: experienced")),
]


class NambarzOptions(forms.Form):
    rounds = forms.TypedChoiceField(
        label=_("Rounds"), choices=ROUND_CHOICES, coerce=int, initial="1", required=False
    )
    jokers = forms.TypedChoiceField(
        label=_("Jokers"), choices=JOKER_CHOICES, coerce=int, initial="12", required=False
    )
    brackets = forms.BooleanField(
        label=_("Brackets: the cards may be calculated in any order"), required=False
    )
    young = forms.BooleanField(label=_("Young players: + and − only"), required=False)

    def engine_options(self, second_chance: bool) -> dict[str, Any]:
        # A wrong result is always tried again in Nambarz (the cards stay in
        # the hand): ``second_chance`` has nothing to add.
        data = self.cleaned_data
        return {
            "rounds": data.get("rounds") or 1,
            "jokers": data.get("jokers") or 12,
            "brackets": bool(data.get("brackets")),
            "young": bool(data.get("young")),
        }
