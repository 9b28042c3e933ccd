"""Timing of the skill reports on PostgreSQL (not in the default test run).

Run: .venv/bin/python tests/bench/bench_reports.py [--school-classes 40]

Recreates the numbo_bench database, fills it with fill_synthetic (seeded), and
measures, each in a fresh process so peak memory is the report's own:

- one class of 30 pupils × 2,000 attempts: the class report job (worker time =
  the task function's time); goal under 2 s;
- a school of 1,000 pupils × 2,000 attempts (2,000,000): the nightly recompute;
  goal under 2 minutes and 500 MB peak RSS.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
BENCH_DB = "postgres://postgres@127.0.0.1:5432/numbo_bench"


def django_setup() -> None:
    os.environ.setdefault("DATABASE_URL", BENCH_DB)
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(kind: str) -> None:
    """In a child process: run one job through the task function, print figures."""
    django_setup()
    from classroom import tasks
    from classroom.models import Classroom, ReportJob
    from classroom.reports import jobs

    before = rss_mb()
    if kind == "class":
        classroom = Classroom.objects.get(name__startswith="Synthetic 1 (seed 1)")
        job, _ = jobs.request_job(classroom.teacher, classroom, "class_mastery", send_task=False)
        start = time.perf_counter()
        tasks.recompute_class.run(job.pk)
    else:
        start = time.perf_counter()
        tasks.nightly_recompute.run()
        job = ReportJob.objects.filter(kind="nightly").latest("created_at")
    spent = time.perf_counter() - start
    job.refresh_from_db()
    print(
        f"{kind}: {job.total} pupils, status {job.status}, {spent:.2f} s worker time, "
        f"peak RSS {rss_mb():.0f} MB (at start {before:.0f} MB)"
    )


def fill(classes: int, pupils: int, attempts: int, seed: int) -> float:
    start = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "fill_synthetic",
            "--classes",
            str(classes),
            "--pupils-per-class",
            str(pupils),
            "--attempts-per-pupil",
            str(attempts),
            "--seed",
            str(seed),
        ],
        cwd=ROOT,
        check=True,
        env={**os.environ, "DATABASE_URL": BENCH_DB, "REDIS_URL": ""},
    )
    return time.perf_counter() - start


def child(kind: str) -> None:
    subprocess.run(
        [sys.executable, __file__, "--measure", kind],
        cwd=ROOT,
        check=True,
        env={**os.environ, "DATABASE_URL": BENCH_DB, "REDIS_URL": ""},
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--measure", choices=["class", "school"])
    parser.add_argument("--school-classes", type=int, default=40)  # × 25 pupils = 1,000
    parser.add_argument("--skip-fill", action="store_true")
    args = parser.parse_args()
    if args.measure:
        measure(args.measure)
        return
    env = {**os.environ, "DATABASE_URL": BENCH_DB, "REDIS_URL": ""}
    if not args.skip_fill:
        subprocess.run(
            ["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", "numbo_bench"],
            check=True,
        )
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", "numbo_bench"], check=True)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True, env=env
        )
        print(f"filled 1 class × 30 × 2,000 in {fill(1, 30, 2000, 1):.0f} s")
    child("class")
    if not args.skip_fill:
        print(f"filled the school in {fill(args.school_classes, 25, 2000, 2):.0f} s")
    subprocess.run(
        [
            "psql",
            "-h",
            "127.0.0.1",
            "-U",
            "postgres",
            "-d",
            "numbo_bench",
            "-qt",
            "-c",
            "VACUUM ANALYZE",
            "-c",
            "SELECT count(*) || ' attempts' FROM classroom_attempt",
        ],
        check=True,
    )
    child("school")


if __name__ == "__main__":
    main()
