"""What one request costs, in one process: ``.venv/bin/python tests/bench/bench_requests.py``.

The load benchmark (bench_load.py) says whether the goals are met; this one
says what each kind of request costs, game by game, so that a change that
doubles one is seen. It recreates the PostgreSQL database ``numbo_bench``,
flushes Redis database 2 (only that one), seeds one table of each of the five
games (four pupils, three on the track) with its teacher, then calls the WSGI
application directly (no server, no sockets). The pupils play as the load
bench's do (tests/bench/load_pupils.py, reading their own page): round after
round, in each game in turn, the pupil whose page offers a tap makes it, every
other pupil at the table polls, the teacher's live view polls, and the bare
Django view of bare_wsgi.py (the yardstick) is asked between every two of
these. A game that ends starts again at a new table.

Each request's cost is the CPU time this process spent on it
(``time.thread_time``: what the web processes pay, whatever else the host
runs; the database's and Redis's own CPU is theirs), printed as its median and
as a ratio to the bare view's median in the same run:

- move: a pupil's tap (POST), its answer drawn;
- page: a poll that found a new version and drew the pupil's own page (the
  player whose turn it now is; with the push service on, the only polls that
  find a page but NMBR 9's, whose every pupil draws their own);
- copy: a poll answered with the watchers' page the mover's request kept
  (without push; with it the push service sends that page);
- poll 204: nothing moved;
- live: the teacher's live view polled after the move (one card redrawn).

``--profile KIND`` (``move``, ``page``, ``live``, ...; with ``--game``, one
game's only) prints cProfile's top functions for that kind (CPU time) too.
``--queries`` prints each kind's SQL, ``--parts`` splits each kind's CPU as
bench_load.py --cpu-parts does (timed_wsgi.py), ``--templates`` ranks the
templates by their own CPU. ``--against DIR`` times another checkout
of the code too (``git worktree add`` or ``git archive`` of main, say), each in
its own process on a fresh database, alternated ``--rounds`` times, and prints
both sides' ratios. Named bench_* so pytest skips it.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parents[1]
GAMES = ("numberquest", "ultimes", "nmbr9", "nambarz", "numx")
KINDS = ("move", "page", "copy", "poll204", "live")
# Each game as bench_load.py's classes play it: its options and table size.
SETUPS = {
    "numberquest": ({"preset": "classic"}, 4),
    "ultimes": ({}, 3),
    "nmbr9": ({}, 4),
    "nambarz": ({"rounds": 3, "jokers": 12}, 4),
    "numx": ({"mode": "speed_run"}, 4),
}
# The SQL of the first requests of each kind is recorded (Django's debug cursor
# costs a query more than it does in production): those are not timed.
RECORDED = 12
WARM_UP = 3  # samples of each kind left out: the first draws fill the per-process caches


def environ(method: str, path: str, query: str = "", body: bytes = b"", cookies: str = "",
            target: str = ""):
    env = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_ACCEPT_LANGUAGE": "en",
        "HTTP_HX_REQUEST": "true",
        "HTTP_COOKIE": cookies,
        "CONTENT_TYPE": "application/x-www-form-urlencoded",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    if target:
        env["HTTP_HX_TARGET"] = target
    return env


def call(app, env) -> tuple[int, bytes]:
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"] = int(status.split()[0])

    result = app(env, start_response)
    try:
        body = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()  # as a server does: request_finished is part of the cost
    return answer["status"], body


class Bench:
    """The seeded school and the samples, in the measuring child process."""

    def __init__(self, profile: tuple[str, str | None] | None, parts: bool = False):
        import importlib

        from django.conf import settings
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.core.handlers.wsgi import WSGIHandler
        from django.middleware.csrf import _get_new_csrf_string, _mask_cipher_secret

        self.settings = settings
        self.store = importlib.import_module(settings.SESSION_ENGINE).SessionStore
        self.app = WSGIHandler()
        self.parts: dict[tuple[str, str], list[float]] | None = None
        if parts:
            # timed_wsgi.py's split of a request's CPU, as bench_load.py --cpu-parts.
            os.environ["NUMBO_BENCH_PARTS"] = "1"
            import timed_wsgi

            self.app, self.parts, self._spent = timed_wsgi.application, {}, timed_wsgi._spent
        import bare_wsgi  # noqa: F401  (its urlconf, used by the bare view)

        settings.ROOT_URLCONF = "config.urls"  # importing bare_wsgi switched it
        secret = _get_new_csrf_string()
        # The cookie holds the unmasked secret; the form a masked one.
        self.csrf_cookie, self.csrf_token = secret, _mask_cipher_secret(secret)
        from classroom.models import Teacher

        self.teacher = Teacher.objects.create_user("req@school.test", "correct-horse-req")
        login = self.store()
        login[SESSION_KEY] = str(self.teacher.pk)
        login[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        login[HASH_SESSION_KEY] = self.teacher.get_session_auth_hash()
        login.save()
        self.teacher_cookies = f"sessionid={login.session_key}; csrftoken={secret}"
        self.samples: dict[tuple[str, str], list[float]] = {}
        self.bare: list[float] = []
        self.queries: dict[tuple[str, str], list[str]] = {}
        self.asked: dict[tuple[str, str], int] = {}
        self.profile = profile
        self.templates: dict[str, list[float]] | None = None
        self.stats: pstats.Stats | None = None
        self.copies = 0
        self._watch_copies()

    def _watch_copies(self) -> None:
        """Tells a poll answered from the watchers' kept page from one that drew."""
        from games import watching
        from games.views import play

        original = watching.copy_for

        def copy_for(*args, **kwargs):
            found = original(*args, **kwargs)
            if found is not None:
                self.copies += 1
            return found

        play.watching.copy_for = copy_for

    def timed(self, game: str, kind: str, env) -> tuple[int, bytes]:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        # A poll is known to be a page, a copy or a 204 only once answered:
        # each request of the game is profiled apart, and kept if it is the kind.
        profiling = self.profile is not None and self.profile[1] in (None, game)
        profiler = cProfile.Profile(time.thread_time) if profiling else None
        copies = self.copies
        # The SQL of each kind's first requests only: Django's debug cursor
        # that records it costs a query more than it does in production.
        capture = CaptureQueriesContext(connection)
        asked = self.asked[(game, kind)] = self.asked.get((game, kind), 0) + 1
        recording = asked <= RECORDED
        if recording:
            capture.__enter__()
        if profiler:
            profiler.enable()
        started = time.thread_time()
        status, body = call(self.app, env)
        spent = time.thread_time() - started
        if profiler:
            profiler.disable()
        if recording:
            capture.__exit__(None, None, None)
        if kind == "poll":
            kind = "poll204" if status == 204 else "copy" if self.copies > copies else "page"
        if profiler and kind == self.profile[0]:
            if self.stats is None:
                self.stats = pstats.Stats(profiler, stream=io.StringIO())
            else:
                self.stats.add(profiler)
        if status >= 400:
            raise SystemExit(f"{game} {kind}: HTTP {status}\n{body.decode()[:2000]}")
        if recording:
            # Left out of the samples: the debug cursor's cost is not the request's.
            self.queries.setdefault((game, kind), [q["sql"] for q in capture.captured_queries])
            return status, body
        self.samples.setdefault((game, kind), []).append(spent)
        if self.parts is not None:
            totals = self.parts.setdefault((game, kind), [0.0] * (len(self._spent) + 1))
            totals[0] += spent
            for index, part in enumerate(self._spent):
                totals[1 + index] += part
        return status, body

    def time_bare(self) -> None:
        from django.urls import set_urlconf

        self.settings.ROOT_URLCONF = "bare_wsgi"
        set_urlconf(None)
        started = time.thread_time()
        call(self.app, environ("GET", "/bare/", cookies=self.teacher_cookies))
        self.bare.append(time.thread_time() - started)
        self.settings.ROOT_URLCONF = "config.urls"
        set_urlconf(None)


class Table:
    """One game's table and its teacher's live view, played by the load
    bench's pupils."""

    def __init__(self, bench: Bench, game: str, number: int):
        import re

        import load_pupils

        from classroom.models import Classroom, Pupil
        from classroom.pupil_auth import SESSION_EPOCH, SESSION_PUPIL
        from games import services
        from games.models import Table as TableRow

        self.bench, self.game = bench, game
        options, size = SETUPS[game]
        classroom = Classroom.objects.create(teacher=bench.teacher, name=f"{game} {number}")
        pupils = [
            Pupil.objects.create(
                classroom=classroom, first_name=f"P{i}", initial="B", avatar="cat",
                picture_password="sun,moon,star",
            )
            for i in range(size)
        ]
        session = services.start_session(
            classroom, bench.teacher, game=game, options=options, pupils=pupils,
            table_size=size, seed=number,
        )
        self.table = TableRow.objects.get(session=session)
        self.cookies = []
        for seat in self.table.seats.order_by("player"):
            login = bench.store()
            login[SESSION_PUPIL] = seat.pupil_id
            login[SESSION_EPOCH] = classroom.sign_in_epoch
            login.save()
            self.cookies.append(f"sessionid={login.session_key}; csrftoken={bench.csrf_cookie}")
        self.minds = [load_pupils.mind_for(game) for _ in self.cookies]
        self.pages = []
        for cookies in self.cookies:
            env = environ("GET", f"/tables/{self.table.pk}/", cookies=cookies)
            del env["HTTP_HX_REQUEST"]  # the tablet opens the whole page
            status, body = call(bench.app, env)
            self.pages.append(load_pupils.Page.read(body))
        env = environ("GET", f"/sessions/{session.pk}/", cookies=bench.teacher_cookies)
        del env["HTTP_HX_REQUEST"]
        status, body = call(bench.app, env)
        found = re.search(rb'<div id="live" hx-get="([^"]+)"', body)
        if status != 200 or not found:
            raise SystemExit(f"{game}: no live view ({status})")
        self.live_url = found.group(1).decode().replace("&amp;", "&")
        self.next_mover = 0

    def turn(self) -> bool:
        """One tap, every other pupil's poll, the live view's: False when no
        pupil has anything to tap (the game is over)."""
        import load_pupils

        bench, size = self.bench, len(self.cookies)
        for offset in range(size):
            mover = (self.next_mover + offset) % size
            tap = self.minds[mover].next_tap(self.pages[mover])
            if tap is not None:
                break
        else:
            return False
        self.next_mover = (mover + 1) % size
        body = urlencode({**tap, "csrfmiddlewaretoken": bench.csrf_token}, doseq=True).encode()
        status, answer = bench.timed(self.game, "move", environ(
            "POST", f"/tables/{self.table.pk}/move/", body=body, cookies=self.cookies[mover]
        ))
        self.pages[mover] = load_pupils.Page.read(answer)
        bench.time_bare()
        # The mover's tablet polls too: it shows this version already (204).
        path, _, query = self.pages[mover].poll_url.partition("?")
        if path:
            bench.timed(self.game, "poll", environ("GET", path, query, cookies=self.cookies[mover]))
        for other in range(size):
            if other == mover:
                continue
            path, _, query = self.pages[other].poll_url.partition("?")
            status, answer = bench.timed(self.game, "poll", environ(
                "GET", path, query, cookies=self.cookies[other]
            ))
            if status == 200:
                self.pages[other] = load_pupils.Page.read(answer)
            bench.time_bare()
        path, _, query = self.live_url.partition("?")
        status, answer = bench.timed(self.game, "live", environ(
            "GET", path, query, cookies=bench.teacher_cookies, target="live"
        ))
        if status == 200:
            import re

            found = re.search(rb'<div id="live" hx-get="([^"]+)"', answer)
            if found:
                self.live_url = found.group(1).decode().replace("&amp;", "&")
        bench.time_bare()
        return True


def child(args) -> None:
    sys.path[:0] = [str(Path.cwd()), str(BENCH_DIR)]
    import random

    import django

    django.setup()
    random.seed(1)  # the pupils' mistakes: the same moves in every run of a code
    bench = Bench((args.profile, args.game) if args.profile else None, args.parts)
    if args.templates:
        time_templates(bench)
    started = time.perf_counter()
    tables = {game: Table(bench, game, 1) for game in GAMES}
    restarts = dict.fromkeys(GAMES, 0)
    for _ in range(args.repeat):
        for game in GAMES:
            if not tables[game].turn():
                restarts[game] += 1
                tables[game] = Table(bench, game, restarts[game] + 1)
                tables[game].turn()
    figures = summary(bench)
    figures["seconds"] = time.perf_counter() - started
    figures["restarts"] = restarts
    print(report(figures))
    if bench.parts is not None:
        print(parts_report(bench))
    if bench.templates is not None:
        moves = sum(len(v) for (_g, kind), v in bench.samples.items() if kind == "move")
        print(f"\ntemplates' own CPU (their includes' left out), per move of the run ({moves}):")
        ranked = sorted(bench.templates.items(), key=lambda item: -item[1][1])
        for name, (count, spent) in ranked[:25]:
            print(f"  {spent * 1000 / moves:7.3f} ms  {count / moves:6.2f} draws  {name}")
    if args.queries:
        for (game, kind), sqls in sorted(bench.queries.items()):
            print(f"\n{game} {kind}: {len(sqls)} queries")
            for sql in sqls:
                print("  " + sql[:160])
    if bench.stats is not None:
        out = io.StringIO()
        bench.stats.stream = out
        bench.stats.sort_stats("cumulative").print_stats(60)
        bench.stats.sort_stats("tottime").print_stats(30)
        bench.stats.sort_stats("cumulative").print_stats(r"/(games|classroom|config)/", 60)
        bench.stats.sort_stats("tottime").print_stats(r"/(games|classroom|config|engine)/", 30)
        print(out.getvalue())
    if args.json:
        Path(args.json).write_text(json.dumps(figures))


def time_templates(bench: Bench) -> None:
    """``--templates``: each template's own CPU (a template drawn inside
    another, by an include or a tag, counts for itself only)."""
    from django.template import base

    bench.templates = {}
    render = base.Template._render
    inner = [0.0]

    def timed(self, context):
        started, outer = time.thread_time(), inner[0]
        inner[0] = 0.0
        try:
            return render(self, context)
        finally:
            spent = time.thread_time() - started
            name = getattr(self.origin, "template_name", None) or "(from a string)"
            found = bench.templates.setdefault(name, [0, 0.0])
            found[0] += 1
            found[1] += spent - inner[0]
            inner[0] = outer + spent

    base.Template._render = timed


def _median(values: list[float]) -> float | None:
    kept = values[WARM_UP:] if len(values) > 2 * WARM_UP else values
    return statistics.median(kept) if kept else None


def summary(bench: Bench) -> dict:
    bare = _median(bench.bare)
    costs = {}
    for (game, kind), values in bench.samples.items():
        costs.setdefault(game, {})[kind] = {
            "n": len(values),
            "ms": _median(values) * 1000,
            "ratio": _median(values) / bare,
            "queries": len(bench.queries.get((game, kind), [])),
        }
    return {"bare_ms": bare * 1000, "bare_n": len(bench.bare), "costs": costs}


def report(figures: dict) -> str:
    """The costs as a table: per game and kind, the median CPU ms, the ratio to
    the bare view (x bare) and the queries of the first such request (0 when
    none was among the first requests, whose SQL is recorded)."""
    lines = [
        f"bare view: median {figures['bare_ms']:.3f} ms of CPU over {figures['bare_n']} requests"
        f" (= {1000 / figures['bare_ms']:.0f} requests/s of one core)",
        "each cell: median CPU ms, its ratio to the bare view's median (x), queries (q)",
        f"{'game':<12}" + "".join(f"{kind:>20}" for kind in KINDS),
    ]
    counts = []
    for game in GAMES:
        row = figures["costs"].get(game, {})
        cells = []
        for kind in KINDS:
            cost = row.get(kind)
            cells.append(
                f"{cost['ms']:.2f} {cost['ratio']:5.1f}x {cost['queries']:>2}q" if cost else "-"
            )
        lines.append(f"{game:<12}" + "".join(f"{c:>20}" for c in cells))
        counts.append(f"{game} " + "/".join(str(row.get(k, {}).get("n", 0)) for k in KINDS))
    lines.append("samples (" + "/".join(KINDS) + "): " + ", ".join(counts))
    if "seconds" in figures:
        lines.append(f"{figures['seconds']:.0f} s; games restarted: " + ", ".join(
            f"{game} {n}" for game, n in figures["restarts"].items()
        ))
    return "\n".join(lines)


def parts_report(bench: Bench) -> str:
    """``--parts``: each kind's mean CPU split as timed_wsgi.py splits it."""
    from cpu_parts import PARTS

    names = [part for part in PARTS if part != "threads"]
    lines = ["\nmean CPU ms by part (timed_wsgi.py's; rest: Django, our views, the models)",
             f"{'':<20}{'all':>7}" + "".join(f"{n:>8}" for n in names) + f"{'rest':>8}"]
    for (game, kind), totals in sorted(bench.parts.items()):
        count = len(bench.samples[(game, kind)])
        each = [t * 1000 / count for t in totals]
        shown = [each[1 + PARTS.index(n)] for n in names]
        lines.append(f"{game + ' ' + kind:<20}{each[0]:>7.2f}" + "".join(
            f"{v:>8.2f}" for v in shown) + f"{each[0] - sum(shown):>8.2f}")
    return "\n".join(lines)


def fresh_child(code: Path, args, json_out: str | None = None) -> int:
    """The measuring child, run in ``code`` (a checkout) on a fresh database."""
    sys.path.insert(0, str(BENCH_DIR))
    import bench_load

    env = bench_load.bench_env(tempfile.mkdtemp(prefix="numbo-bench-static-"))
    env["PYTHONPATH"] = str(code)
    bench_load.recreate_database()
    bench_load.flush_redis()
    for command in (("migrate", "--noinput"), ("collectstatic", "--noinput")):
        subprocess.run([sys.executable, "manage.py", *command], cwd=code, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    command = [sys.executable, __file__, "--child", "--repeat", str(args.repeat)]
    if args.profile:
        command += ["--profile", args.profile]
    if args.game:
        command += ["--game", args.game]
    if args.queries:
        command.append("--queries")
    if args.parts:
        command.append("--parts")
    if args.templates:
        command.append("--templates")
    if json_out:
        command += ["--json", json_out]
    return subprocess.run(command, cwd=code, env=env).returncode


def against(args) -> int:
    """This checkout and ``--against``'s, alternated, each on a fresh database."""
    sides = {"this": ROOT, "other": Path(args.against).resolve()}
    runs: dict[str, list[dict]] = {"this": [], "other": []}
    out = Path(tempfile.mkdtemp(prefix="numbo-bench-ab-"))
    for number in range(args.rounds):
        for name in ("other", "this") if number % 2 == 0 else ("this", "other"):
            print(f"\n== round {number + 1}, {name}: {sides[name]}", flush=True)
            path = out / f"{name}-{number}.json"
            if fresh_child(sides[name], args, str(path)) != 0:
                return 1
            runs[name].append(json.loads(path.read_text()))
    print(f"\n== ratios to the bare view, median of {args.rounds} rounds each"
          f" (other: {sides['other']}; this: {sides['this']})")
    print(f"{'game':<12}{'kind':<8}{'other':>9}{'this':>9}{'this/other':>12}")
    for game in GAMES:
        for kind in ("move", "page", "live"):
            both = []
            for name in ("other", "this"):
                ratios = [r["costs"][game][kind]["ratio"] for r in runs[name]
                          if kind in r["costs"].get(game, {})]
                both.append(statistics.median(ratios) if ratios else float("nan"))
            print(f"{game:<12}{kind:<8}{both[0]:>8.1f}x{both[1]:>8.1f}x{both[1] / both[0]:>12.2f}")
    for name in ("other", "this"):
        bare = [r["bare_ms"] for r in runs[name]]
        print(f"bare view, {name}: " + ", ".join(f"{b:.3f} ms" for b in bare))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--profile", choices=("move", "page", "copy", "poll204", "live"))
    parser.add_argument("--game", choices=GAMES, help="with --profile: this game's only")
    parser.add_argument("--repeat", type=int, default=120, help="rounds of a move per game")
    parser.add_argument("--queries", action="store_true", help="print each kind's SQL")
    parser.add_argument("--parts", action="store_true",
                        help="split each kind's CPU as bench_load.py --cpu-parts does")
    parser.add_argument("--templates", action="store_true",
                        help="print the templates that cost the most CPU")
    parser.add_argument("--against", help="another checkout to time, alternated with this one")
    parser.add_argument("--rounds", type=int, default=2, help="with --against: runs of each")
    parser.add_argument("--json", help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return 0
    if args.against:
        return against(args)
    return fresh_child(ROOT, args)


if __name__ == "__main__":
    sys.exit(main())
