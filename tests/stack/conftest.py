import pytest
from django.conf import global_settings


@pytest.fixture(autouse=True)
def _production_hasher(settings):
    """The stack's web processes check the teacher's password with the hashers
    production has (config.settings names none: Django's own)."""
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
