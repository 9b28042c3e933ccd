"""NUM-X's part of the start form: the mode (RULES 4.2) and playing in teams."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

MODES = [
    ("speed_run", _("Speed Run: 13 cards, one round")),
    ("x_game", _("X-Game: 10 cards, two rounds")),
    ("family", _("Family: 12 cards, no action cards, a simpler count")),
]
# Partners sit opposite each other, so that play alternates between the teams.
TEAMS_AT_FOUR = [[0, 2], [1, 3]]


class NumxOptions(forms.Form):
    numx_mode = forms.ChoiceField(
        label=_("NUM-X mode"),
        choices=MODES,
        initial="speed_run",
        widget=forms.RadioSelect,
        required=False,
    )
    numx_teams = forms.BooleanField(
        label=_("Teams of two, partners opposite: their score cards are counted together"),
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # The start form's own field, posted beside ours: teams need 4 players a table.
        if data.get("numx_teams") and str(self.data.get("table_size", "")) != "4":
            raise forms.ValidationError(_("Teams in NUM-X need 4 players per table."))
        return data

    def engine_options(self, second_chance: bool) -> dict[str, Any]:
        # Every step of the count is checked and shown right when wrong: a
        # second chance has nothing to add.
        data = self.cleaned_data
        options: dict[str, Any] = {"mode": data.get("numx_mode") or "speed_run"}
        if data.get("numx_teams"):
            options["teams"] = TEAMS_AT_FOUR
        return options


def initial_from(options: dict[str, Any]) -> dict[str, Any]:
    """The fields that show these engine options (a class report's plan)."""
    mode = options.get("mode")
    initial: dict[str, Any] = {"numx_mode": mode} if mode in dict(MODES) else {}
    if options.get("teams"):
        initial["numx_teams"] = True
    return initial
