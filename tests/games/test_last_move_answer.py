"""The answer to the move that ends a session (its last table finished) is
drawn from the session as it now is. Drawn as still playing, its stamp was
stale as it left: the ring of the end made the mover's tablet poll at once and
draw the same board again without the lines about the move, which only the
answer carries (tests/e2e/test_play_nmbr9.py lost its "Right" that way)."""

import re
from dataclasses import replace

import pytest
from django.urls import reverse

from games import live, services
from games.models import GameSession, Table
from games.pages import engine_of

pytestmark = pytest.mark.django_db(transaction=True)  # the end runs once the move commits
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def one_step_from_the_end(classroom, teacher, pupils):
    """Léa alone on the track, her pawn on 93 with a 6 to reach 99."""
    session = services.start_session(
        classroom, teacher, game="ultimes", options={}, pupils=[pupils[0]], table_size=1,
        seed=3,
    )
    table = session.tables.get()
    state = replace(engine_of("ultimes").from_json(table.state), turn=0, phase="reach",
                    dice=(2, 4), total=6, positions=(93,))
    table.state = state.to_json()
    table.save(update_fields=["state"])
    live.bump(table.pk)
    return session, table


def test_the_last_moves_answer_names_the_stamp_its_next_poll_reads(
    one_step_from_the_end, pupil_client
):
    session, table = one_step_from_the_end
    answer = pupil_client.post(
        reverse("games:table_move", args=[table.pk]),
        {"type": "reach", "square": 99, "version": table.version, "move_id": "last"},
        **HTMX,
    )
    html = answer.content.decode()
    assert answer.status_code == 200 and 'data-testid="feedback"' in html
    session.refresh_from_db()
    assert session.status == GameSession.Status.ENDED
    poll_url = re.search(r'hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")
    stamp = live.stamp(Table.objects.select_related("session").get(pk=table.pk))
    assert poll_url.endswith("&v=" + stamp)
    # The tablet's poll after the ring: nothing new, the page and its lines stay.
    assert pupil_client.get(poll_url, **HTMX).status_code == 204
