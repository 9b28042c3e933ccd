"""Every page a teacher or a pupil can reach, in English and in French, read by
axe-core with the WCAG 2.1 A and AA rules at every impact: no violation.

The pages come from the URL resolver, not from a hand list: each pattern's
arguments are filled from a class in the middle of its games (tests/e2e/world.py:
one game of each kind under way and one of each kind ended by the teacher, a
whole-class NMBR 9, reports with evidence, a prepared export). A pattern the
walk cannot fill, or that nobody can open, fails the test, so a new page cannot
slip out unread. What is not a page is told by its answer (no body, a file,
POST only), not by its name. Each page is read as the least signed-in user who
can open it: anonymous, then a signed-in pupil, then the teacher."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, path
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from classroom.reports import exports
from classroom.views.accounts import SIGN_UP_SALT
from config import urls as numbo_urls
from school import invitations
from tests.conftest import tap_pictures

from .world import World, build_world

pytestmark = pytest.mark.django_db(transaction=True)
AXE = Path(__file__).parent / "vendor" / "axe.min.js"  # axe-core 4.14.1, MPL-2.0
LANGUAGES = ["en", "fr"]
USERS = ["anonymous", "pupil", "teacher"]  # the least signed-in first

# The admin is Django's, for the school's IT staff: no teacher or pupil has a
# link to it, and its sign-in page is the one admin page either can open.
STAFF_ONLY = "admin:"
# Pages that need a part the walk's world does not run: single sign-on's two,
# which answer only for a configured provider, are read with axe in both
# languages against a live one by tests/e2e/test_sso_in_browser.py.
READ_ELSEWHERE = {"openid_connect_login", "openid_connect_callback"}
STAFF_SIGN_IN = "admin:login"

# What axe could not decide and leaves to a person ("incomplete"), read once:
# anything else it leaves undecided fails the test like a violation.
REVIEWED = {
    # SVG text, text on pictures, one-sign labels: the SVG text is measured by
    # tests/e2e/test_svg_text_contrast.py, the flags (✓, a sign) use the
    # colour tokens that tests/test_token_contrast.py holds.
    "color-contrast",
    # NMBR 9's arrows (▲ ◀ ▶ ▼) are symbols; their names say the direction.
    "label-content-name-mismatch",
}

RUN_AXE = """async () => {
  const found = await axe.run(document, {
    runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    resultTypes: ["violations", "incomplete"],
  });
  const say = (v) => `${v.id} (${v.impact}): ${v.help} @ `
    + v.nodes.slice(0, 4).map(n => n.target.join(" ")).join(" | ");
  return {violations: found.violations.map(say),
          undecided: found.incomplete.map(v => [v.id, say(v)])};
}"""


def broken(request):
    raise RuntimeError("a fault, for the 500 page")


def refused(request):
    raise PermissionDenied


# For the error pages' test only (pytest.mark.urls): Numbo's URLs and two that fail.
urlpatterns = [*numbo_urls.urlpatterns, path("broken/", broken), path("refused/", refused)]


def patterns(resolver=None, prefix: str = "", namespace: str = ""):
    """(route with <name> placeholders, argument names, view name) of every URL pattern."""
    resolver = resolver or get_resolver(numbo_urls.__name__)
    for entry in resolver.url_patterns:
        route = prefix + re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", str(entry.pattern))
        if isinstance(entry, URLResolver):
            yield from patterns(entry, route, entry.namespace or namespace)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace else str(entry.name)
            yield route, re.findall(r"<(\w+)>", route), name


def fillings(route: str, keys: list[str], world: World) -> list[str] | None:
    """The URLs of a pattern, its arguments filled from the world; None when
    one argument is beyond the walk. A ``pk`` is of the model the route's
    first word names."""
    sign_up = signing.dumps({"email": "new@school.test", "name": "Mr N"}, salt=SIGN_UP_SALT)
    by_key = {
        "code": [world.classroom.code],
        "pupil_pk": [world.pupil.pk],
        "fmt": sorted(exports.WRITERS),
        "uidb64": [urlsafe_base64_encode(force_bytes(world.teacher.pk))],
        "token": [default_token_generator.make_token(world.teacher)]
        if "uidb64" in keys
        else [invitations.link_token(world.invitations[0])]
        if route.startswith("school/")
        else [sign_up],
    }
    by_first_word = {
        "classes": [world.classroom.pk],
        "pupils": [world.pupil.pk],
        "sessions": [s.pk for s in world.sessions],
        "tables": [t.pk for t in world.tables],
        "reports": [j.pk for j in world.jobs],
        "teachers": [world.teacher.pk],
        "invitations": [i.pk for i in world.invitations],
        "report": [j.pk for j in world.school_jobs],  # school/report/jobs/<pk>/
    }
    # The school's pages: the word after "school/" names the model.
    first = route.split("/")[1] if route.startswith("school/") else route.split("/")[0]
    urls = [route]
    for key in keys:
        values = by_first_word.get(first) if key == "pk" else by_key.get(key)
        if not values:
            return None
        urls = [u.replace(f"<{key}>", str(v)) for u in urls for v in values]
    return ["/" + u for u in urls]


@dataclass
class Visit:
    url: str  # the page read: the URL, or where it sends its user
    user: str  # who reads it; "" when nobody can
    what: str  # "page", or why it is not one


def classify(contexts: dict, base: str, url: str) -> Visit:
    """Who can open ``url``, and what it answers them."""
    seen = []
    for user in USERS:
        answer = contexts[(user, "en")].request.get(base + url, max_redirects=0)
        status, kind = answer.status, answer.headers.get("content-type", "")
        body = answer.body()
        seen.append(f"{user}: {status}")
        if status == 200 and kind.startswith("text/html") and b"<html" in body:
            return Visit(url, user, "page")
        if status == 200:
            return Visit(url, user, f"a file ({kind})")
        if status == 204:
            return Visit(url, user, "answers 204 (a poll)")
        if status == 405:
            return Visit(url, user, "POST only")
        if status in (403, 404) and not body:
            return Visit(url, user, f"an empty {status} (a poll or a stream without its token)")
        location = answer.headers.get("location", "")
        if status in (301, 302, 303) and not re.search(r"/login/|/join/", location):
            return Visit(location, user, "page")
    return Visit(url, "", "nobody opens it: " + ", ".join(seen))


def read_by_axe(page, url: str | None = None) -> list[str]:
    """Violations, and undecided results beyond REVIEWED, of the page (at ``url``)."""
    if url is not None:
        page.goto(url)
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(RUN_AXE)
    return found["violations"] + [
        f"undecided: {said}" for rule, said in found["undecided"] if rule not in REVIEWED
    ]


def cookies_of(user: str, base: str, teacher, pupil) -> list[dict]:
    """The cookies of a browser in which this user signed in (through Django's
    test client: the sign-in pages have tests of their own)."""
    client = Client()
    if user == "teacher":
        client.force_login(teacher)
    elif user == "pupil":
        assert tap_pictures(client, pupil, pupil.password_pictures).status_code == 302
    return [
        {"name": name, "value": kept.value, "url": base} for name, kept in client.cookies.items()
    ]


@pytest.fixture
def contexts(live_server, browser, browser_context_args, teacher, pupils):
    """One browser context per user and language (the cookie the EN/FR switch
    sets), each with one page, axe-core loaded in every document."""
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
    unfilled, pages, not_pages = [], {}, []
    for route, keys, name in patterns():
        if name.startswith(STAFF_ONLY) and name != STAFF_SIGN_IN or name in READ_ELSEWHERE:
            continue
        urls = fillings(route, keys, world)
        if urls is None:
            unfilled.append(f"{name} ({route}): an argument the walk cannot fill")
            continue
        for url in urls:
            visit = classify(contexts, live_server.url, url)
            if not visit.user:
                unfilled.append(f"{name} {url}: {visit.what}")
            elif visit.what == "page":
                pages.setdefault((visit.user, visit.url.split("?")[0]), visit.url)
            else:
                not_pages.append(name)
    assert unfilled == []
    sorted_out = time.monotonic()
    found: dict[str, list[str]] = {}
    for language in LANGUAGES:
        for (user, _path), url in pages.items():
            page = contexts[(user, language)].pages[0]
            for finding in read_by_axe(page, live_server.url + url):
                found.setdefault(finding, []).append(f"{language} {user} {url}")
    print(f"{len(pages)} pages ({len(set(not_pages))} patterns are not pages) sorted out in "
          f"{sorted_out - started:.0f} s, read by axe in {len(LANGUAGES)} languages in "
          f"{time.monotonic() - sorted_out:.0f} s")
    assert {finding: where[:6] for finding, where in found.items()} == {}


@pytest.mark.urls(__name__)
def test_the_error_pages_in_both_languages_pass_axe(live_server, contexts, teacher, pupils):
    """Not found for everyone (each is led back somewhere else), refused, a
    form sent without its token (CSRF), and a fault (500)."""
    found = {}
    for language in LANGUAGES:
        shown = []
        for user in USERS:
            page = contexts[(user, language)].pages[0]
            assert page.goto(live_server.url + "/no-such-page/").status == 404
            shown.append((page, read_by_axe(page), "404"))
        page = contexts[("anonymous", language)].pages[0]
        assert page.goto(live_server.url + "/refused/").status == 403
        shown.append((page, read_by_axe(page), "403"))
        assert page.goto(live_server.url + "/broken/").status == 500
        shown.append((page, read_by_axe(page), "500"))
        page.goto(live_server.url + "/accounts/login/")
        page.locator("#main form input[name=csrfmiddlewaretoken]").evaluate("i => i.remove()")
        with page.expect_navigation() as sent:
            page.evaluate("document.querySelector('#main form').submit()")
        assert sent.value.status == 403
        shown.append((page, read_by_axe(page), "CSRF"))
        for page, findings, what in shown:
            assert page.evaluate("document.documentElement.lang") == language, what
            for finding in findings:
                found.setdefault(finding, []).append(f"{language} {what}")
    assert found == {}


def test_the_walk_would_see_a_violation_of_any_impact(page):
    """The checker itself: a critical finding counts, and so does a minor one
    that axe leaves undecided (a server-side image map, WCAG 2.1.1)."""
    page.set_content(
        "<html lang='en'><head><title>t</title></head><body><main><h1>x</h1>"
        "<img src='x.png'><a href='/'><img src='y.png' alt='map' ismap></a></main></body></html>"
    )
    found = read_by_axe(page)
    assert any(f.startswith("image-alt (critical)") for f in found), found
    assert any("server-side-image-map (minor)" in f for f in found), found


def test_refused_forms_in_both_languages_pass_axe(live_server, contexts, teacher, pupils):
    """A form sent back with its errors: a wrong password, a wrong class code,
    a class without a name (the browser's own check let through, as an old
    browser would)."""
    refused = [
        ("anonymous", "/accounts/login/", {"username": "teacher@school.test", "password": "no"}),
        ("anonymous", "/join/", {"code": "ZZZZZZ"}),
        ("teacher", "/classes/new/", {"name": ""}),
    ]
    found = {}
    for language in LANGUAGES:
        for user, url, fields in refused:
            page = contexts[(user, language)].pages[0]
            page.goto(live_server.url + url)
            form = page.locator("#main form").last
            for name, value in fields.items():
                form.locator(f"[name={name}]").fill(value)
            form.evaluate("f => { f.noValidate = true; }")
            with page.expect_navigation():
                form.locator("button[type=submit]").last.click()
            assert page.locator(".errorlist, [role=alert]").count(), f"{url}: no error shown"
            for finding in read_by_axe(page):
                found.setdefault(finding, []).append(f"{language} {url}")
    assert found == {}
