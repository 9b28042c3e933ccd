"""A teacher creates a class and pastes pupils; a pupil signs in on a tablet."""

import re

import pytest
from playwright.sync_api import expect

from classroom.models import Pupil, Teacher

pytestmark = pytest.mark.django_db(transaction=True)


def test_teacher_sets_up_a_class_and_a_pupil_signs_in(live_server, browser, browser_context_args):
    teacher_tablet = browser.new_context(**browser_context_args, base_url=live_server.url)
    page = teacher_tablet.new_page()
    page.goto("/")
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Email address").fill("anne@school.test")
    page.get_by_label("Your name").fill("Ms Anne")
    page.get_by_label("Password", exact=True).fill("a-long-pass-phrase-9")
    page.get_by_label("Password confirmation").fill("a-long-pass-phrase-9")
    page.get_by_role("button", name="Create my account").click()

    page.get_by_label("Name").fill("CE1 Soleil")
    page.get_by_role("button", name="Save").click()

    page.get_by_label("Pupils, one a line").fill("Léa Martin\n\nNoah B.\nInès\n")
    page.get_by_role("button", name="Check the list").click()
    expect(page.get_by_test_id("preview")).to_contain_text("Léa M.")
    page.get_by_role("button", name="Add 3 pupils").click()
    expect(page.get_by_text("3 pupils added.")).to_be_visible()
    code = page.get_by_test_id("class-code").inner_text().strip()
    assert Pupil.objects.filter(classroom__teacher__email="anne@school.test").count() == 3

    lea = Pupil.objects.get(first_name="Léa")
    pictures = lea.password_pictures

    # Every touch target on the teacher's class page is at least 44 px.
    for box in page.locator("main .btn").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.width, r.height])"
    ):
        assert box[0] >= 44 and box[1] >= 44, box
    # The keyboard's first stop, shown only when focused, is a touch target too.
    skip = page.get_by_role("link", name="Skip to content")
    skip.focus()
    box = skip.bounding_box()
    assert box["x"] >= 0 and box["width"] >= 44 and box["height"] >= 44, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 768

    pupil_tablet = browser.new_context(**browser_context_args, base_url=live_server.url)
    tablet = pupil_tablet.new_page()
    tablet.goto("/")
    tablet.get_by_role("link", name="Enter my class code").click()
    tablet.get_by_label("Class code").fill(code.lower())
    tablet.get_by_role("button", name="Go").click()
    tablet.get_by_role("link", name=re.compile("Léa M.")).click()
    for key in pictures:
        tablet.get_by_role("button", name=key, exact=True).click()
    expect(tablet.get_by_role("heading", name="Hello Léa!")).to_be_visible()

    # "Not me?" on a shared tablet goes back to the names of the same class.
    tablet.get_by_role("button", name="Not me?").click()
    expect(tablet.get_by_role("heading", name="Tap your name")).to_be_visible()
    assert Teacher.objects.count() == 1
    teacher_tablet.close()
    pupil_tablet.close()


def test_pages_switch_to_french(live_server, page):
    page.goto(live_server.url + "/")
    page.get_by_role("button", name="FR").click()
    expect(page.get_by_role("link", name="Entrer le code de ma classe")).to_be_visible()
