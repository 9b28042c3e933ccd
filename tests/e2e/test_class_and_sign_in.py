"""A teacher creates a class and pastes pupils; a pupil signs in on a tablet."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from classroom.models import Pupil, Teacher
from tests.e2e.helpers import small_targets

pytestmark = pytest.mark.django_db(transaction=True)


def test_teacher_sets_up_a_class_and_a_pupil_signs_in(live_server, browser, browser_context_args):
    teacher_tablet = browser.new_context(**browser_context_args, base_url=live_server.url)
    page = teacher_tablet.new_page()
    page.goto("/")
    assert page.title() == "Numbo · Number games for the whole class"
    assert small_targets(page) == []
    page.get_by_role("link", name="Sign in", exact=True).click()
    assert small_targets(page) == []  # "Forgotten your password?", "Create an account"
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Email address").fill("anne@school.test")
    page.get_by_label("Your name").fill("Ms Anne")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
    assert small_targets(page) == []
    link = next(line for line in mail.outbox[-1].body.splitlines() if "/accounts/sign-up/" in line)
    page.goto(link)
    page.get_by_label("New password", exact=True).fill("a-long-pass-phrase-9")
    page.get_by_label("New password confirmation").fill("a-long-pass-phrase-9")
    assert small_targets(page) == []
    page.get_by_role("button", name="Create my account").click()

    page.get_by_label("Name").fill("CE1 Soleil")
    page.get_by_role("button", name="Save").click()

    page.get_by_label("Pupils, one a line").fill("Léa Martin\n\nNoah B.\nInès\nZOÉ\nÉMILIE b\n")
    page.get_by_role("button", name="Check the list").click()
    expect(page.get_by_test_id("preview")).to_contain_text("Léa M.")
    assert small_targets(page) == []
    page.get_by_role("button", name="Add 5 pupils").click()
    expect(page.get_by_text("5 pupils added.")).to_be_visible()
    # A class list as a French teacher reads it, names in capitals written as names.
    names = page.locator("table.list tbody strong").all_inner_texts()
    assert names == ["Émilie B.", "Inès", "Léa M.", "Noah B.", "Zoé"]
    code = page.get_by_test_id("class-code").inner_text().strip()
    assert Pupil.objects.filter(classroom__teacher__email="anne@school.test").count() == 5

    lea = Pupil.objects.get(first_name="Léa")
    pictures = lea.password_pictures

    # The page projected for its QR code shows no picture password until asked.
    passwords = page.locator("td.password").first
    expect(passwords).to_be_hidden()
    page.get_by_text("Show picture passwords").click()
    expect(passwords).to_be_visible()
    page.get_by_text("Show picture passwords").click()
    expect(passwords).to_be_hidden()
    # A game started: its date on the class page is a touch target too.
    page.get_by_role("link", name="Start a game").click()
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Back to the class").click()
    assert small_targets(page) == []
    page.locator("tr", has_text="Léa M.").get_by_role("link", name="Erase").click()
    expect(page.get_by_role("heading", name="Erase Léa M.?")).to_be_visible()
    assert small_targets(page) == []
    page.get_by_role("link", name="Cancel").click()

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
    assert small_targets(tablet) == []
    tablet.get_by_label("Class code").fill(code.lower())
    tablet.get_by_role("button", name="Go").click()
    assert small_targets(tablet) == []  # "Not my class"
    tablet.get_by_role("link", name=re.compile("Léa M.")).click()
    assert small_targets(tablet) == []
    # Not signed in yet: no name in the top bar, one way back.
    expect(tablet.locator("header")).not_to_contain_text("Léa")
    expect(tablet.get_by_text(re.compile("^Not me"))).to_have_count(1)
    for key in pictures:
        tablet.get_by_role("button", name=key, exact=True).click()
    expect(tablet.get_by_role("heading", name="Hello Léa!")).to_be_visible()
    expect(tablet.locator("header")).to_contain_text("Léa M.")
    assert small_targets(tablet) == []

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
