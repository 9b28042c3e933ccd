"""The filters of a class report: the page's GET parameters, an export's URL
and a job's params are the same three values."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django import forms
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

# slug -> the game's name. Games are the floor above: the games app fills this
# in when Django starts (games.apps), from its one list of games.
GAME_NAMES: dict[str, str] = {}

# The days a report can be asked about. Wider ones are no school's, and the
# edges of Python's calendar (0001-01-01, 9999-12-31) overflow once a day is
# made a moment of the school's time zone and the day after.
FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2999, 12, 31)


@dataclass(frozen=True)
class ReportFilters:
    date_from: date | None = None
    date_to: date | None = None
    game: str = ""

    @property
    def is_empty(self) -> bool:
        return self.date_from is None and self.date_to is None and not self.game

    def as_params(self) -> dict[str, str]:
        """GET parameters (and a job's params): only the filters that are set."""
        params = {}
        if self.date_from:
            params["from"] = self.date_from.isoformat()
        if self.date_to:
            params["to"] = self.date_to.isoformat()
        if self.game:
            params["game"] = self.game
        return params

    @classmethod
    def from_params(cls, params) -> ReportFilters:
        form = ReportFilterForm(params)
        return form.filters() if form.is_valid() else cls()

    def apply(self, queryset, field: str = "created_at"):
        """Narrow an Attempt or Opportunity queryset; days are the school's days."""
        zone = timezone.get_current_timezone()
        if self.date_from:
            start = datetime.combine(self.date_from, time.min, tzinfo=zone)
            queryset = queryset.filter(**{f"{field}__gte": start})
        if self.date_to:
            end = datetime.combine(self.date_to + timedelta(days=1), time.min, tzinfo=zone)
            queryset = queryset.filter(**{f"{field}__lt": end})
        if self.game:
            queryset = queryset.filter(game=self.game)
        return queryset


class ReportFilterForm(forms.Form):
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    game = forms.ChoiceField(label=_("Game"), required=False)

    def __init__(self, data=None, **kwargs):
        # The page's GET parameters are short: ?from=...&to=...&game=... (add_prefix).
        super().__init__(data, **kwargs)
        self.fields["game"].choices = [("", _("All games")), *GAME_NAMES.items()]

    def add_prefix(self, field_name):
        return {"date_from": "from", "date_to": "to"}.get(field_name, field_name)

    def clean_date_from(self) -> date | None:
        return _school_day(self.cleaned_data["date_from"])

    def clean_date_to(self) -> date | None:
        return _school_day(self.cleaned_data["date_to"])

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and start > end:
            raise forms.ValidationError(_("The first day must come before the last day."))
        return cleaned

    def filters(self) -> ReportFilters:
        data = self.cleaned_data
        return ReportFilters(data.get("date_from"), data.get("date_to"), data.get("game") or "")


def _school_day(day: date | None) -> date | None:
    if day is not None and not FIRST_DAY <= day <= LAST_DAY:
        raise forms.ValidationError(
            _("Choose a day between %(first)s and %(last)s."),
            params={"first": date_format(FIRST_DAY), "last": date_format(LAST_DAY)},
        )
    return day
