"""What a screen reader says of each game's board, in English and French: whose
token is on a square and each player's squares (Number Quest), the pawns
(Ultimes), the digits of each level (NMBR 9), the target, the pile and the
hand (Nambarz), the hand and the score cards (Num-X); and, for the card games,
that nothing Noah's browser receives changes when Léa's hidden hand does."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.test import Client

from games import live
from games.models import Table
from games.pages import engine_of
from tests.conftest import tap_pictures

from .test_axe_every_page import cookies_of
from .world import build_world

pytestmark = pytest.mark.django_db(transaction=True)

SAID = {
    "en": {
        "numberquest": [
            "4 · token of player 1",
            "Léa M. (player 1) has tokens on squares 4, 16, 28, 40.",
            "Noah B. (player 2) has tokens on squares 7, 19, 31.",
            "Player 1: Léa M. (you) money 0 turn",
        ],
        "ultimes": ["Square 12, Léa M.", "Square 37, Noah B.", "Léa M. (you) square 12 turn"],
        "nmbr9": ["A stack of 6 tiles, up to level 2. Level 0: 6, 7, 9. Level 1: 1, 5. "
                  "Level 2: 4."],
        "nambarz": ["paragraph: 77 cards in the pile", "Léa M. 7 cards", 'img "4 mouse"',
                    'button "1 fox"', "Léa M. (you) points 0 turn"],
        "numx": ['button "blue 0"', 'button "Rainbow 13"', "Score cards of Noah B."],
    },
    "fr": {
        "numberquest": [
            "4 · jeton du joueur 1",
            "Léa M. (joueur 1) a des jetons sur les cases 4, 16, 28, 40.",
            "Joueur 1 : Léa M. (toi) argent 0 joue",
        ],
        "ultimes": ["Case 12, Léa M.", "Léa M. (toi) case 12 joue"],
        "nmbr9": ["Une pile de 6 tuiles, jusqu'au niveau 2. Niveau 0 : 6, 7, 9. "
                  "Niveau 1 : 1, 5. Niveau 2 : 4."],
        "nambarz": ["paragraph: 77 cartes dans la pioche", "Léa M. 7 cartes", 'img "4 souris"',
                    "Léa M. (toi) points 0 joue"],
        "numx": ['button "0 bleu"', "Noah B. : cartes de score"],
    },
}


@pytest.fixture
def world(classroom, teacher, pupils):
    return build_world(classroom, teacher, pupils)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_board_says_its_state(live_server, browser, browser_context_args, world, language):
    context = browser.new_context(**browser_context_args)
    context.add_cookies([
        *cookies_of("pupil", live_server.url, world.teacher, world.pupil),
        {"name": "django_language", "value": language, "url": live_server.url},
    ])
    page = context.new_page()
    unsaid = {}
    for game, words in SAID[language].items():
        page.goto(live_server.url + f"/tables/{world.boards[game][0].pk}/")
        tree = page.locator("main").aria_snapshot().replace("''", "'")
        missing = [w for w in words if w not in tree]
        if missing:
            unsaid[game] = missing
    assert unsaid == {}


def _swap_leas_card(table: Table, game: str) -> None:
    """Léa's first card for one of the pile: what only she may know changes."""
    engine = engine_of(game)
    state = engine.from_json(table.state)
    hands = [list(hand) for hand in state.hands]
    pile = list(state.pile)
    hands[0][0], pile[0] = pile[0], hands[0][0]
    state = replace(state, hands=tuple(tuple(h) for h in hands), pile=tuple(pile))
    Table.objects.filter(pk=table.pk).update(state=state.to_json())
    live.bump(table.pk)


def _bytes_of(client: Client, table: Table) -> str:
    """Noah's page, without what changes at every request (signed tokens, ids)."""
    html = client.get(f"/tables/{table.pk}/").content.decode()
    return re.sub(r"[A-Za-z0-9_\-:.]{24,}", "*", html)


@pytest.mark.parametrize("game", ["nambarz", "numx"])
def test_nothing_noah_receives_changes_with_leas_hidden_hand(world, pupils, game):
    table = world.boards[game][0]
    noah = Client()
    assert tap_pictures(noah, pupils[1], pupils[1].password_pictures).status_code == 302
    before = _bytes_of(noah, table)
    assert before == _bytes_of(noah, table), "the page changes by itself: the test cannot tell"
    _swap_leas_card(table, game)
    assert _bytes_of(noah, table) == before
