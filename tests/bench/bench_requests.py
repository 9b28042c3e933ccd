"""What one request costs, in one process: ``.venv/bin/python tests/bench/bench_requests.py``.

The load benchmark (bench_load.py) says whether the goals are met; this one
says where the time goes. It recreates the PostgreSQL database
``numbo_bench``, seeds one Number Quest table of four pupils, then calls the
WSGI application directly (no server, no sockets) and times, per request:

- the bare Django view of bare_wsgi.py (the yardstick);
- a poll that answers 204 (nothing moved);
- after a move, the polls that answer 200: the first pupil who watches (the
  page is rendered and kept), the next one (a copy of it), and the pupil
  whose turn it now is (their own page);
- a move: a correct step, then "I can't make a number" (two requests).

``--profile KIND`` prints cProfile's top functions for one kind instead.
Redis database 2 only is flushed. Named bench_* so pytest skips it.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parents[1]
KINDS = ("bare", "poll204", "poll200", "copy", "playing", "move")


def environ(method: str, path: str, query: str = "", body: bytes = b"", cookies: str = ""):
    return {
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


def call(app, env) -> tuple[int, bytes]:
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"] = int(status.split()[0])

    body = b"".join(app(env, start_response))
    return answer["status"], body


def child(kind_to_profile: str | None, repeat: int, show_queries: bool) -> None:
    sys.path[:0] = [str(ROOT), str(BENCH_DIR)]
    import django

    django.setup()
    import importlib
    import re

    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler

    from classroom.models import Classroom, Pupil, Teacher
    from classroom.pupil_auth import SESSION_EPOCH, SESSION_PUPIL
    from games import services
    from games.models import Table
    from games.views.tables import poll_token

    store = importlib.import_module(settings.SESSION_ENGINE).SessionStore
    teacher = Teacher.objects.create_user("req@school.test", "correct-horse-req")
    classroom = Classroom.objects.create(teacher=teacher, name="Bench")
    pupils = [
        Pupil.objects.create(
            classroom=classroom, first_name=f"P{i}", initial="B", avatar="cat",
            picture_password="sun,moon,star",
        )
        for i in range(4)
    ]
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "classic"},
        pupils=pupils, table_size=4, seed=1,
    )
    table = Table.objects.get(session=session)
    cookies = {}
    for seat in table.seats.all():
        login = store()
        login[SESSION_PUPIL] = seat.pupil_id
        login[SESSION_EPOCH] = classroom.sign_in_epoch
        login.save()
        cookies[seat.player] = f"sessionid={login.session_key}"
    app = WSGIHandler()
    import bare_wsgi  # noqa: F401  (its urlconf, used by the "bare" kind)

    settings.ROOT_URLCONF = "config.urls"  # importing bare_wsgi switched it

    def current_player() -> int:
        table.refresh_from_db()
        return table.state["current"]

    # A tablet keeps its poll token for the whole game.
    tokens = {s.player: poll_token(table, s.pupil_id, None) for s in table.seats.all()}

    def poll(player: int, stamp: str) -> tuple[int, bytes]:
        query = urlencode({"t": tokens[player], "v": stamp})
        url = f"/tables/{table.pk}/poll/"
        return call(app, environ("GET", url, query, cookies=cookies[player]))

    def move(player: int) -> None:
        status, page = call(app, environ("GET", f"/tables/{table.pk}/", cookies=cookies[player]))
        fields = dict(re.findall(rb'name="(version|move_id)" value="([^"]+)"', page))
        left = re.findall(rb'name="left" value="([^"]+)"', page)
        base = {k.decode(): v.decode() for k, v in fields.items()}
        a, b = (int(v.split(b"|")[0]) for v in left[:2])
        step = {**base, "type": "step", "left": left[0].decode(), "op": "+",
                "right": left[1].decode(), "result": str(a + b)}
        timed("move", call, app, post(player, step))
        status, page = call(app, environ("GET", f"/tables/{table.pk}/", cookies=cookies[player]))
        fields = dict(re.findall(rb'name="(version|move_id)" value="([^"]+)"', page))
        cant = {**base, **{k.decode(): v.decode() for k, v in fields.items()}, "type": "cant"}
        timed("move", call, app, post(player, cant))

    csrf_token = None

    def post(player: int, fields: dict) -> dict:
        body = urlencode({**fields, "csrfmiddlewaretoken": csrf_token}).encode()
        return environ("POST", f"/tables/{table.pk}/move/", body=body,
                       cookies=f"{cookies[player]}; csrftoken={csrf_token}")

    from django.middleware.csrf import _get_new_csrf_string, _mask_cipher_secret

    secret = _get_new_csrf_string()
    csrf_token = _mask_cipher_secret(secret)
    # The cookie holds the unmasked secret; the form a masked one.
    for player in cookies:
        cookies[player] += f"; csrftoken={secret}"

    samples: dict[str, list[float]] = {k: [] for k in KINDS}
    profiler = cProfile.Profile() if kind_to_profile else None

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    queries: dict[str, list[str]] = {}

    def timed(kind: str, request, *args):
        if profiler and kind == kind_to_profile:
            profiler.enable()
        started = time.perf_counter()
        if kind in queries:
            status, _ = request(*args)
        else:
            with CaptureQueriesContext(connection) as captured:
                status, _ = request(*args)
            queries[kind] = [q["sql"] for q in captured.captured_queries]
        samples[kind].append(time.perf_counter() - started)
        if profiler and kind == kind_to_profile:
            profiler.disable()
        if status >= 400:
            raise SystemExit(f"{kind}: HTTP {status}")

    from django.urls import set_urlconf

    for _ in range(repeat):
        playing = current_player()
        watcher = (playing + 1) % 4
        from games import live

        stamp = (live.read(table.pk) or ("",))[0]
        timed("poll204", poll, watcher, stamp)
        # The table moves: the next watcher's poll renders it, the others' copy it.
        move(playing)
        now_playing = current_player()
        timed("poll200", poll, (now_playing + 1) % 4, stamp)
        timed("copy", poll, (now_playing + 2) % 4, stamp)
        timed("playing", poll, now_playing, stamp)
        settings.ROOT_URLCONF = "bare_wsgi"
        set_urlconf(None)
        timed("bare", call, app, environ("GET", "/bare/", cookies=cookies[watcher]))
        settings.ROOT_URLCONF = "config.urls"
        set_urlconf(None)
    for kind in KINDS:
        values = sorted(samples[kind][3:])  # warm-up left out
        if values:
            print(f"{kind:<8} n={len(values):>4}  median {statistics.median(values) * 1000:7.3f} ms"
                  f"  p90 {values[int(len(values) * 0.9)] * 1000:7.3f} ms"
                  f"  queries {len(queries.get(kind, []))}")
    if show_queries:
        for kind, sqls in queries.items():
            print(f"\n{kind}:")
            for sql in sqls:
                print("  " + sql[:160])
    if profiler:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).sort_stats("cumulative")
        stats.print_stats(45)
        stats.print_callees(r"\((table_poll|table_move|_render_for_watcher|table_context)\)")
        print(out.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--profile", choices=KINDS)
    parser.add_argument("--repeat", type=int, default=150)
    parser.add_argument("--queries", action="store_true", help="print each kind's SQL")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.profile, args.repeat, args.queries)
        return 0
    sys.path.insert(0, str(BENCH_DIR))
    import tempfile

    import bench_load

    static_root = tempfile.mkdtemp(prefix="numbo-bench-static-")
    env = bench_load.bench_env(static_root)
    bench_load.recreate_database()
    bench_load.flush_redis()
    bench_load.manage(env, "migrate", "--noinput")
    bench_load.manage(env, "collectstatic", "--noinput")
    command = [sys.executable, __file__, "--child", "--repeat", str(args.repeat)]
    if args.profile:
        command += ["--profile", args.profile]
    if args.queries:
        command.append("--queries")
    return subprocess.run(command, cwd=ROOT, env={**env, **os.environ | env}).returncode


if __name__ == "__main__":
    sys.exit(main())
