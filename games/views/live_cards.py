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

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from .. import live, seating, selectors
from ..models import GameSession, Table
from .tables import table_context

TTL = 120  # s: a card is only useful until its table moves


def _key(table: Table, silent: bool) -> str:
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    return f"{prefix}:live-card:{table.pk}:{live.stamp(table)}:{int(silent)}:{get_language()}"


def _silent(table: Table) -> bool:
    return timezone.now() - table.turn_started_at > selectors.SILENCE


def _draw(table: Table, teacher) -> str:
    seating.load(table)
    context = table_context(table, player=None, teacher=teacher)
    context["stuck"] = selectors.why_stuck(table, context["stuck_player"])
    return render_to_string("games/_live_table.html", context)


def cards(session: GameSession, teacher) -> list[str]:
    """Every table's card, in table order: kept ones from the cache, the
    others drawn and kept."""
    tables = list(session.tables.order_by("number"))
    for table in tables:
        table.session = session  # one session row for all: no query per table
    keys = [_key(table, _silent(table)) for table in tables]
    client = live.redis_client()
    if client is not None:
        found = dict(zip(keys, client.mget(keys), strict=True)) if keys else {}
    else:
        found = cache.get_many(keys)
    shown = []
    for table, key in zip(tables, keys, strict=True):
        html = found.get(key)
        if html is None:
            html = _draw(table, teacher)
            if client is not None:
                client.set(key, html, ex=TTL)
            else:
                cache.set(key, html, TTL)
        elif isinstance(html, bytes):
            html = html.decode()
        shown.append(mark_safe(html))  # noqa: S308 - our own card, read back from the cache
    return shown
