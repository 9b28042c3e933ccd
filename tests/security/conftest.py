import pytest


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Hundreds of sign-in forms are sent: a hash in microseconds, not a second."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
