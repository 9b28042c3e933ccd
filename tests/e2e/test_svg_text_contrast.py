"""Every number and word drawn in SVG on the game pages reads on what it is
drawn on: 4.5:1 or more, 3:1 for large text (24 px, or 18.66 px bold), as
WCAG 1.4.3 asks. axe-core leaves SVG text 'to review'; this measures it in the
browser: the text's own colour, the shapes under it (the topmost first, down
to an opaque one, their opacity blended in) or the page behind the picture.

The pages are those of a class in the middle of its games (tests/e2e/world.py):
each game's tablet page under way and ended, the projector and the live view,
and the report with its chart."""

from __future__ import annotations

import pytest

from .world import build_world

pytestmark = pytest.mark.django_db(transaction=True)

# For each visible <text> of an <svg>: its size on screen, whether bold, and at
# three points along it the colour of the text and of what lies beneath
# (alpha-blended), or that something opaque covers it there.
MEASURE = r"""() => {
  const style = document.createElement("style");
  // Hit-testing finds every painted shape: pointer-events none hides some from it.
  style.textContent = "svg, svg * { pointer-events: visiblePainted !important; }";
  document.head.append(style);
  const parse = (text) => {
    const m = (text || "").match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const v = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  };
  const opacity = (el) => {
    let a = 1;
    for (let up = el; up && up.nodeType === 1; up = up.parentElement) {
      a *= Number(getComputedStyle(up).opacity);
    }
    return a;
  };
  const shapes = new Set(["rect", "circle", "ellipse", "polygon", "path", "line", "polyline"]);
  // The colour an element paints where it is hit: an SVG shape's fill, a box's background.
  const paint = (el) => {
    const s = getComputedStyle(el);
    if (el instanceof SVGElement && shapes.has(el.localName)) {
      if (s.fill.startsWith("url(")) return {unknown: el.outerHTML.slice(0, 80)};
      const c = parse(s.fill);
      if (!c) return null;
      return [c[0], c[1], c[2], c[3] * Number(s.fillOpacity) * opacity(el)];
    }
    if (el instanceof SVGElement && el.localName !== "svg") return null;
    const c = parse(s.backgroundColor);
    if (!c || s.backgroundImage !== "none") {
      return s.backgroundImage !== "none" ? {unknown: el.outerHTML.slice(0, 80)} : null;
    }
    return [c[0], c[1], c[2], c[3] * opacity(el)];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a));
  };
  const found = [];
  for (const text of document.querySelectorAll("svg text")) {
    const box = text.getBoundingClientRect();
    const s = getComputedStyle(text);
    const shown = box.width && box.height && s.visibility === "visible";
    if (!shown || !text.textContent.trim()) continue;
    const ctm = text.getScreenCTM();
    const px = parseFloat(s.fontSize) * (ctm ? Math.hypot(ctm.a, ctm.b) : 1);
    const fill = parse(s.fill);
    const alpha = fill && fill[3] * Number(s.fillOpacity) * opacity(text);
    const ink = fill && [fill[0], fill[1], fill[2], alpha];
    // A stroke painted first and 2 px wide or more rings the glyphs: the fill
    // is read on it, whatever lies further down (a pattern, another shape).
    const ring = parse(s.stroke);
    const haloed = ring && s.paintOrder.startsWith("stroke")
      && parseFloat(s.strokeWidth) * (ctm ? Math.hypot(ctm.a, ctm.b) : 1) >= 2;
    const halo = haloed
      && [ring[0], ring[1], ring[2], ring[3] * Number(s.strokeOpacity) * opacity(text)];
    const points = [];
    for (const f of [0.3, 0.5, 0.7]) {
      const x = box.left + box.width * f, y = box.top + box.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
        points.push({off: true});
        continue;
      }
      const stack = document.elementsFromPoint(x, y);
      const at = stack.indexOf(text);
      if (at < 0) { points.push({lost: true}); continue; }
      let covered = false;
      for (const el of stack.slice(0, at)) {
        const p = paint(el);
        if (p && !p.unknown && p[3] > 0.9) covered = true;
      }
      const layers = [];
      let unknown = null;
      for (const el of stack.slice(at + 1)) {
        const p = paint(el);
        if (!p) continue;
        if (p.unknown) { unknown = p.unknown; break; }
        if (p[3] <= 0) continue;
        layers.push(p);
        if (p[3] >= 1) break;
      }
      let under = [255, 255, 255];
      for (const layer of layers.reverse()) under = over(layer, under);
      if (halo && halo[3] >= 1) unknown = null;
      if (halo) under = over(halo, under);
      points.push({covered, unknown, under, ink: ink && over(ink, under)});
    }
    found.push({
      text: text.textContent.trim().slice(0, 20),
      where: (text.closest("[aria-label]") || text.closest("svg")).getAttribute("aria-label")
        || text.closest("svg").getAttribute("class") || "",
      px: Math.round(px * 10) / 10,
      bold: Number(s.fontWeight) >= 700,
      fill: s.fill,
      points,
    });
  }
  style.remove();
  return found;
}"""


def luminance(rgb) -> float:
    def channel(value):
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def faint_texts(page, url: str) -> tuple[list[str], int]:
    """The SVG texts of the page at ``url`` under their threshold, and how many were measured."""
    page.goto(url)
    page.wait_for_load_state("load")
    faint, measured = [], 0
    for text in page.evaluate(MEASURE):
        large = text["px"] >= 24 or (text["bold"] and text["px"] >= 18.66)
        needed = 3 if large else 4.5
        seen = [p for p in text["points"] if not p.get("off") and not p.get("covered")]
        unknown = [p["unknown"] for p in seen if p.get("unknown")]
        lost = [p for p in seen if p.get("lost")]
        if unknown or lost:
            faint.append(f"{url} '{text['text']}' in {text['where']!r}: "
                         f"beneath it cannot be read ({unknown or 'not hit'})")
            continue
        if not seen:
            continue  # hidden under a token, or scrolled out of the page
        measured += 1
        ratio = min(contrast(p["ink"], p["under"]) for p in seen)
        if ratio < needed:
            under = [[round(v) for v in p["under"]] for p in seen]
            faint.append(f"{url} '{text['text']}' in {text['where']!r}: {ratio:.2f}:1 < {needed}"
                         f" ({text['fill']} on {under}, {text['px']} px"
                         f"{' bold' if text['bold'] else ''})")
    return faint, measured


@pytest.fixture
def world(classroom, teacher, pupils):
    return build_world(classroom, teacher, pupils)


def signed_in(browser, browser_context_args, live_server, user, world) -> object:
    from tests.e2e.test_axe_every_page import cookies_of

    context = browser.new_context(
        **{**browser_context_args, "viewport": {"width": 768, "height": 4000}}
    )
    context.add_cookies(cookies_of(user, live_server.url, world.teacher, world.pupil))
    return context.new_page()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_svg_text_on_the_game_pages_reads_on_what_it_is_drawn_on(
    live_server, browser, browser_context_args, world, language
):
    pupil = signed_in(browser, browser_context_args, live_server, "pupil", world)
    teacher = signed_in(browser, browser_context_args, live_server, "teacher", world)
    for page in (pupil, teacher):
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
    base = live_server.url
    faint, measured = [], 0
    visits = [(pupil, f"/tables/{t.pk}/") for t in world.tables]
    visits += [(teacher, f"/tables/{t.pk}/projector/") for t in world.tables]
    visits += [(teacher, f"/sessions/{s.pk}/") for s in world.sessions]
    visits += [(teacher, f"/sessions/{world.sessions[-1].pk}/cards/"),
               (teacher, f"/pupils/{world.pupil.pk}/report/"),
               (teacher, f"/classes/{world.classroom.pk}/report/")]
    for page, url in visits:
        found, count = faint_texts(page, base + url)
        faint += found
        measured += count
    assert measured > 300, f"only {measured} SVG texts measured"
    assert faint == [], "\n".join(faint)


def test_the_measure_sees_faint_text_and_skips_what_a_token_hides(live_server, page):
    page.goto(live_server.url + "/healthz")
    page.set_content("""<body style="background:#fff"><svg width="500" height="100">
      <defs><pattern id="dots" width="8" height="8" patternUnits="userSpaceOnUse">
        <circle cx="4" cy="4" r="2" fill="#fff"/></pattern></defs>
      <rect width="100" height="100" fill="#3b6fd1"/><text x="30" y="50" fill="#1d2433"
        font-size="16" pointer-events="none">dark on blue</text>
      <text x="130" y="50" fill="#aaa" font-size="16">grey on white</text>
      <rect x="200" width="100" height="100" fill="#fff"/><text x="230" y="50" font-size="16"
        fill="#eee">hidden</text><circle cx="250" cy="45" r="40" fill="#c62828"/>
      <rect x="300" width="200" height="100" fill="url(#dots) #f6a04d"/>
      <text x="310" y="50" font-size="16" fill="#1d2433" stroke="#f6a04d"
        style="paint-order: stroke; stroke-width: 5px">ringed</text>
      <text x="400" y="50" font-size="16" fill="#1d2433">bare</text></svg></body>""")
    measured = {t["text"]: t for t in page.evaluate(MEASURE)}
    under = measured["dark on blue"]["points"][1]["under"]
    assert [round(v) for v in under] == [59, 111, 209]
    assert contrast(measured["grey on white"]["points"][1]["ink"], [255, 255, 255]) < 2.5
    assert all(p["covered"] for p in measured["hidden"]["points"])
    ringed = measured["ringed"]["points"][1]
    assert not ringed["unknown"] and [round(v) for v in ringed["under"]] == [246, 160, 77]
    assert measured["bare"]["points"][1]["unknown"]  # on a pattern: cannot be read, so it fails
