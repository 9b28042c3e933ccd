"""`manage.py create_school`: a school and its first administrator from the
command line, and the demo school of `make run`."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from classroom.models import Teacher
from school.management.commands import create_school
from school.models import School

pytestmark = pytest.mark.django_db
GOOD = "tilleuls-cour-2026"


def test_a_script_makes_the_school_and_its_administrator_who_can_sign_in(monkeypatch):
    monkeypatch.setenv("NUMBO_ADMIN_PASSWORD", GOOD)
    out = StringIO()
    call_command(
        "create_school", "École des Tilleuls", " Directrice@Tilleuls.example ",
        "--password-from-env", "NUMBO_ADMIN_PASSWORD", stdout=out,
    )
    admin = Teacher.objects.get(email="directrice@tilleuls.example")
    assert admin.role == Teacher.Role.ADMIN and admin.school.name == "École des Tilleuls"
    assert "administrator" in out.getvalue()
    client = Client()
    signed_in = client.post(
        reverse("login"), {"username": "directrice@tilleuls.example", "password": GOOD}
    )
    assert signed_in.status_code == 302
    assert client.get(reverse("school:classes")).status_code == 200


def test_the_password_is_asked_twice_until_both_match(monkeypatch):
    answers = iter(["one-password-1", "another-pass-2", GOOD, GOOD])
    monkeypatch.setattr(create_school.getpass, "getpass", lambda prompt: next(answers))
    monkeypatch.setattr(create_school.Command, "stdin_is_a_terminal", staticmethod(lambda: True))
    err = StringIO()
    call_command("create_school", "Les Tilleuls", "dir@tilleuls.example", stderr=err,
                 stdout=StringIO())
    assert "differ" in err.getvalue()
    assert Teacher.objects.get(email="dir@tilleuls.example").check_password(GOOD)


@pytest.mark.parametrize(
    "email, password, said",
    [
        ("taken@tilleuls.example", GOOD, "already has an account"),
        ("TAKEN@tilleuls.example", GOOD, "already has an account"),
        ("not an address", GOOD, "is not an e-mail address"),
        ("ok@tilleuls.example", "", "is empty or not set"),
        ("ok@tilleuls.example", "123", "too short"),
    ],
)
def test_a_taken_or_bad_address_or_password_is_a_clear_error(monkeypatch, email, password, said):
    Teacher.objects.create_user("taken@tilleuls.example", GOOD)
    monkeypatch.setenv("PW", password)
    with pytest.raises(CommandError, match=said):
        call_command("create_school", "Les Tilleuls", email, "--password-from-env", "PW")
    assert not School.objects.exists()


def test_without_a_terminal_or_a_variable_it_says_how(monkeypatch):
    monkeypatch.setattr(create_school.Command, "stdin_is_a_terminal", staticmethod(lambda: False))
    with pytest.raises(CommandError, match="--password-from-env"):
        call_command("create_school", "Les Tilleuls", "dir@tilleuls.example")


def test_the_demo_makes_a_school_with_its_administrator_and_maths_lead():
    # pytest-django runs with DEBUG off, as a real install would.
    call_command("load_demo", "--i-know-this-is-not-production", stdout=StringIO())
    call_command("load_demo", "--i-know-this-is-not-production", stdout=StringIO())
    demo = Teacher.objects.get(email="demo@numbo.test")
    lead = Teacher.objects.get(email="lead@numbo.test")
    assert demo.role == Teacher.Role.ADMIN and lead.role == Teacher.Role.MATHS_LEAD
    assert demo.school == lead.school and School.objects.count() == 1
    client = Client()
    client.post(reverse("login"), {"username": "lead@numbo.test", "password": "numbo-demo"})
    page = client.get(reverse("school:classes")).content.decode()
    assert "CE2 Demo" in page
