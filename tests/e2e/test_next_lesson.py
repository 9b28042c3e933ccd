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
