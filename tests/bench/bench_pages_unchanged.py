"""Are the pages byte for byte what another checkout sends?
``.venv/bin/python tests/bench/bench_pages_unchanged.py --against DIR``.

A change made for speed must not change one byte a tablet receives. This
plays bench_requests.py's tables (fixed seeds, its pupils' fixed mistakes)
through the real WSGI application, once in English and once in French, in
this checkout and in ``--against``'s (``git archive`` of main, say), each on
a fresh database (PostgreSQL ``numbo_bench``, Redis database 2, DEBUG off, as
bench_requests.py), and records every answer: each pupil's whole page, each
move's answer, each poll's (the pupil's own page, the watchers' page the
mover's request kept, or 204), each poll of the teacher's live view and
the teacher's whole session page. What varies between two runs of the same
code (CSRF tokens, masked anew for each page; the session keys in cookies)
(and the tap ids, new on every page, and the live view's
marks) is blanked. It prints the first difference, if any, and exits 1.

``--record FILE`` runs one checkout only (``--against``'s if given, else this
one) and writes its answers; ``--reference FILE`` compares this checkout with
answers so recorded (main's, recorded once). Two runs of one code agree (the
comparison is only worth something if they do).
Named bench_* so pytest skips it.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parents[1]
LANGUAGES = ("en", "fr")

# A masked CSRF token is new on every page (Django masks the secret afresh).
RE_CSRF = re.compile(rb'(csrfmiddlewaretoken" value="|"X-CSRFToken": ?"|csrf-token" content=")'
                     rb'[A-Za-z0-9]{64}')


# Signed values (the poll's and the push stream's tokens) carry their time and a
# signature by the run's SECRET_KEY: what they sign is kept.
RE_SIGNED = re.compile(rb":[0-9A-Za-z]{4,8}:[A-Za-z0-9_-]{43}")
# A page's tap id is new on every page (uuid4): a tablet's retry is told by it.
RE_TAP = re.compile(rb'(move_id"(?: value="|: ")|move_id&quot;: &quot;)[0-9a-f]{32}')

# The live view's poll carries the time it was drawn and a random mark.
RE_LIVE = re.compile(rb'(/sessions/\d+/\?v=)[^"&]+')


def blanked(body: bytes) -> bytes:
    body = RE_SIGNED.sub(b":<time>:<signature>", RE_CSRF.sub(rb"\1<csrf>", body))
    return RE_LIVE.sub(rb"\1<live>", RE_TAP.sub(rb"\1<tap>", body))


def child(args) -> None:
    sys.path[:0] = [str(Path.cwd()), str(BENCH_DIR)]
    import random

    import django

    django.setup()
    import bench_requests

    answers: list[list[str]] = []
    original_call, original_environ = bench_requests.call, bench_requests.environ
    language = ["en"]

    def environ(*a, **kw):
        env = original_environ(*a, **kw)
        env["HTTP_ACCEPT_LANGUAGE"] = language[0]
        return env

    def call(app, env):
        status, body = original_call(app, env)
        if env["PATH_INFO"] != "/bare/":
            answers.append([
                blanked(f"{language[0]} {env['REQUEST_METHOD']} {env['PATH_INFO']}"
                        f"?{env['QUERY_STRING']} -> {status}".encode()).decode(),
                blanked(body).decode("utf-8", "replace"),
            ])
        return status, body

    bench_requests.call, bench_requests.environ = call, environ
    bench_requests.Bench.time_bare = lambda self: None
    random.seed(1)
    bench = bench_requests.Bench(None)
    for code in LANGUAGES:
        language[0] = code
        tables = {game: bench_requests.Table(bench, game, 1) for game in bench_requests.GAMES}
        restarts = dict.fromkeys(bench_requests.GAMES, 0)
        for _ in range(args.repeat):
            for game in bench_requests.GAMES:
                if not tables[game].turn():
                    restarts[game] += 1
                    tables[game] = bench_requests.Table(bench, game, restarts[game] + 1)
                    tables[game].turn()
    Path(args.record).write_text(json.dumps(answers))


def record(code: Path, args, out: str) -> None:
    import bench_load

    env = bench_load.bench_env(tempfile.mkdtemp(prefix="numbo-pages-static-"))
    env["PYTHONPATH"] = str(code)
    bench_load.recreate_database()
    bench_load.flush_redis()
    for command in (("migrate", "--noinput"), ("collectstatic", "--noinput")):
        subprocess.run([sys.executable, "manage.py", *command], cwd=code, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, __file__, "--child", "--repeat", str(args.repeat),
                    "--record", out], cwd=code, env=env, check=True)


def compare(this: list, other: list) -> int:
    """0 when both sides sent the same answers to the same requests."""
    pairs = enumerate(zip(this, other, strict=False))
    differ = [index for index, (mine, theirs) in pairs if mine != theirs]
    if differ:
        index = differ[0]
        mine, theirs = this[index], other[index]
        print(f"{len(differ)} answers differ; the first, {index}: this {mine[0]!r},"
              f" other {theirs[0]!r}")
        diff = difflib.unified_diff(theirs[1].splitlines(), mine[1].splitlines(),
                                    "other", "this", lineterm="", n=2)
        print("\n".join(list(diff)[:60]))
        return 1
    if len(this) != len(other):
        print(f"this sent {len(this)} answers, other {len(other)}")
        return 1
    size = sum(len(body) for _, body in this)
    print(f"identical: {len(this)} answers ({size:,} characters) in {', '.join(LANGUAGES)}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--against", help="the checkout whose answers must be the same")
    parser.add_argument("--record", help="write this checkout's answers to FILE")
    parser.add_argument("--reference", help="compare with answers --record wrote to FILE")
    parser.add_argument("--repeat", type=int, default=60, help="rounds of a move per game")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return 0
    sys.path.insert(0, str(BENCH_DIR))
    if args.record:
        record(Path(args.against or ROOT).resolve(), args, str(Path(args.record).resolve()))
        return 0
    if not (args.against or args.reference):
        parser.error("--against DIR, --reference FILE or --record FILE")
    out = Path(tempfile.mkdtemp(prefix="numbo-pages-"))
    if args.reference:
        other = json.loads(Path(args.reference).read_text())
    else:
        record(Path(args.against).resolve(), args, str(out / "other.json"))
        other = json.loads((out / "other.json").read_text())
    record(ROOT, args, str(out / "this.json"))
    this = json.loads((out / "this.json").read_text())
    return compare(this, other)


if __name__ == "__main__":
    sys.exit(main())
