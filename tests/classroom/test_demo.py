"""`make run` prints where the demo is served, on the port it serves."""

from io import StringIO

import pytest
from django.core.management import call_command

from classroom.models import Classroom


@pytest.mark.django_db
def test_load_demo_prints_the_port_it_was_given_and_runs_twice():
    out = StringIO()
    call_command("load_demo", "--port", "8123", stdout=out)
    call_command("load_demo", "--port", "8123", stdout=out)
    assert "http://localhost:8123/accounts/login/" in out.getvalue()
    assert "http://localhost:8123/join/" in out.getvalue()
    assert "8000" not in out.getvalue()
    assert Classroom.objects.filter(code="DEMO34").count() == 1
