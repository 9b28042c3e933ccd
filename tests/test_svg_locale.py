"""SVG drawn under French: Django writes 23.4 as "23,4" when French is active,
which no browser reads as a length (Chromium logs "Expected length" and the
shape falls to 0,0). Every SVG numeric attribute fed by a template variable
sits in ``{% localize off %}``; the pages that draw them, rendered in French,
carry no decimal comma in those attributes."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.models import Attempt
from games.models import GameSession, Seat, Table
from tests.conftest import tap_pictures
from tests.games.conftest import one_table

# One number each: any comma in them is a decimal comma.
SINGLE = (
    "x|y|x1|x2|y1|y2|cx|cy|r|rx|ry|dx|dy|width|height|font-size|stroke-width|"
    "opacity|fill-opacity|stroke-opacity|offset"
)
# Lists of numbers: our code joins a point's x and y with a comma and points with
# a space, so three numbers joined by commas means one of them has a decimal comma.
LISTS = "points|d|transform|viewBox"
SVG_TAGS = "svg|g|rect|circle|ellipse|line|polyline|polygon|path|text|tspan|use|image"

TAG = re.compile(rf"<(?:{SVG_TAGS})\b[^>]*>", re.I)
SINGLE_ATTR = re.compile(rf'\s(?:{SINGLE})="([^"]*)"')
LIST_ATTR = re.compile(rf'\s(?:{LISTS})="([^"]*)"')
DECIMAL_IN_LIST = re.compile(r"\d,\d+,\d")
VIEWBOX = re.compile(r'\sviewBox="([^"]*)"')


def decimal_commas(html: str) -> list[str]:
    """The SVG tags of a page whose numeric attributes hold a decimal comma."""
    found = []
    for tag in TAG.findall(html):
        singles = [v for v in SINGLE_ATTR.findall(tag) if re.search(r"\d,\d", v)]
        lists = [v for v in LIST_ATTR.findall(tag) if DECIMAL_IN_LIST.search(v)]
        boxes = [v for v in VIEWBOX.findall(tag) if "," in v]
        if singles or lists or boxes:
            found.append(tag)
    return found


def test_the_check_sees_a_decimal_comma():
    assert decimal_commas('<line x1="36" y1="23,4"/>')
    assert decimal_commas('<polyline points="300,0,16,0 310,0,20,5"/>')
    assert decimal_commas('<svg viewBox="0 0 600,5 180">')
    assert not decimal_commas('<polyline points="300.0,16.0 310,20"/>')
    assert not decimal_commas('<path d="M18,8 h28 c0,12 -6,19 -14,20"/>')
    assert not decimal_commas("<p>1,9 s</p>")


# ------------------------------------------------------------------ the templates

NUMERIC_FROM_VARIABLE = re.compile(rf'\s(?:{SINGLE}|{LISTS})="[^"]*(?:{{{{|{{%)')


def template_files() -> list[Path]:
    dirs = [Path(d) for engine in settings.TEMPLATES for d in engine["DIRS"]]
    dirs += sorted(Path(settings.BASE_DIR).glob("*/templates"))
    return sorted({f for d in dirs for f in d.rglob("*.html")})


def unlocalized(text: str, at: int) -> bool:
    before = text[:at]
    return before.rfind("{% localize off %}") > before.rfind("{% endlocalize %}")


def test_every_svg_number_from_a_variable_is_outside_localization():
    """A template added later is held to it too, whatever page it reaches."""
    offending = []
    for path in template_files():
        text = path.read_text()
        for tag in TAG.finditer(text):
            for attr in NUMERIC_FROM_VARIABLE.finditer(tag.group()):
                if not unlocalized(text, tag.start() + attr.start()):
                    where = path.relative_to(settings.BASE_DIR)
                    offending.append(f"{where}: {attr.group().strip()}")
    assert not offending, "\n".join(offending)


# ------------------------------------------------------------------ the pages

FR = {"HTTP_ACCEPT_LANGUAGE": "fr"}


@pytest.fixture
def teacher_tablet(teacher) -> Client:
    tablet = Client()
    tablet.force_login(teacher)
    return tablet


@pytest.fixture
def lea_tablet(pupils) -> Client:
    tablet = Client()
    tap_pictures(tablet, pupils[0], pupils[0].password_pictures)
    return tablet


def french(client, url: str) -> str:
    response = client.get(url, **FR)
    assert response.status_code == 200, url
    page = response.content.decode()
    assert 'lang="fr"' in page
    return page


@pytest.fixture
def played(classroom, teacher, pupils):
    """Léa over two weeks: the chart's points land on fractions of a dot."""
    session = GameSession.objects.create(
        classroom=classroom, teacher=teacher, game="numberquest", status="ended"
    )
    table = Table.objects.create(
        session=session, number=1, seed=1, state={}, turn_started_at=timezone.now()
    )
    Seat.objects.create(table=table, player=0, pupil=pupils[0])
    start = timezone.now() - timedelta(days=15)
    rows = [
        Attempt(
            pupil=pupils[0], session=session, table=table, game="numberquest", skill=skill,
            operands=["3", "4"], expected="7", given="7" if i % 3 else "8",
            correct=bool(i % 3), response_ms=1900,
        )
        for skill in ("add", "mul")
        for i in range(9)
    ]
    Attempt.objects.bulk_create(rows)
    for index, saved in enumerate(Attempt.objects.order_by("pk")):
        Attempt.objects.filter(pk=saved.pk).update(created_at=start + timedelta(days=index))
    return session


@pytest.mark.django_db
def test_the_report_pages_in_french(played, teacher_tablet, classroom, pupils):
    pupil_page = french(teacher_tablet, reverse("reports:pupil_report", args=[pupils[0].pk]))
    assert "<polyline" in pupil_page and "<circle" in pupil_page
    for page in (
        pupil_page,
        french(teacher_tablet, reverse("reports:class_report", args=[classroom.pk])),
        french(teacher_tablet, reverse("reports:session_report", args=[played.pk])),
    ):
        assert not decimal_commas(page), decimal_commas(page)[:3]


GAMES = {
    "numberquest": {"preset": "addition"},
    "ultimes": {"second_chance": False, "mark_ultimates": False},
    "nmbr9": {"second_chance": False},
    "nambarz": {},
    "numx": {},
}


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_s_board_in_french(game, classroom, teacher, pupils, lea_tablet, teacher_tablet):
    session, table = one_table(classroom, teacher, pupils[:2], game=game, options=GAMES[game])
    pages = [
        french(lea_tablet, reverse("games:table_play", args=[table.pk])),
        french(teacher_tablet, reverse("games:session_live", args=[session.pk])),
        french(teacher_tablet, reverse("games:table_projector", args=[table.pk])),
    ]
    assert any("<svg" in page for page in pages)
    for page in pages:
        assert not decimal_commas(page), decimal_commas(page)[:3]


@pytest.mark.django_db
def test_the_pupil_home_in_french(lea_tablet):
    page = french(lea_tablet, reverse("classroom:pupil_home"))
    assert not decimal_commas(page)
