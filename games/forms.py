"""The start form: what every game asks (tables, tablets, seats, pupils) and,
from each game's page package, its own options."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from classroom import roster
from learning.skills import SKILLS

from .models import GameSession
from .pages import PAGES

BOT_CHOICES = [
    ("", _("No computer players")),
    ("beginner", _("Computer players: beginner")),
    ("greedy", _("Computer players: medium")),
    ("strategist", _("Computer players: strategist")),
]


# A table's own level for its computer players (a plan of the class report
# seats each table with the level that fits its pupils).
TABLE_LEVEL_CHOICES = [
    ("", _("as the empty seats above")),
    ("beginner", _("beginner")),
    ("greedy", _("medium")),
    ("strategist", _("strategist")),
]
TABLES = range(1, 16)  # the table numbers the seating fields offer


class SessionForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), initial="numberquest", widget=forms.RadioSelect)
    table_size = forms.TypedChoiceField(
        label=_("Players per table"),
        coerce=int,
        initial=2,
        choices=[(1, "1"), (2, "2"), (3, "3"), (4, "4")],
    )
    team_size = forms.TypedChoiceField(
        label=_("Pupils per seat"),
        coerce=int,
        initial=1,
        required=False,
        empty_value=1,
        choices=[
            (1, _("1: no teams")),
            (2, _("2: teams of two")),
            (3, _("3: teams of three")),
        ],
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
    # The skill a plan of the class report practises, kept through the post.
    practice = forms.ChoiceField(
        choices=[("", "")] + [(skill, skill) for skill in SKILLS],
        required=False,
        widget=forms.HiddenInput,
    )

    def __init__(self, *args, pupils=(), signed_in=(), options_initial=None, **kwargs):
        super().__init__(*args, **kwargs)
        for number in TABLES:
            self.fields[f"level_{number}"] = forms.ChoiceField(
                label=_("Computer players at table %(number)d") % {"number": number},
                choices=TABLE_LEVEL_CHOICES,
                required=False,
            )
        self.fields["game"].choices = [(slug, page.pitch) for slug, page in PAGES.items()]
        # Every game's fields are on the page (the chosen one shows); only the
        # chosen game's are checked. Their names must not clash (tested).
        options_initial = options_initial or {}
        self.game_options = {
            slug: page.options_form(
                self.data if self.is_bound else None, initial=options_initial.get(slug)
            )
            for slug, page in PAGES.items()
        }
        self.pupils = roster.label_each(roster.in_name_order(pupils))
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

    def options_parts(self) -> list[tuple[str, str, forms.Form]]:
        """(slug, template, bound options form) of every game, for the page."""
        return [
            (slug, page.options_template, self.game_options[slug]) for slug, page in PAGES.items()
        ]

    @property
    def second_chance_games(self) -> list[str]:
        return [slug for slug, page in PAGES.items() if page.second_chance]

    def table_level_fields(self):
        """The per-table levels worth showing: those a plan filled in, or
        that a post set (a form sent back with an error keeps them)."""
        shown = []
        for number in TABLES:
            field = self[f"level_{number}"]
            if field.value():
                shown.append(field)
        return shown

    def pupil_fields(self):
        return [(pupil, self[f"table_{pupil.pk}"]) for pupil in self.pupils]

    @property
    def chosen_options(self) -> forms.Form:
        return self.game_options[self.cleaned_data["game"]]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        options = self.game_options[data["game"]]
        if not options.is_valid():
            # Its field errors show beside its fields; the rest at the top.
            errors = options.non_field_errors() or [_("Check the game's options.")]
            raise forms.ValidationError(errors)
        data["whole_class"] = bool(getattr(options, "whole_class", False))
        playing = [p for p in self.pupils if data.get(f"table_{p.pk}") != "0"]
        if not playing:
            raise forms.ValidationError(_("Choose at least one pupil to play."))
        data["playing"] = playing
        data["seating"] = {
            p.pk: int(data[f"table_{p.pk}"]) for p in playing if data.get(f"table_{p.pk}")
        }
        data["table_levels"] = {
            number: data[f"level_{number}"] for number in TABLES if data.get(f"level_{number}")
        }
        return data

    def engine_options(self) -> dict[str, Any]:
        return self.chosen_options.engine_options(bool(self.cleaned_data.get("second_chance")))
