"""Load benchmark of Number Quest on tablets: run ``.venv/bin/python tests/bench/bench_load.py``.

Everything stays on loopback (127.0.0.1). The script

1. recreates the PostgreSQL database ``numbo_bench`` (or ``$NUMBO_BENCH_DB``; user
   postgres), migrates it, collects static files into a temporary directory
   and flushes Redis database 2 (or ``$NUMBO_BENCH_REDIS_DB``), and only that one;
2. seeds one teacher, 300 pupils in 10 classes and a running Number Quest
   session per class (preset "classic", tables of 4, no bots), with a signed-in
   session cookie and a poll token for each pupil;
3. serves the app with gunicorn in production mode (DEBUG=0) on a free port;
4. simulates the pupils in one asyncio process with a tiny keep-alive HTTP/1.1
   client: every tablet polls its table every 2 s; the pupil whose turn it is
   thinks, posts a correct step (the first two numbers added) and then
   "I can't make a number", which ends the turn;
5. measures a steady window (60 s by default) after a warm-up, then hammers the
   poll (204 path) and a bare Django view (tests/bench/bare_wsgi.py, same
   settings and middleware, served the same way) at full rate with the same
   concurrency, to compare requests per second.

With ``--push`` the tablets hold event streams from the push service
(config.asgi, one uvicorn worker, as compose runs it) and poll when rung, and
every 20 s besides; "move reaches others" is the time from a move's answer to
another tablet of the table having the new board, in both modes.

Goals (issue "Play Number Quest on tablets"): 300 pupils, poll p95 < 50 ms,
move p95 < 150 ms, poll rps >= half the bare view's, no 5xx. The figures are
printed and written to tests/bench/results_load.txt. Named bench_* so the
default pytest run skips it.
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
RESULTS = BENCH_DIR / "results_load.txt"
HOST = "127.0.0.1"  # loopback only, always
# Another database and Redis number when several checkouts share the machine.
DB_NAME = os.environ.get("NUMBO_BENCH_DB", "numbo_bench")
DATABASE_URL = f"postgres://postgres@{HOST}:5432/{DB_NAME}"
REDIS_URL = f"redis://{HOST}:6379/{int(os.environ.get('NUMBO_BENCH_REDIS_DB', '2'))}"
POLL_EVERY = 2.0
SAFETY_POLL = 20.0  # with push, as static/js/push.js polls while its stream is live

GOAL_POLL_P95_MS = 50.0
GOAL_MOVE_P95_MS = 150.0
GOAL_RATIO = 0.5


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


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def seed(out: str, classes: int, per_class: int) -> None:
    """Runs in a child process (``--seed``) with the bench environment."""
    sys.path.insert(0, str(ROOT))
    import importlib

    import django

    django.setup()
    from django.conf import settings

    from classroom.models import Classroom, Pupil, Teacher
    from classroom.pupil_auth import SESSION_EPOCH, SESSION_PUPIL
    from games import services
    from games.models import Seat
    from games.views.tables import poll_token

    store = importlib.import_module(settings.SESSION_ENGINE).SessionStore
    teacher = Teacher.objects.create_user(
        "bench@school.test", "correct-horse-bench", display_name="Bench"
    )
    sessions = []
    for number in range(classes):
        classroom = Classroom.objects.create(teacher=teacher, name=f"Bench {number + 1}")
        pupils = [
            Pupil.objects.create(
                classroom=classroom,
                first_name=f"Pupil{number}x{index}",
                initial="B",
                avatar="cat",
                picture_password="sun,moon,star",
            )
            for index in range(per_class)
        ]
        sessions.append(
            services.start_session(
                classroom,
                teacher,
                game="numberquest",
                options={"preset": "classic"},
                pupils=pupils,
                table_size=4,
                seed=number,
            )
        )
    rows = []
    seats = Seat.objects.filter(table__session__in=sessions, pupil__isnull=False).select_related(
        "table", "pupil__classroom"
    )
    for seat in seats:
        session = store()
        session[SESSION_PUPIL] = seat.pupil_id
        session[SESSION_EPOCH] = seat.pupil.classroom.sign_in_epoch
        session.save()
        rows.append(
            {
                "pupil": seat.pupil_id,
                "table": seat.table_id,
                "sid": session.session_key,
                "token": poll_token(seat.table, seat.pupil_id, None),
            }
        )
    Path(out).write_text(json.dumps(rows))


# --------------------------------------------------------------------------- gunicorn


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


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

    def cpu_seconds(self) -> float:
        """User + system time of the gunicorn workers so far."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for pid in self.worker_pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])
        return total / ticks

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


# --------------------------------------------------------------------------- HTTP client


class Client:
    """One keep-alive HTTP/1.1 connection, like one tablet's browser."""

    retries = 0  # requests resent once because a kept-alive connection had closed

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


# --------------------------------------------------------------------------- the pupils


RE_POLL = re.compile(rb'<div id="table"[^>]*? hx-get="([^"]+)"')
RE_FORM_VERSION = re.compile(rb'name="version" value="(\d+)"')
RE_MOVE_ID = re.compile(rb'name="move_id" value="([0-9a-f]+)"')
RE_CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
RE_LEFT = re.compile(rb'name="left" value="([^"]+)"')


@dataclass
class Board:
    poll_url: str = ""  # what htmx polls: the poll token and the board's stamp
    can_step: bool = False
    can_pass: bool = False
    has_steps: bool = False
    available: list[str] = field(default_factory=list)
    form_version: str = ""
    move_id: str = ""
    csrf: str = ""

    @classmethod
    def parse(cls, html: bytes) -> Board:
        board = cls()
        found = RE_POLL.search(html)
        board.poll_url = unescape(found.group(1).decode()) if found else ""
        board.can_pass = b'name="type" value="cant"' in html
        board.can_step = b'name="type" value="step"' in html
        board.has_steps = b'<ul class="steps">' in html
        if board.can_pass:
            board.form_version = RE_FORM_VERSION.search(html).group(1).decode()
            board.move_id = RE_MOVE_ID.search(html).group(1).decode()
            board.csrf = RE_CSRF.search(html).group(1).decode()
            board.available = [v.decode() for v in RE_LEFT.findall(html)]
        return board

    def next_move(self) -> dict[str, str]:
        if self.can_step and not self.has_steps and len(self.available) >= 2:
            left, right = self.available[0], self.available[1]
            total = int(left.split("|")[0]) + int(right.split("|")[0])
            return {"type": "step", "left": left, "op": "+", "right": right, "result": str(total)}
        return {"type": "cant"}


@dataclass
class Stats:
    window: tuple[float, float]
    samples: dict[str, list[float]] = field(default_factory=dict)
    statuses: dict[str, dict[int, int]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)

    def inside(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]

    def add(self, kind: str, started: float, seconds: float, status: int) -> None:
        if not self.inside(started):
            return
        self.samples.setdefault(kind, []).append(seconds)
        counts = self.statuses.setdefault(kind, {})
        counts[status] = counts.get(status, 0) + 1

    def error(self, kind: str, started: float, what: str) -> None:
        if self.inside(started):
            key = f"{kind}: {what}"
            self.errors[key] = self.errors.get(key, 0) + 1

    def outcome(self, started: float, what: str) -> None:
        if self.inside(started):
            self.outcomes[what] = self.outcomes.get(what, 0) + 1


async def timed(client, stats, kind, method, target, headers=None, body=b""):
    started = time.perf_counter()
    try:
        status, content = await client.request(method, target, headers, body)
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        stats.error(kind, started, type(error).__name__)
        return None, b""
    stats.add(kind, started, time.perf_counter() - started, status)
    if status >= 500:
        stats.error(kind, started, f"HTTP {status}")
    return status, content


def stamp_of(poll_url: str) -> str:
    return poll_url.rsplit("&v=", 1)[-1] if "&v=" in poll_url else ""


async def listen(port: int, table: int, token: str, ring: asyncio.Event, stats: Stats, end: float):
    """A tablet's event stream (games.push): sets ``ring`` at each 'changed'."""
    try:
        reader, writer = await asyncio.open_connection(HOST, port)
    except OSError as error:
        stats.error("stream", time.perf_counter(), type(error).__name__)
        return
    writer.write(
        f"GET /tables/{table}/events/?t={quote(token)} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
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
                ring.set()
    except (TimeoutError, OSError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def pupil(
    row: dict, port: int, stats: Stats, end: float, think: tuple[float, float],
    moved_at: dict, push_port: int | None = None,
):
    client = Client(port, {"sessionid": row["sid"]})
    table = row["table"]
    htmx = {"HX-Request": "true"}
    first_poll = f"/tables/{table}/poll/?t={quote(row['token'])}&v="
    poll_every = SAFETY_POLL if push_port else POLL_EVERY
    ring = asyncio.Event()
    await asyncio.sleep(random.uniform(0, POLL_EVERY))
    stream = (
        asyncio.create_task(listen(push_port, table, row["token"], ring, stats, end))
        if push_port
        else None
    )
    status, content = await timed(client, stats, "page", "GET", f"/tables/{table}/")
    board = Board.parse(content) if status == 200 else Board()
    now = time.perf_counter()
    next_poll = now + poll_every
    move_at = now + random.uniform(*think) if board.can_pass else None
    try:
        while True:
            now = time.perf_counter()
            if now >= end:
                return
            wake = next_poll if move_at is None else min(next_poll, move_at)
            if wake > now:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ring.wait(), wake - now)
            rung = ring.is_set()
            ring.clear()
            now = time.perf_counter()
            if move_at is not None and now >= move_at:
                move_at = None
                move = board.next_move()
                fields = {
                    "csrfmiddlewaretoken": board.csrf,
                    "version": board.form_version,
                    "move_id": board.move_id,
                    **move,
                }
                status, content = await timed(
                    client,
                    stats,
                    "move",
                    "POST",
                    f"/tables/{table}/move/",
                    {**htmx, "Content-Type": "application/x-www-form-urlencoded"},
                    urlencode(fields).encode(),
                )
                if status == 200:
                    if b'class="note error"' in content:
                        stats.outcome(now, f"{move['type']} refused")
                    elif b"The game moved on" in content:
                        stats.outcome(now, f"{move['type']} stale")
                    else:
                        stats.outcome(now, f"{move['type']} applied")
                    board = Board.parse(content)
                    moved_at.setdefault((table, stamp_of(board.poll_url)), time.perf_counter())
                    if board.can_pass:
                        move_at = time.perf_counter() + random.uniform(*think)
                else:
                    stats.outcome(now, f"{move['type']} HTTP {status}")
                continue
            if not rung and now < next_poll:
                continue
            next_poll = now + poll_every if rung else max(next_poll + poll_every, now)
            poll = board.poll_url or first_poll
            status, content = await timed(client, stats, "poll", "GET", poll, htmx)
            if status == 200:
                board = Board.parse(content)
                moved = moved_at.get((table, stamp_of(board.poll_url)))
                if moved is not None:
                    # From the mover's answer to this tablet showing the move.
                    seen = time.perf_counter()
                    stats.add("reach", seen, max(0.0, seen - moved), 200)
                if board.can_pass and move_at is None:
                    move_at = time.perf_counter() + random.uniform(*think)
            elif status not in (204, None):
                stats.error("poll", now, f"HTTP {status}")
    finally:
        client.close()
        if stream is not None:
            stream.cancel()


# --------------------------------------------------------------------------- full-rate comparison


async def hammer(port: int, targets: list[tuple[str, dict]], concurrency: int, seconds: float):
    """`concurrency` keep-alive clients asking as fast as answers come; after 2 s of warm-up,
    count for `seconds`."""
    start = time.perf_counter() + 2.0
    stats = Stats((start, start + seconds))

    async def one(index: int):
        target, cookies = targets[index % len(targets)]
        client = Client(port, cookies)
        try:
            while time.perf_counter() < start + seconds:
                await timed(client, stats, "req", "GET", target, {"HX-Request": "true"})
        finally:
            client.close()

    await asyncio.gather(*(one(i) for i in range(concurrency)))
    return stats


# --------------------------------------------------------------------------- figures


def pct(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


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


def run_config(env, rows, workers, threads, args) -> dict:
    think = (args.think_min, args.think_max)
    app = start_gunicorn(env, "config.wsgi:application", workers, threads, "/healthz")
    # The push service beside it, as compose runs it: one uvicorn worker.
    pusher = (
        start_gunicorn(
            env, "config.asgi:application", 1, 1, "/healthz",
            worker_class="uvicorn_worker.UvicornWorker",
        )
        if args.push
        else None
    )
    push_port = pusher.port if pusher else None
    moved_at: dict = {}
    try:
        start = time.perf_counter() + args.warmup
        end = start + args.duration
        stats = Stats((start, end))
        cpu_at = {}

        async def pupils_phase():
            async def mark():
                await asyncio.sleep(max(0.0, start - time.perf_counter()))
                cpu_at["start"] = (cpu_times(), servers_cpu(), time.process_time())
                await asyncio.sleep(max(0.0, end - time.perf_counter()))
                cpu_at["end"] = (cpu_times(), servers_cpu(), time.process_time())

            def servers_cpu() -> float:
                return app.cpu_seconds() + (pusher.cpu_seconds() if pusher else 0.0)

            await asyncio.gather(
                mark(),
                *(pupil(r, app.port, stats, end, think, moved_at, push_port) for r in rows),
            )

        asyncio.run(pupils_phase())
        (busy0, total0), server0, gen0 = cpu_at["start"]
        (busy1, total1), server1, gen1 = cpu_at["end"]
        cpu = {
            "machine busy %": 100 * (busy1 - busy0) / max(1, total1 - total0) * os.cpu_count(),
            "web (and push) workers %": 100 * (server1 - server0) / args.duration,
            "load generator %": 100 * (gen1 - gen0) / args.duration,
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
                targets.append((Board.parse(content).poll_url, {"sessionid": row["sid"]}))

        asyncio.run(versions())
        poll_rate = asyncio.run(hammer(app.port, targets, args.concurrency, args.rate_seconds))
    finally:
        app.stop()
        if pusher:
            pusher.stop()
    bare = start_gunicorn(env, "bare_wsgi:application", workers, threads, "/bare/")
    try:
        cookies = [{"sessionid": row["sid"]} for row in per_table.values()]
        bare_targets = [("/bare/", c) for c in cookies]
        bare_rate = asyncio.run(
            hammer(bare.port, bare_targets, args.concurrency, args.rate_seconds)
        )
    finally:
        bare.stop()
    return {
        "config": f"{workers} workers x {threads} threads (gthread)"
        + (", and the push service (1 uvicorn worker)" if args.push else ""),
        "stats": stats,
        "cpu": cpu,
        "poll_rate": poll_rate,
        "bare_rate": bare_rate,
    }


def report(result: dict, args, pupils: int, tables: int) -> tuple[str, bool]:
    stats, poll_rate, bare_rate = result["stats"], result["poll_rate"], result["bare_rate"]
    polls = stats.samples.get("poll", [])
    moves = stats.samples.get("move", [])
    poll_req = poll_rate.samples.get("req", [])
    bare_req = bare_rate.samples.get("req", [])
    poll_rps = len(poll_req) / args.rate_seconds
    bare_rps = len(bare_req) / args.rate_seconds
    ratio = poll_rps / bare_rps if bare_rps else float("nan")
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
        ("poll p95 < 50 ms", pct(polls, 0.95) < GOAL_POLL_P95_MS),
        ("move p95 < 150 ms", pct(moves, 0.95) < GOAL_MOVE_P95_MS),
        ("poll rps >= 0.5 x bare rps", ratio >= GOAL_RATIO),
        ("no 5xx, no failed request", server_errors == 0 and failures == 0),
    ]
    header = f"{'':<22}{'count':>8}{'per s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}"
    poll_by_status = {code: stats.statuses.get("poll", {}).get(code, 0) for code in (204, 200)}
    lines = [
        f"Numbo load benchmark, {time.strftime('%Y-%m-%d %H:%M:%S')}, {os.cpu_count()} cores",
        f"gunicorn: {result['config']}, DEBUG=0, PostgreSQL + Redis on 127.0.0.1",
        f"pupils: {pupils} at {tables} tables, poll every {POLL_EVERY:g} s, think "
        f"{args.think_min:g}-{args.think_max:g} s per move (a step, then 'can't'); "
        f"window {args.duration:g} s after {args.warmup:g} s warm-up",
        "",
        header,
        latency_line("poll (all)", polls, args.duration),
        latency_line("move (POST)", moves, args.duration),
        latency_line("move reaches others", stats.samples.get("reach", []), args.duration),
        f"poll answers: 204 x {poll_by_status[204]}, 200 x {poll_by_status[200]}; "
        f"statuses: { {k: dict(v) for k, v in stats.statuses.items()} }",
        f"moves: {dict(sorted(stats.outcomes.items()))}",
        "cpu in the window (100 % = one core): "
        + ", ".join(f"{k} {v:.0f}" for k, v in result["cpu"].items()),
        "",
        f"full rate, {args.concurrency} keep-alive clients, {args.rate_seconds:g} s each:",
        f"  poll (204 path)  {poll_rps:>8.0f} req/s   p50 {pct(poll_req, 0.5):.1f} ms"
        f"  p95 {pct(poll_req, 0.95):.1f} ms  statuses {poll_rate.statuses.get('req', {})}",
        f"  bare Django view {bare_rps:>8.0f} req/s   p50 {pct(bare_req, 0.5):.1f} ms"
        f"  p95 {pct(bare_req, 0.95):.1f} ms  statuses {bare_rate.statuses.get('req', {})}",
        f"  ratio poll / bare {ratio:.2f}",
        "",
        f"5xx answers: {server_errors}; failed requests: {failures} "
        f"{dict(stats.errors) | dict(poll_rate.errors) | dict(bare_rate.errors)}; "
        f"connections reopened and resent: {Client.retries}",
        "goals: " + ", ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in checks),
    ]
    return "\n".join(lines), all(ok for _, ok in checks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", help=argparse.SUPPRESS)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--per-class", type=int, default=30)
    parser.add_argument("--duration", type=float, default=60.0, help="measured window, s")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--think-min", type=float, default=2.0)
    parser.add_argument("--think-max", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--rate-seconds", type=float, default=15.0)
    parser.add_argument(
        "--push", action="store_true",
        help="serve config.asgi with uvicorn workers; tablets hold event streams and poll "
        f"every {SAFETY_POLL:g} s",
    )
    parser.add_argument(
        "--config",
        action="append",
        help="gunicorn WORKERSxTHREADS, repeatable (default: 4x1 and 2x8)",
    )
    args = parser.parse_args()
    if args.seed:
        seed(args.seed, args.classes, args.per_class)
        return 0
    configs = [tuple(int(n) for n in c.lower().split("x")) for c in args.config or ["4x1", "2x8"]]
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
            + ["--classes", str(args.classes), "--per-class", str(args.per_class)],
            cwd=ROOT,
            env=env,
            check=True,
        )
        rows = json.loads(seed_file.read_text())
        tables = len({row["table"] for row in rows})
        texts, met = [], True
        for workers, threads in configs:
            print(f"running: {len(rows)} pupils, gunicorn {workers}x{threads} ...", flush=True)
            Client.retries = 0
            result = run_config(env, rows, workers, threads, args)
            text, ok = report(result, args, len(rows), tables)
            print("\n" + text + "\n", flush=True)
            texts.append(text)
            met = met and ok
        RESULTS.write_text("\n\n".join(texts) + "\n")
        print(f"written to {RESULTS.relative_to(ROOT)}")
        return 0 if met else 1
    finally:
        shutil.rmtree(static_root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
