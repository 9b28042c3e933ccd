"""English dates for a school in Europe: day before month and a 24-hour clock,
as the French pages show them (Django's "en" formats are the US ones)."""

from django.conf.locale.en_GB.formats import *  # noqa: F403

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
