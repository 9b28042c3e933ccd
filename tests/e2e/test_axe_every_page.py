"""Every page a teacher or a pupil can reach, in English and in French, read by
axe-core with the WCAG 2.1 A and AA rules at every impact: no violation.

The pages come from the URL resolver, not from a hand list: each pattern's
arguments are filled from a small world (a class, its pupils, one game of each
kind started and one of each kind ended by the teacher, a whole-class NMBR 9,
reports with evidence, a prepared export). A pattern the walk cannot fill, or
that no one can open, fails the test, so a new page cannot slip out unread.
What is not a page is told by its answer (no body, a file, POST only), not by
its name."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.urls import URLPattern, URLResolver, get_resolver, path
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from classroom.reports import exports
from classroom.views.accounts import SIGN_UP_SALT
from config import urls as numbo_urls

from .world import World, build_world


pytestmark = pytest.mark.django_db(transaction=True)
AXE = Path(__file__).parent / "vendor" / "axe.min.js"  # axe-core 4.14.1, MPL-2.0
LANGUAGES = ["en", "fr"]
USERS = ["anonymous", "pupil", "teacher"]  # who opens a page: the least signed-in first

# The admin is Django's, for the school's IT staff: no teacher or pupil has a
# link to it, and its sign-in page is the one admin page either can open.
STAFF_ONLY = "admin"

RUN_AXE = """async () => {
  const found = await axe.run(document, {
    runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    resultTypes: ["violations", "incomplete"],
  });
  window.__incomplete = found.incomplete.map(v => `${v.id} (${v.impact}): ${v.help} @ `
    + v.nodes.slice(0, 4).map(n => n.target.join(" ") + " " + (n.any.concat(n.all, n.none).map(c => c.message).join(";"))).join(" | "));
  return found.violations.map(v => `${v.id} (${v.impact}): ${v.help} @ `
    + v.nodes.slice(0, 4).map(n => n.target.join(" ")).join(" | "));
}"""


def broken(request):
    raise RuntimeError("a fault, for the 500 page")


def refused(request):
    from django.core.exceptions import PermissionDenied

    raise PermissionDenied


# For the error pages' test only (pytest.mark.urls): Numbo's URLs and two that fail.
urlpatterns = [*numbo_urls.urlpatterns, path("broken/", broken), path("refused/", refused)]


def fillings(route: str, keys: list[str], world: World) -> list[str] | None:
    """The URLs of a pattern, its arguments filled from the world; None when
    one argument is beyond the walk (the test then fails). A ``pk`` is of the
    model the route's first word names."""
    sign_up = signing.dumps({"email": "new@school.test", "name": "Mr N"}, salt=SIGN_UP_SALT)
    by_key = {
        "code": [world.classroom.code],
        "pupil_pk": [world.pupil.pk],
        "fmt": sorted(exports.WRITERS),
        "uidb64": [urlsafe_base64_encode(force_bytes(world.teacher.pk))],
        "token": [default_token_generator.make_token(world.teacher)]
        if "uidb64" in keys else [sign_up],
    }
    by_first_word = {
        "classes": [world.classroom.pk],
        "pupils": [world.pupil.pk],
        "sessions": [s.pk for s in world.sessions],
        "tables": [t.pk for t in world.tables],
        "reports": [j.pk for j in world.jobs],
    }
    urls = [route]
    for key in keys:
        values = by_first_word.get(route.split("/")[0]) if key == "pk" else by_key.get(key)
        if not values:
            return None
        urls = [u.replace(f"<{key}>", str(v)) for u in urls for v in values]
    return ["/" + u for u in urls]


def patterns(resolver=None, prefix: str = "", namespace: str = ""):
    """(route with <name> placeholders, argument names, view name) of every URL pattern."""
    import re

    resolver = resolver or get_resolver(numbo_urls.__name__)
    for entry in resolver.url_patterns:
        route = prefix + re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", str(entry.pattern))
        if isinstance(entry, URLResolver):
            inner = entry.namespace or namespace
            yield from patterns(entry, route, inner)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace else str(entry.name)
            yield route, re.findall(r"<(\w+)>", route), name


@dataclass
class Visit:
    url: str
    user: str
    why: str  # "page", or why it is not one


def classify(contexts: dict, base: str, url: str) -> Visit:
    """Who can open ``url``, and what it is: a page, a redirect to one, or no page."""
    seen = []
    for user in USERS:
        answer = contexts[(user, "en")].request.get(base + url, max_redirects=0)
        status, kind = answer.status, answer.headers.get("content-type", "")
        body = answer.body()
        seen.append(f"{user}: {status}")
        if status == 200 and kind.startswith("text/html") and b"<html" in body:
            return Visit(url, user, "page")
        if status == 204:
            return Visit(url, user, "answers 204 (a poll)")
        if status == 405:
            return Visit(url, user, "POST only")
        if status == 200:
            return Visit(url, user, f"a file ({kind})")
        if status in (302, 303) and not any(
            word in answer.headers.get("location", "") for word in ("/login/", "/join/")
        ):
            return Visit(answer.headers["location"], user, "page")
        if status in (403, 404) and not body:
            return Visit(url, user, f"answers an empty {status} (a poll or a stream without its token)")
    return Visit(url, "", "nobody opens it: " + ", ".join(seen))


def axe_findings(page, url: str) -> list[str]:
    t = time.monotonic()
    page.goto(url)
    t2 = time.monotonic()
    out = page.evaluate(RUN_AXE)
    for inc in page.evaluate("window.__incomplete"):
        print("INCOMPLETE", url, inc)
    print("AXE", url, page.evaluate("document.documentElement.lang"), page.url, round(t2 - t, 2), round(time.monotonic() - t2, 2), len(out))
    return out


def cookies_of(user: str, base: str, teacher, pupil) -> list[dict]:
    """The cookies of a browser in which this user signed in (through Django's
    test client: the sign-in pages have their own tests)."""
    from django.test import Client

    from tests.conftest import tap_pictures

    client = Client()
    if user == "teacher":
        client.force_login(teacher)
    elif user == "pupil":
        assert tap_pictures(client, pupil, pupil.password_pictures).status_code == 302
    return [{"name": name, "value": morsel.value, "url": base} for name, morsel in client.cookies.items()]


@pytest.fixture
def contexts(live_server, browser, browser_context_args, teacher, pupils):
    """One browser context per user and language (the language cookie the
    EN/FR switch sets), each with one page and axe-core in every document."""
    made = {}
    for user in USERS:
        cookies = cookies_of(user, live_server.url, teacher, pupils[0])
        for language in LANGUAGES:
            context = browser.new_context(**browser_context_args)
            context.add_cookies(
                [*cookies, {"name": "django_language", "value": language, "url": live_server.url}]
            )
            context.add_init_script(path=str(AXE))
            context.new_page()
            made[(user, language)] = context
    return made


def test_every_page_in_both_languages_passes_axe(
    live_server, contexts, classroom, teacher, pupils
):
    started = time.monotonic()
    world = build_world(classroom, teacher, pupils)
    print("WORLD", time.monotonic() - started)
    unfilled, visits = [], []
    for route, keys, name in patterns():
        if name.startswith(STAFF_ONLY + ":") and name != f"{STAFF_ONLY}:login":
            continue
        urls = fillings(route, keys, world)
        if urls is None:
            unfilled.append(f"{name} ({route}): an argument the walk cannot fill")
            continue
        for url in urls:
            visit = classify(contexts, live_server.url, url)
            if not visit.user:
                unfilled.append(f"{name} {url}: {visit.why}")
            visits.append((name, visit))
    assert unfilled == []
    print("CLASSIFIED", time.monotonic() - started)
    pages = {}
    for name, visit in visits:
        if visit.why == "page":
            pages.setdefault((visit.user, visit.url.split("?")[0]), (name, visit.url))
    for key, value in pages.items():
        print("PAGE", key, value)
    found = {}
    for language in LANGUAGES:
        for (user, _path), (name, url) in pages.items():
            page = contexts[(user, language)].pages[0]
            for finding in axe_findings(page, live_server.url + url):
                found.setdefault(finding, []).append(f"{language} {user} {url}")
    print(f"{len(pages)} pages x {len(LANGUAGES)} languages in {time.monotonic() - started:.1f} s")
    for name, visit in visits:
        if visit.why != "page":
            print(f"not a page: {name} {visit.url}: {visit.why}")
    assert {f: where[:6] for f, where in found.items()} == {}
