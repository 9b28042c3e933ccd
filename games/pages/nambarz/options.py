"""Nambarz's part of the start form: rounds, jokers, brackets, the young variant,
and the readings RULES 3.4 and 3.5 leave open (the strict simplest rule, the last
player unpaid, teams, the tie-break)."""

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
    ("8", _("8 jokers: intermediate")),
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
    # Each box says what changes when ticked: a form posted without it plays
    # by the engine's defaults, as sessions saved before these boxes did.
    strict_simplest = forms.BooleanField(
        label=_("Strict simplest calculation: refused if fewer cards from the whole hand "
                "make the target (fewer big calculations)"),
        required=False,
    )
    last_unpaid = forms.BooleanField(
        label=_("The last player of a round scores no rank points"), required=False
    )
    nambarz_teams = forms.BooleanField(
        label=_("Teams of two neighbours: their points are added together"), required=False
    )
    no_tie_break = forms.BooleanField(
        label=_("No tie-break: tied leaders share the win (no extra round)"), required=False
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # The start form's own fields, posted beside ours: every table must seat
        # two teams, so four players, empty seats taken by the computer.
        if data.get("nambarz_teams") and (
            str(self.data.get("table_size", "")) != "4" or not self.data.get("bot_level")
        ):
            raise forms.ValidationError(
                _("Teams in Nambarz need 4 players per table, empty seats filled by "
                  "computer players.")
            )
        return data

    def engine_options(self, second_chance: bool) -> dict[str, Any]:
        # A wrong result is always tried again in Nambarz (the cards stay in
        # the hand): ``second_chance`` has nothing to add.
        data = self.cleaned_data
        options: dict[str, Any] = {
            "rounds": data.get("rounds") or 1,
            "jokers": data.get("jokers") or 12,
            "brackets": bool(data.get("brackets")),
            "young": bool(data.get("young")),
        }
        # Only what differs from the engine's defaults (engine.nambarz.state.Options).
        if data.get("strict_simplest"):
            options["strict_simplest"] = True
        if data.get("last_unpaid"):
            options["last_paid"] = False
        if data.get("nambarz_teams"):
            options["teams"] = True
        if data.get("no_tie_break"):
            options["tie_break"] = False
        return options


def initial_from(options: dict[str, Any]) -> dict[str, Any]:
    """The fields that show these engine options (``engine_options`` read
    back): a plan of the class report opens the start form with them."""
    initial: dict[str, Any] = {}
    if options.get("rounds") in (1, 3, 5):
        initial["rounds"] = str(options["rounds"])
    if options.get("jokers") in (12, 8, 4):
        initial["jokers"] = str(options["jokers"])
    initial["brackets"] = options.get("brackets") is True
    initial["young"] = options.get("young") is True or options.get("operations") == "+-"
    initial["strict_simplest"] = options.get("strict_simplest") is True
    initial["last_unpaid"] = options.get("last_paid") is False
    initial["nambarz_teams"] = options.get("teams") is True
    initial["no_tie_break"] = options.get("tie_break") is False
    return initial
