"""A live card (games.views.live_cards) is drawn from its game's small
``card_context``, not from the whole table context the pupil's page needs:
it must show all the same. Each game is played move by move and, after every
move, its card is compared with the card the whole context draws."""

from __future__ import annotations

import time
from functools import cache
from types import SimpleNamespace

import pytest
from django.template import engines
from django.utils import translation

from classroom.models import Attempt
from games import live, seating, selectors, services
from games.models import Table
from games.pages import presenter
from games.views import live_cards
from games.views.tables import table_context

from .conftest import one_table

pytestmark = pytest.mark.django_db

GAMES = [
    ("numberquest", {"preset": "addition"}),
    ("ultimes", {}),
    ("nmbr9", {}),
    ("nambarz", {}),
    ("numx", {}),
]
MOVES = 90


# The card's template when the live view drew it from the whole table context.
WHOLE_CONTEXT_CARD = """{% load i18n %}<article id="live-table-{{ table.pk }}" class="card live-table{% if stuck %} stuck{% endif %}" data-testid="live-table-{{ table.number }}">
  <h2>{% blocktranslate with n=table.number %}Table {{ n }}{% endblocktranslate %}</h2>
{% if table.finished %}  <p class="over-flag" data-testid="table-over">{% translate "The game is over." %}</p>
{% endif %}  <div class="mini-board">{{ board_html }}</div>
  <ul class="mini-players">{% for p in players %}<li{% if p.current %} class="current"{% endif %}><span class="dot-token" style="background:{{ p.colour }}" aria-hidden="true">{{ p.index|add:1 }}</span>{% blocktranslate with name=p.name %}{{ name }}:{% endblocktranslate %} <strong>{{ p.score }}</strong>{% if p.current %} ← {% translate "turn" %}{% endif %}{% if p.winner %} {% include "games/_trophy.html" with size=20 %}<span class="vh">{% translate "wins" %}</span>{% endif %}</li>{% endfor %}</ul>
  {% if stuck %}<p class="stuck-flag">⚠ {% blocktranslate with name=current_name why=stuck %}{{ name }} seems stuck: {{ why }}.{% endblocktranslate %}</p>{% endif %}
  {% if last_calculation %}<p class="last-move" data-testid="last-calculation">{{ last_calculation }}</p>{% endif %}
  <a class="btn secondary" href="{% url 'games:table_projector' table.pk %}">{% translate "Full screen" %}</a>
</article>
"""  # noqa: E501 - the template as it was


@cache
def whole_context_template():
    # Compiled once: the cards are compared four times after each of hundreds of moves.
    return engines["django"].from_string(WHOLE_CONTEXT_CARD)


def whole_context_card(table_id: int, teacher_id: int, silent: bool) -> str:
    """The card as the live view drew it from ``table_context``."""
    table = Table.objects.select_related("session").get(pk=table_id)
    seating.load(table)
    context = table_context(table, player=None, teacher=SimpleNamespace(pk=teacher_id))
    context["stuck"] = selectors.why_stuck(table, context["stuck_player"], silent)
    return whole_context_template().render(context)


def live_card(table_id: int, teacher_id: int, silent: bool) -> str:
    table = Table.objects.select_related("session").get(pk=table_id)
    row = selectors.LiveRow(table.pk, live.stamp(table), None, table.session.status)
    # The silence starts 90 s after the turn: "now" is well before or after.
    now = time.time() + (10_000 if silent else -10_000)
    return str(live_cards.cards([row], table.session_id, teacher_id, now, "en")[table.pk])


def assert_same_cards(table_id: int, teacher_id: int) -> None:
    for silent in (False, True):
        for language in ("en", "fr"):
            with translation.override(language):
                assert live_card(table_id, teacher_id, silent) == whole_context_card(
                    table_id, teacher_id, silent
                ), (language, silent)


def a_turn(table: Table, pupils_of: dict[int, object], turn: int) -> list[tuple[int, dict]]:
    """A pupil's moves, as the game's own bot chooses them; none when the game is over."""
    table.refresh_from_db()
    shown = presenter(table.session.game)
    state = shown.engine.from_json(table.state)
    if shown.engine.result(state) is not None:
        return []
    waiting = [p for p in sorted(shown.waiting_on(state)) if p in pupils_of]
    if not waiting:
        return []
    player = waiting[turn % len(waiting)]
    return [(player, move) for move in shown.bot_moves(state, player, "greedy", table.version)]


def play(table: Table, pupil, move: dict, tap: str) -> None:
    table.refresh_from_db()
    assert services.play(table.pk, pupil, move, table.version, tap).status == "applied"


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_card_shows_what_the_whole_context_shows(
    game, options, classroom, teacher, pupils, django_capture_on_commit_callbacks
):
    session, table = one_table(classroom, teacher, pupils, game=game, options=options)
    pupils_of = {s.player: s.pupil for s in table.seats.select_related("pupil")}
    assert_same_cards(table.pk, teacher.pk)
    played = 0
    for turn in range(MOVES):
        moves = a_turn(table, pupils_of, turn)
        if not moves:
            break
        for player, move in moves:
            with django_capture_on_commit_callbacks(execute=True):
                play(table, pupils_of[player], move, f"tap{played}")
            played += 1
            assert_same_cards(table.pk, teacher.pk)
    assert played > 10, "the game stopped early: the cards were hardly compared"


def test_a_stuck_pupil_and_a_paused_game_show_alike(start, teacher, pupils):
    session, table = start()
    for _ in range(selectors.WRONG_IN_A_ROW):
        Attempt.objects.create(
            pupil=pupils[0], session=session, table=table, game="numberquest",
            skill="add", expected="5", given="6", correct=False,
        )  # fmt: skip
    assert_same_cards(table.pk, teacher.pk)
    assert "three wrong steps in a row" in live_card(table.pk, teacher.pk, False)
    services.set_status(session, session.Status.PAUSED)
    assert_same_cards(table.pk, teacher.pk)


def test_a_whole_class_card_shows_what_the_whole_context_shows(
    classroom, teacher, pupils, django_capture_on_commit_callbacks
):
    session = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils, table_size=1,
        whole_class=True, seed=2,
    )
    tables = list(session.tables.all())
    for turn in range(4):
        with django_capture_on_commit_callbacks(execute=True):
            services.show_next_card(session)
        for table in tables:
            pupils_of = {s.player: s.pupil for s in table.seats.select_related("pupil")}
            for player, move in a_turn(table, pupils_of, turn)[:1]:
                with django_capture_on_commit_callbacks(execute=True):
                    play(table, pupils_of[player], move, f"tap{turn}")
            assert_same_cards(table.pk, teacher.pk)
        session.refresh_from_db()


def test_computers_and_teams_are_named_alike(classroom, teacher, pupils):
    _session, table = one_table(
        classroom, teacher, pupils[:1], game="numberquest", options={"preset": "addition"},
        players=3, bot_level="greedy",
    )
    assert "Computer 2" in live_card(table.pk, teacher.pk, False)
    assert_same_cards(table.pk, teacher.pk)
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition"},
        pupils=pupils[:2], table_size=1, team_size=2, bot_level="greedy", seed=3,
    )
    table = session.tables.get()
    assert " &amp; " in live_card(table.pk, teacher.pk, False)
    assert_same_cards(table.pk, teacher.pk)


def test_a_card_is_drawn_only_in_its_teachers_own_session(start, teacher, other_teacher):
    session, table = start()
    row = selectors.LiveRow(table.pk, live.stamp(table), None, session.status)
    now = time.time()
    assert live_cards.cards([row], session.pk, other_teacher.pk, now, "en") == {}
    assert live_cards.cards([row], session.pk + 1, teacher.pk, now, "en") == {}
    assert selectors.card_tables([table.pk], session.pk, other_teacher.pk) == []
    assert list(live_cards.cards([row], session.pk, teacher.pk, now, "en")) == [table.pk]
