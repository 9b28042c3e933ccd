"""The track's part of the start form: what the track shows the pupils."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

# From the hardest (the pupils know the primes and powers themselves: the
# attempts) to the easiest.
TRACK_MARKS = [
    ("none", _("Nothing marked: the pupils know the special squares")),
    ("ultimates", _("Ultimate numbers marked")),
    ("both", _("Ultimate numbers and their powers marked")),
]


class TrackOptions(forms.Form):
    track_marks = forms.ChoiceField(
        label=_("Special squares on the track"),
        choices=TRACK_MARKS,
        initial="none",
        widget=forms.RadioSelect,
        required=False,
    )

    def engine_options(self, second_chance: bool) -> dict[str, Any]:
        marks = self.cleaned_data.get("track_marks")
        return {
            "second_chance": second_chance,
            "mark_ultimates": marks in ("ultimates", "both"),
            "mark_elevated": marks == "both",
        }


def initial_from(options: dict[str, Any]) -> dict[str, Any]:
    """The fields that show these engine options (a class report's plan)."""
    if options.get("mark_elevated") is True:
        return {"track_marks": "both"}
    if options.get("mark_ultimates") is True:
        return {"track_marks": "ultimates"}
    return {"track_marks": "none"}
