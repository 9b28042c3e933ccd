"""Load benchmark of a school at play: run ``.venv/bin/python tests/bench/bench_load.py``.

Everything stays on loopback (127.0.0.1). The script

1. recreates the PostgreSQL database ``numbo_bench`` (or ``$NUMBO_BENCH_DB``; user
   postgres), migrates it, collects static files into a temporary directory
   and flushes Redis database 2 (or ``$NUMBO_BENCH_REDIS_DB``), and only that one;
2. seeds ``--classes`` classes (30: a teacher each) sharing ``--pupils`` pupils,
   each class playing one game, in turn: Number Quest at tables of four (the
   classic preset, tokens and bank), Number Quest alone against a computer,
   the track of ultimate numbers at tables of three, NMBR 9 at tables of four,
   NMBR 9 with the whole class, the teacher turning the cards, Nambarz at
   tables of four (three rounds) and NUM-X at tables of four (Speed Run), so
   that 7 classes or more play every game; with a signed-in session and a
   poll token for each pupil and teacher;
3. serves the app with gunicorn in production mode (DEBUG=0) on a free port,
   with a Celery worker for the computers' moves, and with ``--push`` the
   push service (config.asgi, one uvicorn worker, as compose runs it);
4. simulates the tablets in one asyncio process with a tiny keep-alive
   HTTP/1.1 client. Each pupil reads their page and taps what a pupil taps
   (tests/bench/load_pupils.py), thinking a few seconds before each tap;
   tablets poll as the page says (every 2 s, or with ``--push`` when rung and
   every 20 s besides, and every 2 s while a computer or a clock moves next).
   Each teacher's screen polls the live view every 2 s, or for the whole class
   the cards page, turning a card every ``--card-every`` seconds, each class
   at its own moment (``--cards-in-step``: all within the same 2 s);
5. measures a steady window after a warm-up, then hammers the poll (204 path)
   and a bare Django view (tests/bench/bare_wsgi.py, same settings and
   middleware, served the same way) at full rate, to compare requests per
   second and to price one bare request in CPU.

The cost of a pupil is printed in bare-view units: the CPU-seconds of the web
processes (gunicorn's workers and the push service) per pupil-second, divided
by the CPU-seconds one bare-view request costs on the same host in the same
run, so that a slow or busy host does not hide a regression.

Goals (issue 15): poll p95 < 100 ms, move p95 < 250 ms, a move reaches the
other tablets within 500 ms at p95, web processes under 1.5 cores, a pupil
costs at most 1.0 bare request a second, no 5xx. The figures are printed and
added to tests/bench/results_load.txt. Named bench_* so pytest skips it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parents[2]
BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))  # the engine does the pupils' arithmetic
import load_pupils  # noqa: E402  (needs the engine on the path)
from cpu_parts import NAMES as PART_NAMES  # noqa: E402
from cpu_parts import PARTS  # noqa: E402

RESULTS = BENCH_DIR / "results_load.txt"
HOST = "127.0.0.1"  # loopback only, always
# Another database and Redis number when several checkouts share the machine.
DB_NAME = os.environ.get("NUMBO_BENCH_DB", "numbo_bench")
DATABASE_URL = f"postgres://postgres@{HOST}:5432/{DB_NAME}"
REDIS_URL = f"redis://{HOST}:6379/{int(os.environ.get('NUMBO_BENCH_REDIS_DB', '2'))}"
POLL_EVERY = 2.0
SAFETY_POLL = 20.0  # with push, as static/js/push.js polls while its stream is live
def _push_spread() -> float:
    """push.js's SPREAD_MS in seconds: a ring without a stamp is answered
    within this, and the bench's tablets do as the page's script does."""
    found = re.search(r"const SPREAD_MS = (\d+);", (ROOT / "static/js/push.js").read_text())
    return int(found.group(1)) / 1000 if found else 0.5


SPREAD = _push_spread()

CARD_WAIT = 2.0  # the teacher's cards page and live view poll this often

GOAL_POLL_P95_MS = 100.0
GOAL_MOVE_P95_MS = 250.0
GOAL_REACH_P95_MS = 500.0
GOAL_WEB_CORES = 1.5
GOAL_PUPIL_COST = 1.0  # bare-view requests per pupil-second

# The games the classes play, in turn: (game, options, table size, computers, whole class).
CLASS_GAMES = [
    ("numberquest", {"preset": "classic"}, 4, False, False),
    ("numberquest", {"preset": "classic"}, 2, True, False),
    ("ultimes", {}, 3, False, False),
    ("nmbr9", {}, 4, False, False),
    ("nmbr9", {}, 1, False, True),
    ("nambarz", {"rounds": 3, "jokers": 12}, 4, False, False),
    ("numx", {"mode": "speed_run"}, 4, False, False),
]
# The card games need two players at a table: a class of one pupil plays a computer.
TWO_OR_MORE = {"nambarz", "numx"}


# --------------------------------------------------------------------------- environment


def bench_env(static_root: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=DATABASE_URL,
        REDIS_URL=REDIS_URL,
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(48),
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="0",
        STATIC_ROOT=static_root,
        LOG_LEVEL="WARNING",
        CACHE_KEY_PREFIX="numbo-bench",
        GUNICORN_ACCESS_LOG="",
        PYTHONPATH=str(ROOT),
    )
    return env


def recreate_database() -> None:
    import psycopg

    with psycopg.connect(f"host={HOST} port=5432 user=postgres dbname=postgres") as conn:
        conn.autocommit = True
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()  # this database only


def run_in_fresh_setup(script: str, args: list[str], collectstatic: bool = True) -> int:
    """Run ``script --child args`` against a recreated database and a flushed
    Redis database (the in-process benchmarks' set-up); its exit code."""
    import tempfile

    env = bench_env(tempfile.mkdtemp(prefix="numbo-bench-static-"))
    recreate_database()
    flush_redis()
    manage(env, "migrate", "--noinput")
    if collectstatic:
        manage(env, "collectstatic", "--noinput")
    command = [sys.executable, script, "--child", *args]
    return subprocess.run(command, cwd=ROOT, env={**os.environ, **env}).returncode


def child_or_fresh_setup(script: str, args, child, collectstatic: bool = True) -> int:
    """An in-process benchmark's main: its measuring part (``child``) when it
    is the ``--child`` that ``run_in_fresh_setup`` started, else that set-up."""
    if args.child:
        child(args)
        return 0
    return run_in_fresh_setup(script, sys.argv[1:], collectstatic)


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def seed(out: str, classes: int, pupils: int) -> None:
    """Runs in a child process (``--seed``) with the bench environment."""
    sys.path.insert(0, str(ROOT))
    import importlib

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from classroom.models import Classroom, Pupil, Teacher
    from classroom.pupil_auth import SESSION_EPOCH, SESSION_PUPIL
    from games import services
    from games.models import Seat
    from games.views.tables import poll_token
    from school.models import School

    store = importlib.import_module(settings.SESSION_ENGINE).SessionStore
    pupil_rows, teacher_rows = [], []
    # One school, as a real one: its administrator, and every class's teacher in it.
    school = School.objects.create(name="Bench school")
    Teacher.objects.create_user(
        "head@school.test", "correct-horse-bench", display_name="Head", school=school,
        role=Teacher.Role.ADMIN,
    )
    for number in range(classes):
        game, options, size, computers, whole_class = CLASS_GAMES[number % len(CLASS_GAMES)]
        teacher = Teacher.objects.create_user(
            f"bench{number}@school.test", "correct-horse-bench", display_name=f"Bench {number}",
            school=school,
        )
        classroom = Classroom.objects.create(teacher=teacher, name=f"Bench {number + 1}")
        # The pupils shared out as evenly as the classes allow.
        count = pupils // classes + (1 if number < pupils % classes else 0)
        if count == 1 and game in TWO_OR_MORE:
            size, computers = 2, True
        children = [
            Pupil.objects.create(
                classroom=classroom,
                first_name=f"Pupil{number}x{index}",
                initial="B",
                avatar="cat",
                picture_password="sun,moon,star",
            )
            for index in range(count)
        ]
        session = services.start_session(
            classroom,
            teacher,
            game=game,
            options=options,
            pupils=children,
            table_size=size,
            bot_level="greedy" if computers else "",
            # Against the computer: each pupil alone at a table with one.
            seating={p.pk: i + 1 for i, p in enumerate(children)} if computers else None,
            whole_class=whole_class,
            seed=number,
        )
        login = store()
        login[SESSION_KEY] = str(teacher.pk)
        login[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        login[HASH_SESSION_KEY] = teacher.get_session_auth_hash()
        login.save()
        teacher_rows.append(
            {"session": session.pk, "sid": login.session_key, "whole_class": whole_class}
        )
        seats = Seat.objects.filter(table__session=session, pupil__isnull=False).select_related(
            "table", "pupil"
        )
        kind = f"{game}{'-computer' if computers else ''}{'-class' if whole_class else ''}"
        for seat in seats:
            login = store()
            login[SESSION_PUPIL] = seat.pupil_id
            login[SESSION_EPOCH] = classroom.sign_in_epoch
            login.save()
            pupil_rows.append(
                {
                    "pupil": seat.pupil_id,
                    "table": seat.table_id,
                    "game": game,
                    "kind": kind,
                    "sid": login.session_key,
                    "token": poll_token(seat.table, seat.pupil_id, None),
                }
            )
    Path(out).write_text(json.dumps({"pupils": pupil_rows, "teachers": teacher_rows}))


# --------------------------------------------------------------------------- gunicorn


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def process_cpu(pids: list[int]) -> float:
    return sum(cpu_by_pid(pids).values())


def cpu_by_pid(pids: list[int]) -> dict[int, float]:
    return {pid: own for pid, (own, _reaped) in cpu_and_reaped(pids).items()}


def cpu_and_reaped(pids: list[int]) -> dict[int, tuple[float, float]]:
    """Per process, its own CPU-seconds and those of the children it reaped."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[pid] = (
            (int(fields[11]) + int(fields[12])) / ticks,
            (int(fields[13]) + int(fields[14])) / ticks,
        )
    return found


def cpu_between(
    before: dict[int, tuple[float, float]], after: dict[int, tuple[float, float]]
) -> float:
    """CPU-seconds a family of processes (``cpu_and_reaped``) spent between two
    moments, counting those that came or went in between: PostgreSQL ends a
    connection's process after CONN_MAX_AGE (60 s, the window's length), and
    counting only the processes alive at both moments once missed most of
    its work (4 % reported where a /proc sampler saw 20 %). A process that
    ended was reaped by its parent, whose children's time then holds all of
    it: what it had spent before the window is taken off again."""
    spent = 0.0
    for pid, (own, reaped) in after.items():
        was_own, was_reaped = before.get(pid, (0.0, reaped))
        spent += (own - was_own) + (reaped - was_reaped)
    return spent - sum(own for pid, (own, _) in before.items() if pid not in after)


def pids_named(*names: str) -> list[int]:
    """Every process whose command is one of these (PostgreSQL's and Redis's
    serve other checkouts too: their share is the host's, not only ours)."""
    found = []
    for path in Path("/proc").glob("[0-9]*/stat"):
        try:
            command = path.read_text().split("(", 1)[1].split(")", 1)[0]
        except (OSError, IndexError):
            continue
        if command in names:
            found.append(int(path.parent.name))
    return found


@dataclass
class Server:
    proc: subprocess.Popen
    port: int

    def worker_pids(self) -> list[int]:
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        try:
            return [int(pid) for pid in path.read_text().split()]
        except OSError:
            return []

    def cpu_seconds(self, itself: bool = False) -> float:
        """User + system time of the workers (gunicorn's children) so far, and
        with ``itself`` of the process itself (a Celery worker with no pool)."""
        return process_cpu(self.worker_pids() + ([self.proc.pid] if itself else []))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_gunicorn(
    env, app: str, workers: int, threads: int, ready_path: str, worker_class: str = "gthread"
) -> Server:
    port = free_port()
    env = {**env, "GUNICORN_WORKER_CLASS": worker_class}
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        app,
        "--bind",
        f"{HOST}:{port}",
        "--chdir",
        str(ROOT),
        "--pythonpath",
        str(BENCH_DIR),
        # The web image's settings (threaded workers, keep-alive 10 s...), with
        # the number of workers and threads under test.
        "--config",
        str(ROOT / "config" / "gunicorn.conf.py"),
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(command, cwd=ROOT, env=env)
    server = Server(proc, port)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {proc.returncode}")
        try:
            with socket.create_connection((HOST, port), timeout=2) as sock:
                sock.sendall(f"GET {ready_path} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
                if sock.recv(64).split(b" ")[1] in (b"200", b"204"):
                    # every worker imports the app before answering: give the others a moment
                    time.sleep(1.0)
                    return server
        except (OSError, IndexError):
            pass
        time.sleep(0.2)
    server.stop()
    raise RuntimeError("gunicorn did not become ready")


def start_celery(env) -> Server:
    """A worker for the computers' moves, as compose runs one (solo: one process)."""
    command = [
        str(Path(sys.executable).with_name("celery")), "-A", "config", "worker",
        "--pool", "solo", "--loglevel", "warning", "--without-heartbeat", "--without-gossip",
        "--without-mingle",
    ]
    proc = subprocess.Popen(command, cwd=ROOT, env=env)
    time.sleep(3.0)
    if proc.poll() is not None:
        raise RuntimeError(f"celery exited with {proc.returncode}")
    return Server(proc, 0)


# --------------------------------------------------------------------------- HTTP client


class Client:
    """One keep-alive HTTP/1.1 connection, like one tablet's browser."""

    retries = 0  # requests resent once because a kept-alive connection had closed
    cpu = None  # the last answer's CPU time in the server, s (timed_wsgi's header)

    def __init__(self, port: int, cookies: dict[str, str] | None = None):
        self.port = port
        self.cookies = dict(cookies or {})
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self, method: str, target: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> tuple[int, bytes]:
        lines = [f"{method} {target} HTTP/1.1", f"Host: {HOST}:{self.port}", "Accept-Language: en"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        data = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        for attempt in range(2):
            fresh = self.writer is None
            if fresh:
                self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            try:
                self.writer.write(data)
                return await self._response()
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if fresh or attempt:
                    raise
                # The server closed an idle connection as we reused it: resend, as
                # browsers do (a move carries its move_id, so a resend is replayed).
                Client.retries += 1
        raise AssertionError("unreachable")

    async def _response(self) -> tuple[int, bytes]:
        reader = self.reader
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        self.cpu = None
        status = int(head[0].split(" ", 2)[1])
        length = None
        chunked = close = False
        for line in head[1:]:
            if not line:
                continue
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
            elif name == "connection" and value.lower() == "close":
                close = True
            elif name == "x-numbo-cpu-us":
                self.cpu = int(value) / 1e6
            elif name == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        if chunked:
            parts = []
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    await reader.readuntil(b"\r\n")
                    break
                parts.append((await reader.readexactly(size + 2))[:-2])
            body = b"".join(parts)
        elif length is not None:
            body = await reader.readexactly(length)
        elif status in (204, 304) or status < 200:
            body = b""
        else:
            body = await reader.read()
            close = True
        if close:
            self.close()
        return status, body


# --------------------------------------------------------------------------- the tablets


@dataclass
class Stats:
    window: tuple[float, float]
    samples: dict[str, list[float]] = field(default_factory=dict)
    statuses: dict[str, dict[int, int]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)
    cpu_seconds: float = 0.0
    # Per "move <game>" and "poll <game> <status>": [count, the server's CPU s].
    cpu_by_game: dict[str, list] = field(default_factory=dict)
    # (started, kind, seconds, status) of every request in the window: --timeline.
    timeline: list[tuple[float, str, float, int]] = field(default_factory=list)

    def inside(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]

    def add(self, kind: str, started: float, seconds: float, status: int) -> None:
        if not self.inside(started):
            return
        self.samples.setdefault(kind, []).append(seconds)
        self.timeline.append((started - self.window[0], kind, seconds, status))
        counts = self.statuses.setdefault(kind, {})
        counts[status] = counts.get(status, 0) + 1

    def error(self, kind: str, started: float, what: str) -> None:
        if self.inside(started):
            key = f"{kind}: {what}"
            self.errors[key] = self.errors.get(key, 0) + 1

    def outcome(self, started: float, what: str) -> None:
        if self.inside(started):
            self.outcomes[what] = self.outcomes.get(what, 0) + 1


async def timed(client, stats, kind, method, target, headers=None, body=b"", also=""):
    started = time.perf_counter()
    try:
        status, content = await client.request(method, target, headers, body)
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        stats.error(kind, started, type(error).__name__)
        return None, b""
    stats.add(kind, started, time.perf_counter() - started, status)
    if also:
        stats.add(also, started, time.perf_counter() - started, status)
        if client.cpu is not None and stats.inside(started):
            spent = stats.cpu_by_game.setdefault(
                also if kind == "move" else f"{also} {status}", [0, 0.0]
            )
            spent[0] += 1
            spent[1] += client.cpu
    if status >= 500:
        stats.error(kind, started, f"HTTP {status}")
    return status, content


@dataclass
class Stream:
    """What a tablet's event stream tells its page: rung, and whether it is live."""

    ring: asyncio.Event = field(default_factory=asyncio.Event)
    live: bool = False
    stamp: str = ""  # the last ring's
    page: bytes = b""  # the watchers' page the last ring brought, if it did


async def listen(port: int, table: int, token: str, heard: Stream, stats: Stats, end: float):
    """A tablet's event stream (games.push): rings at each 'changed', and
    hands over the page a 'page' event carries."""
    try:
        reader, writer = await asyncio.open_connection(HOST, port, limit=2**20)
    except OSError as error:
        stats.error("stream", time.perf_counter(), type(error).__name__)
        return
    writer.write(
        f"GET /tables/{table}/events/?t={quote(token)}&l=en HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            stats.error("stream", time.perf_counter(), head.split(b"\r\n", 1)[0].decode())
            return
        while time.perf_counter() < end:
            line = await asyncio.wait_for(reader.readline(), max(0.1, end - time.perf_counter()))
            if not line:
                stats.error("stream", time.perf_counter(), "closed")
                return
            if line.startswith(b"event: changed"):
                data = await asyncio.wait_for(reader.readline(), 5)
                heard.stamp = data.decode().removeprefix("data:").strip()
                heard.page = b""
                heard.ring.set()
            elif line.startswith(b"event: page"):
                # The whole event at once: a page is hundreds of data lines.
                data = await asyncio.wait_for(reader.readuntil(b"\n\n"), 5)
                lines = data[len(b"data: "):-2].split(b"\ndata: ")
                heard.stamp = lines[0].decode()
                heard.page = b"\n".join(lines[1:])
                heard.ring.set()
            elif line.startswith(b"event: ready"):
                heard.live = True
    except (TimeoutError, OSError, asyncio.IncompleteReadError):
        pass
    finally:
        heard.live = False
        writer.close()


def think(mind) -> float:
    return time.perf_counter() + random.uniform(*mind.think)


class Reach:
    """How long a move takes to show on the other tablets of its table: from
    the mover's answer to each other tablet showing that version. A pushed
    page may come before the answer (the ring goes out first): it showed at once."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.answered: dict[tuple[int, str], float] = {}
        self.early: dict[tuple[int, str], list[float]] = {}

    def moved(self, table: int, stamp: str) -> None:
        self.answered.setdefault((table, stamp), time.perf_counter())
        for seen in self.early.pop((table, stamp), []):
            self.stats.add("reach", seen, 0.0, 200)
            self.stats.add("pushed page", seen, 0.0, 200)

    def shown(self, table: int, stamp: str, pushed: bool) -> None:
        seen = time.perf_counter()
        moved = self.answered.get((table, stamp))
        if moved is not None:
            self.stats.add("reach", seen, max(0.0, seen - moved), 200)
            if pushed:
                self.stats.add("pushed page", seen, 0.0, 200)
        elif pushed and stamp:
            self.early.setdefault((table, stamp), []).append(seen)


async def pupil(row: dict, port: int, stats: Stats, end: float, reach: Reach, csrf: tuple,
                push_port: int | None = None, spread: float = SPREAD):
    """One pupil's tablet: reads the table, taps when it is their turn, polls
    as the page says, and listens to the push service when there is one."""
    secret, masked = csrf
    client = Client(port, {"sessionid": row["sid"], "csrftoken": secret})
    table, game = row["table"], row["kind"]
    mind = load_pupils.mind_for(row["game"])
    htmx = {"HX-Request": "true"}
    heard = Stream()
    await asyncio.sleep(random.uniform(0, POLL_EVERY))
    stream = (
        asyncio.create_task(listen(push_port, table, row["token"], heard, stats, end))
        if push_port
        else None
    )
    status, content = await timed(client, stats, "page", "GET", f"/tables/{table}/")
    page = load_pupils.Page.read(content if status == 200 else b"")
    tap = mind.next_tap(page)
    tap_at = think(mind) if tap else None
    last_poll = time.perf_counter()

    def poll_due() -> float:
        # As static/js/push.js: the page's pace while the ring is not live or a
        # computer moves next, else the safety poll.
        pace = page.poll_every if page.always_polls or not heard.live else SAFETY_POLL
        return last_poll + pace

    try:
        while True:
            now = time.perf_counter()
            if now >= end:
                return
            wake = poll_due() if tap_at is None else min(poll_due(), tap_at)
            if wake > now:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(heard.ring.wait(), wake - now)
            rung = heard.ring.is_set()
            heard.ring.clear()
            now = time.perf_counter()
            if tap_at is not None and now >= tap_at:
                tap_at = None
                fields = {**tap, "csrfmiddlewaretoken": masked}
                status, content = await timed(
                    client, stats, "move", "POST", f"/tables/{table}/move/",
                    {**htmx, "Content-Type": "application/x-www-form-urlencoded"},
                    urlencode(fields, doseq=True).encode(), also=f"move {game}",
                )
                if status == 200:
                    text = content.decode("utf-8", "replace")
                    if 'class="note error"' in text:
                        stats.outcome(now, f"{game} {tap['type']} refused")
                    elif "The game moved on" in text:
                        stats.outcome(now, f"{game} {tap['type']} stale")
                    else:
                        stats.outcome(now, f"{game} {tap['type']}")
                    page = load_pupils.Page.read(content)
                    reach.moved(table, page.stamp)
                elif status is not None:
                    stats.outcome(now, f"{game} {tap['type']} HTTP {status}")
                tap = mind.next_tap(page)
                tap_at = think(mind) if tap else None
                continue
            if rung and heard.stamp and heard.stamp == page.stamp:
                rung = False  # as push.js: this tablet shows that version already
            if rung and page.hears_session_only and heard.stamp and (
                heard.stamp.lstrip("0123456789") == page.stamp.lstrip("0123456789")
            ):
                rung = False  # as push.js: another player's move, nothing this page shows
            if rung and heard.page:
                # As push.js: the watchers' page came with the ring, no request.
                page = load_pupils.Page.read(heard.page)
                heard.page = b""
                reach.shown(table, page.stamp, pushed=True)
                if tap_at is None:
                    tap = mind.next_tap(page)
                    tap_at = think(mind) if tap else None
                continue
            if not rung and now < poll_due():
                continue
            if rung and not heard.stamp:
                await asyncio.sleep(random.uniform(0, spread))  # as push.js
                now = time.perf_counter()
            last_poll = now
            target = page.poll_url or f"/tables/{table}/poll/?t={quote(row['token'])}&v="
            status, content = await timed(
                client, stats, "poll", "GET", target, htmx, also=f"poll {game}"
            )
            if status == 200:
                page = load_pupils.Page.read(content)
                reach.shown(table, page.stamp, pushed=False)
                if tap_at is None:
                    tap = mind.next_tap(page)
                    tap_at = think(mind) if tap else None
            elif status not in (204, None):
                stats.error("poll", now, f"HTTP {status}")
    finally:
        client.close()
        if stream is not None:
            stream.cancel()


RE_LIVE = re.compile(rb'<div id="live" hx-get="([^"]+)"')
RE_CARDS = re.compile(rb'<div id="cards" hx-get="([^"]+)"[^>]*data-card-number="(\d+)"')


async def teacher(row: dict, port: int, stats: Stats, end: float, csrf: tuple,
                  card_every: float, in_step: bool = False):
    """A teacher's screen: the live view polled every 2 s, or for the whole
    class the cards page, a card turned every ``card_every`` seconds.

    The school's teachers turn their first card at a random moment of that
    interval, as classes that started their lessons apart would; ``in_step``
    has them all turn it within the first 2 s (the worst case: every class's
    tablets re-read in the same second)."""
    secret, masked = csrf
    client = Client(port, {"sessionid": row["sid"], "csrftoken": secret})
    session = row["session"]
    cards = row["whole_class"]
    # As htmx asks from the page's poller (#live takes the moved cards out of band).
    htmx = {"HX-Request": "true", "HX-Target": "cards" if cards else "live"}
    kind = "cards" if cards else "live"
    address = f"/sessions/{session}/cards/" if cards else f"/sessions/{session}/"
    await asyncio.sleep(random.uniform(0, CARD_WAIT))
    shown = "1"
    next_card = time.perf_counter() + (card_every if in_step else random.uniform(0, card_every))
    try:
        while time.perf_counter() < end:
            started = time.perf_counter()
            if cards and started >= next_card:
                next_card = started + card_every
                body = urlencode({"csrfmiddlewaretoken": masked, "shown": shown}).encode()
                status, content = await timed(
                    client, stats, "card", "POST", f"/sessions/{session}/cards/next/",
                    {**htmx, "Content-Type": "application/x-www-form-urlencoded"}, body,
                )
            else:
                status, content = await timed(client, stats, kind, "GET", address, htmx)
            if status == 200:
                found = (RE_CARDS if cards else RE_LIVE).search(content)
                if found:
                    address = unescape(found.group(1).decode())
                    if cards:
                        shown = found.group(2).decode()
            elif status not in (204, None):
                stats.error(kind, started, f"HTTP {status}")
            await asyncio.sleep(max(0.0, started + CARD_WAIT - time.perf_counter()))
    finally:
        client.close()


# --------------------------------------------------------------------------- full-rate comparison


async def hammer(server: Server, targets: list[tuple[str, dict]], concurrency: int,
                 seconds: float):
    """`concurrency` keep-alive clients asking as fast as answers come; after 2 s of warm-up,
    count for `seconds`, and the CPU-seconds the server's workers spent meanwhile."""
    start = time.perf_counter() + 2.0
    stats = Stats((start, start + seconds))
    cpu = {}

    async def one(index: int):
        target, cookies = targets[index % len(targets)]
        client = Client(server.port, cookies)
        try:
            while time.perf_counter() < start + seconds:
                await timed(client, stats, "req", "GET", target, {"HX-Request": "true"})
        finally:
            client.close()

    async def mark():
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        cpu["start"] = server.cpu_seconds()
        await asyncio.sleep(max(0.0, start + seconds - time.perf_counter()))
        cpu["end"] = server.cpu_seconds()

    await asyncio.gather(mark(), *(one(i) for i in range(concurrency)))
    stats.cpu_seconds = cpu["end"] - cpu["start"]
    return stats


# --------------------------------------------------------------------------- figures


def pct(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def _run_tablets(school) -> None:
    """The school's tablets on uvloop's event loop: they share the server's
    two cores, and real tablets would not, so the less CPU they take the
    truer the figures. The yardstick's clients (``hammer``) keep asyncio's
    own loop, so bare-view rates compare with earlier runs'."""
    import uvloop

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(school)


def cpu_times() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def latency_line(name: str, samples: list[float], seconds: float) -> str:
    return (
        f"{name:<22}{len(samples):>8}{len(samples) / seconds:>9.1f}"
        f"{pct(samples, 0.5):>9.1f}{pct(samples, 0.95):>9.1f}{pct(samples, 0.99):>9.1f}"
        f"{(max(samples) * 1000 if samples else float('nan')):>9.1f}"
    )


def run_config(env, data, workers, threads, args) -> dict:
    rows, teachers = data["pupils"], data["teachers"]
    # The app with each request's CPU counted by kind (timed_wsgi.py).
    cpu_dir = Path(tempfile.mkdtemp(prefix="numbo-bench-cpu-"))
    env = {**env, "NUMBO_BENCH_CPU_DIR": str(cpu_dir)}
    web_env = {**env, "NUMBO_BENCH_DRAWS": "1"} if args.count_draws else env
    if args.cpu_parts:
        web_env = {**web_env, "NUMBO_BENCH_PARTS": "1"}
    app = start_gunicorn(web_env, "timed_wsgi:application", workers, threads, "/healthz")
    # The push service beside it, as compose runs it: one uvicorn worker.
    pusher = (
        start_gunicorn(
            env, "config.asgi:application", 1, 1, "/healthz",
            worker_class="uvicorn_worker.UvicornWorker",
        )
        if args.push
        else None
    )
    celery = start_celery(env)
    push_port = pusher.port if pusher else None
    csrf = csrf_pair()
    try:
        start = time.perf_counter() + args.warmup
        end = start + args.duration
        stats = Stats((start, end))
        reach = Reach(stats)
        cpu_at, by_kind, window = {}, {}, {}

        def servers_cpu() -> tuple[float, float, float, dict[int, tuple[float, float]]]:
            return (
                app.cpu_seconds(),
                pusher.cpu_seconds() if pusher else 0.0,
                celery.cpu_seconds(itself=True),
                cpu_and_reaped(pids_named("postgres", "redis-server")),
            )

        async def school():
            async def mark():
                await asyncio.sleep(max(0.0, start - time.perf_counter()))
                cpu_at["start"] = (cpu_times(), servers_cpu(), time.process_time())
                by_kind["start"] = read_cpu_by_kind(cpu_dir)
                window["start"] = time.time()
                await asyncio.sleep(max(0.0, end - time.perf_counter()))
                cpu_at["end"] = (cpu_times(), servers_cpu(), time.process_time())
                window["end"] = time.time()
                await asyncio.sleep(0.6)  # the workers' last totals
                by_kind["end"] = read_cpu_by_kind(cpu_dir)

            await asyncio.gather(
                mark(),
                *(pupil(r, app.port, stats, end, reach, csrf, push_port, args.spread)
                  for r in rows),
                *(teacher(t, app.port, stats, end, csrf, args.card_every, args.cards_in_step)
                  for t in teachers),
            )

        _run_tablets(school())
        draws = read_draws(cpu_dir, window["start"], window["end"]) if args.count_draws else None
        (busy0, total0), (web0, push0, celery0, stores0), gen0 = cpu_at["start"]
        (busy1, total1), (web1, push1, celery1, stores1), gen1 = cpu_at["end"]
        seconds = args.duration
        cpu = {
            "machine busy": 100 * (busy1 - busy0) / max(1, total1 - total0) * os.cpu_count(),
            "web workers": 100 * (web1 - web0) / seconds,
            "push service": 100 * (push1 - push0) / seconds,
            "celery worker": 100 * (celery1 - celery0) / seconds,
            "PostgreSQL and Redis (all their databases)":
                100 * cpu_between(stores0, stores1) / seconds,
            "load generator": 100 * (gen1 - gen0) / seconds,
        }
        # Full rate on the poll's 204 path: one pupil per table, its current version.
        per_table: dict[int, dict] = {}
        for row in rows:
            per_table.setdefault(row["table"], row)
        targets = []

        async def versions():
            for row in per_table.values():
                client = Client(app.port, {"sessionid": row["sid"]})
                path = f"/tables/{row['table']}/poll/?t={quote(row['token'])}&v="
                status, content = await client.request("GET", path, {"HX-Request": "true"})
                client.close()
                targets.append((load_pupils.Page.read(content).poll_url, {"sessionid": row["sid"]}))

        asyncio.run(versions())
        poll_rate = asyncio.run(hammer(app, targets, args.concurrency, args.rate_seconds))
    finally:
        app.stop()
        if pusher:
            pusher.stop()
        celery.stop()
        shutil.rmtree(cpu_dir, ignore_errors=True)
    bare = start_gunicorn(env, "bare_wsgi:application", workers, threads, "/bare/")
    try:
        cookies = [{"sessionid": row["sid"]} for row in per_table.values()]
        bare_targets = [("/bare/", c) for c in cookies]
        bare_rate = asyncio.run(hammer(bare, bare_targets, args.concurrency, args.rate_seconds))
    finally:
        bare.stop()
    return {
        "config": f"{workers} workers x {threads} threads (gthread)"
        + (", the push service (1 uvicorn worker)" if args.push else "")
        + ", a Celery worker (solo)",
        "stats": stats,
        "cpu": cpu,
        "web_cpu_seconds": (web1 - web0) + (push1 - push0),
        "cpu_by_kind": {
            kind: [v - before for v, before in zip(
                values, by_kind["start"].get(kind, [0] * len(values)), strict=True)]
            for kind, values in by_kind["end"].items()
        },
        "poll_rate": poll_rate,
        "bare_rate": bare_rate,
        "draws": draws,
        "window_start": window["start"],
        "pupils": len(rows),
        "teachers": len(teachers),
        "tables": len(per_table),
    }


def read_draws(directory: Path, start: float, end: float) -> dict[str, list[float]]:
    """The draws timed_wsgi.py's workers logged (--count-draws), in the window:
    [count, CPU s] of all of them, of those whose key another process had
    drawn before, and of those this process had drawn before (its cache full)."""
    log = []
    for path in directory.glob("*.draws"):
        for line in path.read_text().splitlines():
            when, what, spent = line.split()
            log.append((float(when), path.stem, what, int(spent) / 1e6))
    found = {"all": [0, 0.0], "drawn by another process": [0, 0.0], "drawn again": [0, 0.0]}
    drawn_by: dict[str, set[str]] = {}
    for when, pid, what, spent in sorted(log):
        before = drawn_by.setdefault(what, set())
        if start <= when <= end:
            kinds = ["all"]
            if pid in before:
                kinds.append("drawn again")
            elif before:
                kinds.append("drawn by another process")
            for kind in kinds:
                found[kind][0] += 1
                found[kind][1] += spent
        before.add(pid)
    return found


def read_cpu_by_kind(directory: Path) -> dict[str, list[float]]:
    """The CPU totals timed_wsgi.py's workers wrote, summed by kind of request:
    [count, CPU s], and with --cpu-parts the CPU s of each of cpu_parts.PARTS."""
    totals: dict[str, list[float]] = {}
    for path in directory.glob("*.json"):
        for _attempt in range(5):
            try:
                found = json.loads(path.read_text())
                break
            except (OSError, ValueError):
                time.sleep(0.01)  # caught while its worker rewrote it
        else:
            continue
        for kind, values in found.items():
            total = totals.setdefault(kind, [0] * len(values))
            for index, value in enumerate(values):
                total[index] += value
    return totals


def draw_lines(draws: dict | None, web_seconds: float) -> list[str]:
    """--count-draws: the boards and pieces drawn because a process had not kept them."""
    if not draws:
        return []
    web = max(web_seconds, 1e-9)
    count, spent = draws["all"]
    lines = [f"draws missing a web process's kept HTML: {count} ({spent:.1f} s of CPU, "
             f"{100 * spent / web:.0f} % of the web processes'), of which:"]
    for kind in ("drawn by another process", "drawn again"):
        count, spent = draws[kind]
        lines.append(f"  {kind:<26}{count:>7} ({spent:.1f} s, {100 * spent / web:.0f} %)")
    return lines


def csrf_pair() -> tuple[str, str]:
    """A CSRF cookie secret and a form token that goes with it."""
    from django.middleware.csrf import _get_new_csrf_string, _mask_cipher_secret

    secret = _get_new_csrf_string()
    return secret, _mask_cipher_secret(secret)


def cost_lines(
    by_kind: dict, pupil_seconds: float, bare_cost: float, width: int = 12
) -> list[str]:
    """Where the web workers' CPU went, by kind of request, in bare requests a pupil-second."""
    lines = [
        f"  {'request':<{width}}{'count':>8}{'CPU ms each':>13}{'CPU s':>8}{'per pupil-s':>13}"
    ]
    for kind, (count, seconds, *_parts) in sorted(by_kind.items(), key=lambda item: -item[1][1]):
        if count:
            lines.append(
                f"  {kind:<{width}}{count:>8}{seconds / count * 1000:>13.2f}{seconds:>8.1f}"
                f"{seconds / pupil_seconds / bare_cost:>13.2f}"
            )
    return lines


def parts_lines(by_kind: dict, pupil_seconds: float, bare_cost: float) -> list[str]:
    """--cpu-parts: what the web workers' CPU was spent on, in all and by kind
    of request; "the rest" is Django's handling, our views and the models."""
    rows = {kind: values for kind, values in by_kind.items() if len(values) == 2 + len(PARTS)}
    if not rows:
        return []
    total = sum(values[1] for values in rows.values()) or 1e-9
    spent = [sum(values[2 + i] for values in rows.values()) for i in range(len(PARTS))]
    rest = total - sum(spent)
    lines = ["the web workers' CPU by what spent it (per pupil-s in bare requests):"]
    for name, seconds in [*((PART_NAMES[p], s) for p, s in zip(PARTS, spent, strict=True)),
                          ("the rest (Django, our views, the models)", rest)]:
        lines.append(f"  {name:<42}{100 * seconds / total:>5.0f} %"
                     f"{seconds / pupil_seconds / bare_cost:>8.2f}")
    lines.append(f"  {'request':<12}{'ms each':>9}" + "".join(f"{p:>8}" for p in PARTS)
                 + f"{'rest':>8}")
    for kind, (count, seconds, *parts) in sorted(rows.items(), key=lambda item: -item[1][1]):
        if count:
            lines.append(f"  {kind:<12}{seconds / count * 1000:>9.2f}"
                         + "".join(f"{p / count * 1000:>8.2f}" for p in parts)
                         + f"{(seconds - sum(parts)) / count * 1000:>8.2f}")
    return lines


def report(result: dict, args) -> tuple[str, bool]:
    stats, poll_rate, bare_rate = result["stats"], result["poll_rate"], result["bare_rate"]
    pupils, seconds = result["pupils"], args.duration
    polls = stats.samples.get("poll", [])
    moves = stats.samples.get("move", [])
    reach = stats.samples.get("reach", [])
    poll_req = poll_rate.samples.get("req", [])
    bare_req = bare_rate.samples.get("req", [])
    poll_rps = len(poll_req) / args.rate_seconds
    bare_rps = len(bare_req) / args.rate_seconds
    ratio = poll_rps / bare_rps if bare_rps else float("nan")
    # One bare request's CPU on this host now, and a pupil-second's in those units.
    bare_cost = bare_rate.cpu_seconds / len(bare_req) if bare_req else float("nan")
    web_cores = result["web_cpu_seconds"] / seconds
    pupil_cost = web_cores / pupils / bare_cost if pupils else float("nan")
    server_errors = sum(
        n
        for s in (stats, poll_rate, bare_rate)
        for counts in s.statuses.values()
        for code, n in counts.items()
        if code >= 500
    )
    failures = sum(stats.errors.values()) + sum(poll_rate.errors.values())
    failures += sum(bare_rate.errors.values())
    checks = [
        (f"poll p95 < {GOAL_POLL_P95_MS:g} ms", pct(polls, 0.95) < GOAL_POLL_P95_MS),
        (f"move p95 < {GOAL_MOVE_P95_MS:g} ms", pct(moves, 0.95) < GOAL_MOVE_P95_MS),
        (f"reach p95 < {GOAL_REACH_P95_MS:g} ms", pct(reach, 0.95) < GOAL_REACH_P95_MS),
        (f"web processes < {GOAL_WEB_CORES:g} cores", web_cores < GOAL_WEB_CORES),
        (f"a pupil <= {GOAL_PUPIL_COST:g} bare request/s", pupil_cost <= GOAL_PUPIL_COST),
        ("no 5xx, no failed request", server_errors == 0 and failures == 0),
    ]
    header = f"{'':<26}{'count':>8}{'per s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}"
    poll_by_status = {code: stats.statuses.get("poll", {}).get(code, 0) for code in (204, 200)}
    kinds = ["poll", "move", "reach", "pushed page", "live", "cards", "card", "page"]
    kinds += sorted(k for k in stats.samples if " " in k)
    lines = [
        f"Numbo load benchmark, {time.strftime('%Y-%m-%d %H:%M:%S')}, {os.cpu_count()} cores"
        + (f" ({args.note})" if args.note else ""),
        f"gunicorn: {result['config']}, DEBUG=0, PostgreSQL + Redis on 127.0.0.1",
        f"pupils: {pupils} at {result['tables']} tables in {result['teachers']} classes "
        f"(games in turn: Number Quest at 4, Number Quest against a computer, the track at 3, "
        f"NMBR 9 at 4, NMBR 9 whole class, Nambarz at 4, NUM-X at 4); "
        f"{result['teachers']} teachers' screens every "
        f"{CARD_WAIT:g} s, a card turned every {args.card_every:g} s"
        f"{' (all classes within 2 s)' if args.cards_in_step else ''}"
        + (f", a class-wide ring answered within {args.spread:g} s"
           if args.spread != SPREAD else "")
        + "; "
        f"window {seconds:g} s after {args.warmup:g} s warm-up",
        "",
        header,
        *(latency_line(kind, stats.samples.get(kind, []), seconds) for kind in kinds
          if stats.samples.get(kind)),
        f"poll answers: 204 x {poll_by_status[204]}, 200 x {poll_by_status[200]}; statuses: "
        f"{ {k: dict(v) for k, v in sorted(stats.statuses.items()) if ' ' not in k} }",
        f"taps: {dict(sorted(stats.outcomes.items()))}",
        "cpu in the window (100 % = one core): "
        + ", ".join(f"{k} {v:.0f} %" for k, v in result["cpu"].items()),
        "",
        f"full rate, {args.concurrency} keep-alive clients, {args.rate_seconds:g} s each:",
        f"  poll (204 path)  {poll_rps:>8.0f} req/s   p50 {pct(poll_req, 0.5):.1f} ms"
        f"  p95 {pct(poll_req, 0.95):.1f} ms  statuses {poll_rate.statuses.get('req', {})}",
        f"  bare Django view {bare_rps:>8.0f} req/s   p50 {pct(bare_req, 0.5):.1f} ms"
        f"  p95 {pct(bare_req, 0.95):.1f} ms  statuses {bare_rate.statuses.get('req', {})}",
        f"  ratio poll / bare {ratio:.2f}; one bare request costs {bare_cost * 1000:.2f} ms "
        f"of CPU, one 204 poll {poll_rate.cpu_seconds / max(1, len(poll_req)) * 1000:.2f} ms",
        "",
        f"a pupil costs {pupil_cost:.2f} bare requests a second "
        f"(web processes {web_cores:.2f} cores for {pupils} pupils), of which:",
        *cost_lines(result["cpu_by_kind"], pupils * seconds, bare_cost),
        "by game (the server's CPU of each answer, as the tablets received them):",
        *cost_lines(
            {kind: tuple(spent) for kind, spent in stats.cpu_by_game.items()},
            pupils * seconds, bare_cost, width=30,
        ),
        *parts_lines(result["cpu_by_kind"], pupils * seconds, bare_cost),
        *draw_lines(result.get("draws"), result["web_cpu_seconds"]),
        f"5xx answers: {server_errors}; failed requests: {failures} "
        f"{dict(stats.errors) | dict(poll_rate.errors) | dict(bare_rate.errors)}; "
        f"connections reopened and resent: {Client.retries}",
        "goals: " + ", ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in checks),
    ]
    return "\n".join(lines), all(ok for _, ok in checks)


def write_timeline(path: Path, stats: Stats, started: float) -> None:
    """Where a tail comes from: are the slow requests spread out, or bunched at
    the moments a class's tablets all ask at once? The first line is the
    window's start (Unix time), to set beside a sampler's clock."""
    with path.open("w") as out:
        out.write(f"# window start {started:.3f}\n")
        for started, kind, seconds, status in sorted(stats.timeline):
            out.write(f"{started:.3f} {kind.replace(' ', '_')} {1000 * seconds:.1f} {status}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", help=argparse.SUPPRESS)
    parser.add_argument("--pupils", type=int, default=300)
    parser.add_argument("--classes", type=int, default=30, help="a teacher each")
    parser.add_argument("--duration", type=float, default=60.0, help="measured window, s")
    parser.add_argument("--warmup", type=float, default=15.0)
    parser.add_argument("--card-every", type=float, default=15.0,
                        help="seconds between the cards a whole-class teacher turns")
    parser.add_argument("--spread", type=float, default=SPREAD,
                        help="seconds within which a tablet answers a ring without a stamp "
                        f"(default: push.js's, {SPREAD:g})")
    parser.add_argument("--cards-in-step", action="store_true",
                        help="every whole-class teacher turns a card in the same 2 s "
                        "(by default each class at its own moment)")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--rate-seconds", type=float, default=10.0)
    parser.add_argument("--note", default="", help="said in the results, e.g. 'host loaded'")
    parser.add_argument(
        "--push", action="store_true",
        help="serve config.asgi with uvicorn workers; tablets hold event streams and poll "
        f"every {SAFETY_POLL:g} s",
    )
    parser.add_argument(
        "--count-draws", action="store_true",
        help="log each draw that missed a web process's kept HTML: how many another "
        "process had drawn already (costs the web processes a little)",
    )
    parser.add_argument(
        "--cpu-parts", action="store_true",
        help="split the web workers' CPU by what spent it: drawing pages, the ORM, the "
        "database driver, the Redis client, the rest (costs them a little)",
    )
    parser.add_argument(
        "--timeline", type=Path,
        help="write every request of the window to this file, one line each: when it "
        "started (s into the window), its kind, how long it took (ms), its status",
    )
    parser.add_argument(
        "--config",
        action="append",
        help="gunicorn WORKERSxTHREADS, repeatable (default: 4x1)",
    )
    args = parser.parse_args()
    if args.seed:
        seed(args.seed, args.classes, args.pupils)
        return 0
    configs = [tuple(int(n) for n in c.lower().split("x")) for c in args.config or ["4x1"]]
    static_root = tempfile.mkdtemp(prefix="numbo-bench-static-")
    try:
        env = bench_env(static_root)
        print("preparing: database, migrations, static files, seed ...", flush=True)
        recreate_database()
        flush_redis()
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        seed_file = Path(static_root) / "seed.json"
        subprocess.run(
            [sys.executable, __file__, "--seed", str(seed_file)]
            + ["--classes", str(args.classes), "--pupils", str(args.pupils)],
            cwd=ROOT,
            env=env,
            check=True,
        )
        data = json.loads(seed_file.read_text())
        texts, met = [], True
        for workers, threads in configs:
            print(f"running: {len(data['pupils'])} pupils, gunicorn {workers}x{threads} ...",
                  flush=True)
            Client.retries = 0
            result = run_config(env, data, workers, threads, args)
            text, ok = report(result, args)
            if args.timeline:
                write_timeline(args.timeline, result["stats"], result["window_start"])
            print("\n" + text + "\n", flush=True)
            texts.append(text)
            met = met and ok
        # Newest first, every run kept: the host's figures beside each.
        earlier = RESULTS.read_text() if RESULTS.exists() else ""
        RESULTS.write_text("\n\n".join(texts) + "\n" + ("\n" + earlier if earlier else ""))
        print(f"added to {RESULTS.relative_to(ROOT)}")
        return 0 if met else 1
    finally:
        shutil.rmtree(static_root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
