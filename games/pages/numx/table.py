"""What a NUM-X table looks like: the players' rows, the tricks, the hand and
what the tablet asks for now.

Everything about cards comes from the engine's ``view(state, player)``: the
pupil's own hand, the public tricks, the score rows with face-down cards
hidden (from their owner too). Only the targets of an action and the legal
tricks come from ``GAME.moves(state, player)``, which speaks of that
player's own cards only.
"""

from __future__ import annotations

from typing import Any

from engine.numx import GAME
from engine.numx.cards import CARDS, RAINBOW
from games.pages.base import PLAYER_COLOUR_NAMES, PLAYER_COLOURS

from . import drawing, words

HAND_BACKS = 13  # card backs drawn for a hand size; the number says the rest
EARLIER_TRICKS = 3  # tricks shown small under the top one


def colour_of(player: int) -> str:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def _owner(trick: dict[str, Any]) -> int:
    """Whose trick it is now: who completed it with a Rainbow, else who laid it."""
    completed = trick.get("completed_by")
    return completed if completed is not None else trick["player"]


def row_of(row: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A score row as the table shows it: faces, or backs without a name."""
    return [
        {"index": i, "up": entry["face_up"], "face": drawing.face(entry["card"]) if "card" in entry
         else None}
        for i, entry in enumerate(row)
    ]


def players(state, view: dict[str, Any], names: dict[int, str], player: int | None,
            waiting: set[int]) -> list[dict[str, Any]]:
    """Each player as the lists of players show them; the board adds their
    score rows (``with_rows``) when it is drawn."""
    result = GAME.result(state)
    winners = set(result.winners) if result else set()
    teams = view.get("teams") or []
    count_phase = state.phase in ("count", "over")
    shown = []
    for p in range(state.players):
        team = next((i + 1 for i, t in enumerate(teams) if p in t), None)
        shown.append({
            "index": p,
            "name": names.get(p, "?"),
            "colour": colour_of(p),
            "colour_name": PLAYER_COLOUR_NAMES[p % len(PLAYER_COLOUR_NAMES)],
            # The generic lists (live view, projector) show ``score``; the
            # points are known only once counted.
            "score": result.scores[p] if result else "–",
            "points": result.scores[p] if result else None,
            "current": state.phase in ("play", "distribute") and p in waiting,
            "you": p == player,
            "winner": p in winners,
            "cards": view["hand_sizes"][p],
            "backs": range(min(view["hand_sizes"][p], HAND_BACKS)),
            "blocked": bool(view["blocked"][p]) if view["blocked"] else False,
            "protected": bool(view["protected"][p]) if view["protected"] else False,
            "choosing": state.phase in ("choose", "refill") and p in waiting,
            "chosen": state.phase in ("choose", "refill") and p not in waiting,
            "counting": count_phase and p in waiting,
            "team": team,
        })
    return shown


def with_rows(players: list[dict[str, Any]], view: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**p, "row": row_of(view["rows"][p["index"]])} for p in players]


def tricks(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The tour's tricks: the top one big, a few earlier ones small."""
    laid = view.get("tricks") or []
    shown = []
    for index, trick in enumerate(laid):
        shown.append({
            "index": index,
            "owner": names.get(trick["player"], "?"),
            "owner_colour": colour_of(_owner(trick)),
            "owner_number": _owner(trick) + 1,
            "completed_by": names.get(trick["completed_by"], "?")
            if trick.get("completed_by") is not None else "",
            "cards": [drawing.face(c) for c in trick["cards"]],
            "size": len(trick["cards"]),
            "value": trick.get("value"),
            "kind": trick.get("kind"),
        })
    return {
        "top": shown[-1] if shown else None,
        "earlier": shown[-1 - EARLIER_TRICKS:-1] if len(shown) > 1 else [],
        "hidden_earlier": max(len(shown) - 1 - EARLIER_TRICKS, 0),
        "count": len(shown),
    }


def rainbow(state, view: dict[str, Any]) -> dict[str, Any] | None:
    """The out-of-turn Rainbow this pupil may add now: the button's fields."""
    if not view.get("can_add_rainbow"):
        return None
    last = state.last
    card_id = f"{RAINBOW}{last.value}"
    return {"card": card_id, "face": drawing.face(CARDS[card_id].to_json()),
            "trick": len(state.tricks) - 1, "size": last.size, "value": last.value}


# What ``hand`` marks on each card's face.
HAND_MARKS = frozenset({"chosen", "drawn", "action"})


def hand(view: dict[str, Any], chosen: str | None = None, drawn: str | None = None
         ) -> list[dict[str, Any]]:
    cards = []
    for card in view.get("hand") or []:
        shown = drawing.face(card)
        shown["chosen"] = card["id"] == chosen
        shown["drawn"] = card["id"] == drawn
        shown["action"] = card["kind"] in drawing.ACTIONS
        cards.append(shown)
    # Numbers in order, then the special cards, then the actions: easier to find a pair.
    order = {"number": 0, "joker": 1, "infini": 2, "numx": 3}
    cards.sort(key=lambda c: (order.get(c["kind"], 4), c.get("value") or 0, c["id"]))
    return cards


def play_panel(legal: list[dict[str, Any]], player: int, names: dict[int, str],
               view: dict[str, Any]) -> dict[str, Any]:
    """What a pupil may do on their turn, from the engine's legal moves
    (``GAME.moves(state, player)``): the action cards' targets, the Joker's
    numbers, whether they may draw or pass."""
    kinds = {m["type"] for m in legal}
    tricks_legal = [m for m in legal if m["type"] == "trick"]
    joker_values = sorted({
        m["value"] for m in tricks_legal
        if m.get("value") is not None and all(c.startswith("joker") for c in m["cards"])
    })
    actions: dict[tuple[str, int | None], dict[str, Any]] = {}
    for move in legal:
        if move["type"] != "action":
            continue
        key = (move["card"], move.get("from_row"))
        entry = actions.get(key)
        if entry is None:
            entry = actions[key] = _action_entry(player, move, view)
        _add_target(entry, move, names, view)
    for entry in actions.values():
        entry["targets"] = sorted(entry["targets"].values(), key=lambda t: t["order"])
        entry["theirs"] = list(entry["theirs"].values())
    return {
        "can_trick": bool(tricks_legal),
        "can_draw": "draw" in kinds,
        "can_pass": "pass" in kinds,
        "can_keep": "keep" in kinds,
        "joker_values": joker_values,
        "actions": list(actions.values()),
        "take_back": sorted({m["from_row"] for m in legal if m.get("from_row") is not None}),
    }


def _action_entry(player: int, move: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    card_id = move["card"]
    from_row = move.get("from_row")
    card = next((c for c in view.get("hand") or [] if c["id"] == card_id), None)
    if card is None:  # a face-up score card taken back
        card = CARDS[card_id].to_json()
    face = drawing.face(card)
    mine = []
    if face["kind"] == "eclair":
        mine = [e for e in row_of(view["rows"][player]) if e["index"] != from_row]
    return {"card": card_id, "from_row": from_row, "face": face, "kind": face["kind"],
            "targets": {}, "directions": face["kind"] == "swipe", "mine": mine, "theirs": {}}


def _add_target(entry: dict[str, Any], move: dict[str, Any], names: dict[int, str],
                view: dict[str, Any]) -> None:
    target = move["target"]
    if entry["kind"] == "eclair":
        # Éclair's radio buttons show the other rows as the table does: a
        # face-down card is picked blind, by its place.
        other = entry["theirs"].setdefault(target, {
            "name": names.get(target, "?"), "colour": colour_of(target), "number": target + 1,
            "cards": [],
            "row": row_of(view["rows"][target]),
        })
        value = f"{target}:{move['theirs']}"
        if not any(c["value"] == value for c in other["cards"]):
            other["cards"].append({"value": value, "face": other["row"][move["theirs"]]["face"]})
        return
    if target == "all":
        value, text, order = "all", words.all_label(entry["kind"]), 100
    elif target == "between":
        value, text, order = "between", words.between_label(), 101
    elif target == "team":
        value, text, order = f"team:{move['team']}", words.team_label(move["team"] + 1), \
            102 + move["team"]
    else:
        value, text, order = str(target), names.get(target, "?"), target
    entry["targets"].setdefault(value, {"value": value, "label": text, "order": order})


def kept_hand_out(view: dict[str, Any], posted) -> tuple[tuple[str, str, str, str], ...]:
    """What a refused hand-out chose for each card still offered, as
    (card, receiver or "", "up"/"down", "left"/"right"): the page draws the
    form again with those choices, a child need not make them all again.
    Only values the form offers are taken; () when nothing was posted."""
    offer = view.get("distribution")
    if not offer or posted is None or posted.get("type") != "distribute":
        return ()
    receivers = {str(p) for p in offer["receivers"]}
    kept = []
    for card in offer["cards"]:
        to = posted.get(f"to-{card}", "")
        face = posted.get(f"face-{card}", "")
        end = posted.get(f"end-{card}", "")
        kept.append((card, to if to in receivers else "",
                     face if face in ("up", "down") else "up",
                     end if end in ("left", "right") else "right"))
    return tuple(kept)


def distribution(view: dict[str, Any], names: dict[int, str],
                 kept: tuple[tuple[str, str, str, str], ...] = ()) -> dict[str, Any] | None:
    """The hand-out form's cards and receivers; ``kept``: the choices of a
    refused hand-out (kept_hand_out), else each card to nobody, face up, at
    the right end."""
    offer = view.get("distribution")
    if not offer:
        return None
    chosen = {card: (to, face, end) for card, to, face, end in kept}
    faces = drawing.faces_of(offer["cards"])
    return {
        "cards": faces,
        "given": [
            {"card": face, "to": to, "up": up == "up", "left": end == "left"}
            for face in faces
            for to, up, end in [chosen.get(face["id"], ("", "up", "right"))]
        ],
        "ids": ",".join(offer["cards"]),
        "min": offer["min"],
        "max": offer["max"],
        "virgin": offer["virgin"],
        "receivers": [{"index": p, "key": str(p), "name": names.get(p, "?"),
                       "colour": colour_of(p)} for p in offer["receivers"]],
        "protected": [names.get(p, "?") for p in range(len(view["rows"]))
                      if p not in offer["receivers"]],
    }


def malus(view: dict[str, Any], player: int) -> dict[str, Any] | None:
    pending = view.get("pending") or {}
    if pending.get("kind") != "malus":
        return None
    owed = next((o for o in pending.get("owed") or [] if o["player"] == player), None)
    if owed is None:
        return None
    cards = owed.get("cards") or []
    return {"what": owed["what"], "count": owed["count"],
            "cards": [drawing.face(c) for c in cards],
            "ids": ",".join(c["id"] for c in cards)}


def count(view: dict[str, Any], marks: list[bool]) -> dict[str, Any] | None:
    """The pupil's count: the groups done (with the right worth and whether
    they had it right), the group to value now, the total to type."""
    counting = view.get("count")
    if not counting:
        return None
    steps = counting["steps"]
    done = []
    for index, step in enumerate(steps):
        if step["worth"] is None:
            break
        done.append({
            "group": words.group_name(step),
            "cards": [_count_face(c) for c in step["cards"]],
            "worth": step["worth"],
            "why": words.rule_text(step),
            "right": marks[index] if index < len(marks) else None,
        })
    now = None
    if counting["next"] is not None:
        step = steps[counting["next"]]
        now = {
            "group": words.group_name(step),
            "cards": [_count_face(c) for c in step["cards"]],
            "field": "value" if step["kind"] == "value" else "colour",
            "key": step["key"],
            "number": counting["next"] + 1,
        }
    return {
        "done": done,
        "now": now,
        "steps": len(steps),
        "ask_total": counting["needs_total"] and counting["next"] is None
        and counting["total"] is None,
        "parts": [d["worth"] for d in done],
        "total": counting["total"],
        "finished": counting["done"],
        "score": counting["score"],
        "empty": not steps,
    }


def _count_face(pair: list[Any]) -> dict[str, Any]:
    value, colour = pair
    return drawing.face({"kind": "number", "value": value, "colour": colour, "id": ""})
