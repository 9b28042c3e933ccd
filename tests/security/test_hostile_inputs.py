"""Forged values through every form and every game's moves: never a 500, and
nothing changes that the honest request would not have changed.

What is attacked is found, not listed:
- the forms: every page of the URL resolver is opened as a visitor, a pupil
  and the class's teacher, and every form on it (and every htmx element that
  sends values of its own) is sent back with each field forged in turn;
- the moves: every game of the registry (games.pages.PAGES) gets a
  table, and each field its presenter reads (``move_fields``) is forged in a
  move that is otherwise the legal one its computer player would make.

Each forged request runs in a transaction rolled back after it, so every one
starts from the same school. A forged game move must change nothing, and so
must a forged sign-in (a class code, a picture, a password). Any other form
may take a forged value as the honest one it resembles (an empty box is an
unticked box; a class may well be called "²"), but nothing it writes may
break its column (no control or format character such as NUL or a
right-to-left override, no more than its length, one of its choices), and
nothing of another school may change.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import Resolver404, resolve

from games.models import GameSession
from games.pages import PAGES
from games.views.tables import poll_token
from tests.conftest import tap_pictures

from . import snapshots
from .attack import Attack, undone
from .forged import VALUES, Forged, forge
from .pages import PageForm, forms_on
from .routes import every_route
from .world import PASSWORD, School, build_school

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}

# What an honest user types in a field the page leaves empty, by field name.
TYPED = {
    "name": "CM1 Zeta",
    "school_year": "2027-2028",
    "pupils": "Zoé Karim\nYann L.",
    "first_name": "Zoé",
    "initial": "K",
    "family_name": "Karim",
    "display_name": "Ms Zeta",
    "email": "new-teacher@school.test",
    "password1": "A-long-new-passw0rd!",
    "password2": "A-long-new-passw0rd!",
    "old_password": PASSWORD,
    "new_password1": "A-long-new-passw0rd!",
    "new_password2": "A-long-new-passw0rd!",
    "password": PASSWORD,
}
# Views the crawl leaves to a test of their own below: the game moves, whose
# honest values only the game's state can give.
OWN_TEST = {"games:table_move"}


def view_name(path: str) -> str:
    try:
        return resolve(urlsplit(path).path).view_name
    except Resolver404:
        return ""


# --------------------------------------------------------------------- forms


# Forms that sign someone in: a forged value signs no one in and changes nothing.
SIGN_IN = {"classroom:join", "classroom:join_class", "classroom:join_pupil", "login"}


@pytest.fixture
def school(db) -> School:
    return build_school("Zeta", ("Zéphyrine", "Ulysse", "Octavie"))


def signed_in_clients(school: School) -> dict[str, Client]:
    """A visitor, a pupil of the school on a tablet and its teacher, least trusted first."""
    teacher = Client(raise_request_exception=False)
    teacher.force_login(school.teacher)
    pupil = Client(raise_request_exception=False)
    assert tap_pictures(pupil, school.pupils[0], ["sun", "moon", "star"]).status_code == 302
    return {"visitor": Client(raise_request_exception=False), "pupil": pupil, "teacher": teacher}


def every_form(clients: dict[str, Client], school: School) -> list[tuple[str, PageForm]]:
    """The forms on every page, each once, with the least trusted user who sees it."""
    found: dict[tuple, tuple[str, PageForm]] = {}
    for route in every_route():
        if route.route.startswith("admin/"):
            continue  # Django's own admin, for staff: not this project's forms
        for path in route.urls(school):
            for role, client in clients.items():
                with undone():
                    response = client.get(path)
                if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                    continue
                for form in forms_on(response.content.decode(), path):
                    if view_name(form.action) not in OWN_TEST:
                        found.setdefault(form.key(), (role, form))
    return list(found.values())


def honest(form: PageForm) -> dict[str, list[str]]:
    values = form.values()
    for name, typed in TYPED.items():
        if name in values and not any(v.strip() for v in values[name]):
            values[name] = [typed]
    return values


def fields_to_forge(form: PageForm) -> list[str]:
    """Each field once; a field per pupil ("table_12", "table_13") once for all."""
    seen, names = set(), []
    for name in form.names:
        family = re.sub(r"\d+", "N", name)
        if name != "csrfmiddlewaretoken" and family not in seen:
            seen.add(family)
            names.append(name)
    return names


def test_forged_values_through_every_form_never_break_or_change_anything(db):
    other = build_school("Other", ("Anatole", "Bérénice", "Cosima"))
    theirs = set(snapshots.snapshot())
    school = build_school("Zeta", ("Zéphyrine", "Ulysse", "Octavie"))
    attack = Attack()
    clients = signed_in_clients(school)
    forms = every_form(clients, school)
    # The crawl must find the forms that matter, or it proves nothing.
    actions = {view_name(form.action) for _role, form in forms}
    assert {
        "classroom:class_create", "classroom:class_edit", "classroom:pupils_add",
        "classroom:pupil_edit", "classroom:join", "classroom:join_pupil", "login", "sign_up",
        "games:session_new", "games:session_control", "games:session_next_card",
        "reports:class_prepare", "reports:class_report", "set_language",
    } <= actions, actions
    for role, form in forms:
        client = clients[role]
        values = honest(form)
        status, _changed, unclean = attack.effect(
            client, form.method, form.action, Forged("honest", values)
        )
        assert status < 500 and not unclean, (role, form.action, status, unclean)
        if view_name(form.action) in SIGN_IN:
            allowed = lambda change: False  # noqa: E731
        else:
            allowed = lambda change: (change.label, change.pk) not in theirs  # noqa: E731
        for name in fields_to_forge(form):
            for forged in forge(values, name):
                where = f"{role} {form.method.upper()} {form.action} {name}={forged.label}"
                attack.check(
                    where, *attack.effect(client, form.method, form.action, forged), allowed
                )
    assert other.classroom.name in {r["name"] for k, r in snapshots.snapshot().items()
                                     if k[0] == "classroom.Classroom"}
    attack.report()


# --------------------------------------------------------------------- moves


def a_table_of(slug: str, school: School):
    """A table of two pupils of ``school`` playing ``slug``, and the pupil whose
    move the game waits for, signed in on a tablet."""
    from games import services

    session = services.start_session(
        school.classroom, school.teacher, game=slug, options={},
        pupils=school.pupils[:2], table_size=2, seed=11,
        tablets=GameSession.Tablets.OWN,
    )
    table = session.tables.get()
    shown = PAGES[slug]
    state = shown.engine.from_json(table.state)
    player = min(shown.waiting_on(state))
    seat = table.seats.get(player=player)
    tablet = Client(raise_request_exception=False)
    assert tap_pictures(tablet, seat.pupil, ["sun", "moon", "star"]).status_code == 302
    return table, state, player, seat.pupil, tablet


def form_of(move: dict) -> dict[str, list[str]]:
    """An engine move as a tablet's form sends it: lists joined by commas (the
    presenters read them so), its type apart."""
    return {
        name: [",".join(map(str, value)) if isinstance(value, list | tuple) else str(value)]
        for name, value in move.items()
        if name != "type" and value is not None
    }


@pytest.mark.parametrize("slug", sorted(PAGES))
def test_forged_moves_of_every_game_are_refused_and_change_nothing(slug, school):
    attack = Attack()
    shown = PAGES[slug]
    table, state, player, pupil, tablet = a_table_of(slug, school)
    legal = shown.bot_moves(state, player, "", 5)[0]
    kind = legal["type"]
    path = f"/tables/{table.pk}/move/"
    own_fields = {
        move_type: tuple(fields) for move_type, fields in shown.move_fields.items()
    }
    # The legal move's own fields, whether the presenter lists them or reads them itself.
    own_fields[kind] = tuple(dict.fromkeys([*own_fields.get(kind, ()), *form_of(legal)]))

    def sent(move_type: str) -> dict[str, list[str]]:
        if move_type == kind:
            fields = form_of(legal)
        else:
            fields = {name: ["1"] for name in own_fields[move_type]}
        return {"type": [move_type], **fields, "version": [str(table.version)],
                "move_id": ["a1b2c3"]}

    # The legal move itself is applied: the harness can move this game at all.
    status, changed, _unclean = attack.effect(tablet, "post", path, Forged("legal", sent(kind)),
                                              HTMX)
    assert status == 200 and any(c.label == "games.Move" for c in changed), (slug, legal, changed)
    honest_kinds = {c.kind for c in changed}

    for move_type in own_fields:
        # The type once, in the legal move; each type's own fields in a move of that type.
        for name in (("type",) if move_type == kind else ()) + own_fields[move_type]:
            for forged in forge(sent(move_type), name):
                where = f"{slug} {move_type}.{name}={forged.label}"
                attack.check(where, *attack.effect(tablet, "post", path, forged, HTMX),
                             allowed=lambda c: False)
    # The bookkeeping beside the legal move: the move may go through, once, clean.
    for name in ("version", "move_id", "seen"):
        for forged in forge(sent(kind), name):
            where = f"{slug} {name}={forged.label}"
            attack.check(where, *attack.effect(tablet, "post", path, forged, HTMX),
                         allowed=lambda c: c.kind in honest_kinds)
    # Every move form and tap the pupil's page offers, as the page fills it: a
    # forged field changes nothing the honest one would not.
    page = tablet.get(f"/tables/{table.pk}/").content.decode()
    for form in forms_on(page, f"/tables/{table.pk}/"):
        if view_name(form.action) != "games:table_move":
            continue
        values = form.values()
        _status, changed, _unclean = attack.effect(tablet, "post", path,
                                                   Forged("honest", values), HTMX)
        kinds = {c.kind for c in changed}
        for name in fields_to_forge(form):
            if name in ("version", "move_id", "seen"):
                continue
            for forged in forge(values, name):
                where = f"{slug} page form {values.get('type')} {name}={forged.label}"
                attack.check(where, *attack.effect(tablet, "post", path, forged, HTMX),
                             allowed=lambda c, kinds=kinds: c.kind in kinds)
    # The poll and the push stream read their token and version from the address.
    token = poll_token(table, pupil.pk, None, pupil.sign_in_generation)
    for name, endpoint in (("t", "poll"), ("v", "poll"), ("t", "events")):
        base = {"t": [token], "v": ["0"]}
        for forged in forge(base, name):
            where = f"{slug} {endpoint} {name}={forged.label}"
            attack.check(
                where,
                *attack.effect(Client(raise_request_exception=False), "get",
                               f"/tables/{table.pk}/{endpoint}/", forged, HTMX),
                allowed=lambda c: False,
            )
    attack.report()


def test_the_forged_list_holds_what_the_issue_names():
    # NUL, huge numbers, 5,000 digits, RTL marks, "²"; the shapes are in forge().
    assert {"NUL", "huge number", "5,000 digits", "right-to-left override",
            "superscript two"} <= set(VALUES)
    shapes = {f.label for f in forge({"a": ["1"]}, "a")}
    assert {"repeated, forged last", "missing", "a file", "JSON body"} <= shapes


def test_every_game_of_the_registry_reads_back_the_moves_its_computer_makes(school):
    """What the moves test rests on: a computer player's move, sent as a form,
    is the same move once the game's presenter has read it."""
    from django.http import QueryDict

    for slug, page in PAGES.items():
        table, state, player, _pupil, _tablet = a_table_of(slug, school)
        move = page.bot_moves(state, player, "", 5)[0]
        form = QueryDict(mutable=True)
        form.setlist("type", [move["type"]])
        for name, values in form_of(move).items():
            form.setlist(name, values)
        assert page.read_move(form) == move, slug
        table.session.delete()
