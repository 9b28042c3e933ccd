"""A pupil's page keeps to a portrait tablet's width whatever its status line says.

The longest status lines are French and come when the teacher pauses or ends the
game ("Pause : attends ton enseignant."); each game draws its own.
"""

import pytest
from playwright.sync_api import expect

from games import services

from .helpers import sign_in_pupil

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = {
    "numberquest": {"preset": "classic"},
    "ultimes": {},
    "nmbr9": {},
    "nambarz": {},
    "numx": {},
}


@pytest.mark.parametrize("status", ["paused", "ended"])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_status_line_wraps_in_french(
    live_server, page, classroom, teacher, pupils, game, status
):
    lea, noah = pupils[:2]
    session = services.start_session(
        classroom, teacher, game=game, options=GAMES[game], pupils=[lea, noah], table_size=2,
        seating={lea.pk: 1, noah.pk: 1}, seed=3,
    )
    services.set_status(session, status)
    table = session.tables.get()

    sign_in_pupil(page, live_server.url, classroom.code, lea)
    page.get_by_role("button", name="FR").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.goto(live_server.url + f"/tables/{table.pk}/")
    status_line = page.get_by_test_id("status")
    expect(status_line).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 768
    box = status_line.bounding_box()
    assert box["x"] + box["width"] <= 768, box
