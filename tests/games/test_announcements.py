"""What a screen reader is told of a table (static/js/announce.js): the new
lines of the table's log, the note on the pupil's own move, whether the turn
is theirs and the status line at the end, all read from the page the pupil
is sent. Here those bytes, as another player's hidden hand changes: they
must not change with it."""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import replace

import pytest

from games import live, services

from . import test_nambarz_pages as nz
from . import test_numx_pages as nx
from .conftest import one_table

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _text(fragment: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def said(page: str) -> dict:
    """What announce.js reads of a table: the log's lines, the note and the
    lines about the pupil's move, whether it is their turn, whether the game
    is over and the status line that says so."""
    opening = re.search(r'<div id="table"[^>]*>', page).group(0)
    log = re.search(r'<ul class="log"[^>]*>(.*?)</ul>', page, re.S)
    return {
        "log": [_text(line) for line in re.findall(r"<li>(.*?)</li>", log.group(1), re.S)]
        if log else [],
        "note": [_text(n) for n in re.findall(r'data-testid="note"[^>]*>(.*?)</p>', page, re.S)],
        "feedback": [
            _text(n) for n in re.findall(r'data-testid="feedback"[^>]*>(.*?)</p>', page, re.S)
        ],
        "your_turn": " data-your-turn" in opening,
        "over": " data-over" in opening,
        "status": _text(re.search(r'data-testid="status"[^>]*>(.*?)</p>', page, re.S).group(1)),
    }


def poll(client, table) -> str:
    """The table as Léa's tablet is sent it after a move (a swap's answer)."""
    return nz.page_of(client, table, **HTMX).content.decode()


def test_the_live_region_is_on_the_page_and_never_in_a_swap(start_nambarz, pupil_client):
    session, table = start_nambarz()
    page = nz.page_of(pupil_client, table).content.decode()
    region = re.findall(r'<p id="announcer"[^>]*>', page)
    assert len(region) == 1 and 'role="status"' in region[0] and 'aria-live="polite"' in region[0]
    assert page.index('id="announcer"') > page.index('id="table"')
    assert 'id="announcer"' not in poll(pupil_client, table)  # a swap never replaces it


@pytest.fixture
def start_nambarz(classroom, teacher, pupils):
    """A Nambarz table: Léa is player 0, Noah player 1."""
    return lambda: one_table(classroom, teacher, pupils[:2], game="nambarz", options={},
                             players=2, seed=5)


# Noah's hand, and the card on top of the pile he draws: two worlds Léa can't tell apart.
NAMBARZ_HANDS = [
    ([nz.sym(9), nz.drw(4)], nz.sym(6, 1)),
    ([nz.sym(8), nz.drw(10)], nz.drw(3, 1)),
]


def test_nambarz_noahs_draw_and_pass_say_the_same_to_lea_whatever_he_holds(
    start_nambarz, pupil_client, pupils
):
    told = []
    for hand, on_top in NAMBARZ_HANDS:
        session, table = start_nambarz()
        state = nz.deal(table, [[nz.sym(2), nz.sym(5)], hand], target=nz.sym(7), current=1)
        state = replace(state, pile=tuple(c for c in state.pile if c != on_top) + (on_top,))
        table.state = state.to_json()
        table.save(update_fields=["state"])
        live.bump(table.pk)
        seen = [said(poll(pupil_client, table))]
        table.refresh_from_db()
        services.play(table.pk, pupils[1], {"type": "draw"}, table.version, "draw")
        assert nz.state_of(table).hands[1][-1] == on_top
        seen.append(said(poll(pupil_client, table)))
        table.refresh_from_db()
        services.play(table.pk, pupils[1], {"type": "pass"}, table.version, "pass")
        seen.append(said(poll(pupil_client, table)))
        told.append(seen)
        session.delete()
    assert told[0] == told[1]
    before, drawn, passed = told[0]
    assert drawn["log"][0] == "Noah B. drew a card." and not drawn["your_turn"]
    assert passed["your_turn"] and not before["your_turn"]


NUMX_HANDS = [(["blue5", "yellow2"], "yellow6"), (["green4", "red3"], "green2")]


def test_numx_noahs_draw_says_the_same_to_lea_whatever_he_holds_and_draws(
    classroom, teacher, pupils, pupil_client
):
    told = []
    for hand, on_top in NUMX_HANDS:
        session, table = one_table(classroom, teacher, pupils[:2], game="numx", options={},
                                   players=2, seed=5)
        state = nx.deal(table, [["blue7", "red7", "green3"], hand])
        nx.put(table, replace(state, pile=tuple(c for c in state.pile if c != on_top) + (on_top,)))
        nx.post_move(pupil_client, table, type="trick", cards="blue7,red7")
        seen = [said(poll(pupil_client, table))]
        table.refresh_from_db()
        services.play(table.pk, pupils[1], {"type": "draw"}, table.version, "draw")
        assert on_top in nx.state_of(table).hands[1]
        seen.append(said(poll(pupil_client, table)))
        told.append(seen)
        session.delete()
    assert told[0] == told[1]
    before, after = told[0]
    assert "Noah B. kept the card." in after["log"] and after["log"][-len(before["log"]):] == (
        before["log"])
