"""What the next lesson adds to the class report (not in the default test run).

Run: .venv/bin/python tests/bench/bench_next_lesson.py [--database numbo_lesson]
     [--redis redis://127.0.0.1:6379/10] [--repeat 15] [--skip-fill]

Recreates the PostgreSQL database given, fills one class of 30 pupils × 2,000
attempts with fill_synthetic (seeded), runs the class report job (its snapshot,
and the practice figures it puts in the cache), then calls the WSGI application
directly and times, interleaved, per request:

- ``bare``: the bare Django view of bare_wsgi.py (the yardstick);
- ``report``: the class report page as the teacher sees it (snapshot);
- ``report-no-lesson``: the same page with the next lesson left out;
- ``filtered`` / ``filtered-no-lesson``: the report of one game, computed live
  from the attempts, with and without the next lesson.

And, once: the practice figures cold (empty cache, fresh simulation), and read
from the cache. Only the Redis database given is flushed.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH_DIR))

from bench_requests import call  # noqa: E402  (the same WSGI call, timed alike)


def environ(path: str, query: str = "", cookies: str = "") -> dict:
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_ACCEPT_LANGUAGE": "en",
        "HTTP_COOKIE": cookies,
        "wsgi.input": io.BytesIO(b""),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }


def fill(database_url: str, database: str) -> None:
    psql = ["-h", "127.0.0.1", "-U", "postgres"]
    subprocess.run(["dropdb", *psql, "--if-exists", database], check=True)
    subprocess.run(["createdb", *psql, database], check=True)
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": ""}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True, env=env)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "manage.py", "fill_synthetic", "--classes", "1",
         "--pupils-per-class", "30", "--attempts-per-pupil", "2000", "--seed", "1"],
        cwd=ROOT, check=True, env=env,
    )
    print(f"filled 1 class × 30 pupils × 2,000 attempts in {time.perf_counter() - started:.0f} s")


def measure(repeat: int) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.core.cache import cache
    from django.core.handlers.wsgi import WSGIHandler
    from django.urls import set_urlconf
    from django.utils.module_loading import import_string

    from classroom import tasks
    from classroom.models import Classroom
    from classroom.reports import jobs, lessons
    from engine import practice
    from engine.numberquest import practice as simulation

    cache.clear()
    practice.choose.cache_clear()
    simulation._chances.cache_clear()
    simulation._rolls.cache_clear()
    started = time.perf_counter()
    lessons.warm()
    cold = time.perf_counter() - started
    started = time.perf_counter()
    lessons.warm()
    warm = time.perf_counter() - started
    print(f"practice figures, 4 operations: cold {cold:.2f} s (simulated), "
          f"from the cache {warm * 1000:.1f} ms")

    classroom = Classroom.objects.get(name__startswith="Synthetic 1 (seed 1)")
    job, _ = jobs.request_job(classroom.teacher, classroom, "class_mastery", send_task=False)
    started = time.perf_counter()
    tasks.recompute_class.run(job.pk)
    print(f"class report job (snapshot and practice figures): "
          f"{time.perf_counter() - started:.2f} s")

    login = import_string(settings.SESSION_ENGINE + ".SessionStore")()
    teacher = classroom.teacher
    login[SESSION_KEY] = str(teacher.pk)
    login[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    login[HASH_SESSION_KEY] = teacher.get_session_auth_hash()
    login.save()
    cookies = f"sessionid={login.session_key}"
    app = WSGIHandler()
    import bare_wsgi  # noqa: F401  (its urlconf, for the "bare" kind)

    settings.ROOT_URLCONF = "config.urls"
    set_urlconf(None)
    url = f"/classes/{classroom.pk}/report/"
    real_proposals = lessons.proposals
    samples: dict[str, list[float]] = {}
    groups = []

    def timed(kind: str, path: str, query: str = "", bare: bool = False) -> bytes:
        if bare:
            settings.ROOT_URLCONF = "bare_wsgi"
            set_urlconf(None)
        started = time.perf_counter()
        status, body = call(app, environ(path, query, cookies))
        samples.setdefault(kind, []).append(time.perf_counter() - started)
        if bare:
            settings.ROOT_URLCONF = "config.urls"
            set_urlconf(None)
        if status >= 400:
            raise SystemExit(f"{kind}: HTTP {status}")
        return body

    def without_lesson(kind: str, query: str = "") -> None:
        lessons.proposals = lambda *args, **kwargs: None
        try:
            timed(kind, url, query)
        finally:
            lessons.proposals = real_proposals

    for round_ in range(repeat + 1):
        timed("bare", "/bare/", bare=True)
        # Each pair in both orders, round after round: neither always goes first.
        pair = [lambda: timed("report", url), lambda: without_lesson("report-no-lesson")]
        live = [
            lambda: timed("filtered", url, "game=numberquest"),
            lambda: without_lesson("filtered-no-lesson", "game=numberquest"),
        ]
        for run in (pair if round_ % 2 else pair[::-1]) + (live if round_ % 2 else live[::-1]):
            run()
        if round_ == 0:
            groups.append(timed("report", url).count(b'class="lesson"'))
            samples.clear()  # the first round warms the process
    print(f"the page shows {groups[0]} groups; {repeat} rounds, median and max (ms):")
    for kind, times in samples.items():
        print(f"  {kind:20} {statistics.median(times) * 1000:8.1f} {max(times) * 1000:8.1f}")
    bare = statistics.median(samples["bare"])
    print(f"  bare view rate in this run: {1 / bare:.0f} requests/s")
    from classroom.reports import services

    report = services.class_report(classroom)
    spent = []
    for _ in range(repeat):
        started = time.perf_counter()
        lessons.proposals(report, teacher)
        spent.append(time.perf_counter() - started)
    print(f"  the next lesson alone (groups, figures from the cache, tables, links): "
          f"median {statistics.median(spent) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database", default="numbo_lesson")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/10")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--skip-fill", action="store_true")
    args = parser.parse_args()
    database_url = f"postgres://postgres@127.0.0.1:5432/{args.database}"
    if not args.skip_fill:
        fill(database_url, args.database)
    os.environ["DATABASE_URL"] = database_url
    os.environ["REDIS_URL"] = args.redis
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    measure(args.repeat)


if __name__ == "__main__":
    main()
