"""Read-only queries of the game pages: the teacher's live view above all.

Views parse the request, call a selector (reads) or a service
(``games.services``, writes) and render.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from types import SimpleNamespace
from typing import Any
from weakref import WeakKeyDictionary

from django.core.exceptions import PermissionDenied
from django.db import connections, router
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom import roles, roster
from classroom.models import Attempt, Classroom, Pupil

from . import live
from .models import GameSession, Move, Table

SILENCE = timedelta(seconds=90)
WRONG_IN_A_ROW = 3


def why_stuck(table: Table, player: int | None, silent: bool | None = None) -> str:
    """Why the pupil whose turn it is (``player``) seems stuck, or ''.
    ``silent``: whether their silence has lasted (from the turn's start, by
    default), as the caller decided it for the whole answer."""
    return why_stuck_many([(table, player, silent)])[table.pk]


def why_stuck_many(asked: list[tuple[Table, int | None, bool | None]]) -> dict[int, str]:
    """``why_stuck`` of several tables (their seats loaded) in one query: the
    live view draws every table that moved in one answer."""
    pupils = []
    for table, player, silent in asked:
        seats = [s for s in table.seats.all() if s.player == player and s.pupil_id]
        pupils.append((table, seats[0].pupil_id if seats else None, silent))
    return why_stuck_of(pupils)


def why_stuck_of(asked: list[tuple[Table, int | None, bool | None]]) -> dict[int, str]:
    """``why_stuck_many`` where the caller knows the pupil whose turn it is
    (the first seated as that player; None: no pupil's turn)."""
    pupils = {
        table.pk: pupil_id
        for table, pupil_id, _silent in asked
        if pupil_id and not table.finished and table.session.is_running
    }
    recent = _recent_attempts(pupils)
    now = timezone.now()
    found = {}
    for table, _pupil_id, silent in asked:
        if table.pk not in pupils:
            found[table.pk] = ""
        elif len(recent[table.pk]) == WRONG_IN_A_ROW and not any(recent[table.pk]):
            found[table.pk] = _("three wrong steps in a row")
        elif silent if silent is not None else now - table.turn_started_at > SILENCE:
            found[table.pk] = _("no move for a while")
        else:
            found[table.pk] = ""
    return found


# --------------------------------------------------------------------------- the live cards' reads
# The live view draws the cards of the tables that moved at nearly every poll:
# these selects are written out in SQL, which the ORM took longer to build
# than the database to answer.


# Per connection (its converters are its own): what each read's columns need
# to become what the ORM would give, and its SQL, built once.
_built: WeakKeyDictionary = WeakKeyDictionary()


def _once(connection, key: tuple, build: Callable[[], Any]) -> Any:
    kept = _built.setdefault(connection, {})
    if key not in kept:
        kept[key] = build()
    return kept[key]


def _reader(connection, fields, alias: str) -> Callable[[Sequence], list]:
    """Turns a row of these fields' columns into what the ORM would give."""
    steps = []
    for index, field in enumerate(fields):
        column = field.get_col(alias)
        found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if found:
            steps.append((index, column, found))

    def read(row) -> list:
        values = list(row)
        for index, column, found in steps:
            for convert in found:
                values[index] = convert(values[index], column, connection)
        return values

    return read


def _fetch(connection, sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


TABLE_FIELDS = Table._meta.concrete_fields
SESSION_FIELDS = GameSession._meta.concrete_fields
TABLE_NAMES = [f.attname for f in TABLE_FIELDS]
SESSION_NAMES = [f.attname for f in SESSION_FIELDS]


def _card_tables_sql(connection, count: int) -> str:
    qn = connection.ops.quote_name
    columns = [f"t.{qn(f.column)}" for f in TABLE_FIELDS]
    columns += [f"s.{qn(f.column)}" for f in SESSION_FIELDS]
    return (
        f"SELECT {', '.join(columns)} FROM {qn(Table._meta.db_table)} t"
        f" INNER JOIN {qn(GameSession._meta.db_table)} s"
        f" ON s.{qn(GameSession._meta.pk.column)} = t.{qn(Table.session.field.column)}"
        f" WHERE t.{qn(Table._meta.pk.column)} IN ({', '.join(['%s'] * count)})"
        f" AND t.{qn(Table.session.field.column)} = %s"
        f" AND {_run_by_sql(connection, 's')}"
    )


def _run_by_sql(connection, session: str) -> str:
    """SQL that holds when the session's class is run by the teacher whose id
    is given twice after it (classroom.roles.classrooms_run_by, written out for
    the live view's one query)."""
    qn = connection.ops.quote_name
    co_teachers = Classroom.co_teachers.through._meta
    class_column = f"{session}.{qn(GameSession.classroom.field.column)}"
    return (
        f"({class_column} IN (SELECT {qn(Classroom._meta.pk.column)}"
        f" FROM {qn(Classroom._meta.db_table)} WHERE {qn(Classroom.teacher.field.column)} = %s)"
        f" OR {class_column} IN (SELECT {qn(co_teachers.get_field('classroom').column)}"
        f" FROM {qn(co_teachers.db_table)}"
        f" WHERE {qn(co_teachers.get_field('teacher').column)} = %s))"
    )


def card_tables(ids: list[int], session_id: int, teacher_id: int) -> list[Table]:
    """These tables, each with its session, if they are of a session of a class
    this teacher runs: one query, whole rows as the ORM's select_related reads them."""
    if not ids:
        return []
    db = router.db_for_read(Table)
    connection = connections[db]
    sql = _once(connection, ("tables", len(ids)), lambda: _card_tables_sql(connection, len(ids)))
    read_table = _once(connection, ("table",), lambda: _reader(connection, TABLE_FIELDS, "t"))
    read_session = _once(
        connection, ("session",), lambda: _reader(connection, SESSION_FIELDS, "s")
    )
    found = []
    split = len(TABLE_FIELDS)
    for row in _fetch(connection, sql, [*ids, session_id, teacher_id, teacher_id]):
        table = Table.from_db(db, TABLE_NAMES, read_table(row[:split]))
        table.session = GameSession.from_db(db, SESSION_NAMES, read_session(row[split:]))
        found.append(table)
    return found


MOVE_FIELDS = [Move._meta.get_field(f) for f in ("table", "number", "player", "pupil", "events")]


def _last_moves_sql(connection, count: int) -> str:
    qn = connection.ops.quote_name
    table, number = qn(MOVE_FIELDS[0].column), qn(MOVE_FIELDS[1].column)
    one = (
        f"SELECT {', '.join(qn(f.column) for f in MOVE_FIELDS)} FROM {qn(Move._meta.db_table)}"
        f" WHERE {table} = %s ORDER BY {number} DESC LIMIT %s"
    )
    return " UNION ALL ".join(f"SELECT * FROM ({one}) AS m{i}" for i in range(count))


def last_moves(wanted: dict[int, int]) -> dict[int, list[tuple]]:
    """Each table's last ``n`` moves (``wanted``: table id -> n), newest
    first, as (number, player, pupil id, events): one query for all."""
    found: dict[int, list[tuple]] = {pk: [] for pk in wanted}
    asked = [(pk, n) for pk, n in wanted.items() if n > 0]
    if not asked:
        return found
    connection = connections[router.db_for_read(Move)]
    sql = _once(connection, ("moves", len(asked)), lambda: _last_moves_sql(connection, len(asked)))
    read = _once(connection, ("move",), lambda: _reader(connection, MOVE_FIELDS, "m"))
    for table_id, *move in map(read, _fetch(connection, sql, [v for pair in asked for v in pair])):
        found[table_id].append(tuple(move))
    for moves in found.values():
        moves.sort(key=lambda move: move[0], reverse=True)
    return found


def recent_moves(table_id: int, count: int) -> tuple[list[tuple], tuple]:
    """One table's last ``count`` moves as ``last_moves`` gives them, and a
    key of what they hold: the events' JSON text, not what it decodes to. A
    table's pages key what they work out of its moves (the log) on it, and
    the events of a move are decoded once per process: shared by every page
    drawn from them, they are read, never changed."""
    connection = connections[router.db_for_read(Move)]
    sql = _once(connection, ("moves", 1), lambda: _last_moves_sql(connection, 1))
    read = _once(connection, ("move-head",), lambda: _reader(connection, MOVE_FIELDS[:-1], "m"))
    rows = _fetch(connection, sql, [table_id, count])
    rows.sort(key=lambda row: row[1], reverse=True)
    moves = []
    for row in rows:
        _table_id, number, player, pupil_id = read(row[:-1])
        moves.append((number, player, pupil_id, _events(connection.alias, row[-1])))
    return moves, tuple((row[1], row[2], row[3], row[-1]) for row in rows)


@lru_cache(maxsize=4096)
def _events(alias: str, text: Any) -> Any:
    connection = connections[alias]
    return _once(connection, ("events",), lambda: _reader(connection, MOVE_FIELDS[-1:], "m"))(
        [text]
    )[0]


ATTEMPT_FIELDS = [Attempt._meta.get_field(f) for f in ("table", "correct")]


def _recent_attempts_sql(connection, count: int) -> str:
    qn = connection.ops.quote_name
    pupil, pk = Attempt._meta.get_field("pupil").column, Attempt._meta.pk.column
    one = (
        f"SELECT {', '.join(qn(f.column) for f in ATTEMPT_FIELDS)}"
        f" FROM {qn(Attempt._meta.db_table)}"
        f" WHERE {qn(ATTEMPT_FIELDS[0].column)} = %s AND {qn(pupil)} = %s"
        f" ORDER BY {qn(pk)} DESC LIMIT {WRONG_IN_A_ROW}"
    )
    return " UNION ALL ".join(f"SELECT * FROM ({one}) AS a{i}" for i in range(count))


def _recent_attempts(pupils: dict[int, int]) -> dict[int, list[bool]]:
    """Table id -> whether each of its pupil's last WRONG_IN_A_ROW
    attempts there was right (``pupils``: table id -> pupil id)."""
    recent: dict[int, list[bool]] = {pk: [] for pk in pupils}
    if not pupils:
        return recent
    connection = connections[router.db_for_read(Attempt)]
    sql = _once(
        connection, ("attempts", len(pupils)), lambda: _recent_attempts_sql(connection, len(pupils))
    )
    read = _once(connection, ("attempt",), lambda: _reader(connection, ATTEMPT_FIELDS, "a"))
    params = [value for pair in pupils.items() for value in pair]
    for table_id, correct in map(read, _fetch(connection, sql, params)):
        recent[table_id].append(correct)
    return recent


def late_pupils(session: GameSession) -> list[Pupil]:
    """Pupils of the class who signed in after the game started and have no
    seat in it, by name. Those the teacher left out when starting it signed in
    before, and stay out."""
    return roster.in_name_order(
        session.classroom.pupils.filter(signed_in_at__gte=session.created_at).exclude(
            seats__table__session=session
        )
    )


@dataclass
class LiveRow:
    """What the live view needs of a table to know whether its card changed."""

    pk: int
    stamp: str
    # The second after which its pupil counts as silent; None when not known
    # for this stamp (the table moved since): its row is read to draw it.
    silent_from: int | None
    status: str  # the session's


def silent_from(turn_started_at) -> int:
    return math.ceil(turn_started_at.timestamp() + SILENCE.total_seconds())


def status_of_stamp(stamp: str) -> str:
    """The session's status as a table's stamp (games.live.stamp) names it:
    the letter after the version."""
    letter = stamp.lstrip("0123456789")[:1]
    return {s[0]: s for s in GameSession.Status.values}.get(letter, GameSession.Status.RUNNING)


def every_table_finished(session_id: int) -> bool:
    """Whether an ended session ended because every table's game was over,
    not because the teacher ended it (services.set_status makes an "end"
    move at each table still playing). Asked only of ended sessions."""
    return not Move.objects.filter(
        table__session_id=session_id, player=None, move__type="end", move__reason="teacher"
    ).exists()


def live_rows(session_id: int, teacher_id: int) -> list[LiveRow]:
    """The tables of a session of a class this teacher runs, in order, with
    their stamps as games.live.stamp makes them: one query, no state read.
    Empty for anyone else's session (or a session without tables)."""
    rows = (
        Table.objects.filter(
            session_id=session_id,
            session__classroom__in=roles.classrooms_run_by_id(teacher_id).values("pk"),
        )
        .order_by("number")
        .values_list(
            "pk",
            "version",
            "seating",
            "turn_started_at",
            "session__status",
            "session__whole_class",
            "session__cards_shown",
        )
    )
    found = []
    for pk, version, seating, started, status, whole_class, cards_shown in rows:
        session = SimpleNamespace(status=status, whole_class=whole_class, cards_shown=cards_shown)
        stamp = live.stamp(SimpleNamespace(version=version, seating=seating, session=session))
        found.append(LiveRow(pk, stamp, silent_from(started), status))
    return found


def teachers_session(teacher, pk: int) -> GameSession:
    """A game session of a class this teacher runs (its teacher or a
    co-teacher); 404 for a class they do not see, 403 for one they only read."""
    session = (
        GameSession.objects.select_related("classroom")
        .filter(pk=pk, classroom__in=roles.classrooms_run_by(teacher).values("pk"))
        .first()
    )
    if session is None:
        seen = GameSession.objects.filter(
            pk=pk, classroom__in=roles.classrooms_seen_by(teacher).values("pk")
        )
        raise PermissionDenied if seen.exists() else Http404
    return session
