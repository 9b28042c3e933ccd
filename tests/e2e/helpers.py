"""Shared moves of the browser tests: signing a pupil in, playing a step."""

from __future__ import annotations

import re
from dataclasses import replace

from playwright.sync_api import Page, expect

from engine.numberquest.board import chain_connects, neighbours
from games.pages import engine_of

# Each tablet notes, by version, when its table changed on screen and, for its
# own moves, when the server's answer came back.
WATCH = """() => {
    window.seen = {};
    window.answered = {};
    let answer = null;
    document.addEventListener("htmx:afterRequest", (event) => {
        if (event.detail.requestConfig.verb === "post") answer = Date.now();
    });
    document.addEventListener("htmx:afterSettle", () => {
        const table = document.getElementById("table");
        if (!table) return;
        window.seen[table.dataset.version] = Date.now();
        if (answer !== null) window.answered[table.dataset.version] = answer;
        answer = null;
    });
}"""


def small_targets(page: Page) -> list:
    """The links, buttons and tick-box labels on screen smaller than 44 px
    either way: [text, width, height] of each (the skip link shows only when
    focused, and is measured then)."""
    page.wait_for_load_state("load")
    return page.evaluate(
        """() => [...document.querySelectorAll(
                'a, button, summary, label:has(input[type=checkbox]), label:has(input[type=radio]),'
                + ' input[type=checkbox] + label')]
            .filter(e => !e.classList.contains("skip") && e.getClientRects().length)
            .map(e => [e.textContent.trim().slice(0, 40), e.getBoundingClientRect()])
            .filter(([text, r]) => r.width < 44 || r.height < 44)
            .map(([text, r]) => [text, Math.round(r.width), Math.round(r.height)])"""
    )


def sign_in_pupil(page: Page, base_url: str, code: str, pupil) -> None:
    page.goto(base_url + f"/join/{code}/")
    page.get_by_role("link", name=re.compile(re.escape(pupil.short_name))).click()
    for key in pupil.password_pictures:
        page.get_by_role("button", name=key, exact=True).click()
    expect(page.get_by_role("heading", name=f"Hello {pupil.first_name}!")).to_be_visible()


def sign_in_teacher(page: Page, base_url: str, teacher, password: str = "correct-horse-42") -> None:
    page.goto(base_url + "/accounts/login/")
    page.get_by_label("Email address").fill(teacher.email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def add_first_two(page: Page) -> None:
    """Tap the first number, +, the second number, type the sum on the pad, check;
    return once the table shows the next version."""
    version = int(page.locator("#table").get_attribute("data-version"))
    groups = page.locator("form.calc fieldset.tiles")
    first = groups.nth(0).locator("label.tile")
    second = groups.nth(2).locator("label.tile")
    a = int(first.nth(0).inner_text())
    b = int(second.nth(1).inner_text())
    first.nth(0).click()
    page.locator("fieldset.ops label.tile").first.click()
    second.nth(1).click()
    for digit in str(a + b):
        page.locator(f"form.calc .numpad [data-key='{digit}']").click()
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#table")).not_to_have_attribute("data-version", str(version))


def _path(start: int, end: int, allowed: set[int]) -> list[int]:
    previous = {start: None}
    queue = [start]
    for square in queue:
        for nxt in neighbours(square):
            if nxt in allowed and nxt not in previous:
                previous[nxt] = square
                queue.append(nxt)
    path, square = [], end
    while square is not None:
        path.append(square)
        square = previous[square]
    return path[::-1]


def nearly_finished(table) -> tuple[int, int]:
    """Cover a chain from 4 to 24 but for one square that the second player's
    roll makes, so the first player's turn does not end the game and the
    second's does. Returns (first player's number, second player's number)."""
    engine = engine_of("numberquest")
    state = engine.from_json(table.state)
    if state.current != 0:
        raise ValueError("the roll for who starts did not pick the first player")
    first = sum(state.dice)
    after = state
    for _ in range(len(state.dice) - 1):
        (a, _), (b, _) = after.available[0], after.available[1]
        after = engine.apply(
            after, 0, {"type": "step", "left": a, "op": "+", "right": b, "result": a + b}
        ).state
    after = engine.apply(after, 0, {"type": "place", "square": first}).state
    second = sum(after.dice)
    if second == first or 4 in (first, second) or 24 in (first, second):
        raise ValueError("this seed does not fit")
    board = set(range(4, 25)) - {first}
    chain = _path(4, second, board)[:-1] + _path(second, 24, board)
    covered = tuple(sorted((square, i % 2) for i, square in enumerate(chain) if square != second))
    squares = {square for square, _ in covered}
    if chain_connects(squares | {first}, 4, 24, 4, 24) or not chain_connects(
        squares | {first, second}, 4, 24, 4, 24
    ):
        raise ValueError("the first player's square would end the game")
    table.state = replace(state, covered=covered).to_json()
    table.save(update_fields=["state"])
    return first, second
