"""NUM-X bots. A bot's turn is a list of ordinary moves the server applies one
by one; bots never miscount (their attempts are not pupil evidence). Bots read
the score rows as they are, face-down cards included: a simplification that
makes them a little better at handing out cards than a pupil.

Levels:

* ``beginner``: any legal trick at random (sometimes a pass), actions now and
  then, out-of-turn Rainbows half the time, score cards handed out at random.
* ``greedy``: the lowest trick it can lay (largest on a tie, to empty its
  hand), Infini and Num-X only on a tour with a score card to take (or to lay
  its last cards); always adds a Rainbow out of turn; hands out the fewest
  cards allowed, each where it helps its own score most against the leader's
  ("bad cards to the leader"); Malus on the leader; after a Shadow, Block
  everyone to play again.
* ``strategist``: greedy, but it keeps Infini and Num-X for tours with two
  score cards or more; it tries the fewest and the most cards it may hand out,
  plays Éclair and Swipe when they gain points against the leader, shields
  itself with Quantique when ahead, keeps a Rainbow that makes a pair in hand.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from engine.core import IllegalMove
from engine.numx.cards import CARDS, RAINBOW, SHADOW, score_pair
from engine.numx.distribution import feasible, offer, per_player
from engine.numx.flow import eligible_cards
from engine.numx.game import GAME, can_add_rainbow, waiting_on
from engine.numx.scoring import score
from engine.numx.state import NumxState, Row

LEVELS = ("beginner", "greedy", "strategist")
WORTH_TAKING = 2  # eligible cards on the table before the strategist spends Infini or Num-X
GAIN_TO_ACT = 5


def _rng(state: NumxState, player: int, seed: int) -> random.Random:
    return random.Random(f"{seed}:{player}:{state.tour}:{len(state.tricks)}:"
                         f"{len(state.hands[player])}:{len(state.pile)}:{len(state.discard)}")


def row_points(state: NumxState, rows: tuple[Row, ...], player: int) -> int:
    return score((score_pair(c) for p in state.team_of(player) for c, _ in rows[p]), state.rules)


def _lead_over(state: NumxState, points: list[int], player: int) -> int:
    mates = state.team_of(player)
    others = [points[p] for p in range(state.players) if p not in mates]
    return points[player] - max(others, default=0)


def advantage(state: NumxState, rows: tuple[Row, ...], player: int) -> int:
    """The bot's points minus the best opponent's (the leader's)."""
    points = [row_points(state, rows, p) for p in range(state.players)]
    return _lead_over(state, points, player)


def leader(state: NumxState, player: int) -> int:
    mates = state.team_of(player)
    others = [p for p in range(state.players) if p not in mates]
    return max(others, key=lambda p: (row_points(state, state.rows, p), -p))


# --------------------------------------------------------------- handing out

def _give(rows: tuple[Row, ...], card_id: str, to: int) -> tuple[Row, ...]:
    return rows[:to] + (rows[to] + ((card_id, True),),) + rows[to + 1:]


def _assign(state: NumxState, player: int, cards: list[str], k: int, receivers: list[int]
            ) -> tuple[int, list[dict[str, Any]]] | None:
    """k cards, one at a time, each to the receiver where it helps ``player``
    most; returns (the bot's lead after, the hand-out). Only the receiving
    row is scored again for each try."""
    rows = state.rows
    points = [row_points(state, rows, p) for p in range(state.players)]
    cap = per_player(k)
    got: dict[int, int] = {}
    handed: list[dict[str, Any]] = []
    left = list(cards)
    for _ in range(k):
        best: tuple[int, str, int, list[int]] | None = None
        for p in receivers:
            if got.get(p, 0) >= cap:
                continue
            for c in left:
                gained = row_points(state, _give(rows, c, p), p)
                trial = [gained if q in state.team_of(p) else points[q]
                         for q in range(state.players)]
                value = _lead_over(state, trial, player)
                if best is None or value > best[0]:
                    best = (value, c, p, trial)
        if best is None:
            return None
        value, c, p, points = best
        rows = _give(rows, c, p)
        got[p] = got.get(p, 0) + 1
        left.remove(c)
        mine = p in state.team_of(player)
        handed.append({"card": c, "to": p, "face_up": not mine, "end": "right"})
    return _lead_over(state, points, player), handed


def distribution(state: NumxState, player: int, level: str, rng: random.Random
                 ) -> dict[str, Any]:
    offered = offer(state)
    cards, receivers = offered["cards"], offered["receivers"]
    sizes = [k for k in range(offered["min"], offered["max"] + 1)
             if feasible(k, len(receivers))]
    if level == "beginner":
        k = rng.choice(sizes)
        cap, got, handed = per_player(k), {}, []
        for c in rng.sample(cards, k):
            p = rng.choice([r for r in receivers if got.get(r, 0) < cap])
            got[p] = got.get(p, 0) + 1
            handed.append({"card": c, "to": p, "face_up": rng.random() < 0.5,
                           "end": rng.choice(("left", "right"))})
        return {"type": "distribute", "cards": handed}
    tried = sizes[:1] if level == "greedy" else sizes[:1] + sizes[-1:]
    results = [r for r in (_assign(state, player, cards, k, receivers) for k in tried) if r]
    return {"type": "distribute", "cards": max(results, key=lambda r: r[0])[1]}


# --------------------------------------------------------------- actions

def _action_gain(state: NumxState, player: int, move: dict[str, Any]) -> int:
    """Points gained against the leader by an action that moves score cards."""
    try:
        after = GAME.apply(state, player, move).state
    except IllegalMove:
        return -999
    return advantage(state, after.rows, player) - advantage(state, state.rows, player)


def pick_action(state: NumxState, player: int, level: str, rng: random.Random,
                moves: list[dict[str, Any]], bonus: bool) -> dict[str, Any] | None:
    actions = [m for m in moves if m["type"] == "action"]
    if not actions:
        return None
    if level == "beginner":
        return rng.choice(actions) if bonus or rng.random() < 0.15 else None
    top = leader(state, player)
    kinds = {CARDS[m["card"]].kind for m in actions}
    if bonus and "block" in kinds and state.owner == player:
        block = next((m for m in actions if CARDS[m["card"]].kind == "block"
                      and m["target"] == "all"), None)
        if block is not None:
            return block
    for m in actions:
        if CARDS[m["card"]].kind == "malus" and m.get("target") == top:
            x, y = state.malus[int(m["card"][len("malus"):]) - 1]
            if x - y > 0:  # more cards in hand, fewer in the score row: it hurts
                return m
    if level != "strategist":
        return None
    if "quantique" in kinds and advantage(state, state.rows, player) >= GAIN_TO_ACT * 2 \
            and not state.protected[player]:
        shield = next((m for m in actions if CARDS[m["card"]].kind == "quantique"
                       and m.get("target") == player), None)
        if shield is not None:
            return shield
    scored = [(m, _action_gain(state, player, m)) for m in actions
              if CARDS[m["card"]].kind in ("eclair", "swipe")
              and (CARDS[m["card"]].kind != "eclair" or state.rows[m["target"]][m["theirs"]][1])]
    scored = [(m, g) for m, g in scored if g >= GAIN_TO_ACT]
    if scored:
        return max(scored, key=lambda mg: mg[1])[0]
    return None


# --------------------------------------------------------------- tricks

def _trick_rank(move: dict[str, Any]) -> tuple[int, int]:
    special = CARDS[move["cards"][0]].kind in ("infini", "numx")
    return (100 if special else move["value"], -len(move["cards"]))


def pick_trick(state: NumxState, player: int, level: str, rng: random.Random,
               moves: list[dict[str, Any]]) -> dict[str, Any] | None:
    tricks = [m for m in moves if m["type"] == "trick" and m.get("from_row") is None]
    if not tricks:
        return None
    if level == "beginner":
        return rng.choice(tricks) if rng.random() < 0.85 else None
    worth = len(eligible_cards(state))
    last_card = len(state.hands[player]) <= max(len(m["cards"]) for m in tricks)
    plain = [m for m in tricks if CARDS[m["cards"][0]].kind not in ("infini", "numx")]
    if plain:
        return min(plain, key=_trick_rank)
    if last_card or worth >= (1 if level == "greedy" else WORTH_TAKING):
        # Num-X last: Infini can be covered by it, Num-X by nothing.
        return min(tricks, key=lambda m: CARDS[m["cards"][0]].kind == "numx")
    return None


def wants_rainbow(state: NumxState, player: int, level: str, rng: random.Random) -> bool:
    if level == "beginner":
        return rng.random() < 0.5
    if level == "strategist":
        last = state.last
        assert last is not None
        pair = sum(1 for c in state.hands[player] if CARDS[c].value == last.value
                   and CARDS[c].colour != RAINBOW)
        return pair == 0 or len(state.hands[player]) <= 3
    return True


# --------------------------------------------------------------- the bot's turn

def _one_move(state: NumxState, player: int, level: str, rng: random.Random
              ) -> dict[str, Any] | None:
    phase = state.phase
    hand = state.hands[player]
    if player not in waiting_on(state):
        if can_add_rainbow(state, player) and wants_rainbow(state, player, level, rng):
            return GAME.moves(state, player)[0]
        return None
    if phase == "choose":
        numbered = [c for c in hand if CARDS[c].is_number and CARDS[c].colour != SHADOW]
        if level == "beginner" or not numbered:
            return {"type": "choose", "card": rng.choice(hand)}
        if level == "strategist":
            alone = [c for c in numbered
                     if sum(CARDS[d].value == CARDS[c].value for d in hand) == 1]
            numbered = alone or numbered
        return {"type": "choose", "card": max(numbered, key=lambda c: (CARDS[c].value, c))}
    if phase == "refill":
        weak = sum(CARDS[c].value or 0 for c in hand) < 4 * len(hand) or len(hand) < 3
        choice = rng.choice(("top_up", "redraw")) if level == "beginner" else (
            "redraw" if weak and level == "strategist" else "top_up")
        return {"type": "refill", "choice": choice}
    if phase == "distribute":
        return distribution(state, player, level, rng)
    if phase == "count":
        moves = GAME.moves(state, player)
        if not moves:
            return None
        steps = state.steps(player)
        done = state.counts[player]
        if moves[0]["type"] == "count_group":
            return {"type": "count_group", **steps[len(done)].move_key(),
                    "worth": steps[len(done)].worth}
        return {"type": "count_total", "total": sum(done)}
    pending = state.pending
    moves = GAME.moves(state, player)
    if pending is not None and pending.kind == "malus":
        return _malus_choice(state, player, moves[0])
    if pending is not None and pending.kind == "bonus":
        return pick_action(state, player, level, rng, moves, bonus=True) or {"type": "pass"}
    if pending is not None:
        chosen = pick_trick(state, player, level, rng, moves)
        if chosen is not None and pending.card in chosen["cards"]:
            return chosen
        if {"type": "keep"} in moves:
            return {"type": "keep"}
        # RULES 4.5: a drawn card that can be played is played, even one the
        # bot would rather have kept.
        action = pick_action(state, player, level, rng, moves, bonus=False)
        return action or next(m for m in moves if m["type"] in ("trick", "action"))
    if state.blocked[player]:
        # Num-X (listed only when held) on a trick worth taking; else the
        # forced pass, the one move of a blocked bot without it (rulebook 4).
        numx = next((m for m in moves if m["type"] == "trick"), None)
        worth = state.last is not None and state.last.eligible
        return numx if numx is not None and worth else {"type": "pass"}
    chosen = pick_trick(state, player, level, rng, moves)
    action = pick_action(state, player, level, rng, moves, bonus=False)
    if action is not None and (chosen is None or level == "beginner"):
        return action
    if chosen is not None:
        return chosen
    if not state.tricks:
        # Opening with nothing but specials or actions: the first legal move.
        return next(m for m in moves if m["type"] in ("trick", "action", "draw"))
    if level == "beginner" and {"type": "draw"} in moves and rng.random() < 0.3:
        return {"type": "draw"}
    return {"type": "pass"}


def _malus_choice(state: NumxState, player: int, owed: dict[str, Any]) -> dict[str, Any]:
    count = owed["count"]
    if owed["type"] == "malus_discard":
        weakest = sorted(state.hands[player], key=lambda c: (CARDS[c].value or 0, c))
        return {"type": "malus_discard", "cards": weakest[:count]}
    if owed["type"] == "malus_remove":
        row = state.rows[player]
        best = max(combinations(range(len(row)), count), key=lambda idx: score(
            score_pair(c) for i, (c, _) in enumerate(row) if i not in idx))
        return {"type": "malus_remove", "indices": list(best)}
    return {"type": "malus_place", "cards": [{"card": c, "face_up": False, "end": "right"}
                                             for c in owed["cards"]]}


def bot_moves(state: NumxState, player: int, level: str = "greedy",
              seed: int = 0) -> list[dict[str, Any]]:
    """The bot's moves for what it has to do now: a whole turn (a draw and what
    follows, a Shadow's bonus, a Malus choice), its whole count, or an
    out-of-turn Rainbow when it is not the player the game waits on (the server
    asks bots that are not waited on too, after each move)."""
    if level not in LEVELS:
        level = "greedy"
    moves: list[dict[str, Any]] = []
    for _ in range(40):
        move = _one_move(state, player, level, _rng(state, player, seed))
        if move is None:
            break
        moves.append(move)
        before = state.phase
        state = GAME.apply(state, player, move).state
        if move["type"] == "rainbow" or before != state.phase and before != "count" \
                or player not in waiting_on(state) or state.phase in ("distribute", "choose",
                                                                        "refill"):
            break
    return moves
