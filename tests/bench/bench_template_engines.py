"""Would Jinja2 halve a page's drawing? ``.venv/bin/python tests/bench/bench_template_engines.py``.

Issue 36 names a faster template engine for the hot partials as a candidate.
This times the partial where Django's engine spends the most of a move's CPU
per draw, NMBR 9's stack (``games/nmbr9/_stack.html``: a loop of SVG tiles,
no words but its picture's name), drawn by Django's engine and by a Jinja2
port of it (below, the same bytes asserted), on a stack of ten tiles, the
two alternated, seven rounds, the median and the best of each.

Jinja2 is not one of Numbo's dependencies: ``.venv/bin/pip install jinja2``
first (the bench says so and stops without it). Its escaping is not
Django's (``&#39;`` for ``&#x27;``): the port escapes through Django's
``conditional_escape`` in ``finalize``, as a byte-identical conversion must,
and also with Jinja2's own (what a conversion that changed bytes would pay).

Measured on 2026-12-01 (2 cores, a host loaded by other work; bench_requests.py's
bare view 0.34 ms of CPU that hour), two runs: Django 480-640 µs a draw, Jinja2
with its own escaping 262-273 µs (1.8-2.4x), with Django's escaping for every
value 573-574 µs (0.8-1.1x). With templates a quarter of a move's CPU and of a
page's (bench_requests.py --parts), the best of these saves 11-15 % of the web
processes' CPU: not the half issue 36 asks for, at the price of a second
template language for every game and of bytes that change (its escaping).
Named bench_* so pytest skips it.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STACK_JINJA = (
    '<svg class="stack {% if mini %}stack-mini{% else %}stack-board{% endif %}'
    '{% if interactive %} placing{% endif %}" viewBox="{{ stack.view_box }}" '
    'style="width:100%;height:auto;display:block" role="img" aria-label="{{ words }}" '
    'data-board="{{ stack.board }}">\n'
    '<rect x="{{ stack.x0 }}" y="{{ stack.y0 }}" width="{{ stack.width }}" '
    'height="{{ stack.height }}" fill="#fbf8f1" stroke="#c9c2b2" stroke-width=".06"/>\n'
    '<path d="{{ stack.grid }}" fill="none" stroke="#e4ddcc" stroke-width=".04"/>\n'
    '{% for t in stack.tiles %}{% if t.shadow and not t.faint %}<path d="{{ t.surface }}" '
    'transform="translate({{ t.shadow }} {{ t.shadow }})" fill="#2b1d12" fill-opacity=".32"/>'
    '{% endif %}<g class="tile lv{{ t.level }}"{% if t.faint %} opacity=".22"{% endif %}>'
    '<path d="{{ t.surface }}" fill="{{ t.fill }}" stroke="{{ t.fill }}" stroke-width=".03"/>'
    '{% if t.hatch %}<path class="hatch" d="{{ t.hatch }}" fill="none" stroke="{{ t.ink }}" '
    'stroke-opacity=".34" stroke-width=".06"/>{% endif %}<path d="{{ t.outline }}" fill="none" '
    'stroke="{{ t.edge }}" stroke-width=".09" stroke-linecap="square"/><text x="{{ t.label_x }}" '
    'y="{{ t.label_y }}" dy=".36em" text-anchor="middle" font-family="Andika, system-ui, '
    'sans-serif" font-weight="700" font-size=".9" fill="{{ t.ink }}">{{ t.digit }}</text>'
    '{% if t.level and not mini %}<circle cx="{{ t.badge_x }}" cy="{{ t.badge_y }}" r=".36" '
    'fill="#fff" stroke="{{ t.edge }}" stroke-width=".05"/><text class="level-badge" '
    'x="{{ t.badge_x }}" y="{{ t.badge_y }}" dy=".36em" text-anchor="middle" '
    'font-family="Andika, system-ui, sans-serif" font-weight="700" font-size=".54" '
    'fill="#1d2433">{{ t.level }}</text>{% endif %}</g>\n'
    '{% endfor %}{% if interactive %}<g class="preview" data-preview pointer-events="none">'
    '</g>{% endif %}\n</svg>'
)


def main() -> None:
    try:
        import jinja2
    except ImportError:
        raise SystemExit("Jinja2 is not installed: .venv/bin/pip install jinja2") from None
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.template import engines
    from django.utils.html import conditional_escape
    from markupsafe import Markup

    from engine.nmbr9 import Tile
    from games.pages.nmbr9 import drawing

    tiles = [
        Tile(0, 0, 2, 2, 0), Tile(0, 0, 5, 2, 0), Tile(8, 1, 3, 3, 1), Tile(1, 0, 4, 3, 2),
        Tile(9, 0, 6, 6, 3), Tile(2, 0, 8, 2, 0), Tile(3, 0, 8, 6, 0), Tile(4, 1, 7, 4, 1),
        Tile(5, 0, 1, 7, 0), Tile(6, 0, 10, 8, 0),
    ]
    context = {"stack": drawing.stack_picture(tiles, 20), "mini": False, "interactive": False,
               "words": "A stack of 10 tiles"}
    # Django's template as the game has it, its picture's name given as a value
    # (the include draws words, which the port would draw alike).
    source = (ROOT / "games/pages/nmbr9/templates/games/nmbr9/_stack.html").read_text()
    source = source.replace("{% include 'games/nmbr9/_stack_words.html' %}", "{{ words }}")
    django_stack = engines["django"].from_string(source.strip())

    def django_escaped(value):
        return Markup(conditional_escape(value))

    ports = {
        "Jinja2, Django's escaping": jinja2.Environment(autoescape=False, finalize=django_escaped),
        "Jinja2, its own escaping": jinja2.Environment(autoescape=True),
    }
    drawers = {"Django": lambda: django_stack.render(context)}
    expected = drawers["Django"]()
    for name, environment in ports.items():
        template = environment.from_string(STACK_JINJA)
        drawn = template.render(context)
        assert drawn == expected, f"{name} draws other bytes than Django"
        drawers[name] = lambda template=template: template.render(context)
    times: dict[str, list[float]] = {name: [] for name in drawers}
    for _round in range(7):
        for name, draw in drawers.items():
            started = time.thread_time()
            for _ in range(200):
                draw()
            times[name].append((time.thread_time() - started) / 200 * 1e6)
    django_median = statistics.median(times["Django"])
    print(f"NMBR 9's stack of ten tiles, {len(expected)} bytes; CPU µs a draw (7 rounds of 200)")
    for name, spent in times.items():
        median = statistics.median(spent)
        print(f"  {name:28} median {median:6.0f}  best {min(spent):6.0f}"
              f"  Django/this {django_median / median:4.1f}x")


if __name__ == "__main__":
    main()
