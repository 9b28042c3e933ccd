"""The stack as compose.yaml ships it, without Docker: two gunicorn web
processes, two Celery workers and beat, each a separate process started with
the command compose.yaml (or the Dockerfile's CMD) gives it, on PostgreSQL and
Redis, after the Dockerfile's collectstatic and compose's migrate.

Through it: two pupils sign in and play one table, each through another web
process; the teacher asks for the class report of a big class through one
of them; the worker that builds it is killed (SIGKILL, the whole process
group, as a lost container) halfway; the other worker finishes the job from
its cursor (acks late, the message handed out again after the broker's
visibility timeout). Nothing is lost or counted twice: every move once, every
pupil's snapshot what a fresh computation gives.

It needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL): skipped without them,
except where NUMBO_REQUIRE_SERVICES=1 (CI), which fails instead. What only
`docker compose up` shows is in the README ("The whole stack").
"""

from __future__ import annotations

import os
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from classroom.models import Attempt, Classroom, Pupil, PupilSkill, ReportJob, Teacher
from classroom.reports import services as report_services
from games import services
from games.models import Move, Table
from games.pages import presenter

from . import compose
from .browser import Browser, poll_token

REQUIRED = os.environ.get("NUMBO_REQUIRE_SERVICES") == "1"
SERVICES = "postgresql" in settings.DATABASES["default"]["ENGINE"] and bool(settings.REDIS_URL)
pytestmark = pytest.mark.stack
needs_the_services = pytest.mark.skipif(
    not (SERVICES or REQUIRED),  # where they are required, conftest fails the run instead
    reason="the stack runs on PostgreSQL and Redis (DATABASE_URL, REDIS_URL): CI runs it",
)

PUPILS = 1200  # the big class: enough batches to be killed in the middle of
ATTEMPTS_EACH = 40
VISIBILITY_TIMEOUT = 12  # s: the killed worker's job comes back this fast
PASSWORD = "stack-test-teacher-password-7"
HTMX = {"HX-Request": "true"}


# ------------------------------------------------------------------ processes


class Stack:
    """The processes this test started, by pid, each in its own process group."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env, self.logs = env, logs
        self.processes: dict[str, subprocess.Popen] = {}
        self.ports: list[int] = []  # web1's, web2's

    def start(self, name: str, command: list[str], **extra_env: str) -> None:
        log = open(self.logs / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
        self.processes[name] = subprocess.Popen(
            executable(command),
            cwd=compose.ROOT,
            env={**self.env, **extra_env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group: a SIGKILL takes its children too
        )

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def wait_for_log(self, name: str, text: str, seconds: float) -> None:
        ends = time.monotonic() + seconds
        while text not in self.log(name):
            assert self.processes[name].poll() is None, f"{name} died:\n{self.log(name)[-3000:]}"
            assert time.monotonic() < ends, f"{name} never said {text!r}:\n{self.log(name)[-3000:]}"
            time.sleep(0.1)

    def kill(self, name: str) -> None:
        os.killpg(self.processes[name].pid, signal.SIGKILL)
        self.processes[name].wait(10)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        ends = time.monotonic() + 10
        for process in self.processes.values():
            try:
                process.wait(max(0.1, ends - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)


def executable(command: list[str]) -> list[str]:
    """compose's ``python``/``gunicorn``/``celery`` from this virtualenv."""
    if command[0] == "python":
        return [sys.executable, *command[1:]]
    return [str(Path(sys.executable).parent / command[0]), *command[1:]]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url() -> str:
    """The test database (pytest-django's), which the processes must share."""
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def stack(tmp_path):
    var = tmp_path / "var"
    var.mkdir()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))},
        **compose.app_environment({
            "SECRET_KEY": secrets.token_urlsafe(48),
            "DATABASE_URL": database_url(),
            "REDIS_URL": settings.REDIS_URL,
        }),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "STATIC_ROOT": str(tmp_path / "static"),
        "NUMBO_VAR_DIR": str(var),
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "WEB_CONCURRENCY": "1",  # a gunicorn worker each: two processes share one core or two
        "GUNICORN_ACCESS_LOG": "",
        "PYTHONUNBUFFERED": "1",
    }
    # The image's build step, as the Dockerfile writes it, then compose's migrate.
    subprocess.run(["bash", "-c", compose.build_step("collectstatic")], cwd=compose.ROOT,
                   env={**env, "PATH": f"{Path(sys.executable).parent}:{env['PATH']}"},
                   check=True)
    subprocess.run(executable(compose.service_command("migrate")), cwd=compose.ROOT, env=env,
                   check=True, stdout=subprocess.DEVNULL)
    running = Stack(env, tmp_path)
    ports = [free_port(), free_port()]
    try:
        for number, port in enumerate(ports, start=1):
            running.start(f"web{number}", compose.service_command("web"),
                          GUNICORN_BIND=f"127.0.0.1:{port}")
        for number in (1, 2):
            running.start(f"worker{number}", compose.service_command("worker"))
        beat = [a.replace("/app/var/", f"{var}/") for a in compose.service_command("beat")]
        running.start("beat", beat)
        running.ports = ports
        for number in (1, 2):
            running.wait_for_log(f"worker{number}", "ready.", 60)
        running.wait_for_log("beat", "beat: Starting", 60)
        for port in ports:
            wait_until_healthy(port)
        yield running
    finally:
        running.stop()


def wait_until_healthy(port: int) -> None:
    # What compose's healthcheck asks of a web container.
    ends = time.monotonic() + 60
    while True:
        try:
            if Browser(port).get("/healthz").status == 200:
                return
        except OSError:
            pass
        assert time.monotonic() < ends, f"gunicorn on {port} never answered /healthz"
        time.sleep(0.2)


# ------------------------------------------------------------------ the school


def a_school():
    teacher = Teacher.objects.create_user("stack@school.test", PASSWORD)
    classroom = Classroom.objects.create(teacher=teacher, name="The big class")
    players = [
        Pupil.objects.create(classroom=classroom, first_name=name, avatar="cat",
                             picture_password="sun,moon,star")
        for name in ("Léa", "Noah")
    ]
    Pupil.objects.bulk_create(
        Pupil(classroom=classroom, first_name="Pupil", initial=chr(65 + n % 26), avatar="dog",
              picture_password="sun,moon,star")
        for n in range(PUPILS)
    )
    session = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition"},
        pupils=players, table_size=2, seed=7,
    )
    table = session.tables.get()
    with connection.cursor() as cursor:  # the big class's history, in one statement
        cursor.execute(
            f"""INSERT INTO {Attempt._meta.db_table}
                (pupil_id, session_id, table_id, game, skill, operands, expected, given,
                 correct, first_try, response_ms, created_at)
            SELECT p.id, %s, %s, 'numberquest', (ARRAY['add','sub','mul'])[1 + g %% 3],
                   '["2", "2"]', '4', CASE WHEN g %% 4 = 0 THEN '5' ELSE '4' END,
                   g %% 4 <> 0, true, 1500, now() - g * interval '1 minute'
            FROM {Pupil._meta.db_table} p, generate_series(1, %s) g
            WHERE p.classroom_id = %s AND p.first_name = 'Pupil'""",
            [session.pk, table.pk, ATTEMPTS_EACH, classroom.pk],
        )
    return teacher, classroom, players, table


def sign_in(tablet: Browser, classroom, pupil) -> None:
    page = f"/join/{classroom.code}/{pupil.pk}/"
    assert tablet.get(page).status == 200
    taps = ["sun", "moon", "star"]
    for count, tap in enumerate(taps):
        answer = tablet.post(page, {"so_far": ",".join(taps[:count]), "tap": tap})
    assert (answer.status, answer.location) == (302, "/me/"), answer


def play_one_move(tablets: dict[int, Browser], table: Table, number: int) -> None:
    """The move the computer player would make, posted by the pupil whose turn it is."""
    table.refresh_from_db()
    shown = presenter(table.session.game)
    state = shown.engine.from_json(table.state)
    player = min(shown.waiting_on(state))
    pupil_id = table.seats.get(player=player).pupil_id
    move = shown.bot_moves(state, player, "", number)[0]
    read = ("type", *shown.move_fields[move["type"]])
    fields = {k: str(v) for k, v in move.items() if k in read}
    answer = tablets[pupil_id].post(
        f"/tables/{table.pk}/move/",
        {**fields, "version": str(table.version), "move_id": f"stack-{number}"},
        HTMX,
    )
    assert answer.status == 200 and f'data-version="{table.version + 1}"' in answer.text, (
        move, answer.status, answer.text[:300])


def snapshot_rows(classroom) -> dict:
    return {
        (row.pupil_id, row.skill): (row.attempts, row.first_tries, row.correct_first,
                                    row.last10_right, row.status)
        for row in PupilSkill.objects.filter(pupil__classroom=classroom)
    }


# ------------------------------------------------------------------ the test


@needs_the_services
@pytest.mark.django_db(transaction=True)
def test_the_stack_plays_across_web_processes_and_survives_a_killed_worker(stack):
    teacher, classroom, players, table = a_school()
    web1, web2 = stack.ports

    # Two pupils at one table, each through another web process.
    tablets = {players[0].pk: Browser(web1), players[1].pk: Browser(web2)}
    for pupil in players:
        sign_in(tablets[pupil.pk], classroom, pupil)
    for number in range(8):
        play_one_move(tablets, table, number)
    table.refresh_from_db()
    assert Move.objects.filter(table=table).count() == table.version == 8
    # The last tap sent again (its tap id) through the other web process: applied once.
    last = Move.objects.filter(table=table).latest("number")
    player = table.seats.get(player=last.player).pupil_id
    again = Browser(web2 if tablets[player].port == web1 else web1)
    again.cookies = dict(tablets[player].cookies)
    again.post(f"/tables/{table.pk}/move/", {**{k: str(v) for k, v in last.move.items()},
               "version": str(table.version - 1), "move_id": last.move_id}, HTMX)
    assert Move.objects.filter(table=table).count() == 8
    # Léa's poll token, from her page on web1, reads the table on web2: one cache.
    token = poll_token(tablets[players[0].pk].get(f"/tables/{table.pk}/").text)
    polled = Browser(web2).get(f"/tables/{table.pk}/poll/?t={token}&v=old", HTMX)
    assert polled.status == 200 and 'data-version="8"' in polled.text
    stamp = polled.text.split("&amp;v=", 1)[1].split('"', 1)[0]
    assert Browser(web1).get(f"/tables/{table.pk}/poll/?t={token}&v={stamp}", HTMX).status == 204

    # The teacher asks for the class report through web1; a worker builds it.
    desk = Browser(web1)
    assert desk.get("/accounts/login/").status == 200
    signed_in = desk.post("/accounts/login/", {"username": teacher.email, "password": PASSWORD})
    assert signed_in.status == 302, signed_in
    asked = desk.post(f"/classes/{classroom.pk}/report/refresh/", {})
    assert asked.status == 302, asked
    job = ReportJob.objects.get(classroom=classroom, kind=ReportJob.Kind.CLASS_MASTERY)

    # Halfway through, its worker is killed with everything it runs.
    builder = None
    ends = time.monotonic() + 30
    while builder is None or job.progress < 40:
        assert time.monotonic() < ends, f"the job never got going: {job}"
        time.sleep(0.05)
        job.refresh_from_db()
        assert job.status != ReportJob.Status.DONE, "the job ended before the worker was killed"
        if job.celery_task_id:
            builder = next((name for name in ("worker1", "worker2")
                            if job.celery_task_id in stack.log(name)), None)
    stack.kill(builder)
    job.refresh_from_db()
    killed_at = job.done
    assert 0 < killed_at < PUPILS, job
    other = "worker2" if builder == "worker1" else "worker1"

    # The other worker takes the job back and finishes it from its cursor.
    ends = time.monotonic() + 3 * VISIBILITY_TIMEOUT
    while job.status != ReportJob.Status.DONE:
        assert time.monotonic() < ends, f"not finished: {job}\n{stack.log(other)[-3000:]}"
        assert job.status != ReportJob.Status.FAILED, job.error
        time.sleep(0.2)
        job.refresh_from_db()
    assert job.celery_task_id in stack.log(other)
    # The worker logs the success just after the task's last write, which the
    # loop above may see first.
    ends = time.monotonic() + 10
    while "succeeded" not in stack.log(other):
        assert time.monotonic() < ends, stack.log(other)[-3000:]
        time.sleep(0.1)
    assert job.done == job.total == PUPILS + len(players)
    assert job.attempts >= 2  # the killed run, then the one that finished

    # Nothing lost, nothing counted twice: what a fresh computation gives.
    built = snapshot_rows(classroom)
    big_class = set(
        classroom.pupils.exclude(pk__in=[p.pk for p in players]).values_list("pk", flat=True)
    )
    assert {pupil for pupil, skill in built if skill in ("add", "sub", "mul")} >= big_class
    report_services.recompute_pupils(list(classroom.pupils.values_list("pk", flat=True)))
    assert snapshot_rows(classroom) == built

    # The teacher reads the finished job through the other web process.
    elsewhere = Browser(web2)
    elsewhere.cookies = dict(desk.cookies)
    status = elsewhere.get(f"/reports/jobs/{job.pk}/")
    assert status.status == 200 and "ready" in status.text
    # Beat and the surviving worker kept running.
    for name in ("beat", other, "web1", "web2"):
        assert stack.processes[name].poll() is None, f"{name} stopped:\n{stack.log(name)[-2000:]}"


def test_the_stack_runs_the_commands_compose_gives():
    """Guards the reading of compose.yaml, so the stack test cannot drift from it."""
    assert compose.service_command("web")[0] == "gunicorn"
    assert compose.service_command("worker")[:4] == ["celery", "-A", "config", "worker"]
    assert compose.service_command("beat")[:4] == ["celery", "-A", "config", "beat"]
    assert "collectstatic" in compose.build_step("collectstatic")
    assert shlex.split(compose.build_step("collectstatic"))[0].startswith("DEBUG=0")
