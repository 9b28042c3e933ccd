"""Nambarz as an engine game (RULES.md 3.3-3.7).

Moves (dicts with a ``type``):

* ``{"type": "match", "card": id}``: concordance, one card with the target's
  number or drawing (3.4 a); also the one card laid on a change joker.
* ``{"type": "calculate", "cards": [ids in the order laid], "ops": ["*", "-"],
  "results": [9, 8]}``: a calculation (3.4 b). Left to right, op i joins the
  running result and card i + 1, and results[i] is what the pupil typed for
  that step. In the brackets variant an optional ``"steps": [[a, b], ...]``
  says which two numbers each step joins: positions 0..k-1 are the cards in the
  order laid, position k + s is the result of step s, each used once (left to
  right is ``[[0, 1], [k, 2], [k + 1, 3], ...]``, the default). The last card
  laid is the new target.
* ``{"type": "joker", "card": id}`` (3.6), ``{"type": "draw"}``, ``{"type": "pass"}``
  (after a draw, or instead of the card a change joker allows).
* Server moves: ``{"type": "timeout"}`` (the turn ends; a player who had not
  drawn draws one card) and ``{"type": "end"}`` (the game ends now).

A wrong typed result is not a refusal: the cards stay in the hand, but the move
is an Outcome whose only change is the ``retrying`` mark (later tries are not
first tries), with the attempts up to the wrong step and a ``wrong_result``
event (the right value is not shown: the retry is the pupil's own; its
``ops`` are every operation the pupil laid, typed on). So is a
calculation whose steps are all right but that misses the target: its steps
are evidence, and its ``wrong_result`` event says ``missed`` (with ``value``
and ``target``). The whole-calculation tags judge the plan (what the cards
and operations make exactly): one slip is one mistake, its step's. Every
other broken rule raises IllegalMove with a stable ``code`` and the state is
unchanged.

Refusal codes (stable, for translations): ``malformed``, ``unknown_move``,
``game_over``, ``no_such_player``, ``not_your_turn``, ``not_in_hand``,
``card_twice``, ``too_few_cards``, ``no_match``, ``not_a_joker``,
``joker_inside``, ``mixed_families``, ``concordant_inside``,
``op_not_allowed``, ``left_to_right_only``, ``below_zero``, ``not_whole``,
``not_simplest``, ``shorter_in_hand`` (option
``strict_simplest``), ``no_calculation_on_joker``, ``joker_family``,
``follow_card``, ``play_drawn``, ``already_drawn``, ``draw_first``,
``bad_option``, ``bad_players``. Their ``details`` name the cards by id.

Drawing is always allowed, even with a play in hand: a pupil who did not see a
play loses a turn, and the pages report the calculation that was missed
(:func:`engine.nambarz.bots.missed_calculation`).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Any

from engine.arithmetic import SKILL_OF, SYMBOL_OF, check_operation, operation_of
from engine.arithmetic import explain as explain_all
from engine.core import (
    Attempt,
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
    read_move_type,
)
from engine.nambarz.calc import (
    calculation_bonus,
    chain,
    rank_points,
    reaches,
    run_steps,
    smaller_part,
    solve,
)
from engine.nambarz.cards import (
    DRAWING,
    JOKER,
    JOKER_FOLLOWS,
    REPLAY,
    SYMBOL,
    Card,
    cards_of,
    match_kind,
)
from engine.nambarz.state import (
    HAND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NambarzState,
    Options,
    team_of,
)

MOVE_TYPES = ("match", "calculate", "joker", "draw", "pass", "timeout", "end")
MAX_TYPED = 10**6
FAMILY_WORD = {SYMBOL: "a number", DRAWING: "an animal"}
# A round where nobody can play nor draw ends after this many passes in a row
# per player still holding cards (L: the rule book never meets it).
BLOCKED_PASSES = 1
UNREADABLE = "That move makes no sense."  # every "malformed" refusal says it


def _malformed(field: str) -> IllegalMove:
    return IllegalMove(UNREADABLE, "malformed", field=field)


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1:]


# --------------------------------------------------------------------------- dealing


def _deal(players: int, options: Options, seed: int, draws: int,
          ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int]:
    """Shuffle, deal 7 each, turn up a first target that is not a joker (a
    joker turned up is buried at the bottom of the pile: RULES 3.9)."""
    ids, draws = Dice.shuffle(seed, draws, [c.id for c in cards_of(options.jokers)])
    hands = tuple(tuple(ids[-HAND * (p + 1):len(ids) - HAND * p][::-1]) for p in range(players))
    pile = ids[:len(ids) - HAND * players]
    cards = cards_of(options.jokers)
    while cards[pile[-1]].family == JOKER:
        pile.insert(0, pile.pop())
    first = pile.pop()
    return hands, tuple(pile), (first,), draws


def _bound_families(state: NambarzState) -> tuple[str, ...] | None:
    """When the target is a change joker: the families of the one card that may go."""
    target = state.target
    if target is not None and target.joker is not None:
        return JOKER_FOLLOWS[target.joker]
    return None


# --------------------------------------------------------------------------- the game


class Nambarz(StateStoresItself):
    """The engine game for the registry (slug ``nambarz``)."""

    state_class = NambarzState
    slug = "nambarz"

    def new(self, options: dict[str, Any] | None, players: int, seed: int) -> NambarzState:
        check_players(players, MIN_PLAYERS, MAX_PLAYERS, "Nambarz is for 2 to 12 players.")
        read = Options.read(options, players)
        hands, pile, discard, draws = _deal(players, read, seed, 0)
        return NambarzState(
            players=players, seed=seed, options=read, hands=hands, pile=pile,
            discard=discard, current=0, draws=draws, scores=(0,) * players,
            round_points=(0,) * players,
        )

    # ------------------------------------------------------------------ moves

    def moves(self, state: NambarzState, player: int) -> list[dict[str, Any]]:
        """What ``player`` may do now. Single cards are listed in full;
        calculations are not (they would be the answer): ``{"type":
        "calculate"}`` says one may be tried."""
        if state.over or player != state.current:
            return []
        hand = state.hands[player]
        if state.pending == "drawn":
            hand = (state.drawn,) if state.drawn is not None else ()
        bound = _bound_families(state)
        out: list[dict[str, Any]] = []
        for card_id in hand:
            card = state.card(card_id)
            if card.family == JOKER:
                if state.pending != "follow":
                    out.append({"type": "joker", "card": card_id})
            elif (card.family in bound) if bound is not None else \
                    match_kind(card, state.target) is not None:
                out.append({"type": "match", "card": card_id})
        if bound is None and state.pending != "follow" and len(state.hands[player]) >= 2:
            out.append({"type": "calculate"})
        if state.pending in ("", "replay"):
            out.append({"type": "draw"})
        if state.pending in ("drawn", "follow"):
            out.append({"type": "pass"})
        return out

    def apply(self, state: NambarzState, player: int | None, move: dict[str, Any]) -> Outcome:
        kind = read_move_type(move, MOVE_TYPES, UNREADABLE)
        if state.over:
            raise IllegalMove("The game is over.", "game_over")
        if player is not None:
            check_in_game(player, state.players)
        if kind == "end":
            return self._ended(state)
        if player is None and kind == "timeout":
            player = state.current
        if player is None:
            raise _malformed("player")
        if player != state.current:
            raise IllegalMove("It's not your turn yet.", "not_your_turn",
                              player=player, current=state.current)
        if kind == "timeout":
            return self._timeout(state, player)
        if kind == "draw":
            return self._draw(state, player)
        if kind == "pass":
            return self._pass(state, player)
        if kind == "calculate":
            return self._calculate(state, player, move)
        card = self._own_card(state, player, move.get("card"))
        if kind == "joker":
            return self._joker(state, player, card)
        return self._match(state, player, card)

    # ------------------------------------------------------------------ reading

    def _own_card(self, state: NambarzState, player: int, card_id: Any) -> Card:
        if isinstance(card_id, bool) or not isinstance(card_id, int) \
                or not 0 <= card_id < len(state.cards):
            raise _malformed("card")
        if card_id not in state.hands[player]:
            raise IllegalMove("That card is not in your hand.", "not_in_hand", card=card_id)
        if state.pending == "drawn" and card_id != state.drawn:
            raise self._play_drawn(state)
        return state.card(card_id)

    def _play_drawn(self, state: NambarzState) -> IllegalMove:
        if state.drawn is None:
            return IllegalMove("There was no card to draw: pass.", "play_drawn")
        label = state.card(state.drawn).label
        return IllegalMove(f"You drew {label}: play it now, or pass.", "play_drawn",
                           card=state.drawn)

    # ------------------------------------------------------------------ single cards

    def _match(self, state: NambarzState, player: int, card: Card) -> Outcome:
        if card.family == JOKER:
            raise IllegalMove("Play a joker with the joker button.", "malformed", field="type")
        target = state.target
        assert target is not None
        bound = _bound_families(state)
        if bound is not None:
            if card.family not in bound:
                wanted = " or ".join(FAMILY_WORD[f] for f in bound)
                raise IllegalMove(f"On this joker, lay {wanted} card.", "joker_family",
                                  card=card.id, families=list(bound))
            how = "joker"
        else:
            if state.pending == "follow":
                raise IllegalMove("Lay one card on your joker, or pass.", "follow_card")
            found = match_kind(card, target)
            if found is None:
                raise IllegalMove(
                    f"{card.label} does not match {target.label}: "
                    "it needs the same number or the same animal.",
                    "no_match", card=card.id, target=target.id)
            how = found
        event = Event("matched", player, {"card": card.to_json(), "by": how})
        return self._laid(state, player, (card.id,), [event], (), 0)

    def _joker(self, state: NambarzState, player: int, card: Card) -> Outcome:
        if card.family != JOKER:
            raise IllegalMove("That card is not a joker.", "not_a_joker", card=card.id)
        if state.pending == "follow":
            raise IllegalMove("Lay one card on your joker, or pass.", "follow_card")
        hand = tuple(c for c in state.hands[player] if c != card.id)
        state = replace(state, hands=_set(state.hands, player, hand),
                        discard=state.discard + (card.id,), drawn=None, stalled=0)
        events = [Event("joker", player, {"card": card.to_json()})]
        if card.joker == REPLAY:
            # Play again on the card under the joker; with no card left, draw.
            return Outcome(replace(state, pending="replay"), tuple(events))
        if not hand:
            return self._went_out(state, player, events, ())
        return Outcome(replace(state, pending="follow"), tuple(events))

    # ------------------------------------------------------------------ calculations

    def _calculate(self, state: NambarzState, player: int, move: dict[str, Any]) -> Outcome:
        options = state.options
        target = state.target
        assert target is not None
        if state.pending == "follow":
            raise IllegalMove("Lay one card on your joker, or pass.", "follow_card")
        if _bound_families(state) is not None:
            raise IllegalMove("No calculation on a joker: lay one card, or draw.",
                              "no_calculation_on_joker")
        ids = move.get("cards")
        hand = state.hands[player]
        if not isinstance(ids, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in ids):
            raise _malformed("cards")
        if len(ids) < 2:
            raise IllegalMove("A calculation uses 2 cards or more.", "too_few_cards")
        if len(set(ids)) != len(ids):
            raise IllegalMove("Each card can be used only once.", "card_twice")
        for card_id in ids:
            if card_id not in hand:
                raise IllegalMove("That card is not in your hand.", "not_in_hand", card=card_id)
        if state.pending == "drawn" and state.drawn not in ids:
            raise self._play_drawn(state)
        cards = [state.card(i) for i in ids]
        if any(c.family == JOKER for c in cards):
            raise IllegalMove("A joker can't be inside a calculation.", "joker_inside")
        if len({c.family for c in cards}) > 1:
            raise IllegalMove("Use only number cards, or only animal cards.",
                              "mixed_families")
        for card in cards:
            how = match_kind(card, target)
            if how is not None:
                word = "number" if how == "number" else "animal"
                raise IllegalMove(
                    f"{card.label} matches the target by its {word}: "
                    "it can't be inside a calculation.",
                    "concordant_inside", card=card.id, by=how)
        k = len(cards)
        ops = self._read_ops(move.get("ops"), k, options.operations)
        steps = self._read_steps(move.get("steps"), k, options.brackets)
        results = move.get("results")
        if not isinstance(results, list) or len(results) != k - 1 or not all(
                isinstance(r, int) and not isinstance(r, bool) and 0 <= r <= MAX_TYPED
                for r in results):
            raise IllegalMove("Type the result of every step.", "malformed", field="results")
        numbers = [c.number for c in cards]
        true_steps = run_steps(numbers, ops, steps)  # type: ignore[arg-type]
        first_try = not state.retrying
        attempts: list[Attempt] = []
        plain = steps == chain(k)
        # The plan (the cards, their order and operations) is judged as a
        # plan: on what it makes exactly, whatever the pupil typed at a step.
        value = true_steps[-1].result
        plan = self._tags(numbers, target.number, value, value == target.number, plain,
                          first_try, options.brackets)
        for index, (step, given) in enumerate(zip(true_steps, results, strict=True)):
            correct = given == step.result
            attempts.append(Attempt(SKILL_OF[step.op], (step.left, step.right), step.result,
                                    given, correct, first_try))
            if not correct:
                # One slip, one mistake: its step's. The steps after it
                # were built on the wrong number.
                attempts.extend(plan)
                event = Event("wrong_result", player, {
                    "step": index, "left": step.left, "op": step.op, "right": step.right,
                    "given": given, "ops": ops})
                return Outcome(replace(state, retrying=True), (event,), tuple(attempts))
        if value != target.number:
            # Every step right, the target missed: the steps are evidence,
            # the miss a mistake of the plan. The cards stay in the hand.
            attempts.extend(plan)
            event = Event("wrong_result", player, {
                "missed": True, "value": value, "target": target.number, "ops": ops})
            return Outcome(replace(state, retrying=True), (event,), tuple(attempts))
        part = smaller_part(numbers, target.number, options.brackets,  # type: ignore[arg-type]
                            options.operations)
        if part is not None:
            shown = _part_text(part, target.number, options)
            raise IllegalMove(f"{shown} already makes {target.number}: use fewer cards.",
                              "not_simplest", part=list(part), target=target.number,
                              text=shown)
        if options.strict_simplest and _shorter_in_hand(state, player, target, k):
            raise IllegalMove(f"Fewer cards from your hand can make {target.number}: "
                              "use fewer cards.", "shorter_in_hand", target=target.number)
        attempts.extend(plan)
        bonus = calculation_bonus(k)
        event = Event("calculated", player, {
            "cards": [c.to_json() for c in cards], "ops": ops, "steps": steps,
            "results": results, "bonus": bonus})
        return self._laid(state, player, tuple(ids), [event], tuple(attempts), bonus)

    @staticmethod
    def _read_ops(raw: Any, k: int, operations: str) -> list[str]:
        if not isinstance(raw, list) or len(raw) != k - 1:
            raise IllegalMove("Choose an operation between every two cards.", "malformed",
                              field="ops")
        ops = []
        for symbol in raw:
            op = operation_of(symbol)
            if op is None:
                raise _malformed("ops")
            check_operation(op, operations)
            ops.append(op)
        return ops

    @staticmethod
    def _read_steps(raw: Any, k: int, brackets: bool) -> list[list[int]]:
        plain = chain(k)
        if raw is None:
            return plain
        if not isinstance(raw, list) or len(raw) != k - 1 or not all(
                isinstance(s, list) and len(s) == 2
                and all(isinstance(i, int) and not isinstance(i, bool) for i in s) for s in raw):
            raise _malformed("steps")
        if raw == plain:
            return plain
        if not brackets:
            raise IllegalMove("Calculate from left to right: each card joins the result so far.",
                              "left_to_right_only")
        used: set[int] = set()
        for index, (a, b) in enumerate(raw):
            available = k + index
            if a == b or not (0 <= a < available and 0 <= b < available) or a in used \
                    or b in used:
                raise IllegalMove("Use each card and each result exactly once.", "malformed",
                                  field="steps")
            used.update((a, b))
        return [list(s) for s in raw]

    @staticmethod
    def _tags(numbers: list[Any], target: int, given: int, correct: bool, plain: bool,
              first_try: bool, brackets: bool) -> list[Attempt]:
        """Whole-calculation skills (RULES 0.4), operands = the cards' numbers."""
        tags = []
        if len(numbers) >= 3:
            tags.append("multi_step")
            if plain:
                tags.append("left_to_right")
        if brackets and not plain:
            tags.append("brackets")
        return [Attempt(tag, tuple(numbers), target, given, correct, first_try)
                for tag in tags]

    # ------------------------------------------------------------------ laying, turns, rounds

    def _laid(self, state: NambarzState, player: int, ids: tuple[int, ...],
              events: list[Event], attempts: tuple[Attempt, ...], bonus: int) -> Outcome:
        hand = tuple(c for c in state.hands[player] if c not in ids)
        points = state.round_points
        if bonus:
            points = _set(points, player, points[player] + bonus)
        state = replace(state, hands=_set(state.hands, player, hand),
                        discard=state.discard + ids, round_points=points, stalled=0)
        if not hand:
            return self._went_out(state, player, events, attempts)
        return self._next_turn(state, events, attempts)

    def _went_out(self, state: NambarzState, player: int, events: list[Event],
                  attempts: tuple[Attempt, ...]) -> Outcome:
        state = replace(state, out=state.out + (player,))
        events.append(Event("went_out", player, {"rank": len(state.out)}))
        still = [p for p in range(state.players) if p not in state.out]
        if len(still) <= 1 or len(state.out) >= 5:
            return self._round_over(state, events, attempts, still)
        return self._next_turn(state, events, attempts)

    def _next_turn(self, state: NambarzState, events: list[Event],
                   attempts: tuple[Attempt, ...] = ()) -> Outcome:
        player = state.current
        for step in range(1, state.players + 1):
            candidate = (player + step) % state.players
            if candidate not in state.out:
                break
        state = replace(state, current=candidate, turn=state.turn + 1, pending="",
                        drawn=None, retrying=False)
        events.append(Event("turn", candidate, {"turn": state.turn}))
        return Outcome(state, tuple(events), attempts)

    def _ended(self, state: NambarzState) -> Outcome:
        """The teacher ends the game: the points earned so far are kept, this
        round's bonuses and the rank points of those already out (their place
        is theirs whatever comes); those still holding cards have no place yet."""
        points = list(state.round_points)
        for index, p in enumerate(state.out):
            points[p] += rank_points(index + 1)
        scores = tuple(s + r for s, r in zip(state.scores, points, strict=True))
        history = state.history + (tuple(points),) if any(points) else state.history
        state = replace(state, over=True, ended=True, scores=scores, history=history,
                        round_points=(0,) * state.players, pending="", drawn=None)
        return Outcome(state, (Event("game_over", None, {
            "reason": "ended", "scores": list(_team_totals(state))}),))

    def _round_over(self, state: NambarzState, events: list[Event],
                    attempts: tuple[Attempt, ...], still: list[int]) -> Outcome:
        # Those still holding cards rank after those out: fewer cards first,
        # then whoever would have played sooner.
        still = sorted(still, key=lambda p: (len(state.hands[p]), (p - state.current - 1)
                                             % state.players))
        order = list(state.out) + still
        points = list(state.round_points)
        for index, p in enumerate(order):
            paid = p in state.out or state.options.last_paid
            points[p] += rank_points(index + 1) if paid else 0
        scores = tuple(s + r for s, r in zip(state.scores, points, strict=True))
        events.append(Event("round_over", None, {
            "round": state.round, "order": order, "points": points, "scores": list(scores)}))
        state = replace(state, scores=scores, history=state.history + (tuple(points),))
        totals = _team_totals(state)
        best = max(totals)
        tied = state.options.tie_break and sum(
            1 for team, total in _teams(state) if total == best) > 1
        if state.round >= state.options.rounds and not tied:
            state = replace(state, over=True, pending="", drawn=None)
            events.append(Event("game_over", None, {"scores": list(totals)}))
            return Outcome(state, tuple(events), attempts)
        # The player with the most points so far starts the next round.
        starter = max(range(state.players), key=lambda p: (state.scores[p], -p))
        hands, pile, discard, draws = _deal(state.players, state.options, state.seed,
                                            state.draws)
        state = replace(state, hands=hands, pile=pile, discard=discard, draws=draws,
                        round=state.round + 1, out=(), round_points=(0,) * state.players,
                        current=starter, turn=state.turn + 1, pending="", drawn=None,
                        retrying=False, stalled=0)
        events.append(Event("round_started", starter, {"round": state.round, "extra": tied}))
        return Outcome(state, tuple(events), attempts)

    # ------------------------------------------------------------------ draw, pass, timeout

    def _draw(self, state: NambarzState, player: int) -> Outcome:
        if state.pending == "drawn":
            raise IllegalMove("You have drawn already: play that card, or pass.",
                              "already_drawn")
        if state.pending == "follow":
            raise IllegalMove("Lay one card on your joker, or pass.", "follow_card")
        events: list[Event] = []
        pile, discard, draws = state.pile, state.discard, state.draws
        if not pile:
            pile, discard, draws = _reshuffle(state)
            if pile:
                events.append(Event("reshuffled", None, {"pile": len(pile)}))
        if not pile:
            events.append(Event("drew", player, {"card": None}))
            return Outcome(replace(state, pending="drawn", drawn=None, draws=draws),
                           tuple(events))
        drawn = pile[-1]
        state = replace(state, pile=pile[:-1], discard=discard, draws=draws,
                        hands=_set(state.hands, player, state.hands[player] + (drawn,)),
                        pending="drawn", drawn=drawn, stalled=0)
        events.append(Event("drew", player, {"count": 1}))
        return Outcome(state, tuple(events))

    def _pass(self, state: NambarzState, player: int) -> Outcome:
        if state.pending not in ("drawn", "follow"):
            raise IllegalMove("Play a card, or draw one first.", "draw_first")
        events = [Event("passed", player, {})]
        if state.pending == "drawn" and state.drawn is None:
            stalled = state.stalled + 1
            state = replace(state, stalled=stalled)
            still = [p for p in range(state.players) if p not in state.out]
            if stalled >= BLOCKED_PASSES * len(still):
                events.append(Event("blocked", None, {}))
                return self._round_over(state, events, (), still)
        return self._next_turn(state, events)

    def _timeout(self, state: NambarzState, player: int) -> Outcome:
        events: list[Event] = [Event("timeout", player, {})]
        if state.pending in ("", "replay"):
            drawn = self._draw(state, player)
            state = drawn.state
            events.extend(drawn.events)
        return self._next_turn(state, events)

    # ------------------------------------------------------------------ seeing

    def view(self, state: NambarzState, player: int | None) -> dict[str, Any]:
        """What ``player`` sees; ``None`` is the teacher's screen. Other hands
        show only their size; ``None`` sees no hand at all."""
        target = state.target
        result = self.result(state)
        data: dict[str, Any] = {
            "players": state.players,
            "you": player,
            "current": state.current,
            "your_turn": player is not None and player == state.current and not state.over,
            "round": state.round,
            "rounds": state.options.rounds,
            "turn": state.turn,
            "hand_sizes": [len(h) for h in state.hands],
            "pile": len(state.pile),
            "target": target.to_json() if target is not None else None,
            "top": [state.card(c).to_json() for c in state.discard[-4:]],
            "bound": list(_bound_families(state) or ()),
            "pending": state.pending,
            "out": list(state.out),
            "scores": list(_team_totals(state)),
            "round_points": list(state.round_points),
            "history": [list(h) for h in state.history],
            "teams": [list(t) for t, _ in _teams(state)] if state.options.teams else None,
            "options": state.options.to_json(),
            "over": state.over,
            "result": result.to_json() if result is not None else None,
        }
        if player is not None:
            data["hand"] = [state.card(c).to_json() for c in state.hands[player]]
            data["drawn"] = state.drawn if player == state.current else None
            data["moves"] = self.moves(state, player)
            data["retrying"] = state.retrying and player == state.current
        return data

    def result(self, state: NambarzState) -> Result | None:
        if not state.over:
            return None
        totals = _team_totals(state)
        if state.ended:
            return Result(totals, rank_when_ended(totals), ended=True)
        return Result(totals, rank_by_score(totals))


def _teams(state: NambarzState) -> list[tuple[tuple[int, ...], int]]:
    seen: list[tuple[tuple[int, ...], int]] = []
    for p in range(state.players):
        team = team_of(state, p)
        if team[0] == p:
            seen.append((team, sum(state.scores[q] for q in team)))
    return seen


def _team_totals(state: NambarzState) -> tuple[int, ...]:
    """Per player: their score, or their team's shared score."""
    return tuple(sum(state.scores[q] for q in team_of(state, p)) for p in range(state.players))


def _reshuffle(state: NambarzState) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """The discard under the target (and any jokers on it) becomes the new pile."""
    keep = len(state.discard)
    for index in range(len(state.discard) - 1, -1, -1):
        keep = index
        if state.card(state.discard[index]).joker != REPLAY:
            break
    under = list(state.discard[:keep])
    if not under:
        return (), state.discard, state.draws
    shuffled, draws = Dice.shuffle(state.seed, state.draws, under)
    return tuple(shuffled), state.discard[keep:], draws


def _shorter_in_hand(state: NambarzState, player: int, target: Card, k: int) -> bool:
    """Whether some calculation of fewer than ``k`` cards of the hand makes the target."""
    options = state.options
    for family in (SYMBOL, DRAWING):
        numbers = sorted(
            card.number for card in (state.card(c) for c in state.hands[player])  # type: ignore[misc]
            if card.family == family and match_kind(card, target) is None)
        for size in range(2, min(k, len(numbers) + 1)):
            for part in set(combinations(numbers, size)):
                if reaches(part, target.number, options.brackets,  # type: ignore[arg-type]
                           options.operations):
                    return True
    return False


def _part_text(part: tuple[int, ...], target: int, options: Options) -> str:
    if options.brackets:
        calculation = explain_all(part, target, options.operations)
        assert calculation is not None
        return calculation.text
    found = solve(part, target, False, options.operations)
    assert found is not None
    order, ops, _ = found
    text = str(order[0])
    for op, number in zip(ops, order[1:], strict=True):
        text += f" {SYMBOL_OF[op]} {number}"
    return text

GAME = Nambarz()
