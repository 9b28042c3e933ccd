"""NMBR 9 on the pages: the stack, the card, placing by touch, counting.

Everyone plays at once: each pupil places the revealed card's tile on their
own stack and the next card comes when the whole table has placed (the
engine's round). In a whole-class session every pupil has a table of one with
the class's deck, and the teacher's screen turns the cards: a placement waits
until the card is turned (``check``). The page carries the engine's list of
legal placements (they are the rules, not an answer) so the tablet can say at
once whether a tile fits where the finger puts it, and why not; the server
checks the move again when it comes.
"""

from __future__ import annotations

import zlib
from functools import lru_cache
from typing import Any

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.template.loader import render_to_string
from django.utils.html import json_script
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from engine.core import IllegalMove
from engine.nmbr9 import GAME, Stack, bot_moves, bot_score, phase, score
from engine.nmbr9.game import MAX_TYPED, PLACING, counting_levels
from engine.nmbr9.stack import Tile, legal_placements, level_digit_sums
from games import live, narration, selectors
from games.pages.base import PLAYER_COLOUR_NAMES, PLAYER_COLOURS, Presenter, drawn_once

from . import drawing as stacks
from .options import Nmbr9Options

COMPUTER_SCORE_TTL = 24 * 60 * 60
# A pupil waiting for the teacher's card re-reads the page this often: turning a
# card does not move any table's version, so the usual "unchanged" answer
# would hide it.
CARD_WAIT_POLL = 2
CLASS_RANKING_POLL = 10


@lru_cache(maxsize=256)
def legal_for(
    tiles: tuple[Tile, ...], card: int, board: int
) -> tuple[tuple[int, int, int, int], ...]:
    """The placements of ``card`` on this stack, as the page carries them
    (rotation, x, y, level). Every tablet of a table, and every pupil of a
    whole class, places the same card on stacks that often look alike, and a
    page is drawn at each poll until the tile is placed: the engine's search
    (about half a placing page's drawing) runs once per stack and card."""
    return tuple(
        (p.rotation, p.x, p.y, p.level) for p in legal_placements(Stack(tiles, board), card)
    )


class CompactJSON(DjangoJSONEncoder):
    # The first card's legal placements run to a thousand: no spaces.
    item_separator = ","
    key_separator = ":"


def computer_score(seed: int, board: int) -> int:
    """What the computer scores with this deck (about a quarter of a second: cached)."""
    key = f"nmbr9:bot-score:{seed}:{board}"
    found = cache.get(key)
    if found is None:
        found = bot_score(seed, board=board)
        cache.set(key, found, COMPUTER_SCORE_TTL)
    return found


def ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows with a ``score``, best first, each with its ``place`` (ties share it)."""
    from classroom import roster

    rows = sorted(rows, key=lambda r: (-r["score"], roster.name_key(r["name"])))
    place = 0
    for index, row in enumerate(rows):
        if index == 0 or row["score"] != rows[index - 1]["score"]:
            place = index + 1
        row["place"] = place
    return rows


def card_gated(table, state, player: int | None) -> bool:
    """Whole class: this pupil has placed every card the teacher has turned."""
    return (
        bool(table.session.whole_class)
        and player is not None
        and phase(state, player) == "place"
        and state.round >= table.session.cards_shown
    )


def class_ranking(session, names: dict[int, str] | None = None) -> dict[str, Any]:
    """Whole class: every pupil's score once counted (one table per pupil).
    ``names`` maps table ids to names when the caller already has them."""
    from classroom import roster
    from games.models import Table

    tables = list(
        Table.objects.filter(session=session).prefetch_related("seats__pupil").order_by("number")
    )
    if names is None:
        pupils = [s.pupil for t in tables for s in t.seats.all() if s.pupil_id]
        labels = roster.labels(pupils)
        names = {
            t.pk: " & ".join(labels[s.pupil_id] for s in t.seats.all() if s.pupil_id) or "?"
            for t in tables
        }
    rows, counting, ended = [], 0, False
    for table in tables:
        state = GAME.from_json(table.state)
        ended = ended or state.ended
        if phase(state, 0) == "done":
            rows.append(
                {
                    "table": table.pk,
                    "name": names.get(table.pk, "?"),
                    "score": score(state.stacks[0]),
                }
            )
        else:
            counting += 1
    if ended and not any(row["score"] for row in rows):
        rows = []  # the teacher ended it before any tile climbed: nobody to rank
    return {"rows": ranked(rows), "unfinished": counting, "pupils": len(tables)}


class Nmbr9Presenter(Presenter):
    slug = "nmbr9"
    title = gettext_lazy("NMBR 9")
    pitch = gettext_lazy("NMBR 9: stack digit tiles, multiply by the level")
    engine = GAME
    options_form = Nmbr9Options
    stylesheet = "css/nmbr9.css"
    urls = "games.views.nmbr9_cards"
    move_fields = {
        "place": ("rotation", "x", "y", "level"),
        "set_aside": (),
        "level_score": ("level", "value"),
        "total": ("value",),
    }
    number_fields = frozenset({"rotation", "x", "y", "level", "value"})
    signed_fields = frozenset({"x", "y"})

    # ------------------------------------------------------------------ moves

    def invalid_note(self, move: dict[str, Any] | None) -> str:
        if move and move.get("invalid") == "value":
            return _("Type a number with the keypad.")
        if move and move.get("type") == "place":
            return _("Put the tile on your stack first, then tap “Place it”.")
        return _("Something was missing. Tap again.")

    def check(self, table, state, player: int, move: dict[str, Any]) -> None:
        if move.get("type") in PLACING and card_gated(table, state, player):
            raise IllegalMove(
                "Wait for the teacher to turn the next card.",
                "wait_for_card",
                card_index=state.round,
            )

    # ------------------------------------------------------------------ turns

    def waiting_on(self, state) -> set[int]:
        return {p for p in range(state.players) if phase(state, p) in ("place", "count")}

    def current(self, state) -> int | None:
        return None

    def turn_key(self, state) -> Any:
        return state.round

    def scene(self, state, player: int | None) -> str:
        # The card on the table and this player's own stack and count: the
        # others' placements change neither.
        if player is None:
            return ""
        return (
            f"{state.round}|{state.done(player)}|{len(state.counts[player])}"
            f"|{state.totals[player]}|{state.retrying[player]}"
        )

    def bot_moves(self, state, player: int, level: str, seed: int) -> list[dict[str, Any]]:
        return bot_moves(state, player, seed)

    # ------------------------------------------------------------------ words

    def event_text(self, event: dict[str, Any], names: dict[int, str]) -> str:
        kind = event.get("kind")
        data = event.get("data") or {}
        who = names.get(event.get("player"), "")
        if kind == "placed":
            tile = data.get("tile") or {}
            values = {"who": who, "digit": tile.get("digit"), "level": tile.get("level")}
            if who:
                return _("%(who)s placed tile %(digit)s on level %(level)s.") % values
            return _("Tile %(digit)s placed on level %(level)s.") % values
        if kind == "set_aside":
            values = {"who": who, "digit": data.get("digit")}
            if who:
                return _("%(who)s set tile %(digit)s aside: it fits nowhere.") % values
            return _("Tile %(digit)s set aside: it fits nowhere.") % values
        if kind == "placing_over":
            return _("All the tiles are placed. Time to count!")
        if kind == "try_again":
            return _("Not quite. Count once more!")
        if kind == "answer":
            step = str(data.get("step", ""))
            expected = data.get("expected")
            if step.startswith("level:"):
                level = int(step.split(":", 1)[1] or 0)
                values = {
                    "level": level,
                    "sum": expected // level if level and isinstance(expected, int) else "?",
                    "value": expected,
                }
                if data.get("correct"):
                    return _("Right: %(level)s × %(sum)s = %(value)s.") % values
                return _("Not quite: %(level)s × %(sum)s = %(value)s.") % values
            if data.get("correct"):
                return _("Right: your total is %(value)s points.") % {"value": expected}
            return _("Not quite: the total is %(value)s points.") % {"value": expected}
        if kind == "counted":
            if who:
                return _("%(who)s scored %(score)s points.") % {
                    "who": who,
                    "score": data.get("score"),
                }
            return _("Score: %(score)s points.") % {"score": data.get("score")}
        # "card_revealed" needs no words (the card is on the page); in a
        # whole-class game it must not show before the teacher turns it.
        return ""

    def refusal(self, error: IllegalMove) -> str:
        d = error.details
        if error.code == "malformed":
            if d.get("field") == "value":
                return _("Type a number from 0 to %(max)s.") % {"max": MAX_TYPED}
            return _("Put the tile on your stack first, then tap “Place it”.")
        if error.code == "wrong_phase":
            if d.get("phase") == "place":
                return _("Place your tile first.")
            return _("Now count your points.")
        if error.code == "count_from_top":
            return _("Count the levels from the top down: level %(level)s first.") % {
                "level": d.get("expected_level")
            }
        messages = {
            "wait_for_card": _("Wait for the teacher to turn the next card."),
            "wait_for_others": _("Wait for the others to place their tile."),
            "off_board": _("The tile must stay on the board."),
            "too_high": _("There is nothing there for the tile to lie on."),
            "overlap": _("Another tile is already there."),
            "overhang": _(
                "Every part of the tile must lie on a tile below: no part may hang over a gap."
            ),
            "one_tile_below": _("A tile up high must lie on at least two tiles, not on just one."),
            "not_touching": _(
                "The tile must touch a tile of its level along a side (a corner is not enough)."
            ),
            "levels_first": _("Count every level first."),
            "it_fits": _("Your tile fits on your board: place it."),
            "game_over": _("You have finished this game."),
        }
        return messages.get(error.code) or narration.refusal(error)

    def texts(self) -> dict[str, str]:
        """What the tablet's script says while a finger moves the tile."""
        return {
            "tap": _("Tap your stack where the tile goes."),
            "fits": _("It fits!"),
            "level0": _("On the table (level 0)"),
            "level": _("On level %(level)s"),
            # Short: they change under a moving finger.
            "off_board": _("It must stay on the board."),
            "overhang": _("A part of it would hang over a gap."),
            "one_tile_below": _("Up high, it must lie on two tiles or more."),
            "not_touching": _("It must touch a tile of its level along a side."),
            "overlap": _("Another tile is already there."),
            "no": _("The tile cannot go there."),
        }

    # ------------------------------------------------------------------ pages

    def _stack_html(
        self,
        tiles,
        board: int,
        *,
        crop: bool = False,
        highlight_level: int | None = None,
        interactive: bool = False,
        big: bool = False,
    ) -> str:
        def draw() -> str:
            picture = stacks.stack_picture(tiles, board, crop=crop, highlight_level=highlight_level)
            return render_to_string(
                "games/nmbr9/_stack.html",
                {"stack": picture, "mini": crop and not big, "interactive": interactive},
            )

        shown = (tuple(tiles), board, crop, highlight_level, interactive, big)
        return drawn_once("stack", shown, draw)

    def teacher_board(self, table, state, names: dict[int, str]) -> str:
        """Every player's stack, small: the live view's and projector's board.
        The same for every teacher's screen until the next move: drawn once per version."""
        # The names too: a late pupil may take a computer's seat without a move.
        seated = zlib.crc32(repr(sorted(names.items())).encode())
        key = f"nmbr9-board:{table.pk}:{live.stamp(table)}:{seated}:{get_language()}"
        html = cache.get(key)
        if html is not None:
            return mark_safe(html)  # our own rendered template, read back from the cache
        html = self._minis_html(state, names)
        cache.set(key, html, 60)
        return html

    def _minis_html(self, state, names: dict[int, str]) -> str:
        minis = [
            {
                "name": names.get(p, "?"),
                # A tile set aside is a card done with: counted, so that a
                # pupil who has finished shows as finished.
                "placed": state.done(p),
                "aside": state.aside[p],
                "svg": self._stack_html(state.stacks[p].tiles, state.board, crop=True),
            }
            for p in range(state.players)
        ]
        return render_to_string(
            "games/nmbr9/_minis.html",
            {"minis": minis, "cards_total": len(state.deck), "solo": state.players == 1},
        )

    def card_moves_of(self, table) -> int:
        """The last move, for the last count, once counting has started at
        this table (then every move is a count); none while tiles are placed."""
        state = GAME.from_json(table.state)
        return int(any(phase(state, p) in ("count", "done") for p in range(state.players)))

    def card_context(self, table, state, names, moves) -> dict[str, Any]:
        over = GAME.result(state) is not None
        phases = [phase(state, p) for p in range(state.players)]
        return {
            "players": self._players(state, None, names, None, phases, over),
            "current_name": "",
            "stuck_player": None,
            # Not teacher_board's copy: the live view keeps the card it draws.
            "board_html": self._minis_html(state, names),
            "last_calculation": _last_count(state, names, moves[0] if moves else None),
        }

    def context(self, table, state, view: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
        session = table.session
        player = base["player"]
        over = GAME.result(state) is not None
        gated = card_gated(table, state, player)
        phases = [phase(state, p) for p in range(state.players)]
        players = self._players(state, view, base["names"], player, phases, over)
        mine = phases[player] if player is not None else "watch"
        if gated:
            mine = "card_wait"
        context: dict[str, Any] = {
            "players": players,
            **self.ending(state, base["names"], player),
            "your_turn": session.is_running and mine in ("place", "count"),
            "current_name": "",
            "stuck_player": None,
            "handover_name": "",
            "log": self._progress_lines(players, state),
            "last_calculation": "",
            "nmbr9_phase": mine,
            "card_number": min(state.round + 1, len(state.deck)),
            "cards_total": len(state.deck),
            "poll_stamp": base["stamp"],
            "poll_every": CARD_WAIT_POLL if gated else 2,
        }
        if player is None:
            context.update(self._teacher_part(table, state, base["names"], phases, over))
            return context
        context.update(self._stack_part(table, state, view, player, mine))
        if mine in ("wait", "done", "count") and state.players > 1:
            context["others"] = [
                {
                    **p,
                    "svg": self._stack_html(state.stacks[p["index"]].tiles, state.board, crop=True),
                }
                for p in players
                if not p["you"]
            ]
        if mine == "wait":
            context["waiting_for"] = [p["name"] for p in players if p["phase"] == "place"]
        context.update(self._counting_part(state.stacks[player], view, mine))
        if mine == "done":
            context.update(self._end_part(table, state, view, players, base["stamp"]))
        return context

    def _players(self, state, view, names, player, phases, over) -> list[dict[str, Any]]:
        winners = self.ending(state, names)["winners"]

        def shown_score(p: int) -> int | None:
            if player is None:
                return score(state.stacks[p])  # the teacher sees the points so far
            if p == player:
                return view.get("score")
            other = next((o for o in view["others"] if o["player"] == p), None)
            return other["score"] if other else None

        return [
            {
                "index": p,
                "name": names.get(p, "?"),
                "colour": PLAYER_COLOURS[p % 4],
                "colour_name": PLAYER_COLOUR_NAMES[p % 4],
                "score": shown_score(p),
                "money": shown_score(p),
                "current": False,
                "you": p == player,
                "winner": p in winners,
                "phase": phases[p],
                "placed": len(state.stacks[p].tiles),
                "has_placed": phases[p] == "wait",
            }
            for p in range(state.players)
        ]

    def _teacher_part(self, table, state, names, phases, over) -> dict[str, Any]:
        """The live view and the projector: every stack, the card turned."""
        session = table.session
        part: dict[str, Any] = {
            "board_html": self.teacher_board(table, state, names),
            "last_calculation": "",
        }
        if any(p in ("count", "done") for p in phases):
            last = selectors.last_moves({table.pk: 1})[table.pk]
            part["last_calculation"] = _last_count(state, names, last[0] if last else None)
        card = state.card
        if session.whole_class:
            # The pupil may have placed every turned card: show the last one turned.
            part["card_number"] = min(session.cards_shown, len(state.deck))
            card = state.deck[part["card_number"] - 1] if state.card is not None else None
        if card is not None and not over:
            part["teacher_card"] = {"digit": card}
            part["teacher_cards"] = [stacks.card_picture(card)]
        return part

    def _stack_part(self, table, state, view, player: int, mine: str) -> dict[str, Any]:
        """The pupil's own stack, its colours and, while placing, the card and
        the legal placements the tablet checks a finger against."""
        stack = state.stacks[player]
        counting = view.get("counting") or {}
        placing = mine == "place" and table.session.is_running
        legal = legal_for(stack.tiles, state.card, stack.board) if placing else ()
        # Nowhere to put the tile: one button sets it aside (RULES.md 2.4).
        no_room = placing and not legal
        placing = bool(legal)
        part: dict[str, Any] = {
            "board_html": self._stack_html(
                stack.tiles,
                state.board,
                highlight_level=counting.get("next_level") if mine == "count" else None,
                interactive=placing,
                # Counting: the stack itself, as big as the half page allows.
                crop=mine in ("count", "done"),
                big=True,
            )
        }
        # While placing, the colour of the level a tile could climb to as well.
        shown_levels = stack.top + (2 if mine in ("place", "wait", "card_wait") else 1)
        part["legend"] = [
            {
                "level": level,
                "fill": stacks.level_fill(level),
                "ink": stacks.level_ink(level),
                "hatch": stacks.level_hatch(level),
            }
            for level in range(min(max(shown_levels, 1), len(stacks.LEVEL_FILLS)))
        ]
        if mine in ("place", "wait") and state.card is not None:
            part["card"] = state.card
            part["card_pictures"] = [stacks.card_picture(state.card, r) for r in range(4)]
        if placing:
            place = {
                "key": f"{table.pk}:{state.round}",
                "board": state.board,
                "digit": state.card,
                "shapes": view["card_shapes"],
                "legal": legal,
                "stack": [{"cells": t["cells"], "level": t["level"]} for t in view["stack"]],
                "texts": self.texts(),
            }
            part["place"] = place
            part["place_json"] = json_script(place, "n9-place-data", encoder=CompactJSON)
        if no_room:
            part["no_room"] = _(
                "Your %(digit)s fits nowhere on your board. Put it aside: it scores nothing."
            ) % {"digit": state.card}
        return part

    def _counting_part(self, stack: Stack, view, mine: str) -> dict[str, Any]:
        """The count the pupil types, level by level, and what is counted so far."""
        counting = view.get("counting") or {}
        part: dict[str, Any] = {}
        if mine == "count":
            part["count"] = self._count_prompt(stack, counting)
        if counting:
            part["counted"] = [
                {"level": lv, "value": value, "sum": level_digit_sums(stack)[lv]}
                for lv, value in counting["scores"]
            ]
            part["retrying"] = bool(counting.get("retrying"))
            if counting.get("needs_total") and counting.get("total") is not None:
                part["counted_total"] = counting["total"]
        return part

    def _end_part(self, table, state, view, players, stamp: str) -> dict[str, Any]:
        """The pupil's score and the ranking: the table's, the class's, or the computer's."""
        session = table.session
        part: dict[str, Any] = {"your_score": view.get("score")}
        if session.whole_class:
            ranking = class_ranking(session)
            part["class_ranking"] = ranking
            if ranking["unfinished"]:
                part["poll_stamp"] = stamp + "~rank"
                part["poll_every"] = CLASS_RANKING_POLL
        elif state.players > 1:
            result = GAME.result(state)
            if result is not None and result.ended and not result.ranking:
                return part  # stopped before anybody scored: no places to give
            part["ranking"] = ranked(
                [
                    {"name": p["name"], "score": p["score"], "you": p["you"]}
                    for p in players
                    if p["score"] is not None
                ]
            )
            part["still_counting"] = [p["name"] for p in players if p["score"] is None]
        elif not state.ended:
            # A whole game's score beside a stack the teacher stopped halfway says nothing.
            part["computer_score"] = computer_score(table.seed, state.board)
        return part

    # ------------------------------------------------------------------ helpers

    def _count_prompt(self, stack: Stack, counting: dict[str, Any]) -> dict[str, Any]:
        level = counting.get("next_level")
        if level is not None:
            digits = sorted((t.digit for t in stack.tiles if t.level == level), reverse=True)
            return {
                "type": "level_score",
                "level": level,
                "digits": digits,
                "sum": level_digit_sums(stack)[level],
                "is_top": level == max(counting_levels(stack)),
            }
        parts = [value for _lv, value in counting.get("scores", [])]
        return {"type": "total", "parts": parts}

    def _progress_lines(self, players: list[dict[str, Any]], state) -> list[str]:
        lines = []
        for p in players:
            if p["phase"] == "count":
                lines.append(_("%(name)s is counting.") % {"name": p["name"]})
            elif p["phase"] == "done":
                lines.append(_("%(name)s has counted.") % {"name": p["name"]})
            else:
                lines.append(
                    ngettext(
                        "%(name)s has placed %(count)s tile.",
                        "%(name)s has placed %(count)s tiles.",
                        p["placed"],
                    )
                    % {"name": p["name"], "count": p["placed"]}
                )
        return lines


def _last_count(state, names: dict[int, str], move: tuple | None) -> str:
    """The teacher's view: the count typed in the table's last move, if it was
    one, as "Léa M.: 3 × 12 = 36 ✓". The operands are the stack's, which no
    longer changes once its player counts."""
    if move is None:
        return ""
    _number, player, _pupil_id, events = move
    for event in events:
        if event.get("kind") in ("answer", "try_again") and player is not None:
            data = event.get("data") or {}
            step = str(data.get("step", ""))
            if step.startswith("level:"):
                level = int(step.split(":", 1)[1])
                sums = level_digit_sums(state.stacks[player])
                text = f"{level} × {sums.get(level, 0)}"
            else:
                text = " + ".join(str(v) for v in state.counts[player])
            mark = "✓" if data.get("correct") else "✗"
            return narration.said_of(names.get(player, "?"), f"{text} = {data.get('given')} {mark}")
    return ""


PRESENTER = Nmbr9Presenter()
