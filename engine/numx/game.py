"""NUM-X as an engine game (slug ``numx``): the moves, the views, the result.

Phases: ``choose`` (every player picks a first score card in secret, any
order), ``play`` (turns, tricks, the out-of-turn Rainbow), ``distribute``
(the tour's winner hands out score cards), ``refill`` (X-Game, between the
rounds), ``count`` (every pupil counts their own row) and ``over``.
"""

from __future__ import annotations

from typing import Any

from engine.core import (
    Dice,
    Event,
    IllegalMove,
    Outcome,
    Result,
    StateStoresItself,
    check_in_game,
    check_players,
    rank_by_score,
    rank_when_ended,
    read_int_field,
)
from engine.numx.actions import TARGETED, answer_malus, play_action, shielded
from engine.numx.cards import CARDS, RAINBOW, SHADOW, card, deck
from engine.numx.count import (
    apply_count,
    count_done,
    count_moves,
    count_view,
    final_scores,
    start_count,
)
from engine.numx.distribution import offer, read_distribution
from engine.numx.flow import (
    Events,
    close_tour,
    draw_cards,
    end_tour,
    hand_on,
    let_stand,
    new_top_trick,
    smallest_unique,
    to_discard,
)
from engine.numx.rainbow import add_rainbow, can_add_rainbow, rainbow_refusal
from engine.numx.scoring import count_steps
from engine.numx.state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    MODES,
    NumxState,
    Pending,
    read_options,
    set_fields,
    with_item,
)
from engine.numx.tricks import NUMX, Trick, check_trick, legal_tricks

MOVE_TYPES = ("choose", "trick", "action", "draw", "keep", "pass", "rainbow", "distribute",
              "malus_discard", "malus_remove", "malus_place", "refill", "count_group",
              "count_total")


def waiting_on(state: NumxState) -> set[int]:
    """The players the game waits on now (the out-of-turn Rainbow aside)."""
    if state.phase in ("choose", "refill"):
        return {p for p in range(state.players) if state.chosen[p] is None}
    if state.phase == "distribute":
        return {state.winner} if state.winner is not None else set()
    if state.phase == "count":
        return {p for p in range(state.players) if not count_done(state, p)}
    if state.phase == "play":
        pending = state.pending
        if pending is not None and pending.kind == "malus":
            return {pending.owed[0][0]}
        if pending is not None:
            return {pending.player}
        return {state.current} if state.current is not None else set()
    return set()


def task(state: NumxState, player: int) -> str:
    """What ``player``'s tablet asks for now: ``choose``, ``refill``,
    ``distribute``, ``play``, ``blocked`` (pass, or Num-X if they hold it),
    ``drawn`` (play the drawn card or keep it), ``bonus`` (the Shadow's
    action), ``malus_discard``, ``malus_remove``, ``malus_place``, ``count``,
    ``wait`` or ``done``."""
    if state.phase == "over":
        return "done"
    if player not in waiting_on(state):
        return "done" if state.phase == "count" else "wait"
    pending = state.pending
    if state.phase != "play":
        return state.phase
    if pending is None:
        return "blocked" if state.blocked[player] else "play"
    if pending.kind == "malus":
        return f"malus_{pending.owed[0][1]}"
    return pending.kind


def _card_list(move: dict[str, Any], key: str = "cards") -> tuple[str, ...]:
    cards = move.get(key)
    if not isinstance(cards, list) or not cards or not all(
            isinstance(c, str) and c in CARDS for c in cards) or len(set(cards)) != len(cards):
        raise IllegalMove("Choose the cards to play.", "malformed", field=key)
    return tuple(cards)


def _from_row(state: NumxState, player: int, move: dict[str, Any]) -> str | None:
    """The face-up score card taken back to play (turn action 3), if any."""
    if move.get("from_row") is None:
        return None
    row = state.rows[player]
    index = read_int_field(move, "from_row", 0, max(len(row) - 1, 0))
    if not row or not row[index][1]:
        raise IllegalMove("Take back one of your face-up score cards.", "not_face_up")
    return row[index][0]


def _take(state: NumxState, player: int, cards: tuple[str, ...], from_row: dict[str, Any]
          ) -> NumxState:
    """Remove played cards from the hand, and the taken-back card from the row."""
    taken = _from_row(state, player, from_row)
    hand = list(state.hands[player])
    for c in cards:
        if c == taken:
            continue
        if c not in hand:
            raise IllegalMove("This card is not in your hand.", "not_in_hand", card=c)
        hand.remove(c)
    if taken is not None:
        if taken not in cards:
            raise IllegalMove("Play the card you take back.", "take_back_unplayed")
        row = state.rows[player]
        index = from_row["from_row"]
        state = set_fields(state, rows=with_item(state.rows, player, row[:index] + row[index + 1:]))
    return set_fields(state, hands=with_item(state.hands, player, tuple(hand)))


def play_drawn(state: NumxState) -> IllegalMove:
    """The refusal of any other move while a drawn card waits to be played."""
    if state.rulebook >= 2:
        return IllegalMove("Play the card you drew: it can be played.", "play_drawn_now")
    return IllegalMove("Play the card you drew, or keep it.", "play_drawn")


class Numx(StateStoresItself):
    """The engine game for the registry (slug ``numx``)."""

    state_class = NumxState
    slug = "numx"

    # ------------------------------------------------------------------ setup

    def new(self, options: dict[str, Any] | None, players: int, seed: int) -> NumxState:
        check_players(players, MIN_PLAYERS, MAX_PLAYERS, "This game is for 2 to 6 players.")
        opts = read_options(options, players)
        mode = MODES[opts["mode"]]
        ids = [c.id for c in deck(opts["malus"], actions=mode.actions)]
        pile, draws = Dice.shuffle(seed, 0, ids)
        hands = tuple(tuple(pile.pop() for _ in range(mode.hand)) for _ in range(players))
        return NumxState(
            players=players, seed=seed, draws=draws, mode=opts["mode"], rules=opts["rules"],
            malus=opts["malus"], teams=opts["teams"], phase="choose", hands=hands,
            pile=tuple(pile), discard=(), used=(), rows=((),) * players,
            chosen=(None,) * players, blocked=(False,) * players,
            protected=(False,) * players, rulebook=opts["rulebook"],
            blocked_by=(None,) * players if opts["rulebook"] >= 2 else (),
        )

    # ------------------------------------------------------------------ moves

    def moves(self, state: NumxState, player: int) -> list[dict[str, Any]]:
        """What ``player`` may do now. Counting moves and the distribution are
        listed as shapes (the count never gives its answer away)."""
        if not isinstance(player, int) or not 0 <= player < state.players:
            return []
        phase = state.phase
        if phase == "choose":
            if state.chosen[player] is not None:
                return []
            return [{"type": "choose", "card": c} for c in state.hands[player]]
        if phase == "refill":
            if state.chosen[player] is not None:
                return []
            return [{"type": "refill", "choice": c} for c in ("top_up", "redraw")]
        if phase == "distribute":
            if player != state.winner:
                return []
            return [{"type": "distribute", **offer(state)}]
        if phase == "count":
            return count_moves(state, player)
        if phase != "play":
            return []
        found: list[dict[str, Any]] = []
        if player not in waiting_on(state):
            if can_add_rainbow(state, player):
                last = state.last
                assert last is not None
                found.append({"type": "rainbow", "card": f"{RAINBOW}{last.value}",
                              "trick": len(state.tricks) - 1, "size": last.size})
            return found
        pending = state.pending
        if pending is not None and pending.kind == "malus":
            _, what, count, held = pending.owed[0]
            return [{"type": f"malus_{what}", "count": count, "cards": list(held)}]
        if pending is not None and pending.kind == "drawn":
            drawn = pending.card
            assert drawn is not None
            found += self._trick_moves(state, player, state.hands[player], must_include=drawn)
            if CARDS[drawn].is_action and state.actions:
                found += self.action_moves(state, player, drawn)
            if state.rulebook >= 2:
                return found  # RULES 4.5: a drawn card that can be played is played
            return found + [{"type": "keep"}]
        if pending is not None:  # the Shadow's bonus action
            for c in sorted(set(state.hands[player])):
                if CARDS[c].is_action:
                    found += self.action_moves(state, player, c)
            return found + [{"type": "pass"}]
        hand = state.hands[player]
        if state.blocked[player]:
            # Num-X ignores a Block; without it only the forced pass is left
            # (rulebook 4 asks a blocked player whatever they hold).
            numx = [{"type": "trick", "cards": [NUMX]}] if NUMX in hand else []
            return numx + [{"type": "pass"}]
        found += self._trick_moves(state, player, hand)
        for index, (c, up) in enumerate(state.rows[player]):
            if up:
                extra = {"from_row": index}
                found += self._trick_moves(state, player, hand + (c,), must_include=c,
                                           extra=extra)
                if CARDS[c].is_action and state.actions:
                    found += self.action_moves(state, player, c, extra)
        if state.actions:
            for c in sorted(set(hand)):
                if CARDS[c].is_action:
                    found += self.action_moves(state, player, c)
        if state.pile or state.discard:
            found.append({"type": "draw"})
        if state.tricks or not found:
            found.append({"type": "pass"})
        return found

    def _trick_moves(self, state: NumxState, player: int, cards: tuple[str, ...],
                     must_include: str | None = None, extra: dict[str, Any] | None = None
                     ) -> list[dict[str, Any]]:
        return [{"type": "trick", "cards": list(t), "value": v, **(extra or {})}
                for t, v in legal_tricks(cards, state.last, must_include)]

    def action_moves(self, state: NumxState, player: int, card_id: str,
                     extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Every target of an action card (Éclair: every pair of positions)."""
        kind = CARDS[card_id].kind
        base = {"type": "action", "card": card_id, **(extra or {})}
        found: list[dict[str, Any]] = []
        mates = state.team_of(player)
        if kind == "eclair":
            mine = len(state.rows[player]) - (1 if extra else 0)
            for other in range(state.players):
                if other in mates or shielded(state, player, other):
                    continue
                for i in range(mine):
                    for j in range(len(state.rows[other])):
                        found.append({**base, "target": other, "mine": i, "theirs": j})
            return found
        assert kind in TARGETED
        options: list[Any] = []
        for p in range(state.players):
            if kind in ("block", "malus") and p in mates:
                continue
            if kind != "quantique" and shielded(state, player, p):
                continue
            options.append(p)
        if kind != "quantique":
            options.append("all")
        for target in options:
            if kind == "swipe":
                found += [{**base, "target": target, "direction": d} for d in ("left", "right")]
            else:
                found.append({**base, "target": target})
        if state.teams and kind == "block":
            found.append({**base, "target": "between"})
        if state.teams and kind == "quantique":
            found += [{**base, "target": "team", "team": t} for t in range(len(state.teams))]
        return found

    # ------------------------------------------------------------------ apply

    def apply(self, state: NumxState, player: int | None, move: dict[str, Any]) -> Outcome:
        if player is None and isinstance(move, dict) and move.get("type") == "end":
            return _ended(state)
        check_in_game(player, state.players)
        if not isinstance(move, dict):
            raise IllegalMove("That move makes no sense.", "malformed", field="move")
        kind = move.get("type")
        if not isinstance(kind, str) or kind not in MOVE_TYPES:
            raise IllegalMove("That move makes no sense.", "malformed", field="type")
        if state.phase == "over":
            raise IllegalMove("The game is over.", "game_over")
        if kind == "rainbow":
            refusal = rainbow_refusal(state, player, move)
            if refusal is not None:
                raise refusal
            return Outcome(*add_rainbow(state, player, move["card"]))
        if kind in ("count_group", "count_total"):
            return apply_count(state, player, kind, move)
        if state.phase == "choose" and kind == "choose":
            return self._choose(state, player, move)
        if state.phase == "refill" and kind == "refill":
            return self._refill(state, player, move)
        if player not in waiting_on(state):
            raise IllegalMove("Wait for your turn.", "not_your_turn",
                              waiting_on=sorted(waiting_on(state)))
        if state.phase == "distribute" and kind == "distribute":
            return self._distribute(state, move)
        if state.phase != "play":
            raise IllegalMove(_PHASE_HINT[state.phase], "wrong_phase", phase=state.phase,
                              type=kind)
        pending = state.pending
        if pending is not None and pending.kind == "malus":
            return Outcome(*answer_malus(state, player, kind, move))
        if pending is not None and pending.kind == "drawn":
            return self._after_draw(state, player, kind, move)
        if pending is not None:  # the Shadow's bonus
            if kind == "pass":
                return Outcome(*hand_on(state, player, voluntary=False))
            if kind != "action" or move.get("from_row") is not None:
                raise IllegalMove("You may play an action card now, or pass.", "bonus_action")
            return self._action(state, player, move, voluntary=False)
        if state.blocked[player]:
            if kind == "pass":
                state = set_fields(state, blocked=with_item(state.blocked, player, False))
                state, events = hand_on(state, player, voluntary=let_stand(state, player))
                return Outcome(state, (Event("blocked", player, {}), *events))
            if kind != "trick" or move.get("cards") != [NUMX]:
                raise IllegalMove("You are blocked: pass, or play Num-X.", "blocked")
        if kind == "trick":
            return self._trick(state, player, move)
        if kind == "action":
            return self._action(state, player, move, voluntary=True)
        if kind == "draw":
            return self._draw(state, player)
        if kind == "pass":
            if not state.tricks and self.moves(state, player) != [{"type": "pass"}]:
                raise IllegalMove("You start this tour: play a card.", "must_open")
            state, events = hand_on(state, player, voluntary=True)
            return Outcome(state, (Event("passed", player, {}), *events))
        raise IllegalMove("That move is not possible now.", "wrong_phase", phase="play",
                          type=kind)

    def _choose(self, state: NumxState, player: int, move: dict[str, Any]) -> Outcome:
        chosen = move.get("card")
        if chosen not in state.hands[player]:
            raise IllegalMove("Choose a card from your hand.", "not_in_hand")
        state = set_fields(state, chosen=with_item(state.chosen, player, chosen))
        events = [Event("chose", player, {})]
        if any(c is None for c in state.chosen):
            return Outcome(state, tuple(events))
        # Everyone has chosen: the cards are revealed at once, face up (RULES 4.4).
        hands = tuple(tuple(c for c in hand if c != state.chosen[p])
                      for p, hand in enumerate(state.hands))
        rows = tuple(((state.chosen[p], True),) for p in range(state.players))
        picks = [(p, c) for p, c in enumerate(state.chosen)]
        starter, draws = smallest_unique(picks, state.seed, state.draws)  # type: ignore[arg-type]
        events.append(Event("revealed", None, {"cards": list(state.chosen), "starter": starter}))
        state = set_fields(state, hands=hands, rows=rows, draws=draws, chosen=(),
                           phase="play", current=starter)
        return Outcome(state, tuple(events))

    def _refill(self, state: NumxState, player: int, move: dict[str, Any]) -> Outcome:
        choice = move.get("choice")
        if choice not in ("top_up", "redraw"):
            raise IllegalMove("Top up your hand, or draw a new one.", "malformed", field="choice")
        state = set_fields(state, chosen=with_item(state.chosen, player, choice))
        events = [Event("refill_chosen", player, {"choice": choice})]
        if any(c is None for c in state.chosen):
            return Outcome(state, tuple(events))
        # RULES 4.9: the discard goes back into the pile; used actions stay out.
        pile, draws = Dice.shuffle(state.seed, state.draws, sorted(state.pile + state.discard))
        state = set_fields(state, pile=tuple(pile), discard=(), draws=draws)
        for p in range(state.players):
            hand = state.hands[p]
            if state.chosen[p] == "redraw":
                state = to_discard(state, hand)
                hand = ()
            state, drawn, more = draw_cards(state, max(state.hand_size - len(hand), 0))
            state = set_fields(state, hands=with_item(state.hands, p, hand + drawn))
            events += more
        face_up = [(p, c) for p, row in enumerate(state.rows) for c, up in row if up]
        starter, draws = smallest_unique(face_up or [(0, "numx")], state.seed, state.draws)
        state = set_fields(state, draws=draws, chosen=(), phase="play", current=starter,
                           round_no=state.round_no + 1)
        events.append(Event("round_started", starter, {"round": state.round_no}))
        return Outcome(state, tuple(events))

    def _trick(self, state: NumxState, player: int, move: dict[str, Any],
               must_include: str | None = None) -> Outcome:
        cards = _card_list(move)
        if must_include is not None and must_include not in cards:
            raise play_drawn(state)
        value = move.get("value")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise IllegalMove("Say which number the Joker stands for (0 to 16).", "joker_value")
        value, kind = check_trick(cards, value, state.last)
        state = _take(state, player, cards, move)
        trick = Trick(player, cards, value, kind)
        state = new_top_trick(set_fields(state, tricks=state.tricks + (trick,), pending=None))
        events: Events = [Event("trick", player, trick.to_json())]
        emptied = not state.hands[player]
        if kind == NUMX or emptied:
            more_state, more = end_tour(state, player, round_over=emptied)
            return Outcome(more_state, tuple(events + more))
        if any(CARDS[c].colour == SHADOW for c in cards) and state.actions and any(
                CARDS[c].is_action for c in state.hands[player]):
            state = set_fields(state, pending=Pending("bonus", player))
            events.append(Event("shadow_bonus", player, {}))
            return Outcome(state, tuple(events))
        more_state, more = hand_on(state, player, voluntary=False)
        return Outcome(more_state, tuple(events + more))

    def _action(self, state: NumxState, player: int, move: dict[str, Any], voluntary: bool,
                must_be: str | None = None) -> Outcome:
        card_id = move.get("card")
        if not isinstance(card_id, str) or card_id not in CARDS or not CARDS[card_id].is_action:
            raise IllegalMove("Choose an action card.", "not_action")
        if must_be is not None and card_id != must_be:
            raise play_drawn(state)
        if not state.actions:
            raise IllegalMove("This mode has no action cards.", "no_actions")
        state = _take(state, player, (card_id,), move)
        state = to_discard(state, (card_id,))
        state, events = play_action(state, player, card_id, move, voluntary)
        if state.pending is not None and state.pending.kind == "malus":
            return Outcome(state, tuple(events))
        more_state, more = hand_on(state, player, voluntary)
        return Outcome(more_state, tuple(events + more))

    def _draw(self, state: NumxState, player: int) -> Outcome:
        state, drawn, events = draw_cards(state, 1)
        if not drawn:
            raise IllegalMove("The pile is empty.", "empty_pile")
        (card_id,) = drawn
        state = set_fields(state, hands=with_item(state.hands, player,
                                                  state.hands[player] + drawn))
        events.append(Event("drew", player, {}))
        playable = bool(legal_tricks(state.hands[player], state.last, must_include=card_id)) \
            or (CARDS[card_id].is_action and state.actions and (
                state.rulebook < 2 or bool(self.action_moves(state, player, card_id))))
        if not playable:
            more_state, more = hand_on(state, player, voluntary=True)
            return Outcome(more_state, tuple(events + [Event("kept", player, {})] + more))
        return Outcome(set_fields(state, pending=Pending("drawn", player, card_id)),
                       tuple(events))

    def _after_draw(self, state: NumxState, player: int, kind: str,
                    move: dict[str, Any]) -> Outcome:
        drawn = state.pending.card  # type: ignore[union-attr]
        if move.get("from_row") is not None:
            raise play_drawn(state)
        if kind == "keep":
            if {"type": "keep"} not in self.moves(state, player):
                raise play_drawn(state)
            state, events = hand_on(state, player, voluntary=True)
            return Outcome(state, (Event("kept", player, {}), *events))
        if kind == "trick":
            return self._trick(state, player, move, must_include=drawn)
        if kind == "action":
            return self._action(state, player, move, voluntary=True, must_be=drawn)
        raise play_drawn(state)

    def _distribute(self, state: NumxState, move: dict[str, Any]) -> Outcome:
        handed = read_distribution(state, move)
        rows = list(state.rows)
        shown = []
        for card_id, to, face_up, end in handed:
            entry = ((card_id, face_up),)
            rows[to] = entry + rows[to] if end == "left" else rows[to] + entry
            shown.append({"card": card_id if face_up else None, "to": to, "face_up": face_up,
                          "end": end})
        state = set_fields(state, rows=tuple(rows))
        events: Events = [Event("handed_out", state.winner, {"cards": shown})]
        state, more = close_tour(state, tuple(h[0] for h in handed))
        return Outcome(state, tuple(events + more))

    # ------------------------------------------------------------------ views

    def view(self, state: NumxState, player: int | None) -> dict[str, Any]:
        """What ``player`` sees; ``None`` is the teacher's screen (no hand).
        Face-down score cards are hidden from everyone, their owner included,
        until the count reveals every row."""
        revealed = state.phase in ("count", "over")
        rows = [[{"face_up": up, "card": card(c, state.malus).to_json()} if up or revealed
                 else {"face_up": False} for c, up in row] for row in state.rows]
        data: dict[str, Any] = {
            "players": state.players,
            "you": player,
            "mode": state.mode,
            "round": state.round_no,
            "rounds": state.rounds,
            "phase": state.phase,
            "tour": state.tour,
            "current": state.current,
            "waiting_on": sorted(waiting_on(state)),
            "teams": [list(t) for t in state.teams],
            "hand": None,
            "hand_sizes": [len(h) for h in state.hands],
            "rows": rows,
            "tricks": [{**t.to_json(), "cards": [card(c).to_json() for c in t.cards]}
                       for t in state.tricks],
            "pile": len(state.pile),
            "discard": len(state.discard),
            "blocked": list(state.blocked),
            "protected": list(state.protected),
            "chosen": [c is not None for c in state.chosen],
            "pending": self._pending_view(state, player),
            "distribution": offer(state) if state.phase == "distribute" else None,
            "can_add_rainbow": player is not None and can_add_rainbow(state, player),
            "count": None,
            "scores": list(final_scores(state)) if state.phase == "over" else None,
        }
        if player is not None:
            data["hand"] = [card(c, state.malus).to_json() for c in state.hands[player]]
            if state.phase in ("choose", "refill"):
                data["your_choice"] = state.chosen[player]
            if revealed:
                data["count"] = count_view(state, player)
        return data

    def _pending_view(self, state: NumxState, player: int | None) -> dict[str, Any] | None:
        pending = state.pending
        if pending is None:
            return None
        shown: dict[str, Any] = {"kind": pending.kind, "player": pending.player}
        if pending.kind == "drawn" and player == pending.player:
            shown["card"] = pending.card
        if pending.kind == "malus":
            shown["card"] = pending.card
            shown["owed"] = [{"player": p, "what": what, "count": n,
                              "cards": [card(c).to_json() for c in held] if p == player else None}
                             for p, what, n, held in pending.owed]
        return shown

    def result(self, state: NumxState) -> Result | None:
        if state.phase != "over":
            return None
        scores = final_scores(state)
        if state.ended:
            return Result(scores, rank_when_ended(scores), ended=True)
        return Result(scores, rank_by_score(scores))


def _ended(state: NumxState) -> Outcome:
    """The teacher ends the game (the server's move, no player's): every row
    counts as it stands, face-down cards too, as at the last count (RULES 4.10)."""
    if state.phase == "over":
        raise IllegalMove("The game is over.", "game_over")
    if len(state.counts) != state.players:  # ended before the count began
        state = set_fields(state, counts=((),) * state.players, totals=(None,) * state.players)
    state = set_fields(state, phase="over", ended=True, pending=None, current=None)
    return Outcome(state, (Event("game_over", None, {
        "reason": "teacher", "scores": list(final_scores(state))}),))


_PHASE_HINT = {
    "choose": "First choose your first score card.",
    "distribute": "The winner of the tour hands out the score cards.",
    "refill": "First top up your hand or draw a new one.",
    "count": "Now count your score cards.",
}

GAME = Numx()
__all__ = ["GAME", "Numx", "can_add_rainbow", "count_steps", "final_scores", "start_count",
           "task", "waiting_on"]
