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

from types import SimpleNamespace

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from classroom import redis_store

from .. import live, seating, selectors
from ..models import Table
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
    drawn (all in one query of their rows and one of their pupils' last
    steps) and kept. A drawn table's row gives its stamp, silence and the
    session's status to ``rows``: a move between two reads is then shown and
    named alike."""
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
    read = Table.objects.filter(
        pk__in=[r.pk for r in rows], session_id=session_id, session__teacher_id=teacher_id
    ).select_related("session")
    tables = {t.pk: t for t in read}
    # Only the teacher's id goes into a table's context (its poll token).
    teacher = SimpleNamespace(pk=teacher_id)
    drawn = []
    for row in rows:
        table = tables.get(row.pk)
        if table is None:
            continue  # gone since the first read
        seating.load(table)
        row.stamp = live.stamp(table)
        row.silent_from = selectors.silent_from(table.turn_started_at)
        row.status = table.session.status
        drawn.append((row, table, table_context(table, player=None, teacher=teacher)))
    stuck = selectors.why_stuck_many(
        [(t, context["stuck_player"], now > row.silent_from) for row, t, context in drawn]
    )
    shown = {}
    kept = {}
    for row, table, context in drawn:
        context["stuck"] = stuck[table.pk]
        html = render_to_string("games/_live_table.html", context)
        kept[_key(row.pk, row.stamp, now > row.silent_from, language)] = html
        shown[row.pk] = mark_safe(html)  # noqa: S308 - rendered by the template engine
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


def out_of_band(card: str) -> SafeString:
    """A card that replaces its namesake on the page (htmx's out-of-band swap)."""
    head = "<article "
    if not card.startswith(head):
        raise ValueError("a live card is an <article>")
    return mark_safe('<article hx-swap-oob="true" ' + card[len(head) :])  # noqa: S308
