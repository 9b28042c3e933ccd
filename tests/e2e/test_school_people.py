"""A school's people in the browser, as the administrator and a new teacher
use them: an invitation sent from the teachers page, its e-mailed link opened
in another browser, the account made there, and the new maths lead reading
the school's classes; in English and in French, with the keyboard alone."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from classroom.models import Teacher
from school.models import School

from .helpers import sign_in_teacher
from .keyboard import press

pytestmark = pytest.mark.django_db(transaction=True)

@pytest.fixture
def head(classroom, teacher):
    school = School.objects.create(name="École des Tilleuls")
    Teacher.objects.filter(pk=teacher.pk).update(school=school, role=Teacher.Role.ADMIN)
    teacher.refresh_from_db()
    return teacher


def test_an_invited_teacher_joins_by_the_emailed_link_and_reads_the_school(
    live_server, browser, browser_context_args, head, classroom
):
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    sign_in_teacher(page, live_server.url, head)
    page.goto(live_server.url + "/school/teachers/")
    # With the keys: the address, the role, the button.
    page.get_by_label("The teacher's e-mail address").focus()
    page.keyboard.type("new.lead@school.test")
    press(page, "Tab")
    page.keyboard.press("m")  # "maths lead" in the role's list
    focused = press(page, "Tab")
    assert focused["name"] == "Send the invitation"
    page.keyboard.press("Enter")
    expect(page.get_by_text("Invitation sent to new.lead@school.test")).to_be_visible()
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/school/join/\S+/", mail.outbox[0].body).group(0)

    newcomer = browser.new_context(**browser_context_args).new_page()
    newcomer.goto(link)
    expect(newcomer.get_by_role("heading", name="Join École des Tilleuls")).to_be_visible()
    expect(newcomer.get_by_text("You are invited as maths lead")).to_be_visible()
    newcomer.get_by_label("Your name, as pupils say it").fill("M. Martin")
    newcomer.get_by_label("Password", exact=True).fill("a-long-pass-phrase-31")
    newcomer.get_by_label("The same password again").fill("a-long-pass-phrase-31")
    newcomer.get_by_role("button", name="Create my account").click()
    expect(newcomer.get_by_role("button", name="Sign out")).to_be_visible()
    lead = Teacher.objects.get(email="new.lead@school.test")
    assert (lead.school_id, lead.role) == (head.school_id, Teacher.Role.MATHS_LEAD)

    # The maths lead reads every class of the school, and runs none.
    newcomer.goto(live_server.url + "/school/")
    heading = newcomer.get_by_role("heading", name="The classes of École des Tilleuls")
    expect(heading).to_be_visible()
    expect(newcomer.get_by_text(classroom.name).first).to_be_visible()
    newcomer.goto(f"{live_server.url}/classes/{classroom.pk}/")
    expect(newcomer.get_by_test_id("read-only")).to_be_visible()
    expect(newcomer.get_by_role("link", name="Start a game")).to_have_count(0)

    # The link worked once.
    again = browser.new_context(**browser_context_args).new_page()
    again.goto(link)
    expect(again.get_by_text("This invitation was already used")).to_be_visible()
    # The administrator's page lists the new teacher with the role.
    page.goto(live_server.url + "/school/teachers/")
    expect(page.get_by_text("new.lead@school.test")).to_be_visible()


def test_the_teachers_page_in_french_at_320_px(live_server, browser, browser_context_args, head):
    narrow = {**browser_context_args, "viewport": {"width": 320, "height": 800}}
    context = browser.new_context(**narrow)
    page = context.new_page()
    sign_in_teacher(page, live_server.url, head)
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    page.goto(live_server.url + "/school/teachers/")
    heading = page.get_by_role("heading", name="Les enseignants de École des Tilleuls")
    expect(heading).to_be_visible()
    expect(page.get_by_role("button", name="Envoyer l'invitation")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.goto(live_server.url + "/school/")
    expect(page.get_by_role("link", name="Le bilan de l’école")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
