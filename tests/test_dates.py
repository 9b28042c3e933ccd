"""Dates follow the language of the page, the day before the month for a
school in Europe in English too (Django's own "en" is the US style)."""

from datetime import datetime

from django.utils import formats, translation


def test_english_dates_put_the_day_first_on_a_24_hour_clock():
    moment = datetime(2026, 10, 26, 14, 5)
    with translation.override("en"):
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "26/10/2026 14:05"
        assert formats.date_format(moment, "DATE_FORMAT") == "26 October 2026"


def test_french_dates_keep_their_own_format():
    moment = datetime(2026, 10, 26, 14, 5)
    with translation.override("fr"):
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "26/10/2026 14:05"
        assert formats.date_format(moment, "DATE_FORMAT") == "26 octobre 2026"
