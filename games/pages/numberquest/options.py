"""Number Quest's part of the start form: the variant, the clock, the bank, the ends."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.core import IllegalMove
from engine.numberquest.variants import PRESETS, validate_variant

from .duration import Duration, duration_of, form_values

PRESET_LABELS = {
    "addition-3": _("First additions: 3 dice, + only, squares 6 to 15"),
    "addition": _("Addition: 4 dice, + only, squares 9 to 19"),
    "plus-minus": _("Plus and minus: 4 dice, + and −, squares 1 to 18"),
    "three-dice": _("Three dice: + − × ÷, squares 1 to 42"),
    "classic": _("Classic: 4 dice, + − × ÷, squares 1 to 100"),
    "custom": _("My own variant (below)"),
}
OPERATION_CHOICES = [("+", "+"), ("-", "−"), ("*", "×"), ("/", "÷")]
TURN_CHOICES = [("", _("No time limit")), ("30", "30 s"), ("45", "45 s"), ("60", "60 s")]
BANK_CHOICES = [
    ("", _("As the variant says")),
    ("on", _("Pupils type their new balance")),
    ("off", _("Numbo keeps the bank")),
]
VARIANT_FIELDS = ("dice", "operations", "lo", "hi")
END_CHOICES = [
    ("each_colour", _("A player covers one square of each colour")),
    ("colour_full", _("One colour of the board is full")),
    ("board_full", _("The whole board is covered")),
]


class NumberQuestOptions(forms.Form):
    preset = forms.ChoiceField(
        label=_("Variant"),
        choices=list(PRESET_LABELS.items()),
        initial="classic",
        widget=forms.RadioSelect,
        required=False,
    )
    dice = forms.IntegerField(label=_("Dice"), min_value=2, max_value=4, initial=4, required=False)
    operations = forms.MultipleChoiceField(
        label=_("Operations"),
        choices=OPERATION_CHOICES,
        initial=["+", "-", "*", "/"],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    lo = forms.IntegerField(
        label=_("Board from"), min_value=1, max_value=100, initial=1, required=False
    )
    hi = forms.IntegerField(
        label=_("Board to"), min_value=1, max_value=100, initial=100, required=False
    )
    turn_seconds = forms.ChoiceField(label=_("Time per turn"), choices=TURN_CHOICES, required=False)
    pupils_bank = forms.ChoiceField(label=_("Bank"), choices=BANK_CHOICES, required=False)
    time_limit_minutes = forms.IntegerField(
        label=_("End the game after (minutes)"),
        min_value=5,
        max_value=120,
        required=False,
        help_text=_("Leave empty to play until the chain joins the two ends of the board."),
    )
    end_conditions = forms.MultipleChoiceField(
        label=_("The game also ends when"),
        choices=END_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        data["preset"] = data.get("preset") or "classic"
        if data["preset"] == "custom":
            if None in (data.get("dice"), data.get("lo"), data.get("hi")):
                raise forms.ValidationError(_("Give the dice and both ends of the board."))
            try:
                validate_variant(data["dice"], "".join(data.get("operations") or []),
                                 data["lo"], data["hi"])
            except IllegalMove as refusal:
                raise forms.ValidationError(refusal.reason) from refusal
        return data

    def engine_options(self, second_chance: bool) -> dict[str, Any]:
        data = self.cleaned_data
        options: dict[str, Any] = {"preset": data["preset"]}
        if data["preset"] == "custom":
            options.update(
                preset=PRESETS["classic"].name,
                dice=data["dice"],
                operations="".join(data["operations"]),
                lo=data["lo"],
                hi=data["hi"],
            )
        options["second_chance"] = second_chance
        if data.get("turn_seconds"):
            options["turn_seconds"] = int(data["turn_seconds"])
        if data.get("pupils_bank"):
            options["pupils_bank"] = data["pupils_bank"] == "on"
        if data.get("time_limit_minutes"):
            options["time_limit_minutes"] = data["time_limit_minutes"]
        if data.get("end_conditions"):
            options["end_conditions"] = list(data["end_conditions"])
        return options

    @property
    def duration(self) -> Duration:
        """How long the chosen variant lasts, for the line under the presets."""
        if self.is_bound:
            return duration_of(form_values(self.data))
        # Unbound, the form shows its initial values: a plan's own variant too.
        return duration_of({key: self[key].value() for key in ("preset", *VARIANT_FIELDS)})
