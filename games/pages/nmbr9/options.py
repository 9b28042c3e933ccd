"""NMBR 9's part of the start form: at tables, or the whole class at once."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

MODES = [
    ("tables", _("At tables (or alone with a table size of 1)")),
    ("whole_class", _("The whole class at once: you turn the cards on the projector")),
]


class Nmbr9Options(forms.Form):
    nmbr9_mode = forms.ChoiceField(
        label=_("How the class plays"),
        choices=MODES,
        initial="tables",
        widget=forms.RadioSelect,
        required=False,
    )

    @property
    def whole_class(self) -> bool:
        return self.cleaned_data.get("nmbr9_mode") == "whole_class"

    def engine_options(self, second_chance: bool) -> dict[str, Any]:
        return {"second_chance": second_chance}
