"""What the load benchmark's pupils tap, read from the page their tablet shows.

One "mind" per game, as bench_load.py's simulated tablets use them: given the
HTML of the pupil's table (the answer to their last move or poll), the next
tap as the form fields a browser would post, or None when it is not their
turn. They play as pupils do: Number Quest's whole calculation step by step,
the token placed and the new balance typed; the track's sum, the square
reached and the square it sends to; NMBR 9's tile put where it fits and the
levels counted. Now and then they get a sum wrong, as children do.

The engine (pure Python) does their arithmetic: the search for a calculation
that makes a free square, the pawn's move along the track.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from html import unescape

from engine.arithmetic import explain, reachable_frozen
from engine.ultimes import move_pawn

MISTAKES = 0.05  # how often a pupil types a wrong result

RE_ROOT = re.compile(r'<div id="table"[^>]*>')
RE_POLL = re.compile(r'<div id="table"[^>]*? hx-get="([^"]+)"')
RE_TRIGGER = re.compile(r'<div id="table"[^>]*? hx-trigger="every (\d+)s( \[numboPollDue\(\)\])?')
RE_VERSION = re.compile(r'name="version" value="(\d+)"')
RE_MOVE_ID = re.compile(r'name="move_id" value="([0-9a-f]+)"')
RE_SEEN = re.compile(r'name="seen" value="([^"]*)"')


@dataclass
class Page:
    """What every game's page says about polling and the form fields."""

    html: str
    poll_url: str = ""
    poll_every: float = 2.0
    # The page polls at its own pace even while a push stream is live: a
    # computer player or a clock will move next.
    always_polls: bool = False
    # As static/js/push.js: the page is not redrawn for the other players' moves.
    hears_session_only: bool = False

    @classmethod
    def read(cls, body: bytes) -> Page:
        html = body.decode("utf-8", "replace")
        page = cls(html)
        found = RE_POLL.search(html)
        page.poll_url = unescape(found.group(1)) if found else ""
        root = RE_ROOT.search(html)
        page.hears_session_only = bool(root) and 'data-hears="session"' in root.group(0)
        trigger = RE_TRIGGER.search(html)
        if trigger:
            page.poll_every = float(trigger.group(1))
            page.always_polls = trigger.group(2) is None
        return page

    @property
    def stamp(self) -> str:
        return self.poll_url.rsplit("&v=", 1)[-1] if "&v=" in self.poll_url else ""

    def form(self) -> dict[str, str]:
        fields = {}
        for name, pattern in (("version", RE_VERSION), ("move_id", RE_MOVE_ID), ("seen", RE_SEEN)):
            found = pattern.search(self.html)
            if found:
                fields[name] = unescape(found.group(1))
        return fields


def _typed(value: int) -> str:
    return str(value + 1 if random.random() < MISTAKES else value)


# --------------------------------------------------------------------------- Number Quest

RE_TILE = re.compile(r'name="left" value="([^"]+)"')
RE_OP = re.compile(r'name="op" value="([^"]+)"')
RE_FREE = re.compile(r'<g class="sq((?: (?!dim\b)[a-z]+)*)" aria-label="(\d+)" role="img">')
RE_PLACE = re.compile(
    r"""hx-vals='\{"type": "place", "square": "(\d+)", """
    r""""version": "(\d+)", "move_id": "([0-9a-f]+)"\}'"""
)
RE_BANK = re.compile(r"You had (\d+) and you earn (\d+)")
RE_MADE = re.compile(r"You made (\d+)!")


@dataclass
class NumberQuestMind:
    plan: list = field(default_factory=list)  # the steps still to type

    think = (2.0, 5.0)

    def next_tap(self, page: Page) -> dict[str, str] | None:
        html = page.html
        if 'name="type" value="bank"' in html:
            found = RE_BANK.search(html)
            old, paid = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
            return {**page.form(), "type": "bank", "balance": _typed(old + paid)}
        found = RE_PLACE.search(html)
        if found:
            # Every free square is a button: the pupil looks for the one made.
            self.plan = []
            _first, version, tap = found.groups()
            made = RE_MADE.search(html)
            square = made.group(1) if made else _first
            return {"type": "place", "square": square, "version": version, "move_id": tap}
        if 'name="type" value="step"' not in html:
            self.plan = []
            return None
        tiles = RE_TILE.findall(html)
        if not self.plan:
            if '<ul class="steps">' in html:
                return {**page.form(), "type": "clear"}  # a calculation begun elsewhere
            self.plan = self._calculation(html, tiles)
            if not self.plan:
                return {**page.form(), "type": "cant"}
        step = self.plan.pop(0)
        left = next((t for t in tiles if t.split("|")[0] == str(step.left)), None)
        right = next(
            (t for t in tiles if t.split("|")[0] == str(step.right) and t != left), None
        )
        if left is None or right is None:
            self.plan = []
            return {**page.form(), "type": "clear"}
        return {
            **page.form(), "type": "step", "left": left, "op": step.op, "right": right,
            "result": _typed(int(step.result)),
        }

    @staticmethod
    def _calculation(html: str, tiles: list[str]) -> list:
        numbers = [int(t.split("|")[0]) for t in tiles]
        operations = "".join(RE_OP.findall(html)) or "+"
        free = {int(square) for _classes, square in RE_FREE.findall(html)}
        made = sorted(reachable_frozen(numbers, operations, False) & free)
        if not made:
            return []
        calculation = explain(numbers, random.choice(made), operations, False)
        return list(calculation.steps) if calculation else []


# --------------------------------------------------------------------------- the track

RE_PHASE = re.compile(r'data-phase="(\w+)"')
RE_DICE = re.compile(r'data-dice="([\d,]+)"')
RE_SUM_LINE = re.compile(r'<span class="pos-square big">(\d+)</span> \+ (\d+) = \?')
RE_TRACK_TAP = re.compile(
    r"""hx-vals='\{"type": "(reach|send)", "version": "(\d+)", "move_id": "([0-9a-f]+)"\}'"""
)
RE_STAY = re.compile(r'name="type" value="send"><input type="hidden" name="square" value="(\d+)"')


@dataclass
class TrackMind:
    pawn: object = None  # the move worked out at "reach", for "send"

    think = (2.0, 5.0)

    def next_tap(self, page: Page) -> dict[str, str] | None:
        html = page.html
        if 'name="type" value="dice"' in html:
            return {**page.form(), "type": "dice", "count": random.choice("12")}
        if 'name="type" value="sum"' in html:
            found = RE_DICE.search(html)
            dice = [int(d) for d in found.group(1).split(",")] if found else [0]
            return {**page.form(), "type": "sum", "value": _typed(sum(dice))}
        tap = RE_TRACK_TAP.search(html)
        if tap is None:
            return None
        kind, version, tap_id = tap.groups()
        fields = {"type": kind, "version": version, "move_id": tap_id}
        if kind == "reach":
            found = RE_SUM_LINE.search(html)
            if not found:
                return None
            self.pawn = move_pawn(int(found.group(1)), int(found.group(2)))
            return {**fields, "square": _typed(self.pawn.reached)}
        stay = RE_STAY.search(html)
        reached = int(stay.group(1)) if stay else None
        end = self.pawn.end if self.pawn and self.pawn.reached == reached else reached
        return {**fields, "square": str(end if end is not None else 0)}


# --------------------------------------------------------------------------- NMBR 9

RE_PLACE_DATA = re.compile(r'<script id="n9-place-data" type="application/json">(.*?)</script>')
RE_LEVEL = re.compile(r'name="level" value="(\d+)"')
RE_LEVEL_QUESTION = re.compile(r'data-testid="count-question">(\d+) × (\d+) = \?')
RE_TOTAL_QUESTION = re.compile(r'data-testid="count-question">([\d +]+) = \?')


@dataclass
class Nmbr9Mind:
    think = (5.0, 12.0)  # turning and sliding a tile takes a while

    def next_tap(self, page: Page) -> dict[str, str] | None:
        html = page.html
        found = RE_PLACE_DATA.search(html)
        if found:
            legal = json.loads(found.group(1))["legal"]
            if not legal:
                return None
            rotation, x, y, level = random.choice(legal)
            return {
                **page.form(), "type": "place", "rotation": str(rotation), "x": str(x),
                "y": str(y), "level": str(level),
            }
        if 'name="type" value="level_score"' in html:
            level = RE_LEVEL.search(html)
            question = RE_LEVEL_QUESTION.search(html)
            if not (level and question):
                return None
            value = int(question.group(1)) * int(question.group(2))
            return {
                **page.form(), "type": "level_score", "level": level.group(1),
                "value": _typed(value),
            }
        if 'name="type" value="total"' in html:
            question = RE_TOTAL_QUESTION.search(html)
            if not question:
                return None
            total = sum(int(part) for part in question.group(1).split("+"))
            return {**page.form(), "type": "total", "value": _typed(total)}
        return None


MINDS = {"numberquest": NumberQuestMind, "ultimes": TrackMind, "nmbr9": Nmbr9Mind}


def mind_for(game: str):
    return MINDS[game]()
