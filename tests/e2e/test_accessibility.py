"""No serious or critical axe-core finding on the play page and the live view."""

from pathlib import Path

import pytest

from games import services

from .helpers import sign_in_pupil

pytestmark = pytest.mark.django_db(transaction=True)
AXE = Path(__file__).parent / "vendor" / "axe.min.js"  # axe-core 4.14.1, MPL-2.0


def serious_findings(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => ['serious', 'critical'].includes(v.impact))"
        ".map(v => v.id + ': ' + v.help + ' @ ' + v.nodes.slice(0, 3)"
        ".map(n => n.target.join(' ')).join(' | '))"
    )
    return found


@pytest.fixture
def session(classroom, teacher, pupils):
    return services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "classic"},
        pupils=pupils[:2], table_size=2, seating={pupils[0].pk: 1, pupils[1].pk: 1}, seed=3,
    )


def test_play_page(live_server, page, classroom, pupils, session):
    table = session.tables.get()
    player = table.seats.get(player=0).pupil
    sign_in_pupil(page, live_server.url, classroom.code, player)
    page.goto(live_server.url + f"/tables/{table.pk}/")
    assert serious_findings(page) == []


def test_live_view(live_server, page, teacher, session):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Email address").fill(teacher.email)
    page.get_by_label("Password").fill("correct-horse-42")
    page.get_by_role("button", name="Sign in").click()
    page.goto(live_server.url + f"/sessions/{session.pk}/")
    assert serious_findings(page) == []


def test_session_form_and_class_page(live_server, page, teacher, classroom, pupils):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Email address").fill(teacher.email)
    page.get_by_label("Password").fill("correct-horse-42")
    page.get_by_role("button", name="Sign in").click()
    page.goto(live_server.url + f"/classes/{classroom.pk}/play/")
    assert serious_findings(page) == []
    page.goto(live_server.url + f"/classes/{classroom.pk}/")
    assert serious_findings(page) == []


def test_the_checker_itself_sees_a_known_problem(page):
    page.set_content("<html><body><img src='x.png'><button></button></body></html>")
    assert any(finding.startswith("image-alt") for finding in serious_findings(page))


def test_numx_play_page_with_empty_score_rows(live_server, page, classroom, teacher, pupils):
    """An empty score row was a list with no item (aria-required-children)."""
    numx = services.start_session(
        classroom, teacher, game="numx", options={}, pupils=pupils[:2], table_size=2,
        seating={pupils[0].pk: 1, pupils[1].pk: 1}, seed=3,
    )
    sign_in_pupil(page, live_server.url, classroom.code, pupils[0])
    page.goto(live_server.url + f"/tables/{numx.tables.get().pk}/")
    assert serious_findings(page) == []


def test_error_and_password_pages(live_server, page, teacher):
    page.goto(live_server.url + "/no-such-page/")
    assert serious_findings(page) == []
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Email address").fill(teacher.email)
    page.get_by_label("Password").fill("correct-horse-42")
    page.get_by_role("button", name="Sign in").click()
    page.goto(live_server.url + "/accounts/password_change/")
    assert serious_findings(page) == []
