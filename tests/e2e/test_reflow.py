"""Reflow at 320 CSS px (a small tablet at 200 % zoom, WCAG 1.4.10): no page a
pupil or a teacher reaches scrolls sideways. The picture password (442 px),
NMBR 9's play page (522 px), the class page (333 px) and the sign-in cards
(703 px) did."""

import re

import pytest

from games import services

from .helpers import sign_in_pupil, sign_in_teacher

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = ["numberquest", "ultimes", "nmbr9", "nambarz", "numx"]
WIDE = "() => document.scrollingElement.scrollWidth"


@pytest.fixture
def narrow(browser, browser_context_args):
    return lambda: browser.new_context(
        **{**browser_context_args, "viewport": {"width": 320, "height": 640}}
    ).new_page()


@pytest.fixture
def sessions(classroom, teacher, pupils):
    started = {
        game: services.start_session(
            classroom, teacher, game=game, options={}, pupils=pupils, table_size=3,
            seating={p.pk: 1 for p in pupils}, seed=3,
        )
        for game in GAMES
    }
    started["whole class"] = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils, table_size=1,
        whole_class=True, seed=2,
    )
    return started


def test_no_pupil_page_scrolls_sideways_at_320_px(live_server, narrow, classroom, pupils, sessions):
    page = narrow()
    wide = {}
    page.goto(live_server.url + f"/join/{classroom.code}/")
    wide["names"] = page.evaluate(WIDE)
    page.get_by_role("link", name=re.compile(re.escape(pupils[0].short_name))).click()
    wide["picture password"] = page.evaluate(WIDE)
    page.goto(live_server.url + "/")
    sign_in_pupil(page, live_server.url, classroom.code, pupils[0])
    wide["my games"] = page.evaluate(WIDE)
    for game, session in sessions.items():
        page.goto(live_server.url + f"/tables/{session.tables.first().pk}/")
        wide[game] = page.evaluate(WIDE)
    assert {name: px for name, px in wide.items() if px > 320} == {}


def test_no_teacher_page_scrolls_sideways_at_320_px(
    live_server, narrow, teacher, classroom, pupils, sessions
):
    page = narrow()
    sign_in_teacher(page, live_server.url, teacher)
    one = sessions["numberquest"]
    urls = {
        "classes": "/classes/", "class": f"/classes/{classroom.pk}/",
        "start form": f"/classes/{classroom.pk}/play/",
        "sign-in cards": f"/classes/{classroom.pk}/cards/",
        "add pupils": f"/classes/{classroom.pk}/pupils/add/",
        "class report": f"/classes/{classroom.pk}/report/",
        "pupil report": f"/pupils/{pupils[0].pk}/report/",
        **{f"{game} live view": f"/sessions/{sessions[game].pk}/" for game in GAMES},
        "projector": f"/tables/{one.tables.first().pk}/projector/",
        "session report": f"/sessions/{one.pk}/report/",
        "whole-class cards": f"/sessions/{sessions['whole class'].pk}/cards/",
    }
    wide = {}
    for name, url in urls.items():
        assert page.goto(live_server.url + url).status == 200, name
        wide[name] = page.evaluate(WIDE)
    assert {name: px for name, px in wide.items() if px > 320} == {}
