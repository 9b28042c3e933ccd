"""Every URL of the project, as every kind of user, with every kind of forged
input: never a 500, a stranger always refused, a forged move never applied.

Numbo's rule: "Every input gets a clear message and loses nothing: a malformed
calculation, a move out of turn, a stale tablet, a double tap, a forged form,
a huge paste. Never a 500, never a half-applied move."

- The URLs come from the resolver (tests/security/routes.py), so a new view
  is swept without being listed. Each is filled with a school's real objects
  (a class, its pupils, a running session of each of the five games at
  tables, NMBR 9's whole-class session, report jobs and every format of
  their files, a school code) and with absurd ones: 0, 2**63 and 5,000
  digits for an id; "-1", NUL and 100,000 characters where the
  converter takes a string.
- Each is asked by a visitor, a pupil signed in at a table (the one the
  table's game waits on when the URL names a table; a classmate seated at
  another table asks it too), the class's teacher, a teacher of another
  school and the school's administrator: GET, and GET with a forged query;
  POST with no fields; POSTs with every field forged, with and without the
  htmx header, the CSRF token in the header or in the form, a third of them
  in French; one forged POST without the token, which must be refused with
  403; and, once a route, a 3 MB paste. An absurd URL is asked by two of
  them in turn, with one GET and one forged POST.
- The fields are the view's own: those its module reads or its forms
  declare, and those of the forms the pages show (read from every page the
  sweep opens, before any POST). Whom a view serves (its POST with no fields
  is not refused) gets eight of the twelve garbage kinds in turn (a route's
  URLs, a session of each game say, get them all) with all fields forged,
  and, for a quarter of them, one field forged in the form its page filled; a view
  that reads its query gets two kinds there. Whom it refuses gets a
  sample: the kinds go round, so that every URL gets each of them.
- Whom a view serves also presses every form the pages showed for it as
  its buttons send it: each button and option (a few a form), not only the
  first ("Seat late pupils" as well as "Pause"), then every choice at once.
- The garbage kinds: 100,000 characters, NUL, words where numbers go,
  negative numbers, 2**70, emoji with a right-to-left override, lists where
  one value goes, empty fields, 1e308, format codes, JSON garbage, bytes
  that are not UTF-8.
- A move is of each of its game's types that read fields, every field
  forged; two times in three with the board's own version and a new tap's
  id, so that the garbage reaches the game's checks rather than the stale
  board's.

What must hold: no answer of 500 (and no exception, which the test client
raises where a server would answer 500), nor a query PostgreSQL would refuse
(a NUL, an integer beyond 64 bits: the sweep runs on SQLite); a stranger (a
visitor, another school's teacher, a pupil away from their own table,
anyone at an absurd id) is refused (403, 404, 405 or sent to sign in), and a
page a visitor or another school's teacher gets shows nothing of the school;
a refusal a person reads (400, 403, 404, 405; not an htmx request's, nor a
tablet's poll) is Numbo's page, which says why;
the 3 MB paste gets the page that says it was too long (404 where no view
is); a move posted with garbage leaves the table's version, state and moves
as they were. The self-checks at the end prove that the sweep sees a view
that breaks on garbage, one that lets strangers in, and a forged move
applied.

Each request runs in a transaction rolled back after it
(tests.security.attack.undone), so every one starts from the same school.
Django's own admin (for the site's staff) is left out; of allauth, the
single sign-on URLs our urls include are swept, with the three providers
configured and their issuer unreachable. Forms and moves with one field
forged at a time are walked one by one in tests/security/test_hostile_inputs.py.
"""

from __future__ import annotations

import copy
import functools
import inspect
import logging
import re
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import pytest
from django import forms
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.urls import Resolver404, resolve, reverse

from classroom.models import Classroom, Pupil, ReportJob, Teacher
from games import services
from games.models import GameSession, Move, Table
from games.pages import PAGES
from games.pages.numx import moves as numx_moves
from school import invitations
from school.models import School
from school.report import jobs
from tests.conftest import tap_pictures
from tests.security import world as security_world
from tests.security.attack import undone
from tests.security.pages import PageForm, forms_on
from tests.security.routes import PUBLIC, Route, every_route

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

HTMX = {"HTTP_HX_REQUEST": "true"}
FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}
CSRF_SECRET = "n" * 16 + "u" * 16  # what a browser keeps in its csrftoken cookie
# Path parameters that name one of the school's objects; the others (a file
# format, a sign-in provider) name nothing of it.
OBJECT_PARAMETERS = {"pk", "pupil_pk", "code", "token", "uidb64"}
# A pupil may use these of their own table, and nothing else that names an object.
OWN_TABLE = {"games:table_play", "games:table_move"}
PUPIL_NAMES = (
    "Wilhelmine", "Théodule", "Eulalie", "Anatole", "Bérénice", "Cosima",
    "Philomène", "Barnabé", "Hortense", "Isidore", "Léocadie", "Gontran",
)  # fmt: skip
STRANGERS = ("a visitor", "another school's teacher")
# Addresses a program reads, not a person: their refusals are bare.
MACHINE_ANSWERS = {"games:table_poll", "games:table_events"}

# ---------------------------------------------------------------- garbage

# Values no keypad types and no form offers, one per kind.
FIELD_KINDS: dict[str, Any] = {
    "100,000 characters": "7" * 100_000,
    "NUL": "4\x002",
    "not a number": "twelve",
    "negative": "-1",
    "2**70": str(2**70),
    "emoji": "🧮🙂\u202e",
    "a list": ["1", "-1", "x\x00"],
    "empty": "",
    "float": "1e308",
    "format codes": "%(name)s {0} %s %% {{ x }}",
}
# Bodies that are not a form at all.
BODY_KINDS: dict[str, tuple[bytes, str]] = {
    "JSON garbage": (b'{"type": [1, {"x": null}], "pk": 1e999, "a": ', "application/json"),
    "not UTF-8": (b"type=%FF%FE%00&name=%C3%28&pk=%80", "application/x-www-form-urlencoded"),
}
KINDS = [*FIELD_KINDS, *BODY_KINDS]
# More than DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB).
HUGE_PASTE = b"pupils=" + b"Z" * 3_000_000
# 100,000 characters go in this many fields at most: more is the huge paste.
HUGE_FIELDS = 8
# The kinds whom a view serves gets, in turn, at each of its URLs.
SERVED_KINDS = 8
# Buttons and options pressed at most, a form the pages show.
PRESSES = 6
# Fields any view may read whatever its source says: where to go next, a format.
COMMON_FIELDS = {"next", "action", "format", "page", "confirm", "pk", "id"}
REPORT_FORMATS = ("csv", "xlsx", "pdf")
# Absurd values for a path parameter, by converter.
ABSURD_INT = ["0", str(2**63), "9" * 5000]
ABSURD_STR = ["-1", "%00", "x" * 100_000]


def forged(names: list[str], kind: str) -> dict[str, Any]:
    """Every field of ``names`` forged with ``kind``."""
    value = FIELD_KINDS[kind]
    if kind == "100,000 characters":
        names = names[:HUGE_FIELDS]
    return dict.fromkeys(names, value)


# ---------------------------------------------------------------- the school


@dataclass
class Seeded:
    school: School
    teacher: Teacher  # the class's teacher, not an administrator
    admin: Teacher
    stranger: Teacher  # a teacher of another school, with a class of their own
    classroom: Classroom
    pupils: list[Pupil]
    tables: dict[str, Table]  # a game's slug -> its table; and "nmbr9 whole class"
    world: security_world.School  # the same objects, as tests/security/routes fills URLs
    markers: list[str] = field(default_factory=list)  # what only the school's pages show

    @property
    def games(self) -> dict[int, str]:
        """A table's pk -> its game's slug."""
        return {table.pk: table.session.game for table in self.tables.values()}

    @property
    def tables_by_pk(self) -> dict[int, Table]:
        return {table.pk: table for table in self.tables.values()}


def seed(django_capture_on_commit_callbacks) -> Seeded:
    school = School.objects.create(name="École Sweep")
    admin = Teacher.objects.create_user(
        "admin@sweep.test", security_world.PASSWORD, display_name="Mme Admin",
        school=school, role=Teacher.Role.ADMIN,
    )
    teacher = Teacher.objects.create_user(
        "class-teacher@sweep.test", security_world.PASSWORD, display_name="Ms Sweep",
        school=school, role=Teacher.Role.TEACHER,
    )
    classroom = Classroom.objects.create(teacher=teacher, name="Class Sweepington")
    pupils = [
        Pupil.objects.create(
            classroom=classroom, first_name=name, initial="Q", avatar="cat",
            picture_password="sun,moon,star",
        )
        for name in PUPIL_NAMES
    ]
    tables: dict[str, Table] = {}
    for index, slug in enumerate(sorted(PAGES)):
        session = services.start_session(
            classroom, teacher, game=slug, options={}, pupils=pupils[2 * index: 2 * index + 2],
            table_size=2, seed=11 + index, tablets=GameSession.Tablets.OWN,
        )
        tables[slug] = session.tables.get()
    whole_class = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils[10:], table_size=1,
        whole_class=True, seed=4,
    )
    tables["nmbr9 whole class"] = whole_class.tables.order_by("pk").first()
    export = ReportJob.objects.create(
        teacher=teacher, classroom=classroom, kind=ReportJob.Kind.EXPORT, key="export-sweep",
        status=ReportJob.Status.DONE, result=b"Wilhelmine\n", result_name="sweep.csv",
        result_type="text/csv",
    )
    with django_capture_on_commit_callbacks(execute=True):
        school_job, _created = jobs.request(admin)  # built: its files can be taken
    code = invitations.make_code(school, Teacher.Role.TEACHER, 5, 7, admin)

    other_school = School.objects.create(name="École Voisine")
    stranger = Teacher.objects.create_user(
        "stranger@voisine.test", security_world.PASSWORD, display_name="M. Voisin",
        school=other_school, role=Teacher.Role.ADMIN,
    )
    Classroom.objects.create(teacher=stranger, name="Class Voisine")

    world = security_world.School(
        teacher=teacher,
        classroom=classroom,
        pupils=pupils[:2],  # a pupil of the first table, and their tablemate
        sessions=list(GameSession.objects.filter(classroom=classroom).order_by("pk")),
        tables=list(tables.values()),
        jobs=[export, school_job],
        invitations=[code],
    )
    markers = [classroom.name, classroom.code, teacher.email, code.code, *PUPIL_NAMES]
    return Seeded(school, teacher, admin, stranger, classroom, pupils, tables, world, markers)


# ---------------------------------------------------------------- the users


def enforcing(client: Client) -> Client:
    """From now on the client is refused a POST without its CSRF token, as a
    browser is."""
    client.handler.enforce_csrf_checks = True
    return client


def signed_in_pupil(pupil: Pupil) -> Client:
    client = Client()
    assert tap_pictures(client, pupil, pupil.password_pictures).status_code == 302
    return enforcing(client)


def signed_in_teacher(teacher: Teacher) -> Client:
    client = Client()
    client.force_login(teacher)
    return enforcing(client)


class Users:
    """Who asks: the same five for every URL. For a URL that names a table,
    "a pupil" is the one its game waits on, and a classmate seated at another
    table asks it too."""

    KINDS = ("a visitor", "a pupil", "the class's teacher", "another school's teacher",
             "the school's administrator")

    def __init__(self, seeded: Seeded) -> None:
        self.seeded = seeded
        self.fixed = {
            "a visitor": enforcing(Client()),
            "the class's teacher": signed_in_teacher(seeded.teacher),
            "another school's teacher": signed_in_teacher(seeded.stranger),
            "the school's administrator": signed_in_teacher(seeded.admin),
        }
        self.pupils: dict[int, Client] = {}
        self.seated: dict[int, set[int]] = {}  # table pk -> its pupils' pks
        self.waited_on: dict[int, Pupil] = {}  # table pk -> the pupil its game waits on
        for table in seeded.tables.values():
            shown = PAGES[table.session.game]
            waiting = shown.waiting_on(shown.engine.from_json(table.state))
            seats = {s.player: s.pupil for s in table.seats.select_related("pupil") if s.pupil}
            self.seated[table.pk] = {pupil.pk for pupil in seats.values()}
            self.waited_on[table.pk] = seats[min(waiting)] if waiting else seats[min(seats)]

    def pupil_client(self, pupil: Pupil) -> Client:
        if pupil.pk not in self.pupils:
            self.pupils[pupil.pk] = signed_in_pupil(pupil)
        return self.pupils[pupil.pk]

    def of(self, table_pk: int | None) -> list[tuple[str, Client, Pupil | None]]:
        """(who, their client, the pupil if one) for each user who asks a URL."""
        pupil = self.waited_on.get(table_pk, self.seeded.pupils[0])
        users = [(who, self.fixed[who], None) for who in self.KINDS if who != "a pupil"]
        users.insert(1, ("a pupil", self.pupil_client(pupil), pupil))
        if table_pk in self.seated:
            other = next(p for p in self.seeded.pupils if p.pk not in self.seated[table_pk])
            users.insert(2, ("a pupil at another table", self.pupil_client(other), other))
        return users


# ---------------------------------------------------------------- the URLs


@dataclass(frozen=True)
class Target:
    route: Route
    url: str
    absurd: bool  # a path parameter is absurd: nothing there is the school's
    table_pk: int | None  # the school's table the URL names

    @property
    def names_an_object(self) -> bool:
        return bool(OBJECT_PARAMETERS & set(self.route.parameters))

    @property
    def name(self) -> str:
        return self.route.name or self.route.route


_CONVERTER = re.compile(r"<(?:(?P<conv>[^>:]+):)?(?P<name>[^>]+)>|\(\?P<(?P<group>\w+)>[^)]*\)")


def absurd_urls(route: Route, real: str) -> Iterator[str]:
    """``real`` with one path parameter at a time made absurd."""
    matches = list(_CONVERTER.finditer(route.route))
    kwargs = resolve(real).kwargs
    for index, match in enumerate(matches):
        for value in ABSURD_INT if match["conv"] == "int" else ABSURD_STR:
            path, end = "", 0
            for other_index, other in enumerate(matches):
                filling = value if other_index == index else str(
                    kwargs[other["name"] or other["group"]])
                path += route.route[end: other.start()] + filling
                end = other.end()
            yield "/" + path + route.route[end:]


def targets(seeded: Seeded, urlconf: str | None = None) -> list[Target]:
    table_pks = {t.pk for t in seeded.tables.values()}
    found = []
    seen = set()
    for route in every_route(urlconf):
        if route.route.startswith("admin/"):
            continue  # Django's own admin, for the site's staff
        if (route.route, route.name) in seen:
            continue  # the sign-in and reset pages are named twice (ours first)
        seen.add((route.route, route.name))
        urls = list(route.urls(seeded.world))
        if "fmt" in route.parameters:
            # Every format a report is taken away in (the walk's filler names two).
            urls += [reverse(route.name, kwargs={**resolve(urls[0]).kwargs, "fmt": fmt})
                     for fmt in REPORT_FORMATS if f"/{fmt}" not in urls[0]
                     and f".{fmt}" not in urls[0]]
            urls = list(dict.fromkeys(urls))
        for url in urls:
            table = None
            if route.route.startswith("tables/"):
                table = int(url.split("/")[2])
            found.append(Target(route, url, False, table if table in table_pks else None))
        if route.parameters and urls:
            found += [Target(route, url, True, None) for url in absurd_urls(route, urls[0])]
    return found


def view_name(path: str) -> str:
    try:
        return resolve(urlsplit(path).path).view_name
    except Resolver404:
        return ""


def csrf_exempt(path: str) -> bool:
    try:
        return getattr(resolve(urlsplit(path).path).func, "csrf_exempt", False)
    except Resolver404:
        return False


# ---------------------------------------------------------------- the fields

# request.POST.get("name"), data["name"], post.getlist("name")...
_READ = re.compile(
    r"""(?:POST|GET|post|query|data|posted|params)\s*"""
    r"""(?:\.(?:get|getlist|pop)\(|\[)\s*["']([\w-]+)["']"""
)


def _form_fields(module: ModuleType) -> set[str]:
    names: set[str] = set()
    candidates = list(vars(module).values())
    for value in list(candidates):
        if isinstance(value, ModuleType) and value.__name__.endswith("forms"):
            candidates += list(vars(value).values())
    for value in candidates:
        if inspect.isclass(value) and issubclass(value, forms.BaseForm):
            names |= set(getattr(value, "base_fields", {}))
    return names


def static_fields(path: str) -> set[str]:
    """The fields the view's module reads or its forms declare."""
    try:
        func = resolve(urlsplit(path).path).func
    except Resolver404:
        return set()
    func = getattr(func, "view_class", func)
    module = sys.modules.get(getattr(func, "__module__", ""))
    # The project's own (and the self-check's, below).
    if module is None or module.__name__.split(".")[0] not in (
        "classroom", "games", "school", "config", "tests"
    ):
        return set()
    return _fields_of(module.__name__)


@functools.cache
def _fields_of(module_name: str) -> set[str]:
    module = sys.modules[module_name]
    return set(_READ.findall(inspect.getsource(module))) | _form_fields(module)


def reads_the_query(path: str) -> bool:
    """Whether the view's module reads the query string at all."""
    try:
        func = resolve(urlsplit(path).path).func
    except Resolver404:
        return False
    return _reads_get(getattr(getattr(func, "view_class", func), "__module__", ""))


@functools.cache
def _reads_get(module_name: str) -> bool:
    module = sys.modules.get(module_name)
    return module is not None and "GET" in inspect.getsource(module)


def move_types(slug: str) -> list[tuple[str, list[str]]]:
    """Each move type that reads fields, with them: a type with no fields of
    its own (pass, draw) would be a real move, not a forged one."""
    shown = PAGES[slug]
    if shown.move_fields:
        by_type = {kind: list(names) for kind, names in shown.move_fields.items() if names}
    else:  # NUM-X reads its moves itself (games.pages.numx.moves)
        read = r"""_(?:raw|card|cards|number|optional_number)\(post, ["']([\w-]+)["']"""
        names = set(re.findall(read, inspect.getsource(numx_moves)))
        names |= {"card", "cards", "offered", "indices"}
        by_type = {kind: sorted(names) for kind in numx_moves.KINDS - numx_moves.SIMPLE}
    return [(kind, [*names, "seen", "answering"]) for kind, names in sorted(by_type.items())]


# ---------------------------------------------------------------- the sweep


class PostgresWatch:
    """What PostgreSQL would refuse of a statement that SQLite takes: a NUL
    in a string, an integer beyond 64 bits. The sweep runs on SQLite; a
    forged value reaching the database so would be a 500 on PostgreSQL."""

    def __init__(self) -> None:
        self.refused = ""

    def __call__(self, execute, sql, params, many, context):
        for value in _flat(params if not many else [p for row in params for p in row]):
            if isinstance(value, str) and "\x00" in value:
                self.refused = f"a NUL in a query's parameter: {sql[:80]}"
            elif isinstance(value, int) and not -(2**63) <= value < 2**63:
                self.refused = f"{value} in a query's parameter: {sql[:80]}"
        return execute(sql, params, many, context)


def _flat(params: Any) -> Iterator[Any]:
    if isinstance(params, dict):
        params = params.values()
    for value in params or ():
        if isinstance(value, list | tuple):
            yield from _flat(value)
        else:
            yield value


@dataclass
class Request:
    label: str
    data: Any = None
    content_type: str | None = None
    token: str = "header"  # "header", "form" or "" (none)
    headers: dict = field(default_factory=dict)


@dataclass
class Sweep:
    seeded: Seeded
    users: Users
    failures: list[str] = field(default_factory=list)
    sent: int = 0
    fields: dict[str, set[str]] = field(default_factory=dict)  # view name -> field names
    honest: dict[str, PageForm] = field(default_factory=dict)  # view name -> a page's form
    # Every form the pages showed, by its address and the values it sends.
    pressed: dict[tuple[str, str], PageForm] = field(default_factory=dict)
    served: set[tuple[str, str]] = field(default_factory=set)  # (url, who) POSTs serve
    covered: set[str] = field(default_factory=set)  # route names asked
    by_user: dict[str, int] = field(default_factory=dict)
    kinds: dict[str, set[str]] = field(default_factory=dict)  # route name -> kinds sent

    def send(self, client: Client, method: str, url: str, request: Request,
             table_pk: int | None = None) -> tuple[HttpResponse | str, tuple | None]:
        """The response, or the exception's text where a server would have
        answered 500; with ``table_pk``, that table as the request left it."""
        cache.clear()  # throttles, poll versions, cached sessions: a clean slate each time
        cookies = copy.deepcopy(client.cookies)
        extra = dict(request.headers)
        data = request.data
        if method == "post" and request.token:
            if "csrftoken" not in client.cookies:
                client.cookies["csrftoken"] = CSRF_SECRET
            token = client.cookies["csrftoken"].value
            if request.token == "form" and isinstance(data, dict):
                data = {**data, "csrfmiddlewaretoken": token}
            else:
                extra["HTTP_X_CSRFTOKEN"] = token
        elif method == "post":
            client.cookies.pop("csrftoken", None)
        self.sent += 1
        postgres = PostgresWatch()
        try:
            with undone(), connection.execute_wrapper(postgres):
                if method == "get":
                    response = client.get(url, data or {}, **extra)
                elif request.content_type:
                    response = client.post(url, data, content_type=request.content_type, **extra)
                else:
                    response = client.post(url, data or {}, **extra)
                if getattr(response, "streaming", False):
                    response.close()
                if postgres.refused:
                    return f"{postgres.refused} (PostgreSQL refuses it)", None
                return response, self.table_row(table_pk) if table_pk else None
        except Exception as error:  # noqa: BLE001 - what the user would have got as a 500
            return f"{type(error).__name__}: {str(error)[:300]}", None
        finally:
            client.cookies = cookies  # a forged sign-out must not sign the user out

    def table_row(self, table_pk: int) -> tuple:
        row = Table.objects.filter(pk=table_pk).values_list("version", "state").first()
        return row, Move.objects.filter(table_id=table_pk).count()

    def learn(self, response: HttpResponse | str, url: str) -> None:
        """The fields of the forms the page shows, by the view they go to."""
        if isinstance(response, str) or response.status_code != 200:
            return
        if getattr(response, "streaming", False) or "html" not in response.get("Content-Type", ""):
            return
        for form in forms_on(response.content.decode(errors="replace"), url):
            name = view_name(form.action)
            self.fields.setdefault(name, set()).update(form.names)
            if form.method == "post":
                self.honest.setdefault(name, form)
                # Once a form: the language switch on every page differs by its
                # "next" alone.
                sent = sorted((k, v) for k, v in form.values().items() if k != "next")
                self.pressed.setdefault((urlsplit(form.action).path, repr(sent)), form)

    def field_names(self, target: Target) -> list[str]:
        """The page's fields first (100,000 characters go in the first few)."""
        shown = sorted(self.fields.get(target.route.name, set()))
        others = sorted((static_fields(target.url) | COMMON_FIELDS) - set(shown))
        return [name for name in [*shown, *others] if name != "csrfmiddlewaretoken"]

    def pressed_here(self, target: Target) -> list[PageForm]:
        """The forms the pages showed that go to this URL, each as its button sends it."""
        return [form for (path, _values), form in self.pressed.items() if path == target.url]

    def check(self, where: str, target: Target, who: str, pupil: Pupil | None,
              response: HttpResponse | str, *, token: bool = True) -> None:
        if isinstance(response, str):
            self.failures.append(f"{where}: raised {response}")
            return
        status = response.status_code
        if status >= 500:
            self.failures.append(f"{where}: {status}")
            return
        if not token and not csrf_exempt(target.url):
            # The token is checked once the URL is resolved: a URL no view
            # answers is not found, any other is refused.
            if status != (403 if view_name(target.url) else 404):
                self.failures.append(f"{where}: {status} without the CSRF token, not 403")
            return
        if status in (400, 403, 404, 405) and not words(response, target):
            self.failures.append(f"{where}: {status} without Numbo's page saying why")
        if self.must_refuse(target, who, pupil):
            if not refusal(response):
                self.failures.append(f"{where}: {status}, not a refusal")
        elif who in STRANGERS and 200 <= status < 300 and target.route.name not in PUBLIC:
            page = body(response)
            shown = [marker for marker in self.seeded.markers if marker in page]
            if shown:
                self.failures.append(f"{where}: shows {shown}")

    def must_refuse(self, target: Target, who: str, pupil: Pupil | None) -> bool:
        if target.route.name in PUBLIC or not target.names_an_object:
            return False
        if target.absurd or who in STRANGERS:
            return True
        if who in ("a pupil", "a pupil at another table"):
            own = pupil is not None and pupil.pk in self.users.seated.get(target.table_pk, ())
            return not (own and target.route.name in OWN_TABLE)
        return False

    def ask(self, target: Target, who: str, client: Client, pupil: Pupil | None,
            method: str, request: Request) -> HttpResponse | str:
        move = method == "post" and target.route.name == "games:table_move" and bool(
            target.table_pk)
        before = self.table_row(target.table_pk) if move else None
        response, after = self.send(client, method, target.url, request,
                                    target.table_pk if move else None)
        where = f"{who} {method.upper()} {request.label} {short(target.url)}"
        self.check(where, target, who, pupil, response, token=method == "get" or bool(
            request.token))
        if move and after is not None and after != before:
            self.failures.append(f"{where}: the table changed, {before} -> {after}")
        if request.data is HUGE_PASTE and not isinstance(response, str):
            # Refused before any view reads it, in words where a view is.
            expected = 400 if view_name(target.url) else 404
            if response.status_code != expected or (
                expected == 400 and "This was too long to send" not in body(response)
            ):
                self.failures.append(f"{where}: {response.status_code}, not the page "
                                     "that says it was too long")
        self.by_user[who] = self.by_user.get(who, 0) + 1
        return response


def refusal(response: HttpResponse) -> bool:
    if response.status_code in (301, 302, 303, 307, 308):
        sign_in = (reverse("login"), reverse("admin:login"), reverse("classroom:join"))
        return urlsplit(response["Location"]).path in sign_in
    return 400 <= response.status_code < 500


def words(response: HttpResponse, target: Target) -> bool:
    """Whether a refusal is a page that says why, in Numbo's layout. A
    tablet's poll and event stream answer a program (HX-Refresh on a 403),
    and an htmx request swaps nothing on a refusal."""
    if target.route.name in MACHINE_ANSWERS or getattr(response, "streaming", False):
        return True
    if response.wsgi_request.headers.get("HX-Request"):
        return True
    return 'class="topbar"' in body(response)


def body(response: HttpResponse) -> str:
    if getattr(response, "streaming", False):
        return ""
    return response.content.decode(errors="replace")


def serves(response: HttpResponse | str) -> bool:
    """Whether the view answered the user rather than refusing them: its
    checks are then what the forged fields reach."""
    if isinstance(response, str):
        return True
    if response.status_code in (403, 404, 405):
        return False
    return not (response.status_code in (301, 302, 303, 307, 308) and refusal(response))


def asks(target: Target, position: int, turn: int) -> bool:
    """Whether the ``turn``-th user asks ``target``: all of them a real URL;
    two an absurd one, in turn (one for 100,000 characters of address), so
    that every user asks some of each route's."""
    if not target.absurd:
        return True
    if len(target.url) > 10_000:
        return turn == position % len(Users.KINDS)
    return turn in (position % len(Users.KINDS), (position + 2) % len(Users.KINDS))


def tags(headers: dict) -> str:
    return ("" if "HTTP_HX_REQUEST" not in headers else " (htmx)") + (
        "" if "HTTP_ACCEPT_LANGUAGE" not in headers else " (in French)")


def short(url: str) -> str:
    return url if len(url) < 90 else f"{url[:50]}...({len(url)} characters)"


def forged_posts(sweep: Sweep, target: Target, kinds: list[str], turn: int,
                 one_field: bool) -> Iterator[Request]:
    """The POSTs forged with ``kinds``: every field forged, then (with
    ``one_field``) one field forged in the form the page fills."""
    names = sweep.field_names(target)
    game = sweep.seeded.games.get(target.table_pk)
    moves = move_types(game) if game and target.route.name == "games:table_move" else []
    honest = sweep.honest.get(target.route.name) if one_field and not moves else None
    for step, kind in enumerate(kinds):
        headers = HTMX if (turn + step) % 2 else {}
        if (turn + step) % 3 == 2:
            headers = {**headers, **FRENCH}  # the messages in French go through other strings
        token = "form" if (turn + step) % 4 == 1 else "header"
        sweep.kinds.setdefault(target.name, set()).add(kind)
        if kind in BODY_KINDS:
            data, content_type = BODY_KINDS[kind]
            yield Request(f"{kind}{tags(headers)}", data, content_type,
                          "header", headers)
            continue
        if moves:
            move_type, fields = moves[(turn + step) % len(moves)]
            data = {**forged(fields, kind), "type": move_type}
            if (turn + step) % 3:
                # The board's own version and a new tap's id, as the page
                # sends them: the forged fields reach the game's checks, not
                # the stale board's (the rest of the time they are forged too).
                data["version"] = str(sweep.seeded.tables_by_pk[target.table_pk].version)
                data["move_id"] = uuid.uuid4().hex
            else:
                data.update(forged(["version", "move_id"], kind))
            yield Request(f"{move_type} move, {kind}{tags(headers)}", data, None, token, headers)
            continue
        yield Request(f"every field {kind}{tags(headers)}",
                      forged(names, kind), None, token, headers)
        if honest is not None and (turn + step) % 4 == 0:  # a quarter of the kinds: enough
            values = honest.values()
            fields = sorted(values) or names
            name = fields[(turn + step) % len(fields)]
            data = {**values, **forged([name], kind)}
            label = f"{name}={kind} in the page's form{tags(headers)}"
            yield Request(label, data, None, token, headers)


def pressed_posts(sweep: Sweep, target: Target) -> Iterator[Request]:
    """Each form the pages showed for this URL as its buttons send it: every
    button and option, not only the first ("Seat late pupils" as well as
    "Pause"), the fields with fewest choices (the buttons) first, at most
    PRESSES a form; then with every choice of a field at once, as a list.
    Not the moves: an honest move is applied (tests/security/test_hostile_inputs.py
    walks them one field at a time)."""
    if target.route.name == "games:table_move":
        return
    for form in sweep.pressed_here(target):
        values = form.values()
        presses = [(name, choice)
                   for name, choices in sorted(form.choices.items(), key=lambda kv: len(kv[1]))
                   for choice in dict.fromkeys(choices) if [choice] != values.get(name)]
        yield Request("the page's form as sent", values)
        for name, choice in presses[:PRESSES]:
            yield Request(f"the page's form with {name}={choice[:20]}", {**values, name: choice})
        for name, choices in sorted(form.choices.items()):
            if len(set(choices)) > 1:
                yield Request(f"{name}=every choice at once", {**values, name: choices})


def walk(sweep: Sweep, found: list[Target]) -> None:
    users = {target.url: sweep.users.of(target.table_pk) for target in found}
    slots: dict[str, int] = {}

    def next_kind(target: Target, position: int) -> str:
        """The kinds in turn, so that every URL gets all of them across its users."""
        slot = slots[target.url] = slots.get(target.url, -1) + 1
        return KINDS[(position + slot) % len(KINDS)]

    # Every GET first: the pages' forms say which fields each view reads.
    for position, target in enumerate(found):
        sweep.covered.add(target.name)
        for turn, (who, client, pupil) in enumerate(users[target.url]):
            if not asks(target, position, turn):
                continue
            response = sweep.ask(target, who, client, pupil, "get", Request(""))
            sweep.learn(response, target.url)
            if target.absurd:
                continue
            # Whom the view serves gets more kinds, where its checks are.
            many = 2 if serves(response) and reads_the_query(target.url) else 1
            kinds = [next_kind(target, position) for _step in range(many)]
            names = sweep.field_names(target)
            for step, kind in enumerate(kinds):
                sweep.kinds.setdefault(target.name, set()).add(kind)
                if kind in FIELD_KINDS:
                    query = forged(names[:2] if kind.startswith("100,000") else names, kind)
                else:
                    query = {"q": BODY_KINDS[kind][0].decode("latin-1")}
                headers = HTMX if (turn + step) % 2 == 0 else {}
                if (turn + step) % 3 == 2:
                    headers = {**headers, **FRENCH}
                label = f"every field {kind}{tags(headers)}"
                sweep.ask(target, who, client, pupil, "get", Request(label, query,
                                                                      headers=headers))
    pasted = set()
    for position, target in enumerate(found):
        for turn, (who, client, pupil) in enumerate(users[target.url]):
            if not asks(target, position, turn):
                continue
            if target.absurd:
                kind = next_kind(target, position)
                plan = list(forged_posts(sweep, target, [kind], turn, False))[:1]
                # Once where a view answers, once where none does.
                where = (target.route.route, bool(view_name(target.url)))
                if where not in pasted:
                    pasted.add(where)
                    plan.append(Request("a 3 MB paste", HUGE_PASTE,
                                        "application/x-www-form-urlencoded"))
                for request in plan:
                    sweep.ask(target, who, client, pupil, "post", request)
                continue
            response = sweep.ask(target, who, client, pupil, "post", Request("no fields"))
            served = serves(response)
            if served:
                sweep.served.add((target.url, who))
            no_token = next_kind(target, position)
            plan = []
            plan += [Request(f"{request.label} without the token", request.data,
                             request.content_type, "", request.headers)
                     for request in list(forged_posts(sweep, target, [no_token], turn, False))]
            if served:
                # Whom the view serves gets most kinds, where its checks are:
                # SERVED_KINDS of them in turn, so that a route's URLs (a
                # session of each game) get them all.
                kinds = [next_kind(target, position) for _step in range(SERVED_KINDS)]
                plan += list(forged_posts(sweep, target, kinds, turn, True))
                plan += list(pressed_posts(sweep, target))
            else:
                sample = [next_kind(target, position)]
                plan += list(forged_posts(sweep, target, sample, turn, False))
            if (target.route.route, "real") not in pasted:
                pasted.add((target.route.route, "real"))
                plan.append(Request("a 3 MB paste", HUGE_PASTE,
                                    "application/x-www-form-urlencoded"))
            for request in plan:
                sweep.ask(target, who, client, pupil, "post", request)


@pytest.fixture
def sso_down(settings):
    """The three single sign-on providers configured, their issuer unreachable:
    the sign-in URLs are reached as a school that set them up has them."""
    from tests.sso.conftest import provider_settings, school_apps

    settings.SOCIALACCOUNT_PROVIDERS = provider_settings(school_apps("https://127.0.0.1:9"))


@pytest.fixture
def quiet_logs():
    """Thousands of refusals logged as warnings: the sweep reports its own failures."""
    loggers = [logging.getLogger(name) for name in ("django.request", "django.security")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


def test_no_url_answers_500_or_lets_a_stranger_in(django_capture_on_commit_callbacks, sso_down,
                                                   quiet_logs):
    started = time.monotonic()
    seeded = seed(django_capture_on_commit_callbacks)
    sweep = Sweep(seeded, Users(seeded))
    found = targets(seeded)
    walk(sweep, found)

    routes = {r.name or r.route for r in every_route() if not r.route.startswith("admin/")}
    print(f"\n{len(routes)} routes, {len(found)} URLs, {sweep.sent} requests "
          f"in {time.monotonic() - started:.1f} s; by user: {sweep.by_user}")
    assert routes <= sweep.covered, routes - sweep.covered
    assert set(sweep.by_user) == {*Users.KINDS, "a pupil at another table"}, sweep.by_user
    short_of = {name: set(KINDS) - kinds for name, kinds in sweep.kinds.items()
                if set(KINDS) - kinds}
    assert not short_of, short_of
    served = {target.route.name for target in found if any(
        (target.url, who) in sweep.served for who in ("the class's teacher", "a pupil"))}
    assert {"classroom:class_edit", "classroom:pupils_add", "games:session_new",
            "games:session_control", "games:table_move", "school:co_teachers"} <= served
    assert not sweep.failures, f"{len(sweep.failures)} of {sweep.sent} requests:\n" + "\n".join(
        sweep.failures[:300])


# ------------------------------------------------------------------ self-check


def fragile_view(request, pk: int):
    """A view that trusts its form: garbage in "count" is a 500."""
    return HttpResponse(str(int(request.POST.get("count", "0")) + pk))


def leaky_view(request, pk: int):
    """A view that forgot its guard: it shows any class to anyone."""
    return HttpResponse(Classroom.objects.get(pk=pk).name)


def _self_check_urlpatterns():
    from django.urls import path

    from config.urls import urlpatterns

    return [*urlpatterns,
            path("classes/<int:pk>/fragile/", fragile_view, name="fragile"),
            path("classes/<int:pk>/leak/", leaky_view, name="leak")]


handler400 = "config.errors.bad_request"
handler404 = "config.errors.page_not_found"
urlpatterns = _self_check_urlpatterns()  # this module is the self-check's urlconf


def test_the_sweep_catches_a_view_that_breaks_on_garbage_or_lets_strangers_in(
    django_capture_on_commit_callbacks, settings, quiet_logs
):
    settings.ROOT_URLCONF = __name__
    seeded = seed(django_capture_on_commit_callbacks)
    sweep = Sweep(seeded, Users(seeded))
    found = [t for t in targets(seeded, urlconf=__name__) if t.route.name in ("fragile", "leak")]
    walk(sweep, found)

    broke = [line for line in sweep.failures if "/fragile/" in line]
    leaked = [line for line in sweep.failures if "/leak/" in line]
    assert any("raised ValueError" in line for line in broke), sweep.failures
    assert {line.split(" GET")[0].split(" POST")[0] for line in leaked if "not a refusal" in line
            } >= {"a visitor", "another school's teacher", "a pupil"}, leaked


def test_the_sweep_catches_a_forged_move_that_is_applied(
    django_capture_on_commit_callbacks, monkeypatch, quiet_logs
):
    """A game that read any form as the legal move its computer would make."""
    seeded = seed(django_capture_on_commit_callbacks)
    table = seeded.tables["numberquest"]
    shown = PAGES["numberquest"]
    state = shown.engine.from_json(table.state)
    legal = shown.bot_moves(state, min(shown.waiting_on(state)), "", 5)[0]
    monkeypatch.setattr(type(shown), "read_move", lambda self, post: dict(legal))
    sweep = Sweep(seeded, Users(seeded))
    found = [t for t in targets(seeded) if t.route.name == "games:table_move"
             and t.table_pk == table.pk]
    walk(sweep, found)

    assert any(line.startswith("a pupil POST") and "the table changed" in line
               for line in sweep.failures), sweep.failures
