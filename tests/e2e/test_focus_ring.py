"""The keyboard's focus ring is seen on every background it meets: a dark ring
between yellow ones, 3:1 or more against what lies around it (WCAG 1.4.11).
A yellow ring alone was 1.96:1 on the page's paper."""

import pytest

from games import services

from .helpers import sign_in_pupil, sign_in_teacher

pytestmark = pytest.mark.django_db(transaction=True)

# For the element focused now: its ring's colours and the background it sits on
# (the nearest ancestor's that is not transparent).
RING = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  if (style.outlineStyle === "none") return {name: el.outerHTML.slice(0, 60), none: true};
  const rgb = (text) => (text.match(/rgba?\\(([^)]+)\\)/) || [null, ""])[1]
    .split(",").map(Number);
  let bg = null;
  for (let up = el.parentElement; up; up = up.parentElement) {
    const c = rgb(getComputedStyle(up).backgroundColor);
    if (c.length >= 3 && (c.length === 3 || c[3] > 0)) { bg = c.slice(0, 3); break; }
  }
  return {name: el.outerHTML.slice(0, 60), ring: rgb(style.outlineColor).slice(0, 3),
          halo: rgb(style.boxShadow).slice(0, 3), bg: bg || [255, 255, 255]};
}"""


def luminance(rgb) -> float:
    def channel(value):
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def rings_seen(page, presses: int = 40) -> list[str]:
    """Tab through the page; each focused element whose ring is too faint."""
    faint = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        seen = page.evaluate(RING)
        if seen is None or seen.get("none"):
            continue
        ring, halo, bg = seen["ring"], seen["halo"], seen["bg"]
        if len(halo) < 3 or contrast(ring, halo) < 3 or max(
            contrast(ring, bg), contrast(halo, bg)
        ) < 3:
            faint.append(f"{seen['name']}: ring {ring}, halo {halo} on {bg}")
    return faint


def test_the_focus_ring_shows_on_the_home_page_and_its_blue_bar(live_server, page):
    page.goto(live_server.url + "/")
    assert rings_seen(page, 12) == []


def test_the_focus_ring_shows_on_a_teachers_class_page(
    live_server, page, teacher, classroom, pupils
):
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/classes/{classroom.pk}/")
    assert rings_seen(page) == []


def test_the_focus_ring_shows_on_a_numx_hand(live_server, page, classroom, teacher, pupils):
    session = services.start_session(
        classroom, teacher, game="numx", options={}, pupils=pupils[:2], table_size=2,
        seating={pupils[0].pk: 1, pupils[1].pk: 1}, seed=3,
    )
    table = session.tables.get()
    sign_in_pupil(page, live_server.url, classroom.code, pupils[0])
    page.goto(live_server.url + f"/tables/{table.pk}/")
    assert rings_seen(page) == []
