"""Reports read on a tablet in portrait (768 px): every figure keeps its name
and the class grid shows every skill without scrolling sideways."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from classroom.models import Attempt
from classroom.reports import jobs
from games.models import GameSession, Seat, Table
from tests.e2e.helpers import sign_in_teacher

SKILLS = ("add", "sub", "mul", "div", "brackets", "multi_step", "primes", "powers")


@pytest.fixture
def reported(classroom, teacher, pupils):
    """Two ended games with evidence on every skill (a status needs two), and
    the class report computed; returns the second game."""
    games = []
    for number in (1, 2):
        session = GameSession.objects.create(
            classroom=classroom, teacher=teacher, game="numberquest", status="ended"
        )
        table = Table.objects.create(
            session=session, number=1, seed=number, state={}, turn_started_at=timezone.now()
        )
        for player, pupil in enumerate(pupils):
            Seat.objects.create(table=table, player=player, pupil=pupil)
        games.append((session, table))
    Attempt.objects.bulk_create(
        Attempt(pupil=pupil, session=games[n // 8][0], table=games[n // 8][1],
                game="numberquest", skill=skill, operands=[3, 4], expected="7",
                given="7" if n % 8 else "8", correct=bool(n % 8))
        for pupil in pupils for skill in SKILLS for n in range(16)
    )  # fmt: skip
    session = games[1][0]
    job, _ = jobs.request_job(teacher, classroom, "class_mastery", send_task=False)
    assert jobs.run_job(job.pk) == "done"
    return session


def labels_shown(page, selector: str) -> list[str]:
    """What stands before each figure of a stacked table, as the screen draws it."""
    return page.eval_on_selector_all(
        selector,
        "cells => cells.map(c => getComputedStyle(c, '::before').content.replace(/\"/g, ''))",
    )


def test_session_report_names_every_figure_at_768(live_server, page, teacher, pupils, reported):
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/sessions/{reported.pk}/report/")
    assert not page.locator("table.list.stack thead").first.is_visible()
    shown = labels_shown(page, "table.list.stack tbody td[data-label]")
    assert len(shown) == 4 * len(pupils)
    assert shown[:4] == ["Answers typed", "Right first time", "Wrong first time", "Tries again"]


def test_pupil_report_names_every_figure_of_games_played(live_server, page, teacher, pupils,
                                                         reported):
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/pupils/{pupils[0].pk}/report/")
    shown = labels_shown(page, "table.list.stack tbody td[data-label]")
    assert shown == ["Result", "Answers typed", "Right first time", "Wrong first time"] * 2


def test_class_grid_fits_a_tablet_in_portrait(live_server, page, teacher, classroom, reported):
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/classes/{classroom.pk}/report/")
    headings = page.locator(".report-grid thead th")
    assert headings.count() == 1 + len(SKILLS)
    scroll = page.locator(".report-scroll")
    overflow = scroll.evaluate("el => el.scrollWidth - el.clientWidth")
    assert overflow <= 0, f"the grid scrolls {overflow} px sideways"
    assert not clipped(page, ".report-grid tbody th")


def clipped(page, selector: str) -> list[str]:
    """The elements whose content runs past their box (cut off or spilling out)."""
    return page.eval_on_selector_all(
        selector,
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1)"
        ".map(e => e.textContent.trim().slice(0, 40))",
    )


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_report_pages_fit_768_px_in_both_languages(
    live_server, page, teacher, classroom, pupils, reported, language
):
    """French words are longer: "pas encore d'éléments" ran out of its card,
    "99 %" broke before its "%", "Jean-Baptiste O." was cut in the grid, and
    the pupil report was 782 px wide."""
    from classroom.models import Pupil
    from classroom.reports import services

    long_name = Pupil.objects.create(classroom=classroom, first_name="Jean-Baptiste", initial="O",
                                     avatar="owl", picture_password="sun,tree,car")
    Attempt.objects.create(pupil=pupils[0], session=reported, table=reported.tables.get(),
                           game="numberquest", skill="add", operands=[3, 4], expected="7",
                           given="7", correct=True, response_ms=1900)
    services.recompute_pupils([p.pk for p in [*pupils, long_name]])
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/classes/{classroom.pk}/report/")
    page.locator(f"button[name=language][value={language}]").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == language
    assert page_width(page) <= 768
    assert page.locator(".report-scroll").first.evaluate("e => e.scrollWidth - e.clientWidth") <= 0
    assert not clipped(page, ".report-grid tbody th, .report-grid td")
    for pupil in (pupils[0], pupils[2], long_name):
        page.goto(live_server.url + f"/pupils/{pupil.pk}/report/")
        assert page_width(page) <= 768, pupil.label
        assert not clipped(page, ".skill-cards > li, .skill-cards .status")
    # Léa's addition: "estimate 99%" / "estimation 99 %", never split at the "%".
    page.goto(live_server.url + f"/pupils/{pupils[0].pk}/report/")
    card = page.locator(".skill-cards > li").first.inner_text()
    assert re.search(r"\d+(%|\u00a0%)", card) and not re.search(r"\d %", card)
    page.goto(live_server.url + f"/sessions/{reported.pk}/report/")
    assert page_width(page) <= 768
