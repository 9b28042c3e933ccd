"""Reports read on a tablet in portrait (768 px): every figure keeps its name
and the class grid shows every skill without scrolling sideways."""

from __future__ import annotations

import pytest
from django.utils import timezone

from classroom.models import Attempt
from classroom.reports import jobs
from games.models import GameSession, Seat, Table
from tests.e2e.helpers import sign_in_teacher

SKILLS = ("add", "sub", "mul", "div", "brackets", "multi_step", "primes", "powers")


@pytest.fixture
def reported(classroom, teacher, pupils):
    """An ended game with evidence on every skill, and the class report computed."""
    session = GameSession.objects.create(
        classroom=classroom, teacher=teacher, game="numberquest", status="ended"
    )
    table = Table.objects.create(
        session=session, number=1, seed=1, state={}, turn_started_at=timezone.now()
    )
    for player, pupil in enumerate(pupils):
        Seat.objects.create(table=table, player=player, pupil=pupil)
    Attempt.objects.bulk_create(
        Attempt(pupil=pupil, session=session, table=table, game="numberquest", skill=skill,
                operands=[3, 4], expected="7", given="7" if n % 4 else "8", correct=bool(n % 4))
        for pupil in pupils for skill in SKILLS for n in range(8)
    )
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
    assert shown[:4] == ["Calculations", "Right first time", "Wrong first time", "Tries again"]


def test_pupil_report_names_every_figure_of_games_played(live_server, page, teacher, pupils,
                                                         reported):
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/pupils/{pupils[0].pk}/report/")
    shown = labels_shown(page, "table.list.stack tbody td[data-label]")
    assert shown == ["Calculations", "Right first time", "Wrong first time"]


def test_class_grid_fits_a_tablet_in_portrait(live_server, page, teacher, classroom, reported):
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/classes/{classroom.pk}/report/")
    headings = page.locator(".report-grid thead th")
    assert headings.count() == 1 + len(SKILLS)
    scroll = page.locator(".report-scroll")
    overflow = scroll.evaluate("el => el.scrollWidth - el.clientWidth")
    assert overflow <= 0, f"the grid scrolls {overflow} px sideways"
    # A pupil's name stays on one line.
    lines = page.eval_on_selector_all(
        ".report-grid tbody th a", "links => links.map(a => a.getClientRects().length)"
    )
    assert lines == [1] * len(lines)
