"""What the load benchmark's pupils tap, read from the page their tablet shows.

One "mind" per game, as bench_load.py's simulated tablets use them: given the
HTML of the pupil's table (the answer to their last move or poll), the next
tap as the form fields a browser would post, or None when it is not their
turn. They play as pupils do: Number Quest's whole calculation step by step,
the token placed and the new balance typed; the track's sum, the square
reached and the square it sends to; NMBR 9's tile put where it fits and the
levels counted; Nambarz's card that matches the target, or a calculation of
their cards typed step by step, or a draw; NUM-X's secret first card, tricks
that climb, the out-of-turn Rainbow whenever the page offers it, an action
card now and then, the Malus's choices, the hand-out and the count. Now and
then they get a sum wrong, as children do.

They read only what their page shows (their own hand, the table, what the
page's script reads from it); the engine (pure Python) does their
arithmetic: the search for a calculation that makes a free square or the
target, the pawn's move along the track, the tricks a hand can lay, what a
group of score cards is worth.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from html import unescape
from itertools import combinations

from engine.arithmetic import explain, reachable_frozen
from engine.nambarz.calc import reaches, run_steps, solve
from engine.numx.scoring import ALL_RULES, score
from engine.numx.tricks import Trick, legal_tricks
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


RE_BUTTON = re.compile(r"<button\b[^>]*>")
RE_ATTRIBUTE = re.compile(r'\s([a-z][\w-]*)(?:="([^"]*)")?')


def _attributes(tag: str) -> dict[str, str]:
    """A tag's attributes, as a script reads them ('' for a bare one)."""
    return {name: unescape(value or "") for name, value in RE_ATTRIBUTE.findall(tag)}


def _buttons(html: str, css_class: str) -> list[dict[str, str]]:
    """The attributes of every button of this class."""
    found = []
    for tag in RE_BUTTON.findall(html):
        attributes = _attributes(tag)
        if css_class in attributes.get("class", "").split():
            found.append(attributes)
    return found


def _forms(html: str, css_class: str) -> list[str]:
    """Every form of this class, from its opening tag to its end."""
    found = []
    for start in re.finditer(rf'<form class="{css_class}"', html):
        end = html.find("</form>", start.start())
        found.append(html[start.start():end if end >= 0 else len(html)])
    return found


def _hidden(form: str) -> dict[str, str]:
    """A form's own hidden fields by name (the table's version, the tap's id and
    the scene it was seen in are ``Page.form``'s)."""
    return {
        name: unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
        if name not in ("csrfmiddlewaretoken", "version", "move_id", "seen")
    }


def _checked(form: str, name: str) -> str | None:
    """The value of the radio button of this name that the page checked."""
    radio = rf'<input type="radio" name="{re.escape(name)}" value="([^"]*)" checked'
    found = re.search(radio, form)
    return unescape(found.group(1)) if found else None


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
RE_FREE_LIST = re.compile(r'data-free="([\d,]*)"')


@dataclass
class NumberQuestMind:
    plan: list = field(default_factory=list)  # the steps still to type

    think = (2.0, 5.0)

    def next_tap(self, page: Page) -> dict[str, str] | None:
        html = page.html
        self.think = NumberQuestMind.think
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
        if "data-steps-on-tablet" in html:
            return self._on_tablet(page, tiles)
        step = self.plan.pop(0)
        left = next((t for t in tiles if t.split("|")[0] == str(step.left)), None)
        right = next(
            (t for t in tiles if t.split("|")[0] == str(step.right) and t != left), None
        )
        if left is None or right is None:
            # The plan no longer fits the tiles (a wrong step given a second
            # try keeps the numbers as they were): start again where the page
            # offers it, else plan anew from the tiles it shows.
            self.plan = []
            if 'name="type" value="clear"' in html:
                return {**page.form(), "type": "clear"}
            return self.next_tap(page)
        return {
            **page.form(), "type": "step", "left": left, "op": step.op, "right": right,
            "result": _typed(int(step.result)),
        }

    def _on_tablet(self, page: Page, tiles: list[str]) -> dict:
        """As static/js/numberquest.js: the steps typed one after the other on
        the tablet, sent with the last one or the first wrong one, or, when
        the last makes a number whose square is free, with the tap on that
        square; the pupil thinks over each step and the tap as long as when
        each was a tap of its own."""
        fields: dict[str, list[str]] = {"left": [], "op": [], "right": [], "result": [], "ms": []}
        pool = list(tiles)
        for index, step in enumerate(self.plan):
            left = next((t for t in pool if t.split("|")[0] == str(step.left)), None)
            if left is None:
                break
            pool.remove(left)
            right = next((t for t in pool if t.split("|")[0] == str(step.right)), None)
            if right is None:
                break
            pool.remove(right)
            typed = _typed(int(step.result))
            pool.append(f"{typed}|local:{index}")
            for name, value in (("left", left), ("op", step.op), ("right", right),
                                ("result", typed), ("ms", random.randint(2000, 5000))):
                fields[name].append(str(value))
            if typed != str(step.result):
                break
        made = len(pool) == 1 and len(fields["op"]) == len(self.plan)
        self.plan = []
        free = RE_FREE_LIST.search(page.html)
        square = {}
        if made and free and pool[0].split("|")[0] in free.group(1).split(","):
            square = {"square": pool[0].split("|")[0]}
        count = max(len(fields["op"]), 1) + len(square)
        self.think = (2.0 * count, 5.0 * count)
        if not fields["op"]:
            return {**page.form(), "type": "cant"}
        return {**page.form(), "type": "steps", **fields, **square}

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
            square = _typed(self.pawn.reached)
            if int(square) > 99:  # a slip of the finger stays on the track: no square 100
                square = str(self.pawn.reached - 1)
            return {**fields, "square": square}
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
        if 'name="type" value="set_aside"' in html:
            return {**page.form(), "type": "set_aside"}  # the tile fits nowhere on the board
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


# --------------------------------------------------------------------------- Nambarz

RE_NZ_PLAY = re.compile(r'<form class="nz-play"[^>]*>')
RE_NZ_NO_CARD = re.compile(r'data-testid="drawn"[^>]*>There was no card left')
NZ_SEARCH = 4  # the most cards a pupil tries in one calculation
NZ_BUDGET = 80  # sets of cards looked at before a pupil gives up looking


@dataclass
class NambarzMind:
    """Lays a card that matches the target, or the cards of a calculation
    that makes it (typed step by step, the last card laid the new target),
    plays a joker now and then, draws when nothing goes, and plays or passes
    the drawn card. Reads the hand's buttons and what the play form tells
    its script (the target, a joker's binding, what the turn allows)."""

    think = (2.0, 6.0)  # set per tap: a calculation takes longer than a match

    def next_tap(self, page: Page) -> dict[str, str] | None:
        html = page.html
        found = RE_NZ_PLAY.search(html)
        if found is None:  # not this pupil's turn, or the game is over
            return None
        play = _attributes(found.group(0))
        hand = [c for c in _buttons(html, "ncard") if "disabled" not in c]
        pending = play.get("data-pending", "")
        bound = [f for f in play.get("data-bound", "").split(",") if f]
        target = play.get("data-target", "")
        table = {
            "number": int(target) if target.isdigit() else None,
            "animal": play.get("data-target-animal", ""),
            "bound": bound,
            "pending": pending,
            "ops": play.get("data-ops") or "+-*/",
            "brackets": play.get("data-brackets") == "1",
        }
        fields = page.form()
        alone = [c for c in hand if _nz_lays_alone(c, table)]
        jokers = [c for c in hand if c.get("data-family") == "joker"]
        self.think = (2.0, 5.0)
        if pending == "drawn":
            drawn = next((c for c in hand if "drawn" in c.get("class", "").split()), None)
            if drawn is None or RE_NZ_NO_CARD.search(html):
                return {**fields, "type": "pass"}
            if drawn in alone:
                return _nz_card(fields, "match", drawn)
            if drawn in jokers and random.random() < 0.5:
                return _nz_card(fields, "joker", drawn)
            calculation = _nz_calculation(hand, table, must=drawn)
            if calculation:
                self.think = (5.0, 12.0)
                return {**fields, **calculation}
            return {**fields, "type": "pass"}
        if pending == "follow":  # one more card of the family the joker allows, or pass
            if alone and random.random() < 0.8:
                return _nz_card(fields, "match", random.choice(alone))
            return {**fields, "type": "pass"}
        if not bound:
            calculation = _nz_calculation(hand, table)
            if calculation and (not alone or random.random() < 0.7):
                self.think = (5.0, 12.0)
                return {**fields, **calculation}
        if alone:
            return _nz_card(fields, "match", random.choice(alone))
        if jokers and random.random() < 0.6:
            return _nz_card(fields, "joker", random.choice(jokers))
        return {**fields, "type": "draw"}


def _nz_lays_alone(card: dict[str, str], table: dict) -> bool:
    """As static/js/nambarz.js: this card goes on the target by itself."""
    family = card.get("data-family")
    if family == "joker":
        return False
    if table["bound"]:
        return family in table["bound"]
    if table["pending"] == "follow":
        return False
    return card.get("data-number") == str(table["number"]) or (
        card.get("data-animal", "") != "" and card.get("data-animal") == table["animal"]
    )


def _nz_card(fields: dict[str, str], kind: str, card: dict[str, str]) -> dict[str, str]:
    """One card laid (or a joker played), as the play form posts it."""
    return {
        **fields, "type": kind, "card": card["data-card"], "cards": card["data-card"],
        "ops": "", "results": "", "steps": "",
    }


def _nz_calculation(hand: list[dict[str, str]], table: dict,
                    must: dict[str, str] | None = None) -> dict[str, str] | None:
    """A calculation of cards of one family that makes the target, none of
    them matching it and no fewer of them making it already (RULES 3.4 b),
    with ``must`` in it: the form's fields, each step's result typed."""
    target = table["number"]
    if target is None or table["bound"]:
        return None
    found = []  # (family, numbers), fewest cards first
    checks = 0
    for family in ("symbol", "drawing"):
        if must is not None and must.get("data-family") != family:
            continue
        numbers = sorted(
            int(c["data-number"]) for c in hand
            if c.get("data-family") == family and c.get("data-number", "").isdigit()
            and not _nz_lays_alone(c, {**table, "bound": [], "pending": ""})
        )
        reaching: list[Counter] = []
        parts = (
            part
            for size in range(2, min(NZ_SEARCH, len(numbers)) + 1)
            for part in sorted(set(combinations(numbers, size)))
        )
        for part in parts:
            counted = Counter(part)
            if any(all(counted[n] >= k for n, k in small.items()) for small in reaching):
                continue  # a part of it makes the target: not the simplest
            checks += 1
            if checks > NZ_BUDGET:
                break
            if reaches(part, target, table["brackets"], table["ops"]):
                reaching.append(counted)
                if must is None or int(must["data-number"]) in part:
                    found.append((family, part))
    if not found:
        return None
    # The fewest cards mostly; a longer calculation (a bonus) now and then.
    shortest = [f for f in found if len(f[1]) == len(found[0][1])]
    family, part = random.choice(shortest if random.random() < 0.8 else found)
    order, ops, steps = solve(part, target, table["brackets"], table["ops"])
    pools: dict[int, list[str]] = {}
    for card in hand:
        if card.get("data-family") == family and card.get("data-number", "").isdigit():
            pools.setdefault(int(card["data-number"]), []).append(card["data-card"])
    if must is not None:
        pool = pools[int(must["data-number"])]
        pool.remove(must["data-card"])
        pool.insert(0, must["data-card"])
    ids = [pools[number].pop(0) for number in order]
    results = [_typed(int(step.result)) for step in run_steps(order, ops, steps)]
    return {
        "type": "calculate", "card": ids[0], "cards": ",".join(ids), "ops": ",".join(ops),
        "results": ",".join(results),
        "steps": ",".join(f"{a}-{b}" for a, b in steps) if table["brackets"] else "",
    }


# --------------------------------------------------------------------------- NUM-X

RE_NX_TASK = re.compile(r'<div id="table"[^>]*? data-task="([a-z_]+)"')
RE_NX_TOP = re.compile(r'data-testid="top-trick" data-size="(\d+)">(.*?)</div>', re.S)
RE_NX_NAME = re.compile(r'<svg class="xc-pic"[^>]*? aria-label="([^"]*)"')
RE_NX_NUMBER = re.compile(r"(blue|red|yellow|green|Rainbow|Shadow) (\d+)$")
RE_NX_HIGHER = re.compile(r"Play higher than (\d+) with")
RE_NX_TOTAL = re.compile(r'data-testid="count-question">Now the total: ([\d +]+) = \?')
RE_NX_GROUP = re.compile(r'<div class="nx-group">(.*?)</div>', re.S)
NX_ALONE = "The cards left alone add up."  # the Family mode's count (rules 2 and 4)
NX_FAMILY_RULES = (2, 4)
NX_SPECIAL = {"Joker": "joker", "Infinity": "infini", "Num-X": "numx"}


@dataclass
class NumxMind:
    """Chooses a first score card in secret, lays tricks that climb (the
    lowest it can, mostly), adds its Rainbow out of turn whenever the page
    offers it, plays an action card now and then, draws or passes otherwise;
    answers a Malus, hands out the tour's cards within the limits, and counts
    its score cards group by group. Reads the hand's buttons, the top trick,
    the forms the page shows and the cards of the group to count."""

    think = (2.0, 5.0)  # set per tap: a Rainbow is spotted fast, a hand-out takes a while

    def next_tap(self, page: Page) -> dict[str, str] | None:
        html = page.html
        fields = page.form()
        rainbow = _forms(html, "nx-rainbow")
        if rainbow:
            # The move the push updates exist for: quick, before the trick is covered.
            self.think = (1.0, 3.0)
            return {**fields, **_hidden(rainbow[0])}
        found = RE_NX_TASK.search(html)
        task = found.group(1) if found else ""
        self.think = (2.0, 5.0)
        if task == "choose":
            hand = [b["value"] for b in _buttons(html, "xcard") if b.get("name") == "card"]
            if not hand:
                return None
            self.think = (3.0, 8.0)
            return {**fields, "type": "choose", "card": random.choice(hand)}
        if task == "refill":
            return {**fields, "type": "refill", "choice": random.choice(("top_up", "redraw"))}
        if task in ("play", "drawn", "bonus", "blocked"):
            return self._turn(html, task, fields)
        if task.startswith("malus_"):
            self.think = (4.0, 8.0)
            return _nx_malus(html, task, fields)
        if task == "distribute":
            self.think = (8.0, 15.0)
            return _nx_distribution(html, fields)
        if task == "count":
            self.think = (5.0, 10.0)
            return _nx_count(html, fields)
        return None  # wait, done, or a watcher's page

    def _turn(self, html: str, task: str, fields: dict[str, str]) -> dict[str, str] | None:
        hand = [b for b in _buttons(html, "xcard") if b.get("data-pick") == "hand"]
        ids = tuple(b["data-card"] for b in hand)
        actions = [_nx_action(form) for form in _forms(html, "nx-action-form")]
        actions = [a for a in actions if a is not None]
        can = {kind: f'data-testid="{kind}"' in html for kind in ("draw", "pass", "keep")}
        if task == "blocked":
            if "numx" in ids and random.random() < 0.5:
                return {**fields, "type": "trick", "cards": "numx", "from_row": ""}
            return {**fields, "type": "pass"}
        if task == "bonus":  # the Shadow's action card, or carry on
            if actions and random.random() < 0.3:
                return {**fields, **random.choice(actions)}
            return {**fields, "type": "pass"}
        last = _nx_top_trick(html)
        if task == "drawn":
            drawn = next((b["data-card"] for b in hand if b.get("data-must") == "1"), None)
            mine = [a for a in actions if a["card"] == drawn]
            # RULES 4.5: without a "Keep it" button the drawn card must be played.
            if mine and (not can["keep"] or random.random() < 0.5):
                return {**fields, **mine[0]}
            tricks = legal_tricks(ids, last, must_include=drawn) if drawn else []
            if tricks and (not can["keep"] or random.random() < 0.8):
                return _nx_trick(fields, *min(tricks, key=_nx_lowest))
            return {**fields, "type": "keep"}
        tricks = legal_tricks(ids, last)
        numbered = sorted((t for t in tricks if t[1] is not None), key=_nx_lowest)
        if actions and random.random() < (0.5 if not numbered else 0.12):
            self.think = (4.0, 8.0)
            return {**fields, **random.choice(actions)}
        if numbered and (not can["pass"] or random.random() < 0.9):
            # The lowest it can lay, mostly: the high cards are kept for later.
            return _nx_trick(fields, *random.choice(numbered[:3]))
        if tricks and random.random() < 0.5:
            return _nx_trick(fields, *random.choice(tricks))  # Infini or Num-X
        if can["draw"] and (not can["pass"] or random.random() < 0.6):
            return {**fields, "type": "draw"}
        if can["pass"]:
            return {**fields, "type": "pass"}
        if tricks:
            return _nx_trick(fields, *random.choice(tricks))
        return None


def _nx_lowest(trick: tuple[tuple[str, ...], int | None]) -> tuple:
    cards, value = trick
    # Lower first; a Joker or a Rainbow kept for later when another card will do.
    special = sum(1 for c in cards if c.startswith(("joker", "rainbow", "shadow")))
    return (value if value is not None else 99, special, len(cards))


def _nx_trick(fields: dict[str, str], cards: tuple[str, ...], value: int | None
              ) -> dict[str, str]:
    tap = {**fields, "type": "trick", "cards": ",".join(cards), "from_row": ""}
    if value is not None and all(c.startswith("joker") for c in cards):
        tap["value"] = str(value)  # the Joker's number, asked only for Jokers alone
    return tap


def _nx_card_id(name: str) -> str | None:
    """A card's id from its name on the page ("blue 7" -> "blue7")."""
    if name in NX_SPECIAL:
        return NX_SPECIAL[name]
    found = RE_NX_NUMBER.match(name)
    return f"{found.group(1).lower()}{found.group(2)}" if found else None


def _nx_top_trick(html: str) -> Trick | None:
    """The trick on top, as the board shows it: its size, number and kind."""
    found = RE_NX_TOP.search(html)
    if found is None:
        return None
    size = int(found.group(1))
    ids = [_nx_card_id(unescape(name)) for name in RE_NX_NAME.findall(found.group(2))]
    if "numx" in ids:
        return Trick(0, ("numx",), None, "numx")
    if "infini" in ids:
        return Trick(0, ("infini",), None, "infini")
    values = [int(re.sub(r"\D", "", c)) for c in ids if c and c[-1].isdigit()]
    if values:
        value = values[0]
    else:  # Jokers alone: the status says which number they stand for
        said = RE_NX_HIGHER.search(html)
        value = int(said.group(1)) if said else 0
    return Trick(0, ("?",) * size, value, "number")


def _nx_action(form: str) -> dict[str, str] | None:
    """An action card from the hand, aimed as its form allows (a target
    button; Éclair's two cards as the page checked them)."""
    opening = _attributes(form[:form.index(">") + 1])
    if opening.get("data-from-row"):
        return None  # taking back a score card: left to the pupils who think of it
    tap = {"type": "action", "card": opening.get("data-action", "")}
    targets = re.findall(r'name="target" value="([^"]*)"', form)
    if 'name="theirs"' in form:
        mine, theirs = _checked(form, "mine"), _checked(form, "theirs")
        if mine is None or theirs is None:
            return None
        return {**tap, "mine": mine, "theirs": theirs}
    if not targets:
        return None
    if 'name="direction"' in form:
        tap["direction"] = random.choice(("left", "right"))
    return {**tap, "target": unescape(random.choice(targets))}


def _nx_malus(html: str, task: str, fields: dict[str, str]) -> dict[str, str] | None:
    if task == "malus_place":
        forms = _forms(html, "nx-place-form")
        if not forms:
            return None
        offered = _hidden(forms[0]).get("offered", "")
        tap = {**fields, "type": "malus_place", "offered": offered}
        for card in filter(None, offered.split(",")):
            tap[f"face-{card}"] = random.choice(("up", "up", "down"))
            tap[f"end-{card}"] = random.choice(("left", "right"))
        return tap
    forms = _forms(html, "nx-malus-form")
    if not forms:
        return None
    count = int(_attributes(forms[0][:forms[0].index(">") + 1]).get("data-count", "0"))
    if task == "malus_discard":
        hand = [b["data-card"] for b in _buttons(html, "xcard") if b.get("data-pick") == "hand"]
        chosen = random.sample(hand, min(count, len(hand)))
        return {**fields, "type": "malus_discard", "cards": ",".join(chosen)}
    row = [b["data-row"] for b in _buttons(html, "xcard") if b.get("data-pick") == "row"]
    chosen = random.sample(row, min(count, len(row)))
    return {**fields, "type": "malus_remove", "indices": ",".join(chosen)}


def _nx_distribution(html: str, fields: dict[str, str]) -> dict[str, str] | None:
    """The tour's cards handed out: as few as the page asks, none to one
    player beyond half of them, face up mostly."""
    start = html.find('<section class="nx-distribute"')
    if start < 0:
        return None
    form = html[start:html.find("</form>", start)]
    opening = _attributes(re.search(r"<form [^>]*>", form).group(0))
    offered = [c for c in _hidden(form).get("offered", "").split(",") if c]
    if not offered:
        return None
    receivers = re.findall(rf'name="to-{re.escape(offered[0])}" value="(\d+)"', form)
    least, most = int(opening.get("data-min", "1")), int(opening.get("data-max", "1"))
    shares = [k for k in range(least, most + 1)
              if len(receivers) * (k // 2 if k > 1 else 1) >= k] or [least]
    handed = shares[0] if random.random() < 0.8 else random.choice(shares)
    cap = handed // 2 if handed > 1 else 1
    seats = [r for r in random.sample(receivers, len(receivers)) for _ in range(cap)]
    given = dict(zip(random.sample(offered, len(offered))[:handed], seats, strict=False))
    tap = {**fields, "type": "distribute", "offered": ",".join(offered)}
    for card in offered:
        tap[f"to-{card}"] = given.get(card, "")
        tap[f"face-{card}"] = "up" if random.random() < 0.8 else "down"
        tap[f"end-{card}"] = random.choice(("left", "right"))
    return tap


def _nx_count(html: str, fields: dict[str, str]) -> dict[str, str] | None:
    """The worth of the group the page asks for (the rules in its reminder),
    then the total of the worths it lists."""
    total = RE_NX_TOTAL.search(html)
    if total:
        parts = [int(p) for p in total.group(1).split("+") if p.strip()]
        return {**fields, "type": "count_total", "total": _typed(sum(parts))}
    forms = _forms(html, "nx-count-form")
    group = RE_NX_GROUP.search(forms[0]) if forms else None
    if group is None:
        return None
    asked = {k: v for k, v in _hidden(forms[0]).items() if k in ("value", "colour")}
    cards = []
    for name in RE_NX_NAME.findall(group.group(1)):
        found = RE_NX_NUMBER.match(unescape(name))
        if found:
            cards.append((int(found.group(2)), found.group(1).lower()))
    rules = NX_FAMILY_RULES if NX_ALONE in html else ALL_RULES
    return {**fields, "type": "count_group", **asked, "worth": _typed(score(cards, rules))}


MINDS = {"numberquest": NumberQuestMind, "ultimes": TrackMind, "nmbr9": Nmbr9Mind,
         "nambarz": NambarzMind, "numx": NumxMind}


def mind_for(game: str):
    return MINDS[game]()
