"""Every URL pattern of the project, from the resolver, and how to fill its
path parameters with one school's real objects.

A new view is found here without being listed. A parameter this module cannot
fill fails the walk by name: say which object it takes, in ``_KINDS`` or
``_BY_NAME``, rather than leaving the view out.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern

from .world import School

# The URLs open to anyone by design, each with what keeps it safe: the walks
# of every URL (test_every_url_refuses_strangers.py, tests/test_no_500_anywhere.py)
# let a stranger in here alone.
PUBLIC = frozenset({
    # The class code is the key to the name grid and the picture pad; codes
    # are counted and limited (classroom.views.pupil).
    "classroom:join_class",
    "classroom:join_pupil",
    # The token in the address is the key; without it the page says the link is invalid.
    "password_reset_confirm",
    # The same: a signed token from the sign-up's e-mail, used once.
    "sign_up_finish",
    # The same: a school's invitation, signed, used once (school.invitations).
    "school:invitation_accept",
})

# The word before "<int:pk>" says what the pk is of.
_KINDS = {
    "classes": "classroom",
    "pupils": "pupil",
    "sessions": "session",
    "tables": "table",
    "jobs": "job",
    "teachers": "teacher",  # school/teachers/<pk>/: the administrator's changes
    "invitations": "invitation",
    # The admin's change pages: admin/<app>/<model>/<object_id>/
    "teacher": "teacher",
    "classroom": "classroom",
    "pupil": "pupil",
    "gamesession": "session",
    "table": "table",
    "reportjob": "job",
}
# "<int:pk>" in a route, "(?P<app_label>...)" in the admin's regexes.
_PARAMETER = re.compile(r"<(?:[^>:]+:)?(?P<name>[^>]+)>|\(\?P<(?P<group>\w+)>[^)]*\)")


class Unfillable(LookupError):
    """A path parameter nobody said how to fill."""


@dataclass(frozen=True)
class Route:
    route: str  # "classes/<int:pk>/edit/", admin regexes as written
    name: str  # "classroom:class_edit"; "" for the admin's unnamed patterns

    def __str__(self) -> str:
        return f"{self.name or '(unnamed)'} {self.route}"

    @property
    def parameters(self) -> list[str]:
        return [m["name"] or m["group"] for m in _PARAMETER.finditer(self.route)]

    def urls(self, school: School) -> Iterator[str]:
        """This route filled with each fitting object of ``school`` in turn."""
        found = list(_PARAMETER.finditer(self.route))
        choices = [_values(self, m["name"] or m["group"], self.route[: m.start()], school)
                   for m in found]
        for picked in itertools.product(*choices):
            path, end = "", 0
            for match, value in zip(found, picked, strict=True):
                path += self.route[end : match.start()] + value
                end = match.end()
            yield "/" + path + self.route[end:]


def every_route(urlconf: str | None = None) -> list[Route]:
    found: list[Route] = []

    def walk(patterns, prefix: str, namespace: str) -> None:
        for pattern in patterns:
            text = str(pattern.pattern)
            if isinstance(pattern.pattern, RegexPattern):
                text = text.lstrip("^").rstrip("$") if prefix else text
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, prefix + text, inner)
            elif isinstance(pattern, URLPattern):
                name = f"{namespace}{pattern.name}" if pattern.name else ""
                found.append(Route(prefix + text, name))

    walk(get_resolver(urlconf).url_patterns, "", "")
    return found


def _values(route: Route, name: str, before: str, school: School) -> list[str]:
    from django.contrib.contenttypes.models import ContentType
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    word = before.rstrip("/").rsplit("/", 1)[-1]
    if name in ("pk", "object_id", "id") and word in _KINDS:
        return [str(obj.pk) for obj in school.objects(_KINDS[word])]
    if name == "object_id" and route.route.startswith("admin/") and word.isidentifier():
        return ["1"]  # an admin model without an object here: the admin refuses first
    by_name = {
        "code": lambda: [school.classroom.code],
        "pupil_pk": lambda: [str(p.pk) for p in school.pupils],
        "fmt": lambda: ["csv", "xlsx"],
        "uidb64": lambda: [urlsafe_base64_encode(force_bytes(school.teacher.pk))],
        "token": lambda: ["set-password"],
        "content_type_id": lambda: [str(ContentType.objects.get_for_model(school.classroom).pk)],
        "object_id": lambda: [str(school.classroom.pk)],  # after content_type_id: view_on_site
        "app_label": lambda: ["classroom"],
        "url": lambda: [f"classroom/pupil/{school.pupils[0].pk}/change/"],
        # Single sign-on's providers (accounts/oidc/<provider_id>/...): the
        # generic one's id; tests/sso walks them with providers configured.
        "provider_id": lambda: ["oidc"],
    }
    if name not in by_name:
        raise Unfillable(
            f"{route}: nothing says what <{name}> after '{word}/' is: add it to "
            "tests/security/routes.py (_KINDS for a pk, _values otherwise)."
        )
    return by_name[name]()
