"""From the class report to the next lesson, in real Chromium: the teacher opens
the class report, taps "Start these tables" under the group that needs ×,
sees the start form filled in, starts, and the group's pupils find their table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from classroom.models import Attempt
from classroom.reports import services as reports
from games import services
from games.models import GameSession

from .helpers import sign_in_pupil, sign_in_teacher

pytestmark = pytest.mark.django_db(transaction=True)


def give_evidence(classroom, teacher, pupils) -> None:
    """Two games' worth of first tries: Léa right at + − ×; Noah and Inès
    right at + and −, wrong at × 7 times in 10 (they need help with ×)."""
    sessions = []
    for seed in (1, 2):
        session = services.start_session(
            classroom, teacher, game="numberquest", options={"preset": "classic"},
            pupils=pupils, table_size=3, seating={p.pk: 1 for p in pupils}, seed=seed,
        )
        services.set_status(session, GameSession.Status.ENDED)
        sessions.append(session)
    rows = []
    for pupil in pupils:
        for skill in ("add", "sub", "mul"):
            for index in range(12):
                right = pupil.first_name == "Léa" or skill != "mul" or index % 10 >= 7
                session = sessions[index % 2]
                rows.append(Attempt(
                    pupil=pupil, session=session, table=session.tables.get(),
                    game="numberquest", skill=skill, operands=[6, 7], expected="42",
                    given="42" if right else "48", correct=right, response_ms=3000,
                ))  # fmt: skip
    Attempt.objects.bulk_create(rows)
    reports.recompute_pupils([p.pk for p in pupils])


def test_the_teacher_starts_the_groups_tables_and_the_pupils_find_them(
    live_server, page, browser, classroom, teacher, pupils
):
    lea, noah, ines = pupils
    give_evidence(classroom, teacher, pupils)
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(f"{live_server.url}/classes/{classroom.pk}/report/")
    lesson = page.get_by_test_id("next-lesson")
    expect(lesson.get_by_role("heading", name=re.compile("Multiplication"))).to_be_visible()
    group = lesson.locator("article", has=page.get_by_role("heading", name=re.compile(
        "Multiplication")))
    expect(group).to_contain_text("Inès D.")
    expect(group).to_contain_text("Noah B.")
    expect(group).to_contain_text("only a multiplication covers a square")
    group.get_by_role("link", name="Start these tables").click()

    expect(page.get_by_test_id("planned")).to_contain_text("Tables to practise multiplication")
    expect(page.get_by_label("My own variant (below)")).to_be_checked()
    expect(page.get_by_label("Dice", exact=True)).to_have_value("4")
    expect(page.get_by_label("Board from")).to_have_value("20")
    expect(page.get_by_label("Board to")).to_have_value("42")
    expect(page.get_by_label("Noah B.")).to_have_value("1")
    expect(page.get_by_label("Inès D.")).to_have_value("1")
    expect(page.get_by_label("Léa M.")).to_have_value("0")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("The game has started")).to_be_visible()

    session = GameSession.objects.exclude(status=GameSession.Status.ENDED).get()
    assert session.practice_skill == "mul"
    assert session.options["operations"] == "+*"
    for pupil in (noah, ines):
        tablet = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
        pupil_page = tablet.new_page()
        sign_in_pupil(pupil_page, live_server.url, classroom.code, pupil)
        pupil_page.get_by_role("link", name=re.compile("Play at table 1")).click()
        expect(pupil_page.locator("#table")).to_be_visible()
        tablet.close()
    # Léa plays no part in this lesson.
    tablet = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    lea_page = tablet.new_page()
    sign_in_pupil(lea_page, live_server.url, classroom.code, lea)
    expect(lea_page.get_by_test_id("my-games")).to_contain_text("No game to play right now")


WIDE = "() => document.scrollingElement.scrollWidth"


def test_the_new_parts_fit_a_tablet_and_a_small_screen_and_work_by_keyboard(
    live_server, page, browser, browser_context_args, classroom, teacher, pupils
):
    """The next lesson, the planned form, the report of a practice and the
    pupil's "Let's practise ×!": no sideways scroll at 320 px, targets of 44 px
    or more, no serious axe finding, and the plan opens from the keyboard."""
    from .helpers import small_targets
    from .test_accessibility import serious_findings

    lea, noah, ines = pupils
    give_evidence(classroom, teacher, pupils)
    sign_in_teacher(page, live_server.url, teacher)
    report = f"{live_server.url}/classes/{classroom.pk}/report/"
    page.goto(report)
    lesson = page.get_by_test_id("next-lesson")
    expect(lesson).to_be_visible()
    assert serious_findings(page) == []
    assert [t for t in small_targets(page) if "Start these tables" in t[0]] == []
    # By keyboard alone: focus reaches "Start these tables", Enter opens the plan.
    start = lesson.get_by_role("link", name="Start these tables").first
    for _ in range(200):
        page.keyboard.press("Tab")
        if start.evaluate("link => link === document.activeElement"):
            break
    else:
        raise AssertionError("Tab never reached 'Start these tables'")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("planned")).to_be_visible()
    assert serious_findings(page) == []
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("The game has started")).to_be_visible()
    practice = GameSession.objects.get(practice_skill="mul")
    page.goto(f"{live_server.url}/sessions/{practice.pk}/report/")
    expect(page.get_by_test_id("practice-change")).to_contain_text("Multiplication")
    assert serious_findings(page) == []
    # Léa, with nothing to play, is asked to practise alone (she is ready for ÷).
    tablet = browser.new_context(**browser_context_args).new_page()
    sign_in_pupil(tablet, live_server.url, classroom.code, lea)
    call = tablet.get_by_test_id("practice-alone")
    expect(call).to_contain_text("Let's practise ÷!")
    assert serious_findings(tablet) == []
    assert small_targets(tablet) == []

    narrow = browser.new_context(
        **{**browser_context_args, "viewport": {"width": 320, "height": 640}}
    ).new_page()
    sign_in_teacher(narrow, live_server.url, teacher)
    wide = {}
    for name, url in (
        ("report", report),
        ("mixed report", report + "?mixed=1"),
        ("planned form", live_url(live_server, lesson_url(narrow, report))),
        ("practice report", f"{live_server.url}/sessions/{practice.pk}/report/"),
        ("pupil report", f"{live_server.url}/pupils/{noah.pk}/report/"),
    ):
        narrow.goto(url)
        wide[name] = narrow.evaluate(WIDE)
    little = browser.new_context(
        **{**browser_context_args, "viewport": {"width": 320, "height": 640}}
    ).new_page()
    sign_in_pupil(little, live_server.url, classroom.code, lea)
    wide["pupil home"] = little.evaluate(WIDE)
    assert {name: px for name, px in wide.items() if px > 320} == {}


def lesson_url(page, report: str) -> str:
    page.goto(report)
    return page.get_by_test_id("next-lesson").get_by_role(
        "link", name="Start these tables").first.get_attribute("href")


def live_url(live_server, path: str) -> str:
    return path if path.startswith("http") else live_server.url + path
