"""The school report in real Chromium: built from the page by keyboard alone,
its progress polled until the page shows the figures; readable on a 768 px
tablet in portrait and at 320 px (no sideways scroll but the classes' own
scrolling table, 44 px targets), in English and French. Screenshots go to
/tmp/schoolreport-shots/ for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from classroom.models import Teacher
from tests.e2e.helpers import sign_in_teacher, small_targets
from tests.school.conftest import (  # noqa: F401  (the school's fixtures, used by name)
    adult,
    pupil,
    school,
    school_classes,
    school_teacher,
)
from tests.school.test_report import play

# The job runs in the live server's process, as in the embedded default (in CI
# with Redis no worker is started for the browser tests).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]
SHOTS = Path("/tmp/schoolreport-shots")


@pytest.fixture
def school_with_pupils(school, school_classes):  # noqa: F811
    ce1a, ce1b, atelier = school_classes
    for first, initial, classroom, right, wrong in [
        ("Léa", "M", ce1a, 20, 0), ("Noah", "B", ce1a, 3, 17), ("Inès", "D", ce1b, 12, 4),
        ("Adam", "R", ce1b, 2, 18), ("Zoé", "K", atelier, 9, 3),
    ]:  # fmt: skip
        child = pupil(classroom, first, initial)
        play(classroom, child, "add", right, wrong)
        play(classroom, child, "mul", wrong, right)
    return school


def overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def beyond_the_edge(page) -> list:
    """The innermost elements reaching past the window's right edge: what to fix."""
    return page.evaluate(
        """() => [...document.querySelectorAll("body *")]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
            .filter(e => ![...e.children].some(c => c.getBoundingClientRect().right
                                                     > window.innerWidth + 0.5))
            .map(e => [e.tagName, e.className, e.textContent.trim().slice(0, 40),
                       Math.round(e.getBoundingClientRect().right)])"""
    )


def test_built_by_keyboard_and_read_at_768_and_320(live_server, page, school_with_pupils):
    admin = adult("admin-e2e@tilleuls.test", school_with_pupils, Teacher.Role.ADMIN)
    SHOTS.mkdir(exist_ok=True)
    sign_in_teacher(page, live_server.url, admin)
    page.goto(live_server.url + "/school/report/")
    expect(page.get_by_text("Not built yet")).to_be_visible()
    build = page.get_by_role("button", name="Build the school report")
    # Keyboard alone: Tab to the button, Enter; the job's card says its progress.
    for _ in range(30):
        page.keyboard.press("Tab")
        if build.evaluate("b => b === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached “Build the school report”")
    page.keyboard.press("Enter")
    heading = page.get_by_role("heading", name="Year groups and skills")
    expect(heading).to_be_visible(timeout=15_000)  # the poll reloaded the page when done
    expect(page.get_by_role("img", name="Addition: 1 mastered").first).to_be_visible()
    assert page.locator("table.sr-classes tbody tr").count() == 3
    for width, language in [(768, "en"), (320, "en"), (768, "fr"), (320, "fr")]:
        page.set_viewport_size({"width": width, "height": 1024})
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page.goto(live_server.url + "/school/report/")
        assert overflow(page) <= 0, (width, language, beyond_the_edge(page))
        assert small_targets(page) == [], (width, language)
        page.screenshot(path=str(SHOTS / f"report-{width}-{language}.png"), full_page=True)
    # The help list names pupils with their class, first name and initial only.
    help_list = page.locator("#needs-help").locator("..")
    expect(help_list).to_contain_text("Adam R.")
    expect(help_list).to_contain_text("CE1 B")
