"""What one move and one poll cost in each game: ``.venv/bin/python tests/bench/bench_moves.py``.

bench_requests.py times Number Quest's requests; this one goes through every
game a class plays (Number Quest with four pupils and against a computer, the
track of ultimate numbers, NMBR 9 at a table and with the whole class,
Nambarz and NUM-X at tables of four) and
for each kind of request prints its median time, its queries and, with
``--queries``, their SQL; ``--profile GAME:KIND`` prints cProfile's top
functions for one of them. It calls the WSGI application directly (no
server, no sockets), so the figures are the app's own cost. ``cpu ms`` is the
request's own CPU time (what a web process spends; steadier than the wall
clock on a busy host), and ``--fixed`` answers the taps without drawing the
board: what a tap costs beside its drawing.

Kinds: ``move`` (a pupil's tap, answered with their new board), ``render``
(the first poll after a move that draws the table), ``copy`` (a watcher
served the shared page another watcher's poll kept), ``playing`` (the poll
of the pupil whose turn it now is), ``unchanged`` (a 204), ``live`` and
``live204`` (the teacher's live view; with the whole class, ``live6`` and
``live24`` draw six and 24 cards), ``bot`` (a poll that makes the
computer's move). The moves are the engines' own bots' choices, posted as a
tablet would.

The database and Redis are bench_load.py's (``NUMBO_BENCH_DB``,
``NUMBO_BENCH_REDIS_DB``): recreated and flushed. Named bench_* so pytest skips it.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

# The WSGI environ of one request, as the per-request benchmark builds it.
from bench_requests import environ

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parents[1]
GAMES = ("numberquest", "numberquest-bot", "ultimes", "nmbr9", "nmbr9-class", "nambarz", "numx")




class Recorder:
    """Times requests by (game, kind), keeps each kind's queries once, and
    profiles the one kind asked for."""

    def __init__(self, app, profile: str | None):
        from django.db import connection

        self.app = app
        self.connection = connection
        self.samples: dict[tuple[str, str], list[float]] = defaultdict(list)
        # The process's own CPU time: what a web process spends, and far less
        # noisy than the wall clock on a host shared with other work.
        self.cpu: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.queries: dict[tuple[str, str], list[list[str]]] = defaultdict(list)
        self.profile = profile
        self.profiler = cProfile.Profile() if profile else None
        self.drawn: dict[tuple[str, str], list[int]] = defaultdict(list)
        self.misses = 0
        self._count_board_draws()

    def _count_board_draws(self) -> None:
        """Counts the boards each request draws (games.pages.base.drawn_once misses)."""
        from django.utils.translation import get_language

        from games.pages import base
        from games.pages.nmbr9 import presenter as nmbr9
        from games.pages.numberquest import presenter as numberquest
        from games.pages.ultimes import presenter as ultimes

        def counted(kind, what, draw, fill=None):
            if (kind, what, get_language()) not in base._drawn:
                self.misses += 1
            return base.drawn_once(kind, what, draw, fill)

        for module in (nmbr9, numberquest, ultimes):
            module.drawn_once = counted

    def call(self, env) -> tuple[int, bytes]:
        answer = {}

        def start_response(status, headers, exc_info=None):
            answer["status"] = int(status.split()[0])

        body = b"".join(self.app(env, start_response))
        return answer["status"], body

    def timed(self, game: str, kind: str, env) -> tuple[int, bytes]:
        from django.test.utils import CaptureQueriesContext

        profiling = self.profiler is not None and self.profile == f"{game}:{kind}"
        self.misses = 0
        # The log keeps 9,000 queries: full, it would miscount a request's.
        self.connection.queries_log.clear()
        with CaptureQueriesContext(self.connection) as captured:
            if profiling:
                self.profiler.enable()
            started, cpu_started = time.perf_counter(), time.thread_time()
            status, body = self.call(env)
            seconds = time.perf_counter() - started
            cpu = time.thread_time() - cpu_started
            if profiling:
                self.profiler.disable()
        if status >= 400:
            raise SystemExit(f"{game} {kind}: HTTP {status}\n{body[:2000].decode()}")
        self.samples[game, kind].append(seconds)
        self.cpu[game, kind].append(cpu)
        self.drawn[game, kind].append(self.misses)
        self.queries[game, kind].append([q["sql"] for q in captured.captured_queries])
        return status, body

    def report(self, show_sql: bool) -> str:
        lines = [f"{'game':<16}{'kind':<11}{'n':>5}{'median ms':>11}{'p90 ms':>9}{'cpu ms':>8}"
                 f"{'queries':>9}{' (min-max)':>11}{'boards drawn':>14}"]
        for (game, kind), values in self.samples.items():
            kept = sorted(values[2:] or values)  # the first ones warm the caches up
            cpu = sorted(self.cpu[game, kind][2:] or self.cpu[game, kind])
            counts = [len(q) for q in self.queries[game, kind]]
            lines.append(
                f"{game:<16}{kind:<11}{len(kept):>5}{statistics.median(kept) * 1000:>11.2f}"
                f"{kept[int(len(kept) * 0.9)] * 1000:>9.2f}{statistics.median(cpu) * 1000:>8.2f}"
                f"{statistics.median(counts):>9.0f}"
                f"{f' ({min(counts)}-{max(counts)})':>11}"
                f"{sum(self.drawn[game, kind]) / len(values):>14.2f}"
            )
        if show_sql:
            for (game, kind), runs in self.queries.items():
                longest = max(runs, key=len)
                lines.append(f"\n{game} {kind} ({len(longest)} queries, the most of any run):")
                lines += ["  " + sql[:220] for sql in longest]
        if self.profiler is not None:
            out = io.StringIO()
            stats = pstats.Stats(self.profiler, stream=out).sort_stats("cumulative")
            stats.print_stats(60)
            stats.sort_stats("tottime").print_stats(30)
            lines.append(out.getvalue())
        return "\n".join(lines)


def child(args) -> None:
    sys.path[:0] = [str(ROOT), str(BENCH_DIR)]
    import django

    django.setup()
    import importlib

    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.middleware.csrf import _get_new_csrf_string, _mask_cipher_secret

    from classroom.models import Classroom, Pupil, Teacher
    from classroom.pupil_auth import SESSION_EPOCH, SESSION_PUPIL
    from games import live, services
    from games.models import Table
    from games.pages import engine_of as get_game
    from games.pages import presenter
    from games.views.tables import poll_token

    store = importlib.import_module(settings.SESSION_ENGINE).SessionStore
    teacher = Teacher.objects.create_user("moves@school.test", "correct-horse-moves")
    teacher_store = store()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    teacher_store[SESSION_KEY] = str(teacher.pk)
    teacher_store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    teacher_store[HASH_SESSION_KEY] = teacher.get_session_auth_hash()
    teacher_store.save()
    secret = _get_new_csrf_string()
    csrf = _mask_cipher_secret(secret)
    teacher_cookie = f"sessionid={teacher_store.session_key}; csrftoken={secret}"
    recorder = Recorder(WSGIHandler(), args.profile)
    if args.fixed:
        # What a tap costs beside drawing its answer: the page is not drawn.
        from django.http import HttpResponse

        from games.views import play

        play._render = lambda request, table, pupil, status=200, partial=None, **extra: (
            HttpResponse("", status=status)
        )

    def classroom_of(name: str, size: int):
        classroom = Classroom.objects.create(teacher=teacher, name=name)
        pupils = [
            Pupil.objects.create(
                classroom=classroom, first_name=f"{name}{i}", initial="B", avatar="cat",
                picture_password="sun,moon,star",
            )
            for i in range(size)
        ]
        cookies = {}
        for pupil in pupils:
            login = store()
            login[SESSION_PUPIL] = pupil.pk
            login[SESSION_EPOCH] = classroom.sign_in_epoch
            login.save()
            cookies[pupil.pk] = f"sessionid={login.session_key}; csrftoken={secret}"
        return classroom, pupils, cookies

    def post_move(game: str, table: Table, pupil_id: int, cookies, move: dict) -> bytes:
        table.refresh_from_db()
        fields = {"csrfmiddlewaretoken": csrf, "version": table.version,
                  "move_id": f"m{time.perf_counter_ns()}"}
        for name, value in move.items():
            if value is None:
                continue  # a field the form leaves out
            if isinstance(value, list) and value and isinstance(value[0], dict):
                # NUM-X's cards laid out with their radio buttons (to-, face-, end-<id>).
                fields["offered"] = ",".join(c["card"] for c in value)
                for c in value:
                    if "to" in c:
                        fields[f"to-{c['card']}"] = c["to"]
                    fields[f"face-{c['card']}"] = "up" if c["face_up"] else "down"
                    fields[f"end-{c['card']}"] = c["end"]
                continue
            # A list travels as the tablet's script posts it: "3,12" ("0-1,2-3" for steps).
            if isinstance(value, list):
                value = ",".join("-".join(map(str, v)) if isinstance(v, list) else str(v)
                                 for v in value)
            fields[name] = value
        if game.startswith("numberquest") and move["type"] == "step":
            # The tiles post "value|origin": two dice of the same value stay two.
            state = get_game("numberquest").from_json(table.state)
            tiles = [f"{value}|{origin}" for value, origin in state.available]
            left = next(t for t in tiles if t.split("|")[0] == str(move["left"]))
            right = next(t for t in tiles if t.split("|")[0] == str(move["right"]) and t != left)
            fields.update(left=left, right=right)
        env = environ("POST", f"/tables/{table.pk}/move/", body=urlencode(fields).encode(),
                      cookies=cookies[pupil_id])
        status, body = recorder.timed(game, "move", env)
        if b'class="note error"' in body:
            raise SystemExit(f"{game}: the move {move} was refused")
        return body

    def poll(game: str, kind: str, table: Table, pupil_id: int | None, cookies, stamp: str):
        token = poll_token(table, pupil_id, None if pupil_id else teacher.pk)
        env = environ("GET", f"/tables/{table.pk}/poll/", urlencode({"t": token, "v": stamp}),
                      cookies=cookies[pupil_id] if pupil_id else teacher_cookie)
        return recorder.timed(game, kind, env)

    def live_view(game: str, session, version: str = "", kind: str = "") -> str:
        """The teacher's page polling with what it shows (``version``: the
        token its last answer carried), as htmx asks from the #live poller."""
        env = environ("GET", f"/sessions/{session.pk}/", urlencode({"v": version}),
                      cookies=teacher_cookie)
        env["HTTP_HX_TARGET"] = "live"
        status, body = recorder.timed(game, kind or ("live204" if version else "live"), env)
        if status == 200:
            import re

            found = re.search(rb'[?&](?:amp;)?v=([^"&]+)"', body)
            return found.group(1).decode() if found else ""
        return version

    def stamp_of(table: Table) -> str:
        return (live.read(table.pk) or ("",))[0]

    def seated(table: Table) -> dict[int, int]:
        return {s.player: s.pupil_id for s in table.seats.all() if s.pupil_id}

    # ------------------------------------------------------------------ Number Quest, 4 pupils

    def table_game(game: str, slug: str, options: dict, size: int, bots: int = 0):
        classroom, pupils, cookies = classroom_of(game, size)
        session = services.start_session(
            classroom, teacher, game=slug, options=options, pupils=pupils,
            table_size=size + bots, bot_level="greedy" if bots else "", seed=1,
        )
        table = Table.objects.get(session=session)
        return session, table, cookies

    def play_turns(game: str, slug: str, session, table: Table, cookies, turns: int) -> None:
        engine = get_game(slug)
        shown = presenter(slug)
        version = ""
        for turn in range(turns):
            table.refresh_from_db()
            state = engine.from_json(table.state)
            if engine.result(state) is not None:
                return
            humans = seated(table)
            waiting = [p for p in sorted(shown.waiting_on(state)) if p in humans]
            if not waiting:
                # A computer's turn: a watcher's poll makes its move once due.
                time.sleep(services.BOT_PAUSE.total_seconds() + 0.05)
                some = next(iter(humans.values()))
                poll(game, "bot", table, some, cookies, stamp_of(table))
                continue
            player = waiting[0]
            before = stamp_of(table)
            for move in shown.bot_moves(state, player, "greedy", table.version)[:3]:
                post_move(game, table, humans[player], cookies, move)
            # Everybody else's polls: the first draws the table, the others copy it.
            others = [p for p in humans if p != player]
            table.refresh_from_db()
            state = engine.from_json(table.state)
            now_waiting = shown.waiting_on(state)
            kinds = iter(("render", "copy", "copy", "copy"))
            for other in others:
                kind = "playing" if other in now_waiting else next(kinds)
                poll(game, kind, table, humans[other], cookies, before)
            poll(game, "unchanged", table, humans[player], cookies, stamp_of(table))
            if turn % 2 == 0:
                # The page's poll after this turn's moves ("live": the tables
                # that moved are drawn), then once more with nothing new.
                if version:
                    version = live_view(game, session, version, "live")
                else:
                    version = live_view(game, session, kind="page")
                live_view(game, session, version, "live204")

    runs = args.turns
    if "numberquest" in args.games:
        session, table, cookies = table_game("numberquest", "numberquest",
                                             {"preset": "classic"}, 4)
        play_turns("numberquest", "numberquest", session, table, cookies, runs)
    if "numberquest-bot" in args.games:
        session, table, cookies = table_game("numberquest-bot", "numberquest",
                                             {"preset": "classic"}, 1, bots=1)
        play_turns("numberquest-bot", "numberquest", session, table, cookies, runs // 3)
    if "ultimes" in args.games:
        session, table, cookies = table_game("ultimes", "ultimes", {}, 3)
        play_turns("ultimes", "ultimes", session, table, cookies, runs)
    if "nmbr9" in args.games:
        session, table, cookies = table_game("nmbr9", "nmbr9", {}, 4)
        play_turns("nmbr9", "nmbr9", session, table, cookies, min(runs, 60))
    for game in ("nambarz", "numx"):
        if game in args.games:
            session, table, cookies = table_game(game, game, {}, 4)
            play_turns(game, game, session, table, cookies, runs)
    if "nmbr9-class" in args.games:
        whole_class(recorder, classroom_of, post_move, poll, stamp_of, csrf, teacher_cookie,
                    min(runs, 15), live_view)
    print(recorder.report(args.queries))


def whole_class(recorder, classroom_of, post_move, poll, stamp_of, csrf, teacher_cookie,
                cards: int, live_view) -> None:
    """NMBR 9 with a class of 24: the teacher turns a card, everybody places it.
    The teacher's live view polls after every 6 placements (``live6``: six
    cards drawn) and after each turned card (``live24``: every card)."""
    from engine.nmbr9 import GAME, bot_moves
    from games import services
    from games.models import Table

    game = "nmbr9-class"
    classroom, pupils, cookies = classroom_of(game, 24)
    teacher = classroom.teacher
    session = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils, table_size=1,
        whole_class=True, seed=2,
    )
    tables = {t.pk: t for t in Table.objects.filter(session=session).prefetch_related("seats")}
    pupil_of = {pk: t.seats.all()[0].pupil_id for pk, t in tables.items()}
    version = live_view(game, session, kind="page")
    for _card in range(cards):
        for placed, (pk, table) in enumerate(tables.items(), start=1):
            table.refresh_from_db()
            state = GAME.from_json(table.state)
            moves = bot_moves(state, 0, 0)
            if not moves or state.round >= session.cards_shown:
                continue
            before = stamp_of(table)
            post_move(game, table, pupil_of[pk], cookies, moves[0])
            poll(game, "unchanged", table, pupil_of[pk], cookies, stamp_of(table))
            poll(game, "teacher", table, None, cookies, before)
            if placed % 6 == 0:
                version = live_view(game, session, version, "live6")
        body = urlencode({"csrfmiddlewaretoken": csrf,
                          "shown": session.cards_shown}).encode()
        env = environ("POST", f"/sessions/{session.pk}/cards/next/", body=body,
                      cookies=teacher_cookie)
        recorder.timed(game, "card", env)
        session.refresh_from_db()
        for pk, table in tables.items():
            # After a turned card every tablet reads its table again.
            poll(game, "render", table, pupil_of[pk], cookies, "")
        version = live_view(game, session, version, "live24")
        live_view(game, session, version, "live204")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--profile", metavar="GAME:KIND")
    parser.add_argument("--queries", action="store_true", help="print each kind's SQL")
    parser.add_argument("--fixed", action="store_true",
                        help="answer a pupil's tap without drawing the page (its fixed costs)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(BENCH_DIR))
    import bench_load

    return bench_load.child_or_fresh_setup(__file__, args, child)


if __name__ == "__main__":
    sys.exit(main())
