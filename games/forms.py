from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from classroom import roster
from engine.core import IllegalMove
from engine.numberquest.variants import PRESETS, validate_variant

from .models import GameSession

PRESET_LABELS = {
    "addition-3": _("First additions: 3 dice, + only, squares 6 to 15"),
    "addition": _("Addition: 4 dice, + only, squares 9 to 19"),
    "plus-minus": _("Plus and minus: 4 dice, + and −, squares 1 to 18"),
    "three-dice": _("Three dice: + − × ÷, squares 1 to 42"),
    "classic": _("Classic: 4 dice, + − × ÷, squares 1 to 100"),
    "custom": _("My own variant (below)"),
}
OPERATION_CHOICES = [("+", "+"), ("-", "−"), ("*", "×"), ("/", "÷")]
BOT_CHOICES = [
    ("", _("No computer players")),
    ("beginner", _("Computer players: beginner")),
    ("greedy", _("Computer players: likes money")),
    ("strategist", _("Computer players: strategist")),
]
TURN_CHOICES = [("", _("No time limit")), ("30", "30 s"), ("45", "45 s"), ("60", "60 s")]
BANK_CHOICES = [
    ("", _("As the variant says")),
    ("on", _("Pupils type their new balance")),
    ("off", _("Numbo keeps the bank")),
]


END_CHOICES = [
    ("each_colour", _("A player covers one square of each colour")),
    ("colour_full", _("One colour of the board is full")),
    ("board_full", _("The whole board is covered")),
]


GAME_CHOICES = [
    ("numberquest", _("Number Quest: make numbers from dice, cover the board")),
    ("ultimes", _("The track of ultimate numbers: a race to 99 with primes and powers")),
    ("nmbr9", _("NMBR 9: stack digit tiles, multiply by the level")),
]
# What the track shows the pupils, from the hardest (they know the primes and
# powers themselves: the attempts) to the easiest.
TRACK_MARKS = [
    ("none", _("Nothing marked: the pupils know the special squares")),
    ("ultimates", _("Ultimate numbers marked")),
    ("both", _("Ultimate numbers and their powers marked")),
]
NMBR9_MODES = [
    ("tables", _("At tables (or alone with a table size of 1)")),
    ("whole_class", _("The whole class at once: you turn the cards on the projector")),
]


class SessionForm(forms.Form):
    game = forms.ChoiceField(
        label=_("Game"), choices=GAME_CHOICES, initial="numberquest", widget=forms.RadioSelect
    )
    preset = forms.ChoiceField(
        label=_("Variant"),
        choices=list(PRESET_LABELS.items()),
        initial="classic",
        widget=forms.RadioSelect,
        required=False,
    )
    dice = forms.IntegerField(
        label=_("Dice"), min_value=2, max_value=4, initial=4, required=False
    )
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
    table_size = forms.TypedChoiceField(
        label=_("Players per table"),
        coerce=int,
        initial=2,
        choices=[(1, "1"), (2, "2"), (3, "3"), (4, "4")],
    )
    tablets = forms.ChoiceField(
        label=_("Tablets"), choices=GameSession.Tablets.choices, initial=GameSession.Tablets.OWN
    )
    bot_level = forms.ChoiceField(
        label=_("Empty seats"), choices=BOT_CHOICES, required=False, initial="greedy"
    )
    second_chance = forms.BooleanField(
        label=_("A second chance after a wrong step"), required=False
    )
    turn_seconds = forms.ChoiceField(label=_("Time per turn"), choices=TURN_CHOICES, required=False)
    pupils_bank = forms.ChoiceField(label=_("Bank"), choices=BANK_CHOICES, required=False)
    track_marks = forms.ChoiceField(
        label=_("Special squares on the track"),
        choices=TRACK_MARKS,
        initial="none",
        widget=forms.RadioSelect,
        required=False,
    )
    nmbr9_mode = forms.ChoiceField(
        label=_("How the class plays"),
        choices=NMBR9_MODES,
        initial="tables",
        widget=forms.RadioSelect,
        required=False,
    )
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

    def __init__(self, *args, pupils=(), signed_in=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.pupils = roster.label_each(pupils)
        table_choices = [("", _("at random")), ("0", _("not playing"))] + [
            (str(n), str(n)) for n in range(1, 16)
        ]
        for pupil in self.pupils:
            self.fields[f"table_{pupil.pk}"] = forms.ChoiceField(
                label=pupil.label,
                choices=table_choices,
                required=False,
                initial="" if pupil.pk in signed_in or not signed_in else "0",
            )

    def pupil_fields(self):
        return [(pupil, self[f"table_{pupil.pk}"]) for pupil in self.pupils]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        preset = data["preset"] = data.get("preset") or "classic"
        data["whole_class"] = data["game"] == "nmbr9" and data.get("nmbr9_mode") == "whole_class"
        if data["game"] == "numberquest" and preset == "custom":
            operations = "".join(data.get("operations") or [])
            if None in (data.get("dice"), data.get("lo"), data.get("hi")):
                raise forms.ValidationError(_("Give the dice and both ends of the board."))
            try:
                validate_variant(data["dice"], operations, data["lo"], data["hi"])
            except IllegalMove as refusal:
                raise forms.ValidationError(refusal.reason) from refusal
        playing = [p for p in self.pupils if data.get(f"table_{p.pk}") != "0"]
        if not playing:
            raise forms.ValidationError(_("Choose at least one pupil to play."))
        data["playing"] = playing
        data["seating"] = {
            p.pk: int(data[f"table_{p.pk}"]) for p in playing if data.get(f"table_{p.pk}")
        }
        return data

    def engine_options(self) -> dict[str, Any]:
        data = self.cleaned_data
        if data["game"] == "ultimes":
            return {
                "second_chance": bool(data.get("second_chance")),
                "mark_ultimates": data.get("track_marks") in ("ultimates", "both"),
                "mark_elevated": data.get("track_marks") == "both",
            }
        if data["game"] == "nmbr9":
            return {"second_chance": bool(data.get("second_chance"))}
        options: dict[str, Any] = {"preset": data["preset"]}
        if data["preset"] == "custom":
            base = PRESETS["classic"]
            options.update(
                preset=base.name,
                dice=data["dice"],
                operations="".join(data["operations"]),
                lo=data["lo"],
                hi=data["hi"],
            )
        options["second_chance"] = bool(data.get("second_chance"))
        if data.get("turn_seconds"):
            options["turn_seconds"] = int(data["turn_seconds"])
        if data.get("pupils_bank"):
            options["pupils_bank"] = data["pupils_bank"] == "on"
        if data.get("time_limit_minutes"):
            options["time_limit_minutes"] = data["time_limit_minutes"]
        if data.get("end_conditions"):
            options["end_conditions"] = list(data["end_conditions"])
        return options
