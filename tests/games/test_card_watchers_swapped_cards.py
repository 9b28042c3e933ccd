"""Where the hidden cards lie changes no byte anyone at the table receives
(issue 31, section 2).

Each case deals one position several times, hidden cards swapped between the
hands, the pile and the face-down score cards, and in each deal makes the
same move from the same tablet. It keeps every byte each receiver is sent: a
pupil's page and poll before the move, the mover's answer, the page pushed to
each tablet (with Redis), each poll's answer and the page again after it; the
projector, the teacher's poll of it and the teacher's live view, drawn and
polled. Statuses and headers with them.

For each receiver, the deals that leave what they may see the same (the
engine's ``view(state, receiver)`` before and after the move; the teacher's
is ``view(state, None)``) must bring them the same bytes, but for the
nonces of one request: a CSRF token, a form's tap id, the moment a token was
signed. The table is dealt again in place, so that its id, version and
tokens are the same in every deal.

Which way a page reaches a pupil (the watchers' page kept by another request
made theirs, or their own render) may rest on a hidden card too (a NUM-X
pupil who may add a Rainbow does not watch): both must be the same bytes, so
each pupil's poll is also the table of their own page."""

# ruff: noqa: F811

from __future__ import annotations

import base64
import json
import re
import zlib
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from classroom.models import Attempt, Opportunity
from engine.numx.tricks import Trick
from games import live, services, watching
from games.models import GameSession, Move, Table
from games.pages import engine_of
from games.views import live_cards
from games.views.tables import poll_token

from .conftest import one_table
from .test_card_watchers import saved, signed_in
from .test_push_pages import heard, tablet

pytestmark = [pytest.mark.django_db(transaction=True)]
HTMX = {"HTTP_HX_REQUEST": "true"}
TEACHER = "teacher"
NOT_OWN = "pupils whose poll is not the table of their own page"

# ------------------------------------------------------------------ what a receiver gets


CSRF_FIELD = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
CSRF_HEADER = re.compile(r'("X-CSRFToken": ")[^"]*(")')
TAP_ID = re.compile(r'(name="move_id" value=")[0-9a-f]{32}(")')
# django.core.signing's "payload:timestamp:signature" (a leading "." when compressed).
SIGNED = re.compile(r"(\.?[A-Za-z0-9_-]{8,}):([0-9A-Za-z]{4,8}):([A-Za-z0-9_-]{43})")
# What a signed token says that is a moment, not a fact of the table: when a
# teacher signed in or the token was made, from when a card counts as silent.
MOMENTS = ("a", "n")


def _token_said(found: re.Match) -> str:
    """A signed token as what it says, its moments left out: two tokens
    signed a second apart for the same things read the same."""
    payload = found.group(1)
    compressed = payload.startswith(".")
    raw = base64.urlsafe_b64decode(payload.lstrip(".") + "=" * (-len(payload.lstrip(".")) % 4))
    said = json.loads(zlib.decompress(raw) if compressed else raw)
    if isinstance(said, dict):
        said = {k: v for k, v in said.items() if k not in MOMENTS}
        if isinstance(said.get("t"), list):  # the live view's (table, stamp, silent from)
            said["t"] = [row[:2] for row in said["t"]]
    return "TOKEN" + json.dumps(said, sort_keys=True)


def without_nonces(text: str) -> str:
    text = CSRF_HEADER.sub(r"\1CSRF\2", CSRF_FIELD.sub(r"\1CSRF\2", text))
    text = TAP_ID.sub(r"\1TAP\2", text)
    return SIGNED.sub(_token_said, text)


def received(response) -> str:
    """A response as its receiver gets it: status, headers, cookies, body."""
    # Its length is the body's, compared below (a nonce may be a digit longer).
    headers = sorted(f"{name}: {value}" for name, value in response.items()
                     if name != "Content-Length")
    cookies = sorted(
        f"{name}={'CSRF' if name == settings.CSRF_COOKIE_NAME else morsel.value}; "
        f"{sorted((k, v) for k, v in morsel.items() if v and k != 'expires')}"
        for name, morsel in response.cookies.items()
    )
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return without_nonces(
        "\n".join([str(response.status_code), *headers, *cookies, "", body.decode()])
    )


# ------------------------------------------------------------------ a table dealt again


def swap(state, one, other):
    """The state with two cards changing places, wherever each lies: a hand,
    the pile, a score row (face up or down)."""

    def moved(card):
        return other if card == one else one if card == other else card

    changes: dict[str, Any] = {
        "hands": tuple(tuple(moved(c) for c in hand) for hand in state.hands),
        "pile": tuple(moved(c) for c in state.pile),
    }
    if hasattr(state, "rows"):
        changes["rows"] = tuple(tuple((moved(c), up) for c, up in row) for row in state.rows)
    return replace(state, **changes)


def deal_again(table: Table, state, stamps: set[str]) -> None:
    """The table back at version 0 holding ``state``: no move, no attempt, no
    kept page or card of an earlier deal (``stamps``: the ones it showed)."""
    Move.objects.filter(table=table).delete()
    Attempt.objects.filter(table=table).delete()
    Opportunity.objects.filter(table=table).delete()
    Table.objects.filter(pk=table.pk).update(state=state.to_json(), version=0, finished=False)
    watching.forget(table.pk)
    keys = [live_cards._key(table.pk, stamp, silent, language)
            for stamp in stamps for silent in (False, True)
            for language, _name in settings.LANGUAGES]
    client = live.redis_client()
    if client is not None and keys:
        client.delete(*keys)
    elif keys:
        from django.core.cache import cache

        cache.delete_many(keys)
    live.bump(table.pk)


@dataclass
class Screens:
    """The tablets at a table and the teacher's screen."""

    table: Table
    session: GameSession
    pupils: list  # seated, in player order
    tablets: dict[int, Client]  # player -> its tablet
    teacher: Client

    def poll(self, player: int, version: str = "none"):
        """This pupil's poll: of the whole table, or from a version they show."""
        pupil = self.pupils[player]
        token = poll_token(self.table, pupil.pk, None, pupil.sign_in_generation)
        url = reverse("games:table_poll", args=[self.table.pk])
        return self.tablets[player].get(url, {"t": token, "v": version}, **HTMX)

    def page(self, player: int):
        return self.tablets[player].get(reverse("games:table_play", args=[self.table.pk]))

    def teacher_sees(self, live_poll: str | None) -> tuple[list[str], str]:
        """The projector, its poll, the live view drawn, and polled with the
        token of the live view drawn before (``live_poll``) and with its own
        (as its page polls: only the cards that moved); and that poll's address."""
        projector = self.teacher.get(reverse("games:table_projector", args=[self.table.pk]))
        live = self.teacher.get(reverse("games:session_live", args=[self.session.pk]))
        answers = [
            received(projector),
            received(self.teacher.get(_polled(projector, "&v=none"), **HTMX)),
            received(live),
        ]
        polled = _polled(live)
        for url in ([live_poll] if live_poll else []) + [polled]:
            answers.append(received(self.teacher.get(url, HTTP_HX_TARGET="live", **HTMX)))
        return answers, polled


def _polled(page, version: str | None = None) -> str:
    """The address a page's poll asks (with another version)."""
    url = re.search(r'hx-get="([^"]+)"', page.content.decode()).group(1).replace("&amp;", "&")
    return url if version is None else url.rsplit("&v=", 1)[0] + version


def everything_received(screens: Screens, mover: int, move: dict[str, Any]
                        ) -> dict[Any, list[str]]:
    """What each pupil (by player) and the teacher receive around one move."""
    table, players = screens.table, sorted(screens.tablets)
    got: dict[Any, list] = {player: [] for player in players}
    got[NOT_OWN] = []
    for player in players:
        got[player] += [received(screens.page(player)), received(screens.poll(player))]
    got[TEACHER], live_poll = screens.teacher_sees(None)
    table.refresh_from_db()
    answer = screens.tablets[mover].post(
        reverse("games:table_move", args=[table.pk]),
        {"version": table.version, "move_id": "swapped-cards-tap", **move}, **HTMX,
    )
    assert answer.status_code == 200, answer.status_code
    assert 'data-testid="feedback"' in answer.content.decode(), "the move was not applied"
    stamp = live.stamp(saved(table))
    got[mover].append(received(answer))
    if settings.REDIS_URL:
        sent = heard(table, stamp, [tablet(table, screens.pupils[p]) for p in players])
        for player, event in zip(players, sent, strict=True):
            got[player].append(without_nonces(event))
    for _twice in range(2):  # the second poll reads the page the first one kept
        for player in players:
            got[player].append(received(screens.poll(player)))
    for player in players:
        page, poll = screens.page(player), screens.poll(player)
        got[player] += [received(page), received(poll), received(screens.poll(player, stamp))]
        # The kept watchers' page made theirs, or their own render: the same bytes.
        if without_nonces(poll.content.decode()) not in without_nonces(page.content.decode()):
            got[NOT_OWN].append(player)
    got[TEACHER] += screens.teacher_sees(live_poll)[0]
    return got


def check_deals(screens: Screens, deals: list, mover: int, move: dict[str, Any]) -> None:
    """Every deal played out; for each receiver, the deals that showed them
    the same bytes: one group per thing they may see, and some group of
    several deals for each of them (or the test proves nothing)."""
    engine = engine_of(screens.session.game)
    table = screens.table
    stamps: set[str] = set()
    groups: dict[Any, dict[str, list[tuple[int, list[str]]]]] = {}
    not_own = set()
    for number, state in enumerate(deals):
        deal_again(table, state, stamps)
        got = everything_received(screens, mover, move)
        not_own |= set(got.pop(NOT_OWN))
        after = engine.from_json(saved(table).state)
        stamps |= {f"{version}r" for version in range(saved(table).version + 1)}
        for receiver, pages in got.items():
            player = None if receiver == TEACHER else receiver
            seen = json.dumps([engine.view(state, player), engine.view(after, player)],
                              sort_keys=True, default=str)
            groups.setdefault(receiver, {}).setdefault(seen, []).append((number, pages))
    for receiver, by_view in groups.items():
        assert any(len(deals) > 1 for deals in by_view.values()), (
            f"no two deals look the same to {receiver}")
        for same_view in by_view.values():
            first_deal, first = same_view[0]
            for number, pages in same_view[1:]:
                for index, (one, other) in enumerate(zip(first, pages, strict=True)):
                    if one != other:
                        pytest.fail(_difference(receiver, first_deal, number, index, one, other))
    assert not not_own, f"the poll of players {sorted(not_own)} is not the table of their page"


def _difference(receiver, first: int, other: int, index: int, one: str, two: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(one, two, strict=False)) if a != b),
              min(len(one), len(two)))
    return (f"{receiver} is sent other bytes in deal {other} than in deal {first} "
            f"(their {index}th response), at {at}:\n{one[max(0, at - 200):at + 200]}\n"
            f"----\n{two[max(0, at - 200):at + 200]}")


def screens_of(session, table, seated) -> Screens:
    teacher = Client()
    teacher.force_login(session.teacher)
    return Screens(table, session, seated,
                   {player: signed_in(Client, pupil) for player, pupil in enumerate(seated)},
                   teacher)


# ------------------------------------------------------------------ NUM-X


def numx_deal(table, hands, rows, tricks, current=0):
    from .test_numx_pages import deal

    return deal(table, hands, rows=rows, tricks=tricks, current=current)


NX_HANDS = [["blue9", "green3", "yellow12"], ["blue5", "yellow11", "red13"],
            ["green2", "blue10", "red11"]]
NX_ROWS = [[("green8", True), ("shadow11", False)], [("red3", True), ("blue4", False)],
           [("yellow1", False)]]


def test_numx_a_rainbow_in_another_hand_does_not_change_the_mover_s_answer(
        classroom, teacher, pupils):
    """Léa lays a blue 9 on Inès's red 5, and Noah plays next: whoever holds
    the Rainbow 9 (Inès, who may add it; Noah; a score card; the pile),
    whichever card lies face down in Léa's own row."""
    session, table = one_table(classroom, teacher, pupils[:3], game="numx", options={}, seed=5)
    base = numx_deal(table, NX_HANDS, NX_ROWS, [Trick(2, ("red5",), 5, "number")])
    assert "rainbow9" in base.pile
    deals = [
        base,
        swap(base, "rainbow9", "red11"),  # Inès may add it
        swap(base, "rainbow9", "yellow11"),  # Noah holds it
        swap(base, "rainbow9", "blue4"),  # face down in Noah's row
        swap(base, "shadow11", "yellow1"),  # Léa's and Inès's face-down cards
        swap(swap(base, "shadow11", "rainbow9"), "red11", "yellow11"),
    ]
    check_deals(screens_of(session, table, pupils[:3]), deals, 0,
                {"type": "trick", "cards": "blue9"})


def test_numx_a_rainbow_a_computer_may_add_does_not_change_the_polls(
        classroom, teacher, pupils, monkeypatch):
    """Léa and Noah with a computer: whether the computer holds the Rainbow
    of the last trick, before Léa's move and after it, no tablet polls
    otherwise. (It waits: no worker makes its move while the test reads.)"""
    monkeypatch.setattr(services, "BOT_PAUSE", timedelta(minutes=10))
    session, table = one_table(classroom, teacher, pupils[:2], game="numx", options={},
                               players=3, bot_level="greedy", seed=5)
    hands = [NX_HANDS[0], NX_HANDS[1], ["green2", "blue10", "red11", "green4"]]
    base = numx_deal(table, hands, NX_ROWS, [Trick(1, ("red5",), 5, "number")])
    deals = [
        base,
        swap(base, "rainbow5", "red11"),  # the computer may add it to Noah's 5 now
        swap(base, "rainbow9", "green4"),  # and to Léa's 9 once she lays it
        swap(base, "rainbow9", "yellow11"),  # Noah holds it
    ]
    check_deals(screens_of(session, table, pupils[:2]), deals, 0,
                {"type": "trick", "cards": "blue9"})


def test_numx_a_drawn_card_is_the_drawer_s_alone(classroom, teacher, pupils):
    """Léa draws: which card the pile gives her is hers to see, the others'
    bytes are the same."""
    session, table = one_table(classroom, teacher, pupils[:3], game="numx", options={}, seed=5)
    base = numx_deal(table, [["blue2", "red4"], NX_HANDS[1], NX_HANDS[2]], NX_ROWS,
                     [Trick(1, ("green3",), 3, "number")])
    base = replace(base, pile=tuple(c for c in base.pile if c != "yellow6") + ("yellow6",))
    deals = [base, swap(base, "yellow6", "red11"), swap(base, "yellow6", "blue5"),
             swap(base, "yellow6", "rainbow2"), swap(base, "red11", "blue5"),
             swap(base, "rainbow3", "blue4")]
    check_deals(screens_of(session, table, pupils[:3]), deals, 0, {"type": "draw"})


# ------------------------------------------------------------------ Nambarz


def test_nambarz_a_match_with_cards_swapped_between_hands_and_the_pile(
        classroom, teacher, pupils):
    """Léa lays the card that matches; Noah plays next, Inès watches."""
    from .test_nambarz_pages import deal, drw, sym

    session, table = one_table(classroom, teacher, pupils[:3], game="nambarz", options={},
                               seed=5)
    base = deal(table, [[sym(5, 1), sym(2), sym(9), drw(3)], [sym(9, 1), sym(4), drw(7)],
                        [sym(6), sym(10), sym(11)]], target=sym(5))
    deals = [base, swap(base, sym(4), sym(10)), swap(base, sym(6), base.pile[0]),
             swap(base, drw(7), base.pile[-1]), swap(base, sym(2), sym(11))]
    check_deals(screens_of(session, table, pupils[:3]), deals, 0,
                {"type": "match", "card": str(sym(5, 1))})


def test_nambarz_a_draw_with_another_card_on_top_of_the_pile(classroom, teacher, pupils):
    """Léa draws: the card she draws is hers to see."""
    from .test_nambarz_pages import deal, drw, sym

    session, table = one_table(classroom, teacher, pupils[:3], game="nambarz", options={},
                               seed=5)
    base = deal(table, [[sym(2), sym(9), drw(3)], [sym(9, 1), sym(4), drw(7)],
                        [sym(6), sym(10), sym(11)]], target=sym(8))
    deals = [base, swap(base, base.pile[-1], sym(4)), swap(base, base.pile[0], sym(6)),
             swap(base, base.pile[-1], base.pile[0]), swap(base, sym(4), sym(10))]
    check_deals(screens_of(session, table, pupils[:3]), deals, 0, {"type": "draw"})


def test_numx_a_malus_whose_cards_only_its_target_sees(classroom, teacher, pupils):
    """Léa's Malus on Noah: the cards he takes from the pile are his to see."""
    session, table = one_table(classroom, teacher, pupils[:3], game="numx", options={}, seed=5)
    base = numx_deal(table, [["blue2", "malus4"], ["blue5", "red9"], NX_HANDS[2]],
                     [[], [("red3", True)], [("rainbow11", False)]], [])
    base = replace(base, pile=tuple(c for c in base.pile if c not in ("green5", "blue9"))
                   + ("green5", "blue9"))
    deals = [base, swap(base, "blue9", "red11"), swap(base, "green5", "yellow7"),
             swap(base, "red11", "yellow7"), swap(base, "rainbow11", "blue4")]
    check_deals(screens_of(session, table, pupils[:3]), deals, 0,
                {"type": "action", "card": "malus4", "target": "1"})
