"""A team of two on a shared tablet, in real Chromium: the pupil who answers
taps their name, and the calculation counts for them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from classroom.models import Attempt
from games import services
from games.models import GameSession
from games.pages import engine_of

from .helpers import add_first_two, sign_in_pupil

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_member_who_answers_gets_the_calculation(live_server, page, classroom, teacher, pupils):
    lea, noah = pupils[0], pupils[1]
    for seed in range(40):
        session = services.start_session(
            classroom, teacher, game="numberquest", options={"preset": "classic"},
            pupils=[lea, noah], table_size=1, team_size=2, tablets=GameSession.Tablets.SHARED,
            seating={lea.pk: 1, noah.pk: 1}, seed=seed,
        )
        table = session.tables.get()
        if engine_of("numberquest").from_json(table.state).current == 0:
            break
        session.delete()
    sign_in_pupil(page, live_server.url, classroom.code, lea)
    page.get_by_role("link", name="Play at table 1").click()
    picker = page.get_by_test_id("team-picker")
    expect(picker).to_contain_text("Who is answering?")
    picker.get_by_label("Noah B.").check()
    add_first_two(page)
    # The next board keeps Noah ticked.
    expect(page.get_by_test_id("team-picker").get_by_label("Noah B.")).to_be_checked()
    add_first_two(page)
    assert list(Attempt.objects.values_list("pupil_id", flat=True)) == [noah.pk, noah.pk]
