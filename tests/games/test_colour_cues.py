"""No colour-only cue on a board (issue 33): what a colour means on a board is
also said by a pattern, a symbol, a number or a word that survives protanopia,
deuteranopia and grey. The bytes of the pages are read, as a pupil's tablet
receives them."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from engine.nmbr9.stack import Tile
from engine.numberquest.board import COLOUR_BANDS
from games.pages.nmbr9 import drawing as nmbr9_drawing
from games.pages.numberquest import drawing as nq_drawing
from games.pages.numx import drawing as numx_drawing
from tests.classroom.test_reports import played  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def page_of(client, table, language: str = "en") -> str:
    url = reverse("games:table_play", args=[table.pk])
    # The request switches the thread's language: the next tests must not read French.
    with translation.override(translation.get_language()):
        return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def squares_of(page: str) -> list[str]:
    """Each square of the Number Quest diamond, as its own piece of the SVG."""
    start = page.index('<svg class="board"')
    board = page[start:page.index("</svg>", start)]
    return re.findall(r'<g class="sq.*?</g>', board, re.S)


# --------------------------------------------------------------- Number Quest


def test_every_colour_of_the_board_has_a_pattern_of_its_own():
    assert set(nq_drawing.BAND_PATTERNS) == {colour for colour, *_ in COLOUR_BANDS}
    assert len(set(nq_drawing.BAND_PATTERNS.values())) == len(nq_drawing.BAND_PATTERNS)


def test_each_square_carries_its_colours_pattern_and_the_board_defines_it(
    start, pupil_client
):
    _session, table = start(options={"preset": "classic"})
    page = page_of(pupil_client, table)
    squares = squares_of(page)
    assert len(squares) == 100
    for square in squares:
        band = re.search(r'<polygon [^>]*fill="url\(#nq-(\w+)\) #', square).group(1)
        number = int(re.search(r">(\d+)</text>", square).group(1))
        expected = next(colour for colour, lo, hi, _pays in COLOUR_BANDS if lo <= number <= hi)
        assert band == expected, number
    patterns = dict(re.findall(r'<pattern id="nq-(\w+)" data-pattern="(\w+)"', page))
    assert patterns == nq_drawing.BAND_PATTERNS


@pytest.mark.parametrize(
    ("preset", "language", "shown"),
    [
        ("classic", "en", [("orange", "10"), ("turquoise", "20"), ("yellow", "50"),
                           ("blue", "100"), ("green", "200"), ("violet", "300"),
                           ("red", "500")]),
        ("addition", "en", [("orange", "10"), ("turquoise", "20")]),
        ("classic", "fr", [("orange", "10"), ("turquoise", "20"), ("jaune", "50"),
                           ("bleu", "100"), ("vert", "200"), ("violet", "300"),
                           ("rouge", "500")]),
    ],
)
def test_the_legend_names_each_colour_in_play_with_its_pattern_and_payout(
    start, pupil_client, preset, language, shown
):
    _session, table = start(options={"preset": preset})
    page = page_of(pupil_client, table, language)
    legend = re.search(r'<div class="nq-legend">(.*?)</div>', page, re.S).group(1)
    assert ("Each square pays:" if language == "en" else "Chaque case rapporte :") in (
        html.unescape(legend)
    )
    items = re.findall(
        r'<li data-band="(\w+)" data-pattern="(\w+)">.*?fill="url\(#nq-(\w+)\) #.*?'
        r"<strong>(\d+)</strong> <span>(.*?)</span>",
        legend,
        re.S,
    )
    assert [(name, pays) for *_swatch, pays, name in items] == shown
    assert all(
        nq_drawing.BAND_PATTERNS[band] == pattern and drawn == band
        for band, pattern, drawn, _pays, _name in items
    )


def test_the_projector_shows_the_legend_too(start, teacher_client):
    _session, table = start(options={"preset": "classic"})
    page = teacher_client.get(reverse("games:table_projector", args=[table.pk])).content.decode()
    assert page.count("<li data-band=") == 7
    assert '<pattern id="nq-red" data-pattern="zigzag"' in page


# --------------------------------------------------------------- NMBR 9


def stack_svg(tiles: list[Tile], *, mini: bool) -> str:
    picture = nmbr9_drawing.stack_picture(tiles, 20, crop=mini)
    return render_to_string("games/nmbr9/_stack.html", {"stack": picture, "mini": mini})


# An 8 over two 0s, a 1 over the 8 and a 0: levels 0, 1 and 2 (the rules need not hold here).
TILES = [
    Tile(0, 0, 2, 2, 0), Tile(0, 0, 5, 2, 0),
    Tile(8, 1, 3, 3, 1),
    Tile(1, 0, 4, 3, 2),
    Tile(9, 0, 6, 6, 3),
]


def tiles_of(svg: str) -> dict[int, str]:
    return {
        int(level): body
        for level, body in re.findall(r'<g class="tile lv(\d+)"[^>]*>(.*?)</g>', svg, re.S)
    }


@pytest.mark.parametrize("mini", [False, True])
def test_levels_next_to_each_other_never_share_a_hatching(mini):
    drawn = tiles_of(stack_svg(TILES, mini=mini))
    hatch = {level: re.search(r'class="hatch" d="([^"]+)"', body) for level, body in drawn.items()}
    assert hatch[0] is None and hatch[1] is None  # the table and level 1: plain
    assert hatch[2] is not None and hatch[3] is not None
    kinds = [nmbr9_drawing.level_hatch(level) for level in range(8)]
    assert all(kinds[n] != kinds[n + 1] for n in range(1, 7))


def test_every_tile_above_the_table_shows_its_level_number_large_enough():
    drawn = tiles_of(stack_svg(TILES, mini=False))
    for level, body in drawn.items():
        badge = re.search(r'class="level-badge"[^>]*font-size="([\d.]+)"[^>]*>(\d+)</text>', body)
        if level == 0:
            assert badge is None
            continue
        assert badge and int(badge.group(2)) == level
        # A cell is 32 px on a 768 px tablet (20 cells across 650 px): 14 px or more.
        assert float(badge.group(1)) * 650 / 20 >= 14


def test_the_level_legend_hatches_its_swatches_as_the_tiles():
    levels = nmbr9_drawing.stack_picture(TILES, 20)["levels"]
    assert [level["hatch"] for level in levels] == ["", "", "slant", "cross"]


# --------------------------------------------------------------- NUM-X


def shape_size(svg: str) -> float:
    """The smaller side, in the card's units, of the corner shape as drawn."""
    shape = re.search(r'<g class="xc-shape"[^>]*scale\(([\d.]+)\)">(.*?)</g>', svg, re.S)
    scale, body = float(shape.group(1)), shape.group(2)
    if m := re.search(r'<rect [^>]*width="([\d.]+)" height="([\d.]+)"', body):
        side = min(float(m.group(1)), float(m.group(2)))
    elif m := re.search(r'points="([^"]+)"', body):
        points = [tuple(map(float, p.split(","))) for p in m.group(1).split()]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        side = min(max(xs) - min(xs), max(ys) - min(ys))
    else:
        side = 2 * max(float(r) for r in re.findall(r' r="([\d.]+)"', body))
    return side * scale


@pytest.mark.parametrize("colour", sorted(numx_drawing.COLOURS))
def test_a_numx_colours_shape_reads_on_a_card_in_the_hand(colour):
    face = numx_drawing.face({"kind": "number", "value": 7, "colour": colour, "id": "x"})
    svg = render_to_string("games/numx/_card.html", {"c": face, "w": 64})
    assert svg.count('class="xc-shape"') == 2
    # The card is drawn 80 units wide, shown 64 px wide in the hand.
    assert shape_size(svg) * 64 / 80 >= 14, colour


# --------------------------------------------------------------- players' tokens


def test_the_projectors_players_carry_their_token_numbers(start, teacher_client):
    _session, table = start(players=2)
    page = teacher_client.get(reverse("games:table_projector", args=[table.pk])).content.decode()
    dots = re.findall(r'<span class="dot-token"[^>]*>(\d*)</span>', page)
    assert dots == ["1", "2"]


def test_the_live_views_players_carry_their_token_numbers(start, teacher_client):
    session, _table = start(players=2)
    page = teacher_client.get(reverse("games:session_live", args=[session.pk])).content.decode()
    dots = re.findall(r'<span class="dot-token"[^>]*>(\d*)</span>', page)
    assert dots == ["1", "2"]


# --------------------------------------------------------------- the pupil report


@pytest.mark.usefixtures("eager_tasks")
def test_a_charts_key_draws_each_series_with_its_line_and_mark(played, teacher_client, pupils):  # noqa: F811
    page = teacher_client.get(reverse("reports:pupil_report", args=[pupils[0].pk])).content.decode()
    charts = re.findall(r'<figure class="card chart">(.*?)</figure>', page, re.S)
    assert charts
    for chart in charts:
        key = re.search(r'<span class="chart-key">(.*?)</span></figcaption>', chart, re.S).group(1)
        assert re.search(r'<svg class="key-accuracy".*?class="line-accuracy".*?<circle [^>]*'
                         r'class="dot-accuracy"', key, re.S)
        if 'class="line-estimate"' in chart:
            assert re.search(r'<svg class="key-estimate".*?class="line-estimate".*?<rect [^>]*'
                             r'class="dot-estimate"', key, re.S)
            assert '<svg class="key-threshold"' in key
    # The lines differ by their dashes, not only by their colours.
    css = (Path(__file__).resolve().parents[2] / "static" / "css" / "numbo.css").read_text()
    dashes = {
        name: re.search(rf"\.chart \.{name} \{{[^}}]*\}}", css).group(0).count("dasharray")
        for name in ("line-accuracy", "line-estimate", "threshold")
    }
    assert dashes == {"line-accuracy": 0, "line-estimate": 1, "threshold": 1}
