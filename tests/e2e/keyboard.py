"""The keyboard alone: what has the focus, and Tab until a control has it."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

# The focused element as a keyboard user meets it: its name (label, aria-label
# or text), where it is, what it is.
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const label = el.labels && el.labels.length ? el.labels[0].textContent : "";
  const name = (el.getAttribute("aria-label") || label || el.textContent || el.value || "")
    .replace(/\\s+/g, " ").trim();
  return {tag: el.tagName.toLowerCase(), name, type: el.type || "",
          value: el.value === undefined ? "" : String(el.value),
          role: el.getAttribute("role") || "", testid: el.dataset.testid || "",
          square: el.dataset.square || "", card: el.dataset.card || "",
          table: !!el.closest("#table"), live: !!el.closest("#live, #live-grid")};
}"""


def focused(page: Page) -> dict | None:
    """What has the focus, once a page the last key opened has loaded."""
    for _ in range(3):
        try:
            return page.evaluate(FOCUSED)
        except PlaywrightError as error:  # the key led to another page
            if "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()
    return page.evaluate(FOCUSED)


def press(page: Page, *keys: str) -> dict | None:
    """Press each key in turn; what has the focus afterwards."""
    for key in keys:
        page.keyboard.press(key)
    return focused(page)


def tab_until(page: Page, wanted: Callable[[dict], bool], most: int, back: bool = False) -> int:
    """Press Tab (Shift+Tab with ``back``) until the focused control is
    ``wanted``; how many presses it took. Fails after ``most``: the path is
    too long."""
    seen = []
    for count in range(1, most + 1):
        now = press(page, "Shift+Tab" if back else "Tab")
        seen.append(now and now["name"][:30])
        if now and wanted(now):
            return count
    raise AssertionError(f"not reached in {most} presses: {seen}")


def tab_to(page: Page, name: str | re.Pattern, most: int, back: bool = False) -> int:
    """``tab_until`` the control named ``name`` (the whole name, or a pattern
    searched in it)."""
    pattern = name if isinstance(name, re.Pattern) else re.compile(f"^{re.escape(name)}$")
    return tab_until(page, lambda now: bool(pattern.search(now["name"])), most, back)


def follow(page: Page, key: str = "Enter") -> dict | None:
    """Press a key that opens another page (a link, a form sent); what has the
    focus once it has loaded (None: the top of the page)."""
    with page.expect_navigation():
        page.keyboard.press(key)
    page.wait_for_load_state()
    return focused(page)
