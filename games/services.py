"""Applying moves: the one path from a tap to the database.

`play()` locks the table row, refuses a stale version or answers a repeated
tap with the first answer, asks the engine, and writes the move, the new state
snapshot and the pupil's attempts in one transaction. Computer players and
timed turns move through `advance()`: a Celery task scheduled for the moment
the move is due (games.tasks), and the tablets' polls when the table says a
server move is due. No pupil's request ever waits for a bot, and a bot moves
even when no tablet has the table open.
"""

from __future__ import annotations

import functools
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from celery import current_app
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from classroom import roster
from classroom.models import Attempt, Opportunity, Pupil
from classroom.tasks import recompute_pupils
from engine.core import IllegalMove, Outcome

from . import live, seating, selectors, watching
from .models import GameSession, Move, Seat, Table
from .pages import engine_of, presenter

BOT_PAUSE = timedelta(seconds=1.5)  # long enough for children to see the bot's turn coming
SCHEDULE_SLACK = 0.05  # seconds after a move is due: a task a hair early would find it not due
MAX_RESPONSE_MS = 30 * 60 * 1000
# Moves only the server makes (a teacher's end, a clock's timeout): the
# engines take them from any player, so a pupil's request must never carry one,
# whatever a forged form says.
SERVER_MOVES = frozenset({"end", "timeout"})

log = logging.getLogger(__name__)


@dataclass
class PlayResult:
    """What a tap led to. `status`: applied, replayed (double tap), stale
    (the tablet's board was old), refused (the rules said no), closed (the
    session is paused or over), late (the turn's or the game's time ran out
    first: the clock's move was made instead), kept (work the tablet held
    when the teacher ended the game, recorded: _keep_after_end)."""

    status: str
    table: Table
    events: list[dict[str, Any]] = field(default_factory=list)
    refusal: IllegalMove | None = None


# --------------------------------------------------------------------------- sessions and seats


def start_session(
    classroom,
    teacher,
    *,
    game: str,
    options: dict[str, Any],
    pupils: list[Pupil],
    table_size: int,
    tablets: str = GameSession.Tablets.OWN,
    bot_level: str = "",
    seating: dict[int, int] | None = None,
    seed: int | None = None,
    whole_class: bool = False,
    team_size: int = 1,
    practice_skill: str = "",
    table_levels: dict[int, str] | None = None,
) -> GameSession:
    """A session with its tables. `seating` maps a pupil id to a table number
    chosen by the teacher; everyone else is seated at random. `table_levels`
    maps a table number to the level of its computer players, where it is not
    the session's `bot_level` (a plan of the class report fits each table's
    pupils); a table has computer players only where the session has.

    `whole_class` (NMBR 9): every pupil plays alone, all with the same deck,
    and the teacher's screen turns the cards: each pupil has a table of one
    (their own row to lock) and the session counts the cards shown."""
    rng = random.Random(seed if seed is not None else secrets.randbits(32))
    engine = engine_of(game)
    if whole_class:
        table_size, bot_level, tablets, seating = 1, "", GameSession.Tablets.OWN, {}
        team_size = 1
    # Refuses bad options, and a table size the game can't be played at,
    # before anything is written.
    engine.new(options, table_size, 0)
    with transaction.atomic():
        session = GameSession.objects.create(
            classroom=classroom,
            teacher=teacher,
            game=game,
            options=options,
            table_size=table_size,
            team_size=team_size,
            tablets=tablets,
            bot_level=bot_level,
            whole_class=whole_class,
            cards_shown=1 if whole_class else 0,
            practice_skill=practice_skill,
        )
        deck_seed = rng.randrange(2**31) if whole_class else None
        if whole_class:
            # One table a pupil, numbered as the class list reads: the
            # teacher's screens list the tables in that order.
            groups = [[pupil] for pupil in roster.in_name_order(pupils)]
        else:
            groups = _group(pupils, table_size * team_size, seating or {}, rng)
        levels = table_levels or {}
        for number, group in enumerate(groups, start=1):
            _create_table(session, number, group, rng, seed=deck_seed, level=levels.get(number))
    return session


def _group(
    pupils: list[Pupil], size: int, seating: dict[int, int], rng: random.Random
) -> list[list[Pupil]]:
    chosen: dict[int, list[Pupil]] = {}
    free = []
    for pupil in pupils:
        if pupil.pk in seating:
            chosen.setdefault(seating[pupil.pk], []).append(pupil)
        else:
            free.append(pupil)
    rng.shuffle(free)
    groups = [chosen[number] for number in sorted(chosen)]
    if free:
        # Spread the rest evenly: tables of 3 and 3 rather than 4 and 2.
        count = -(-len(free) // size)
        spread: list[list[Pupil]] = [[] for _ in range(count)]
        for index, pupil in enumerate(free):
            spread[index % count].append(pupil)
        groups += spread
    return [group for group in groups if group]


def _create_table(
    session: GameSession, number: int, group: list[Pupil], rng, seed: int | None = None,
    level: str | None = None,
) -> Table:
    # A team shares a seat: the pupils of the table, in order, fill each seat in turn.
    teams = [group[i:i + session.team_size] for i in range(0, len(group), session.team_size)]
    bots = max(0, session.table_size - len(teams)) if session.bot_level else 0
    level = level or session.bot_level
    players = len(teams) + bots
    if seed is None:
        seed = rng.randrange(2**31)
    state = engine_of(session.game).new(session.options, players, seed)
    table = Table.objects.create(
        session=session,
        number=number,
        seed=seed,
        state=state.to_json(),
        turn_started_at=timezone.now(),
    )
    Seat.objects.bulk_create(
        [Seat(table=table, player=i, pupil=pupil) for i, team in enumerate(teams) for pupil in team]
        + [
            Seat(table=table, player=len(teams) + i, bot_level=level)
            for i in range(bots)
        ]
    )
    _record_opportunities(table, state, [])
    due = due_at(table, state)
    transaction.on_commit(lambda: _announce(table, due))
    return table


def seat_late_pupils(session: GameSession, pupils: list[Pupil]) -> list[Table]:
    """Late pupils take a computer player's seat where one is free (keeping its
    money), or sit at a new table."""
    seated = set(Seat.objects.filter(table__session=session).values_list("pupil_id", flat=True))
    late = [p for p in pupils if p.pk not in seated]
    touched = []
    with transaction.atomic():
        for seat in Seat.objects.select_for_update().filter(
            table__session=session, pupil__isnull=True, table__finished=False
        ):
            if not late:
                break
            seat.pupil = late.pop(0)
            seat.bot_level = ""
            seat.save(update_fields=["pupil", "bot_level"])
            moved = {"seating": F("seating") + 1}
            game = engine_of(session.game).from_json(seat.table.state)
            if presenter(session.game).current(game) == seat.player:
                # The late pupil's turn starts as they sit down, not before.
                moved["turn_started_at"] = moved["updated_at"] = timezone.now()
            Table.objects.filter(pk=seat.table_id).update(**moved)
            touched.append(seat.table)
        if late:
            rng = random.Random()
            last = session.tables.order_by("-number").values_list("number", "seed").first()
            number = last[0] if last else 0
            # In a whole-class game the late pupil gets the class's deck.
            deck_seed = last[1] if last and session.whole_class else None
            for group in _group(late, session.table_size * session.team_size, {}, rng):
                try:
                    with transaction.atomic():
                        table = _create_table(session, number + 1, group, rng, seed=deck_seed)
                except IllegalMove as refusal:
                    # Too few for the game (a pupil alone at a game for two, or
                    # three at a game of teams of two, which its options refuse):
                    # they wait, unseated, for the next late pupil. A full table
                    # refused is a fault of ours, not a wait.
                    full = len(group) >= session.table_size * session.team_size
                    if full and refusal.code != "bad_players":
                        raise
                    continue
                number += 1
                touched.append(table)
        # Each touched table's new stamp (its seating moved on), read under
        # the seats' locks: published, not just deleted, so that a move's
        # commit whose publish comes later cannot put the old seating back.
        fresh = Table.objects.select_related("session").in_bulk([t.pk for t in touched])
        for table in fresh.values():
            due = due_at(table, engine_of(session.game).from_json(table.state))
            transaction.on_commit(
                lambda t=table, d=due: (watching.forget(t.pk), _announce(t, d))
            )
    return touched


def set_status(session: GameSession, status: str) -> None:
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        if session.status == GameSession.Status.ENDED:
            return
        session.status = status
        if status == GameSession.Status.ENDED:
            session.ended_at = timezone.now()
            for table in session.tables.select_for_update().filter(finished=False):
                _cut_off(table)
                _apply_server_move(table, {"type": "end", "reason": "teacher"})
            # A game whose engine refuses the end (its state saved before
            # every game had one) stops where it is.
            session.tables.filter(finished=False).update(finished=True)
        if status in (GameSession.Status.ENDED, GameSession.Status.PAUSED):
            # A teacher who pauses or ends a game opens the report next.
            _refresh_reports(
                Seat.objects.filter(table__session=session, pupil__isnull=False)
                .values_list("pupil_id", flat=True)
                .distinct()
            )
        elif status == GameSession.Status.RUNNING:
            # The pause does not count against a timed turn, nor in the time
            # a pupil takes over their move.
            now = timezone.now()
            session.tables.update(turn_started_at=now, updated_at=now)
        session.save(update_fields=["status", "ended_at"])
        ids = list(session.tables.values_list("pk", flat=True))
        transaction.on_commit(lambda: live.session_changed(session, ids))


def finish_when_every_table_has(session_id: int) -> bool:
    """End a session whose every table's game is over, as the teacher's end
    would (the live view says so, the pupils' list of games drops it); True
    if it did. Run in a transaction of its own once the move that finished
    a table has committed, not inside it: of two tables finishing at once,
    the later commit's check sees both finished (each move's own read could
    miss the other)."""
    with transaction.atomic():
        session = (
            GameSession.objects.select_for_update()
            .filter(
                pk=session_id,
                status__in=[GameSession.Status.RUNNING, GameSession.Status.PAUSED],
            )
            .first()
        )
        if session is None:
            return False
        tables = session.tables.all()
        if not tables.exists() or tables.filter(finished=False).exists():
            return False
        session.status = GameSession.Status.ENDED
        session.ended_at = timezone.now()
        session.save(update_fields=["status", "ended_at"])
        ids = list(tables.values_list("pk", flat=True))
        transaction.on_commit(lambda: live.session_changed(session, ids))
    return True


def _end_when_every_table_has(session: GameSession) -> None:
    """After the move that finished a table has committed: the session ends
    if every table has, and the session read with that table is brought up
    to date for what runs after (the move's ring and its answer). Drawn as
    still playing, the answer's stamp was stale as it left: the ring of the
    end made the mover's tablet draw the same board again at once, without
    the lines about the move that only the answer carries. Read whatever
    this call found: another table's last move, or the teacher, may have
    ended the session a moment before."""
    finish_when_every_table_has(session.pk)
    session.refresh_from_db(fields=["status", "ended_at"])


# --------------------------------------------------------------------------- a tap


def show_next_card(session: GameSession, expected: int | None = None) -> int:
    """Whole-class NMBR 9: the teacher turns the next card. Returns how many
    cards the class has now seen. With `expected` (the count the teacher's
    screen showed), a second tap that raced the first turns nothing."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        first = session.tables.only("state").first()
        deck = len(first.state.get("deck", [])) if first else 0
        if expected is not None and expected != session.cards_shown:
            return session.cards_shown
        if (
            session.whole_class
            # Paused, the pupils cannot place: a card turned now would be missed.
            and session.status == GameSession.Status.RUNNING
            and session.cards_shown < deck
        ):
            session.cards_shown += 1
            session.save(update_fields=["cards_shown"])
            # Every pupil's turn starts with the card: their time runs from it.
            now = timezone.now()
            session.tables.filter(finished=False).update(turn_started_at=now, updated_at=now)
        ids = list(session.tables.values_list("pk", flat=True))
        transaction.on_commit(lambda: live.session_changed(session, ids))
    return session.cards_shown


def seat_of(table: Table, pupil: Pupil) -> Seat | None:
    return next((s for s in table.seats.all() if s.pupil_id == pupil.pk), None)


def player_for(table: Table, pupil: Pupil, state) -> int | None:
    """The player a pupil moves for: their seat, or on a shared tablet the
    human whose turn it is at their table."""
    seat = seat_of(table, pupil)
    if seat is None:
        return None
    if table.session.tablets == GameSession.Tablets.SHARED:
        current = presenter(table.session.game).current(state)
        if current is None:
            return seat.player
        humans = {s.player for s in table.seats.all() if s.pupil_id}
        if current in humans:
            return current
    return seat.player


def play(
    table_id: int,
    pupil: Pupil,
    move: dict[str, Any],
    version: int | None,
    move_id: str,
    scene: str = "",
    answering: int | None = None,
    seats: Any = None,
    before_ring: Callable[[Table], None] | None = None,
) -> PlayResult:
    """Apply a pupil's tap. Raises Table.DoesNotExist for a table that is not.
    ``seats``: the kept seats the view read with the table's game
    (seating.game_and_seats), None to read them here. ``before_ring``: run
    with the saved table once an applied move has committed, before the
    tablets are told: what it keeps for them (games.watching) is there when
    they come for it."""
    try:
        with transaction.atomic():
            return _play_locked(
                table_id, pupil, move, version, move_id, scene, answering, seats, before_ring
            )
    except _TapAgain as again:
        # Two requests with the same tap id raced past the first check. The
        # whole transaction is undone (no savepoint: two queries a move saved).
        return PlayResult("replayed", again.table)


class _TapAgain(Exception):
    def __init__(self, table: Table) -> None:
        self.table = table


def _play_locked(
    table_id: int, pupil: Pupil, move: dict[str, Any], version: int | None, move_id: str,
    scene: str, answering: int | None, seats: Any = None,
    before_ring: Callable[[Table], None] | None = None,
) -> PlayResult:
    table = _lock_table(table_id)
    # The seats with their pupils (the answer's page names them), as of the
    # seating read under the lock.
    if seats is None:
        seating.load(table)
    else:
        seating.load(table, seats)
    # A tap sent from the table's current version is new: its first sending
    # moved the version on. Only a tap from an older board may be a repeat.
    if move_id and version != table.version:
        earlier = _earlier_move(table.pk, move_id)
        if earlier is not None:
            return PlayResult("replayed", table, earlier.events)
    if not table.session.is_running:
        if table.session.status == GameSession.Status.ENDED:
            kept = _keep_after_end(table, pupil, move, version, move_id, answering)
            if kept is not None:
                return kept
        return PlayResult("closed", table)
    engine = engine_of(table.session.game)
    state = engine.from_json(table.state)
    if version != table.version and not _same_scene(table, pupil, state, scene):
        return PlayResult("stale", table)
    # The clock is the server's: a turn whose time ran out before any poll
    # noticed ends now, and this late move is not applied.
    late = _clock_move(table, state)
    if late is not None:
        _apply_server_move(table, late)
        return PlayResult("late", table)
    player = player_for(table, pupil, state)
    if player is None:
        return PlayResult("refused", table, refusal=IllegalMove("Not your table.", "not_seated"))
    if isinstance(move, dict) and move.get("type") in SERVER_MOVES:
        return PlayResult("refused", table, refusal=IllegalMove("Not a move.", "unknown_move"))
    try:
        presenter(table.session.game).check(table, state, player, move)
        outcome = engine.apply(state, player, move)
    except IllegalMove as refusal:
        return PlayResult("refused", table, refusal=refusal)
    acting = _pupil_of(table, player, pupil, answering)
    try:
        _commit(
            table, state, outcome, player, acting, move, move_id or _auto_id(), before_ring
        )
    except IntegrityError as error:
        raise _TapAgain(table) from error
    return PlayResult("applied", table, [e.to_json() for e in outcome.events])


def _same_scene(table: Table, pupil: Pupil, state, scene: str) -> bool:
    """Whether what this pupil's move depends on is unchanged since their
    tablet drew it (Presenter.scene), though the table's version moved on."""
    if not scene:
        return False
    player = player_for(table, pupil, state)
    return player is not None and presenter(table.session.game).scene(state, player) == scene


def _lock_table(table_id: int) -> Table:
    """The table with its session, locked: the session row share-locked before
    the table's own row (the order set_status() takes them in). A pause, an
    end or a turned card waits for the moves under way, and a move waits for
    them, so it reads the session as it now is; moves at different tables do
    not wait for each other. Raises Table.DoesNotExist.

    On PostgreSQL one statement: its locking clauses lock in the order they
    are written (session, then table), and each row it returns is the latest
    committed version of a row it locked. The SQL is built once per process."""
    if connection.vendor != "postgresql":
        # SQLite: one writer at a time anyway.
        return Table.objects.select_for_update(of=("self",)).select_related("session").get(
            pk=table_id
        )
    table = _table_row(table_id, _table_sql() + " FOR SHARE OF s FOR UPDATE OF t")
    if table is None:
        raise Table.DoesNotExist("Table matching query does not exist.")
    return table


def read_table(table_id: int) -> Table | None:
    """The table with its session, unlocked (a poll's read): on PostgreSQL
    its SQL is built once per process, where the ORM built it for each poll
    (a quarter of a poll that draws the table)."""
    if connection.vendor != "postgresql":
        return Table.objects.select_related("session").filter(pk=table_id).first()
    return _table_row(table_id, _table_sql())


def _table_row(table_id: int, sql: str) -> Table | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    table_fields = len(Table._meta.concrete_fields)
    table = _from_row(Table, row[:table_fields])
    table.session = _from_row(GameSession, row[table_fields:])
    return table


@functools.cache
def _table_sql() -> str:
    quote = connection.ops.quote_name
    columns = [
        f"{alias}.{quote(f.column)}"
        for alias, model in (("t", Table), ("s", GameSession))
        for f in model._meta.concrete_fields
    ]
    return (
        f"SELECT {', '.join(columns)} FROM {quote(GameSession._meta.db_table)} s "
        f"JOIN {quote(Table._meta.db_table)} t ON t.{quote('session_id')} = s.{quote('id')} "
        f"WHERE t.{quote('id')} = %s"
    )


def _earlier_move(table_id: int, move_id: str) -> Move | None:
    """The move this tap already made at this table, if it did. Asked at
    every tap from an older board (at NMBR 9, most taps: the others place
    meanwhile), so its SQL is built once per process, not by the ORM each time."""
    with connection.cursor() as cursor:
        cursor.execute(_earlier_move_sql(), [table_id, move_id])
        row = cursor.fetchone()
    return None if row is None else _from_row(Move, row)


@functools.cache
def _earlier_move_sql() -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in Move._meta.concrete_fields)
    return (
        f"SELECT {columns} FROM {quote(Move._meta.db_table)} "
        f"WHERE {quote('table_id')} = %s AND {quote('move_id')} = %s LIMIT 1"
    )


@functools.cache
def _converters(model) -> list[tuple[Any, list]]:
    """Each concrete field's column and the converters the ORM would apply to
    its value as the database returns it (JSON text to Python, ...)."""
    found = []
    for f in model._meta.concrete_fields:
        column = f.get_col(model._meta.db_table)
        found.append(
            (column, connection.ops.get_db_converters(column) + f.get_db_converters(connection))
        )
    return found


def _from_row(model, row):
    values = []
    for value, (column, converters) in zip(row, _converters(model), strict=True):
        for convert in converters:
            value = convert(value, column, connection)
        values.append(value)
    return model.from_db(connection.alias, [f.attname for f in model._meta.concrete_fields], values)


def _pupil_of(table: Table, player: int, fallback: Pupil, answering: int | None = None) -> Pupil:
    """Whose evidence a move is: the pupil a team's shared tablet says is
    answering, else the one who sent it if they sit at this seat, else (a
    shared tablet) the seat's first pupil."""
    seats = [s for s in table.seats.all() if s.player == player and s.pupil_id]
    for wanted in (answering, fallback.pk):
        chosen = next((s.pupil for s in seats if s.pupil_id == wanted), None)
        if chosen is not None:
            return chosen
    return seats[0].pupil if seats else fallback


def _keep_after_end(
    table: Table, pupil: Pupil, move: dict[str, Any], version: int | None, move_id: str,
    answering: int | None,
) -> PlayResult | None:
    """Work the pupil's tablet still held when the teacher ended the game (the
    steps of a calculation kept there): recorded as their attempts, the game
    left as it ended. None when the game keeps no such work, or the rules
    refuse it: the move is then closed like any other."""
    last = Move.objects.filter(table=table).order_by("-number").values_list("number", "move")
    end = last.first()
    # Once, straight after the teacher's end, and for the board the end
    # replaced: new tap ids must not add the same work again and again, nor
    # steps an older turn sent already.
    if end is None or (end[1] or {}).get("type") != "end" or version != end[0] - 1:
        return None
    shown = presenter(table.session.game)
    state = shown.engine.from_json(table.state)
    player = player_for(table, pupil, state)
    if player is None:
        return None
    try:
        outcome = shown.rule_after_end(state, player, move)
    except IllegalMove:
        return None
    if outcome is None or not outcome.attempts:
        return None
    acting = _pupil_of(table, player, pupil, answering)
    # The tablet timed each step: the time since the game ended says nothing.
    typed = sum(a.ms or 0 for a in outcome.attempts)
    try:
        _commit(table, state, outcome, player, acting, move, move_id or _auto_id(), elapsed=typed)
    except IntegrityError as error:
        raise _TapAgain(table) from error
    # The report read after the end must count them.
    _refresh_reports([acting.pk])
    return PlayResult("kept", table, [])


def _auto_id() -> str:
    return "server-" + secrets.token_hex(8)


def _commit(
    table: Table,
    before,
    outcome: Outcome,
    player: int | None,
    pupil: Pupil | None,
    move: dict[str, Any],
    move_id: str,
    before_ring: Callable[[Table], None] | None = None,
    announce: bool = True,
    elapsed: int | None = None,
) -> None:
    """Write the move, its attempts and the table's new state. ``elapsed``:
    how long the pupil took over the move (ms), when not the time since the
    table last changed."""
    now = timezone.now()
    events = [e.to_json() for e in outcome.events]
    written = Move(
        table=table,
        number=table.version + 1,
        player=player,
        pupil=pupil,
        move_id=move_id[:64],
        move=move,
        events=events,
    )
    attempts: list[Attempt] = []
    if pupil is not None and outcome.attempts:
        if elapsed is None:
            # Since the table last changed: a move, and the start of a pupil's
            # turn (a pause's end, a late pupil sitting down, the whole class's
            # card turned) change it too.
            elapsed = int((now - table.updated_at).total_seconds() * 1000)
        times = _response_times(outcome.attempts, elapsed)
        attempts = [
            Attempt(
                pupil=pupil,
                session_id=table.session_id,
                table=table,
                game=table.session.game,
                skill=a.skill,
                operands=[_text(v) for v in a.operands],
                expected=_text(a.expected),
                given=_text(a.given),
                correct=a.correct,
                first_try=a.first_try,
                response_ms=ms,
            )
            for a, ms in zip(outcome.attempts, times, strict=True)
        ]
    state = outcome.state
    shown = presenter(table.session.game)
    if shown.turn_key(state) != shown.turn_key(before):
        table.turn_started_at = now
    table.state = state.to_json()
    table.version += 1
    finished_before = table.finished
    table.finished = engine_of(table.session.game).result(state) is not None
    if table.finished and not finished_before:
        _refresh_reports(seat.pupil_id for seat in table.seats.all() if seat.pupil_id)
        session = table.session
        transaction.on_commit(lambda: _end_when_every_table_has(session), robust=True)
    _write(table, written, attempts)
    if pupil is not None and outcome.attempts:
        # Before the next turn's chance is noted: these steps are this turn's.
        _record_used(table, pupil, shown.used_skills(before, events, outcome.attempts))
    _record_opportunities(table, state, events)
    if announce:
        due = due_at(table, state)
        transaction.on_commit(lambda: _announce(table, due, before_ring))


TABLE_WRITTEN = ("state", "version", "turn_started_at", "finished", "updated_at")


def _write(table: Table, move: Move, attempts: list[Attempt]) -> None:
    """The move, its attempts and the table's new state. On PostgreSQL one
    statement (the inserts in a WITH, the table's UPDATE), one round trip where
    the ORM made three; the values are prepared by the fields as the ORM's
    own save would. A repeated tap id fails it (IntegrityError) as before.
    No signal is sent for these rows (none is listened to)."""
    if connection.vendor != "postgresql":
        move.save(force_insert=True)
        Attempt.objects.bulk_create(attempts)
        table.save(update_fields=list(TABLE_WRITTEN))
        return
    quote = connection.ops.quote_name
    parts, params = [], []
    for name, rows in (("move", [move]), ("attempts", attempts)):
        if rows:
            sql, values = _insert(rows)
            parts.append(f"{name} AS ({sql})")
            params += values
    fields = [Table._meta.get_field(name) for name in TABLE_WRITTEN]
    sets = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    params += [f.get_db_prep_save(f.pre_save(table, False), connection) for f in fields]
    params.append(table.pk)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH {', '.join(parts)} UPDATE {quote(Table._meta.db_table)} SET {sets} "
            f"WHERE {quote('id')} = %s",
            params,
        )


def _insert(rows: list) -> tuple[str, list]:
    """An INSERT of these new rows of one model, as bulk_create would write them."""
    model = type(rows[0])
    quote = connection.ops.quote_name
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    params = []
    for row in rows:
        params += [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
    one = f"({', '.join(['%s'] * len(fields))})"
    return (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES {', '.join([one] * len(rows))}",
        params,
    )


def _announce(
    table: Table, due: float | None, before_ring: Callable[[Table], None] | None = None
) -> None:
    """After a commit: the tablets' polls learn the new version, and the
    server's next move at this table, if one is due, is put on the schedule.

    Only if the session is still as this transaction read it: a card turned or
    a pause committed just after this commit, whose tokens were deleted before
    this runs, must not be hidden by this stamp (live.publish compares)."""
    if before_ring is not None:
        try:
            before_ring(table)
        except Exception:  # noqa: BLE001 - the move is committed: the tablets must still hear
            log.exception("drawing table %s for its tablets failed", table.pk)
    published = live.publish(table.pk, live.stamp(table), due, session=table.session, ring=True)
    if not published.due_known:
        # Else the move that set this due put it on the schedule: a turn's or
        # the game's time is the same at each move, and each send cost the
        # broker a message its worker holds until then.
        schedule_server_move(table.pk, due)


def schedule_server_move(table_id: int, due: float | None) -> None:
    """Send games.tasks.advance_table to run when the server's move is due.

    With eager tasks (the embedded default has no worker to wait) the polls
    alone make these moves. By name, not by import: games.tasks calls this
    module. A broker hiccup costs only the schedule: the polls and the beat's
    sweep (games.tasks.advance_overdue_tables) still make the move."""
    if due is None or current_app.conf.task_always_eager:
        return
    try:
        current_app.send_task(
            "games.tasks.advance_table",
            args=[table_id],
            eta=datetime.fromtimestamp(due + SCHEDULE_SLACK, tz=UTC),
            # Sent by name, the task's own ignore_result is not known here:
            # without it the result backend listens for a result never sent.
            ignore_result=True,
        )
    except Exception:  # noqa: BLE001 - any broker error; logged, the move stays due
        log.warning("could not schedule the server's move at table %s", table_id, exc_info=True)


def _refresh_reports(pupil_ids) -> None:
    """Bring these pupils' report snapshot up to date once the transaction
    commits: a finished, paused or ended game is when a teacher reads it. Robust:
    a broker hiccup must not fail the move or the teacher's button."""
    pupil_ids = sorted(set(pupil_ids))
    if pupil_ids:
        transaction.on_commit(lambda: recompute_pupils.delay(pupil_ids), robust=True)


def _response_times(attempts, elapsed: int) -> list[int]:
    """How long the pupil took over each attempt: the tablet's own measure of
    the steps sent together, together no longer than the move took; else the
    time since the last move."""
    elapsed = max(elapsed, 0)
    left = elapsed
    times = []
    for attempt in attempts:
        if attempt.ms is None:
            took = elapsed
        else:
            took = min(attempt.ms, left)
            left -= took
        times.append(min(took, MAX_RESPONSE_MS))
    return times


def _text(value: Any) -> Any:
    return value if isinstance(value, int) and not isinstance(value, bool) else str(value)


# --------------------------------------------------------------------------- server moves


def _bot_seat(table: Table, state) -> Seat | None:
    """A computer player the game waits on, if any."""
    if engine_of(table.session.game).result(state) is not None:
        return None
    waiting = presenter(table.session.game).waiting_on(state)
    return next(
        (s for s in table.seats.all() if s.player in waiting and s.pupil_id is None), None
    )


def _bystander_bot(table: Table, state) -> tuple[Seat, list[dict[str, Any]]] | None:
    """A computer player the game does not wait on that moves all the same
    (NUM-X's out-of-turn Rainbow), with its moves; None when none does."""
    shown = presenter(table.session.game)
    if engine_of(table.session.game).result(state) is not None:
        return None
    waiting = shown.waiting_on(state)
    for seat in table.seats.all():
        if seat.pupil_id is None and seat.player not in waiting:
            moves = shown.bystander_moves(state, seat.player, seat.bot_level, table.version)
            if moves:
                return seat, moves
    return None


def due_at(table: Table, state) -> float | None:
    """When the server itself must move at this table (a bot, a turn's time or
    the game's time running out), as a timestamp; None when it waits for a pupil."""
    if table.finished or not table.session.is_running:
        return None
    moments = []
    if _bot_seat(table, state) is not None or _bystander_bot(table, state) is not None:
        moments.append(timezone.now() + BOT_PAUSE)
    seconds = presenter(table.session.game).deadline(state)
    if seconds:
        moments.append(table.turn_started_at + timedelta(seconds=seconds))
    game_end = _game_end(table, state)
    if game_end:
        moments.append(game_end)
    return min(moments).timestamp() if moments else None


def server_may_move(table: Table, state) -> bool:
    """Whether the tablets must keep polling as if the server might move
    soon, from what every tablet sees: a computer player the game waits on,
    one that may move out of turn (``Presenter.may_move_out_of_turn``), a
    turn's or the game's clock. Not ``due_at``: whether a computer holds the
    card that lets it move out of turn (NUM-X's Rainbow) is hidden, and a
    page whose poll changed with it would tell."""
    if table.finished or not table.session.is_running:
        return False
    shown = presenter(table.session.game)
    if _bot_seat(table, state) is not None:
        return True
    if shown.deadline(state) or _game_end(table, state):
        return True
    if engine_of(table.session.game).result(state) is not None:
        return False
    waiting = shown.waiting_on(state)
    return any(
        seat.pupil_id is None and seat.player not in waiting
        and shown.may_move_out_of_turn(state, seat.player)
        for seat in table.seats.all()
    )


def _game_end(table: Table, state) -> datetime | None:
    minutes = presenter(table.session.game).time_limit_minutes(state)
    return table.session.created_at + timedelta(minutes=minutes) if minutes else None


def advance(table_id: int) -> bool:
    """Make the server's moves that are due at this table; True if any was
    made (none at a table erased since its stamp said a move was due)."""
    with transaction.atomic():
        try:
            table = _lock_table(table_id)
        except Table.DoesNotExist:
            return False
        seating.load(table)
        if table.finished or not table.session.is_running:
            live.publish(table.pk, live.stamp(table), None)
            return False
        engine = engine_of(table.session.game)
        state = engine.from_json(table.state)
        late = _clock_move(table, state)
        if late is not None and late["type"] == "end":
            _apply_server_move(table, late)
            return True
        # A computer's out-of-turn move (a Rainbow) goes before the turn it interrupts.
        bystander = _bystander_bot(table, state)
        seat = bystander[0] if bystander else _bot_seat(table, state)
        if seat is not None:
            if (timezone.now() - table.updated_at) < BOT_PAUSE:
                ready = (table.updated_at + BOT_PAUSE).timestamp()
                transaction.on_commit(lambda: schedule_server_move(table.pk, ready))
                return False
            shown = presenter(table.session.game)
            moves = bystander[1] if bystander else shown.bot_moves(
                state, seat.player, seat.bot_level, table.version
            )
            for move in moves:
                _apply_server_move(table, move, player=seat.player, announce=False)
            # The computer's whole turn commits at once: the tablets can only
            # see its end, so they hear it once, not at each of its moves.
            due = due_at(table, engine.from_json(table.state))
            transaction.on_commit(lambda: _announce(table, due))
            return True
        if late is not None:
            _apply_server_move(table, late)
            return True
        due = due_at(table, state)
        live.publish(table.pk, live.stamp(table), due)
        transaction.on_commit(lambda: schedule_server_move(table.pk, due))
        return False


def _clock_move(table: Table, state) -> dict[str, Any] | None:
    """The move the clock makes now, if any: the game's time or the turn's is up."""
    now = timezone.now()
    game_end = _game_end(table, state)
    if game_end and now >= game_end:
        return {"type": "end", "reason": "time"}
    seconds = presenter(table.session.game).deadline(state)
    if seconds and now >= table.turn_started_at + timedelta(seconds=seconds):
        return {"type": "timeout"}
    return None


def _apply_server_move(
    table: Table, move: dict[str, Any], player: int | None = None, announce: bool = True
) -> None:
    engine = engine_of(table.session.game)
    state = engine.from_json(table.state)
    try:
        outcome = engine.apply(state, player, move)
    except IllegalMove:
        return
    _commit(table, state, outcome, player, None, move, _auto_id(), announce=announce)


# --------------------------------------------------------------------------- evidence


def _record_opportunities(table: Table, state, events: list[dict[str, Any]]) -> None:
    """When a pupil's turn starts with a choice (a roll), note which operations
    could have been used: the difference between 'can't divide' and 'never tries'."""
    found = presenter(table.session.game).opportunities(state, events)
    if found is None:
        return
    player, roll, could = found
    pupil_ids = [s.pupil_id for s in table.seats.all() if s.player == player and s.pupil_id]
    Opportunity.objects.bulk_create(
        Opportunity(
            pupil_id=pupil_id,
            session_id=table.session_id,
            table=table,
            game=table.session.game,
            roll=roll,
            could=could,
        )
        for pupil_id in pupil_ids
    )


def _cut_off(table: Table) -> None:
    """The teacher ends the game: the turn in progress is marked on its
    chance (the latest one, if it is the player's whose turn it is), so that
    a pupil stopped before they could calculate is not said to avoid what
    they had no time to use."""
    shown = presenter(table.session.game)
    current = shown.current(engine_of(table.session.game).from_json(table.state))
    if current is None:
        return
    seated = [s.pupil_id for s in table.seats.all() if s.player == current and s.pupil_id]
    if not seated:
        return
    latest = list(
        Opportunity.objects.filter(table=table).order_by("-pk").values_list("pk", "pupil_id")[
            : len(seated)
        ]
    )
    # A team's chances are written together: the newest rows, all theirs.
    if latest and all(pupil_id in seated for _pk, pupil_id in latest):
        Opportunity.objects.filter(pk__in=[pk for pk, _pupil in latest]).update(cut_off=True)


def _record_used(table: Table, pupil: Pupil, used: list[str] | None) -> None:
    """Add the operations the pupil typed a step with, right or wrong, to
    their turn's chance (its latest opportunity): a pupil who errs at ×
    still multiplied."""
    if not used:
        return
    latest = (
        Opportunity.objects.filter(table=table, pupil=pupil).order_by("-pk").values_list(
            "pk", "used"
        ).first()
    )
    if latest is None:
        return
    pk, before = latest
    merged = sorted(set(before or ()) | set(used))
    if merged != sorted(before or ()):
        Opportunity.objects.filter(pk=pk).update(used=merged)


def tables_for_pupil(pupil: Pupil) -> list[Table]:
    """The tables a pupil can go back to: their game is not over (its session
    not ended, the table not finished), newest first."""
    return list(
        Table.objects.filter(
            seats__pupil=pupil, session__status__in=["running", "paused"], finished=False
        )
        .select_related("session")
        .order_by("-session__created_at")
    )


def play_list_of(pupil: Pupil) -> list[tuple[Table, str]]:
    """A pupil's unfinished tables of running and paused games, each with its
    game's name (their home page)."""
    return [(table, presenter(table.session.game).title) for table in tables_for_pupil(pupil)]


def fewest_players(session: GameSession) -> int:
    """The fewest players (or teams) a table of the session's game starts with."""
    engine = engine_of(session.game)
    for players in range(1, session.table_size):
        try:
            engine.new(session.options, players, 0)
        except IllegalMove:
            # Too few, whatever the engine calls it ("bad_players", or an
            # option such as NUM-X's teams that needs every seat).
            continue
        return players
    return session.table_size


def seat_late(session: GameSession) -> list[Pupil]:
    """Seat every pupil who signed in after the start (``selectors.late_pupils``);
    returns those seated, none when no one came late. One the game cannot
    seat (alone at a game for two) stays late, and waits for the next."""
    late = selectors.late_pupils(session)
    if not late:
        return []
    seat_late_pupils(session, late)
    waiting = {pupil.pk for pupil in selectors.late_pupils(session)}
    return [pupil for pupil in late if pupil.pk not in waiting]


def advance_due(session: GameSession, ids: list[int] | None = None) -> bool:
    """The server moves now due at the session's tables (a bot, a clock), as
    a tablet's poll makes them at its own table; True if any was made."""
    if ids is None:
        ids = list(session.tables.values_list("pk", flat=True))
    moved = False
    for pk, token in live.read_many(ids).items():
        if token is not None and live.is_due(token):
            moved = advance(pk) or moved
    return moved
