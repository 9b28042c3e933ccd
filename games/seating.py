"""Who sits at a table, and the names the pages give them, read once per seating.

Every move and every poll that draws a table needs its seats with their pupils
and the class's names for them (``classroom.roster.labels``): two queries,
a fifth of a drawn poll. The seats change only when the table's ``seating``
counter moves (a late pupil takes a seat) or a pupil is erased (``forget``,
from the Seat's delete signal), so they are kept in the cache with that counter
and ``load`` hands them to ``table.seats.all()`` as a prefetch would.

A renamed pupil keeps the old name on the tables for up to ``TTL``: the only
staleness, and a harmless one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.cache import cache
from django.db import router, transaction
from django.utils.translation import gettext as _

from classroom import redis_store, roster
from classroom.models import Pupil

from . import live
from .models import Seat, Table

TTL = 60  # s
PUPIL_FIELDS = ("id", "classroom_id", "first_name", "initial", "avatar", "sign_in_generation")
SEAT_FIELDS = ("id", "table_id", "player", "pupil_id", "bot_level")


def _key(table_id: int) -> str:
    return f"{redis_store.key_prefix()}:seating:{table_id}"


def _read(table_id: int) -> dict[str, Any] | None:
    client = live.redis_client()
    return _parse(client.get(_key(table_id)) if client is not None else cache.get(_key(table_id)))


def _parse(raw: bytes | str | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return None


def game_and_seats(table_id: int) -> tuple[str | None, dict[str, Any] | None]:
    """The table's game (``live.game_of``) and its kept seats for ``load``,
    read together: one round trip where a tap made two. Kept seats read before
    the table's lock are used only if the seating the lock then reads is theirs."""
    client = live.redis_client()
    if client is None:
        return live.game_of(table_id), _read(table_id)
    game, seats = client.mget(live.game_key(table_id), _key(table_id))
    return live.game_of(table_id, game), _parse(seats)


def _write(table_id: int, kept: dict[str, Any]) -> None:
    raw = json.dumps(kept, separators=(",", ":"))
    client = live.redis_client()
    if client is not None:
        client.set(_key(table_id), raw, ex=TTL)
    else:
        cache.set(_key(table_id), raw, TTL)


def forget(table_id: int) -> None:
    client = live.redis_client()
    if client is not None:
        client.delete(_key(table_id))
    else:
        cache.delete(_key(table_id))


def forget_seat(sender, instance: Seat, **kwargs) -> None:
    forget(instance.table_id)
    transaction.on_commit(lambda: forget(instance.table_id))


def _from_database(table: Table) -> dict[str, Any]:
    seats = list(Seat.objects.filter(table=table).select_related("pupil").order_by("player", "pk"))
    pupils = [s.pupil for s in seats if s.pupil_id]
    return {
        "seating": table.seating,
        "seats": [[getattr(s, f) for f in SEAT_FIELDS] for s in seats],
        "pupils": [[getattr(p, f) for f in PUPIL_FIELDS] for p in pupils],
        "labels": {str(pk): name for pk, name in roster.labels(pupils).items()},
    }


_UNREAD: Any = object()


def load(table: Table, kept: dict[str, Any] | None = _UNREAD) -> None:
    """Give ``table.seats.all()`` its seats, each with its pupil, and ``labels``
    its names, from the cache when its seating is the table's, else from the
    database (and kept). ``kept``: what ``game_and_seats`` read already."""
    if kept is _UNREAD:
        kept = _read(table.pk)
    kept = _current(table, kept)
    db = router.db_for_read(Seat)
    pupils = {row[0]: Pupil.from_db(db, PUPIL_FIELDS, row) for row in kept["pupils"]}
    seats = []
    for row in kept["seats"]:
        seat = Seat.from_db(db, SEAT_FIELDS, row)
        seat.table = table
        if seat.pupil_id:
            seat.pupil = pupils[seat.pupil_id]
        seats.append(seat)
    shown = Seat.objects.filter(table=table)
    shown._result_cache = seats
    shown._prefetch_done = True
    cache_name = Seat._meta.get_field("table").remote_field.cache_name
    if not hasattr(table, "_prefetched_objects_cache"):
        table._prefetched_objects_cache = {}
    table._prefetched_objects_cache[cache_name] = shown
    table._seat_labels = {int(pk): name for pk, name in kept["labels"].items()}


def kept_many(tables: list[Table]) -> list[dict[str, Any]]:
    """The seats of each table as ``load`` takes them, read in one round
    trip; those not kept for the table's seating from the database (and kept).
    For callers that need the names and players alone, not the Seat rows."""
    keys = [_key(table.pk) for table in tables]
    client = live.redis_client()
    if client is not None:
        raws = client.mget(keys) if keys else []
    else:
        found = cache.get_many(keys)
        raws = [found.get(key) for key in keys]
    return [_current(table, _parse(raw)) for table, raw in zip(tables, raws, strict=True)]


def _current(table: Table, kept: dict[str, Any] | None) -> dict[str, Any]:
    if kept is None or kept.get("seating") != table.seating:
        kept = _from_database(table)
        _write(table.pk, kept)
    return kept


def player_names(
    seats: Iterable[tuple[int, int | None]], labels: Mapping[int, str]
) -> dict[int, str]:
    """Each player's name from its seats, ``(player, pupil id or None)`` in
    seat order, and the pupils' ``labels``: a team's names joined with " & ",
    the n-th computer seat "Computer n"."""
    names: dict[int, list[str]] = {}
    bots = 0
    for player, pupil_id in seats:
        if pupil_id:
            names.setdefault(player, []).append(labels[pupil_id])
        else:
            bots += 1
            names.setdefault(player, []).append(_("Computer %(n)d") % {"n": bots})
    return {player: " & ".join(parts) for player, parts in names.items()}


def labels(table: Table) -> dict[int, str]:
    """Pupil id -> name, for the pupils seated at this table."""
    found = getattr(table, "_seat_labels", None)
    if found is not None:
        return found
    return roster.labels([s.pupil for s in table.seats.all() if s.pupil_id])
