"""Open sign-up: off in production unless NUMBO_OPEN_SIGN_UP=1; when on,
limited per client address so that a school behind one address gets its 30
teachers through in a morning and a script of 1,000 does not."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from classroom.models import Teacher

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase-9"


def test_closed_sign_up_points_to_the_school_s_administrator(client, settings):
    settings.NUMBO_OPEN_SIGN_UP = False
    page = client.get(reverse("sign_up")).content.decode()
    assert "ask your school's administrator for an invitation" in page
    assert reverse("school:join") in page
    client.post(reverse("sign_up"), {"email": "new@school.test", "display_name": "N"})
    assert not mail.outbox
    assert reverse("sign_up") not in client.get(reverse("home")).content.decode()
    assert reverse("sign_up") not in client.get(reverse("login")).content.decode()


def test_a_link_sent_while_sign_up_was_open_makes_no_account_once_closed(client, settings):
    client.post(reverse("sign_up"), {"email": "new@school.test", "display_name": "N"})
    link = re.search(r"testserver(/accounts/sign-up/\S+/)", mail.outbox[0].body)[1]
    settings.NUMBO_OPEN_SIGN_UP = False
    client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert not Teacher.objects.exists()


def test_the_setting_follows_debug_unless_numbo_open_sign_up_says(monkeypatch):
    import subprocess
    import sys

    def asked(**env):
        code = ("import django,os;os.environ['DJANGO_SETTINGS_MODULE']='config.settings';"
                "django.setup();from django.conf import settings;"
                "print(settings.NUMBO_OPEN_SIGN_UP)")
        base = {"PATH": "/usr/bin:/bin", "SECRET_KEY": "s" * 60, "ALLOWED_HOSTS": "x"}
        return subprocess.run([sys.executable, "-c", code], env={**base, **env},
                              capture_output=True, text=True, check=True).stdout.strip()

    assert asked(DEBUG="1") == "True"
    assert asked(DEBUG="0") == "False"
    assert asked(DEBUG="0", NUMBO_OPEN_SIGN_UP="1") == "True"


def test_thirty_teachers_behind_one_address_sign_up_in_a_morning_and_a_script_stops():
    school = Client(REMOTE_ADDR="203.0.113.7")
    for n in range(30):
        response = school.post(reverse("sign_up"),
                               {"email": f"teacher{n}@school.test", "display_name": f"T{n}"})
        assert response.status_code == 302, n
    links = [re.search(r"testserver(/accounts/sign-up/\S+/)", m.body)[1] for m in mail.outbox]
    for link in links:
        finishing = Client(REMOTE_ADDR="203.0.113.7")
        finishing.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert Teacher.objects.count() == 30
    script = Client(REMOTE_ADDR="198.51.100.9")
    answers = [
        script.post(reverse("sign_up"),
                    {"email": f"bot{n}@spam.example", "display_name": "Bot"}).status_code
        for n in range(1000)
    ]
    sent = answers.count(302)
    assert sent <= 60 and answers[-1] == 429
    assert len(mail.outbox) == 30 + sent
