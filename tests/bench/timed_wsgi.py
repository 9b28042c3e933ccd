"""The app as bench_load.py serves it, with each request's CPU time counted by kind.

Wraps config.wsgi's application: one thread per worker, so the process's CPU
time across a request is that request's. Each worker writes its totals to
``$NUMBO_BENCH_CPU_DIR/<pid>.json`` at most twice a second; the bench reads
them (bench_load.read_cpu_by_kind) at the start and the end of its window
and prints where the CPU went.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from pathlib import Path

from cpu_parts import PARTS

from config.wsgi import application as django_application

KINDS = [
    ("poll", re.compile(r"^/tables/\d+/poll/$")),
    ("move", re.compile(r"^/tables/\d+/move/$")),
    ("page", re.compile(r"^/tables/\d+/$")),
    ("cards", re.compile(r"^/sessions/\d+/cards/$")),
    ("card", re.compile(r"^/sessions/\d+/cards/next/$")),
    ("live", re.compile(r"^/sessions/\d+/$")),
]
OUT_DIR = Path(os.environ.get("NUMBO_BENCH_CPU_DIR", "/dev/shm"))


def _count_draws() -> None:
    """bench_load.py --count-draws: each draw that missed this process's kept
    HTML (games.pages.base.KeptHtml) is appended to ``<pid>.draws``: when,
    what (a hash of the draw's name and key, the same in every process) and
    its CPU. Only the outermost draw of a nested one, so no CPU counts twice."""
    from games.pages import base

    kept_get = base.KeptHtml.get
    depth = [0]
    out = os.open(OUT_DIR / f"{os.getpid()}.draws", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def get(self, key, draw):
        if key in self._kept or depth[0]:
            return kept_get(self, key, draw)
        depth[0] += 1
        started = time.thread_time()
        try:
            return kept_get(self, key, draw)
        finally:
            depth[0] -= 1
            spent = time.thread_time() - started
            what = hashlib.blake2b(f"{draw.__qualname__}{key!r}".encode(), digest_size=8)
            os.write(out, f"{time.time():.3f} {what.hexdigest()} {spent * 1e6:.0f}\n".encode())

    base.KeptHtml.get = get


if os.environ.get("NUMBO_BENCH_DRAWS"):
    _count_draws()

# bench_load.py --cpu-parts: each request's CPU split by what spent it. A
# part's time is its own: SQL sent while a template draws counts as SQL, and
# a template drawn inside another template's tag counts once.
_spent = [0.0] * len(PARTS)
_open: list[list] = []  # the parts under way, innermost last: [index, time in inner parts]


def _part(index: int, call):
    def timed(*args, **kwargs):
        started = time.thread_time()
        _open.append([index, 0.0])
        try:
            return call(*args, **kwargs)
        finally:
            spent = time.thread_time() - started
            inner = _open.pop()[1]
            _spent[index] += spent - inner
            if _open:
                _open[-1][1] += spent

    return timed


def _count_parts() -> None:
    """Wraps what spends a request's CPU: drawing a template (its outermost
    render), a presenter building a page's context (its boards' SVG in
    Python), the engines, the ORM's compilers (building the SQL), the
    database driver's round trips and commits, and the Redis client.
    ``threads`` is the CPU the worker's other threads (gunicorn's own, which
    reads the sockets) spent while the request ran."""
    import redis.client
    from django.db.backends import utils
    from django.db.backends.base import base as db_base
    from django.db.models.sql import compiler
    from django.template.backends import django as template_backend

    wrapped = [
        (template_backend.Template, "render", "draw"),
        (compiler.SQLCompiler, "execute_sql", "orm"),
        (compiler.SQLInsertCompiler, "execute_sql", "orm"),
        (compiler.SQLUpdateCompiler, "execute_sql", "orm"),
        (utils.CursorWrapper, "execute", "sql"),
        (utils.CursorWrapper, "executemany", "sql"),
        (db_base.BaseDatabaseWrapper, "_commit", "sql"),
        (db_base.BaseDatabaseWrapper, "_rollback", "sql"),
        (redis.client.Redis, "execute_command", "redis"),
        (redis.client.Pipeline, "execute", "redis"),
    ]
    from games.pages import PAGES

    for page in PAGES.values():
        wrapped += [(type(page), name, "page") for name in ("context", "card_context")]
        wrapped += [(type(page.engine), name, "engine")
                    for name in ("from_json", "apply", "view", "moves")]
    done = set()
    for owner, name, part in wrapped:
        if (owner, name) not in done:
            done.add((owner, name))
            setattr(owner, name, _part(PARTS.index(part), getattr(owner, name)))


_parts = bool(os.environ.get("NUMBO_BENCH_PARTS"))
if _parts:
    _count_parts()
_totals: dict[str, list[float]] = {}
_written = 0.0


def _kind(path: str, status: str) -> str:
    for name, pattern in KINDS:
        if pattern.match(path):
            if name == "poll":
                return f"poll {status[:3]}"
            return name
    return "other"


def application(environ, start_response):
    global _written
    if _parts:
        _spent[:] = [0.0] * len(PARTS)
    started, thread_started = time.process_time(), time.thread_time()
    seen = {}

    def start(status, headers, exc_info=None):
        # Sent once the body is drawn, with the request's CPU time in a header:
        # the bench adds it up by game, which only the tablet knows.
        seen["status"], seen["headers"], seen["exc_info"] = status, headers, exc_info
        return lambda data: None  # Django returns its body, it never writes

    result = django_application(environ, start)
    try:
        body = b"".join(result)
    finally:
        # As gunicorn would: Django's request_finished (connections tidied) is
        # part of a request's cost.
        result.close()
    spent = time.process_time() - started
    start_response(
        seen["status"],
        [*seen["headers"], ("X-Numbo-Cpu-Us", str(round(spent * 1e6)))],
        seen["exc_info"],
    )
    kind = _kind(environ.get("PATH_INFO", ""), seen.get("status", "000"))
    count = _totals.setdefault(kind, [0, 0.0] + [0.0] * len(PARTS) * _parts)
    count[0] += 1
    count[1] += spent
    if _parts:
        _spent[PARTS.index("threads")] = spent - (time.thread_time() - thread_started)
        for index, part in enumerate(_spent):
            count[2 + index] += part
    now = time.monotonic()
    if now - _written > 0.5:
        _written = now
        _write(json.dumps(_totals).encode())
    return [body]


_out: list[int] = []  # this worker's file, opened once: opening it each time was 1 % of its CPU


def _write(data: bytes) -> None:
    if not _out:
        _out.append(os.open(OUT_DIR / f"{os.getpid()}.json", os.O_WRONLY | os.O_CREAT, 0o644))
    os.pwrite(_out[0], data, 0)
    os.ftruncate(_out[0], len(data))

