"""The teacher's live view, one card per table, each drawn once per version.

The live view polls every 2 s and, in a class at play, some table has moved at
nearly every poll: drawing every table again each time cost a teacher's screen
a core's tenth. A card changes only with its table's stamp (a move, a pause, a
seat, a card turned) and with the silence that flags a pupil as stuck, so it
is kept in the cache under those and only the tables that moved are drawn.
A card shows the teacher's own class only: its key holds the table, which
only that teacher's view reads.
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from classroom import redis_store

from .. import live, seating, selectors
from ..models import Table
from ..pages import Presenter, presenter
from ..pages.base import table_url
from ..selectors import LiveRow
from .tables import table_context

TTL = 120  # s: a card is only useful until its table moves


def _key(pk: int, stamp: str, silent: bool, language: str) -> str:
    prefix = redis_store.key_prefix()
    return f"{prefix}:live-card:{pk}:{stamp}:{int(silent)}:{language}"


def cards(
    rows: list[LiveRow], session_id: int, teacher_id: int, now: float, language: str
) -> dict[int, SafeString]:
    """The card of each of these tables: kept ones from the cache, the others
    drawn (all in one query of their rows, one of their last moves when the
    game's card reads them and one of their pupils' last steps) and kept. A
    drawn table's row gives its stamp, silence and the session's status to
    ``rows``: a move between two reads is then shown and named alike."""
    keys = {
        row.pk: _key(row.pk, row.stamp, now > row.silent_from, language)
        for row in rows
        if row.silent_from is not None
    }
    client = live.redis_client()
    if not keys:
        found = {}
    elif client is not None:
        found = dict(zip(keys.values(), client.mget(list(keys.values())), strict=True))
    else:
        found = cache.get_many(list(keys.values()))
    shown: dict[int, SafeString] = {}
    missing = []
    for row in rows:
        html = found.get(keys[row.pk]) if row.pk in keys else None
        if html is None:
            missing.append(row)
        else:
            # Our own card, read back from the cache.
            shown[row.pk] = mark_safe(html.decode() if isinstance(html, bytes) else html)  # noqa: S308
    if missing:
        shown.update(_draw(missing, session_id, teacher_id, now, language))
    return shown


def _draw(
    rows: list[LiveRow], session_id: int, teacher_id: int, now: float, language: str
) -> dict[int, SafeString]:
    read = selectors.card_tables([r.pk for r in rows], session_id, teacher_id)
    seats = dict(zip((t.pk for t in read), seating.kept_many(read), strict=True))
    shown_game = presenter(read[0].session.game) if read else None
    moves = selectors.last_moves({t.pk: shown_game.card_moves_of(t) for t in read})
    tables = {t.pk: t for t in read}
    drawn = []
    for row in rows:
        table = tables.get(row.pk)
        if table is None:
            continue  # gone since the first read
        row.stamp = live.stamp(table)
        row.silent_from = selectors.silent_from(table.turn_started_at)
        row.status = table.session.status
        names, pupils = _seated(seats[table.pk])
        context = _card_context(shown_game, table, names, moves[table.pk], teacher_id)
        drawn.append((row, table, context, pupils.get(context["stuck_player"])))
    stuck = selectors.why_stuck_of(
        [(t, pupil_id, now > row.silent_from) for row, t, _context, pupil_id in drawn]
    )
    shown = {}
    kept = {}
    for row, table, context, _pupil_id in drawn:
        context["stuck"] = stuck[table.pk]
        html = _card_html(table, context)
        kept[_key(row.pk, row.stamp, now > row.silent_from, language)] = html
        shown[row.pk] = mark_safe(html)  # noqa: S308 - every value in it escaped
    client = live.redis_client()
    if not kept:
        pass
    elif client is not None:
        with client.pipeline(transaction=False) as pipe:
            for key, html in kept.items():
                pipe.set(key, html, ex=TTL)
            pipe.execute()
    else:
        cache.set_many(kept, TTL)
    return shown


def _seated(kept: dict[str, Any]) -> tuple[dict[int, str], dict[int, int]]:
    """From a table's kept seats (games.seating): each player's name and
    the first pupil seated as each player.
    The card needs no Seat rows: building them took longer than its board."""
    seats = [(seat[PLAYER], seat[PUPIL]) for seat in kept["seats"]]
    pupils: dict[int, int] = {}
    for player, pupil_id in seats:
        if pupil_id:
            pupils.setdefault(player, pupil_id)
    labels = {int(pk): name for pk, name in kept["labels"].items()}
    return seating.player_names(seats, labels), pupils


PLAYER = seating.SEAT_FIELDS.index("player")
PUPIL = seating.SEAT_FIELDS.index("pupil_id")


def _card_context(
    shown_game: Presenter, table: Table, names: dict[int, str], moves: list[tuple],
    teacher_id: int,
) -> dict[str, Any]:
    state = shown_game.engine.from_json(table.state)
    context = shown_game.card_context(table, state, names, moves)
    if context is None:
        seating.load(table)
        # Only the teacher's id goes into a table's context (its poll token).
        context = table_context(table, player=None, teacher=SimpleNamespace(pk=teacher_id))
    context["game_end"] = shown_game.ending(state, names)
    return context


# The card is drawn here, not by a template: it is the live view's most drawn
# piece (every moved table at every poll, a whole class after each turned
# card), and the template engine took ten times as long for these few tags.


def _shown(value) -> str:
    """A value as ``{{ value }}`` shows it."""
    return conditional_escape(localize(value))


@lru_cache(maxsize=1)
def _trophy() -> str:
    return render_to_string("games/_trophy.html", {"size": 20})


def _token_number(player: dict) -> str:
    """The number on the player's token on the board: colour is not the only cue."""
    index = player.get("index")
    return str(index + 1) if isinstance(index, int) else ""


def _player_html(player: dict) -> str:
    html = [
        '<li class="current">' if player["current"] else "<li>",
        f'<span class="dot-token" style="background:{_shown(player["colour"])}" aria-hidden="true">'
        f'{_token_number(player)}</span>',
        # French puts a space before the colon: it is the translation's.
        _("%(name)s:") % {"name": _shown(player["name"])},
        f" <strong>{_shown(player['score'])}</strong>",
    ]
    if player["current"]:
        html.append(f" ← {_('turn')}")
    if player["winner"]:
        html.append(f' {_trophy()}<span class="vh">{_("wins")}</span>')
    html.append("</li>")
    return "".join(html)


def _over_words(ending: dict) -> str:
    """How the game ended: who won is the players' trophies; ended by the
    teacher, and with no winner, it says so."""
    words = [_("The game is over.")]
    if ending["ended_early"]:
        words.append(_("Ended by the teacher."))
    if ending["no_winner"]:
        words.append(_shown(ending["no_winner"]))
    return " ".join(words)


def _card_html(table: Table, context: dict) -> str:
    stuck = context["stuck"]
    html = [
        f'<article id="live-table-{_shown(table.pk)}" class="card live-table'
        f'{" stuck" if stuck else ""}" data-testid="live-table-{_shown(table.number)}">\n',
        f"  <h2>{_('Table %(n)s') % {'n': _shown(table.number)}}</h2>\n",
        # A finished table among those still playing: said first, in words.
        f'  <p class="over-flag" data-testid="table-over">{_over_words(context["game_end"])}</p>\n'
        if table.finished else "",
        f'  <div class="mini-board">{conditional_escape(context["board_html"])}</div>\n',
        '  <ul class="mini-players">',
        *(_player_html(player) for player in context["players"]),
        "</ul>\n  ",
    ]
    if stuck:
        why = _("%(name)s seems stuck: %(why)s.") % {
            "name": _shown(context["current_name"]),
            "why": _shown(stuck),
        }
        html.append(f'<p class="stuck-flag">⚠ {why}</p>')
    html.append("\n  ")
    if context["last_calculation"]:
        html.append(
            '<p class="last-move" data-testid="last-calculation">'
            f"{_shown(context['last_calculation'])}</p>"
        )
    projector = conditional_escape(table_url("games:table_projector", table.pk))
    html.append(
        f'\n  <a class="btn secondary" href="{projector}">{_("Full screen")}</a>\n</article>\n'
    )
    return "".join(html)


def out_of_band(card: str) -> SafeString:
    """A card that replaces its namesake on the page (htmx's out-of-band swap)."""
    head = "<article "
    if not card.startswith(head):
        raise ValueError("a live card is an <article>")
    return mark_safe('<article hx-swap-oob="true" ' + card[len(head) :])  # noqa: S308
