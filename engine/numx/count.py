"""The pupil's count at the end of the game (RULES.md 0.3, 4.10).

Each pupil values the groups of :func:`engine.numx.scoring.count_steps` of
their own row in order (``count_group``: a ``scoring`` attempt on the group's
card ids, "shadow4", whose colours say why it is worth what it is, and a ``mul``
attempt when the worth is a value times a count), then types the total
(``count_total``: an ``add`` attempt) when there are two groups or more. A
wrong step is recorded and play goes on with the right worth, which the event
shows. In teams each member counts the team's merged row.
"""

from __future__ import annotations

from typing import Any

from engine.core import Attempt, Event, IllegalMove, Outcome, read_int_field
from engine.numx.state import NumxState, set_fields, with_item

MAX_TYPED = 999


def start_count(state: NumxState) -> NumxState:
    state = set_fields(state, phase="count", counts=((),) * state.players,
                       totals=(None,) * state.players)
    return finish_if_counted(state)


def count_done(state: NumxState, player: int) -> bool:
    steps = state.steps(player)
    if len(state.counts[player]) < len(steps):
        return False
    return len(steps) < 2 or state.totals[player] is not None


def finish_if_counted(state: NumxState) -> NumxState:
    if all(count_done(state, p) for p in range(state.players)):
        return set_fields(state, phase="over")
    return state


def final_scores(state: NumxState) -> tuple[int, ...]:
    """Each player's points: in teams, the team's merged row (RULES 4.2)."""
    return tuple(sum(s.worth for s in state.steps(p)) for p in range(state.players))


def count_moves(state: NumxState, player: int) -> list[dict[str, Any]]:
    if count_done(state, player):
        return []
    steps = state.steps(player)
    done = len(state.counts[player])
    if done < len(steps):
        return [{"type": "count_group", **steps[done].move_key(), "min": 0,
                 "max": MAX_TYPED}]
    return [{"type": "count_total", "min": 0, "max": MAX_TYPED}]


def _wrong_product(factors: tuple[int, int], given: int) -> bool:
    """Whether a wrong worth is a multiplication gone wrong: a number that no
    count of the group's value makes. A multiple of the value (a card too
    many or too few, a group thought to score nothing) is a mistake of the
    count alone, the scoring's."""
    value, _count = factors
    return value != 0 and given % value != 0


def apply_count(state: NumxState, player: int, kind: str, move: dict[str, Any]) -> Outcome:
    if state.phase != "count":
        raise IllegalMove("The count comes at the end of the game.", "wrong_phase",
                          phase=state.phase, type=kind)
    if count_done(state, player):
        raise IllegalMove("You have counted your cards.", "counted")
    steps = state.steps(player)
    done = state.counts[player]
    if kind == "count_group":
        if len(done) == len(steps):
            raise IllegalMove("All groups are counted: now the total.", "count_total_now")
        step = steps[len(done)]
        if any(move.get(k) != v for k, v in step.move_key().items()):
            name = f"the {step.key}s" if step.kind == "value" else f"the {step.key} cards"
            raise IllegalMove(f"Count {name} now.", "count_in_order", **step.move_key())
        given = read_int_field(move, "worth", 0, MAX_TYPED)
        correct = given == step.worth
        cards = tuple(f"{colour}{value}" for value, colour in step.cards)
        attempts = [Attempt("scoring", cards, step.worth, given, correct)]
        if step.mul is not None and (correct or _wrong_product(step.mul, given)):
            attempts.append(Attempt("mul", step.mul, step.worth, given, correct))
        state = set_fields(state, counts=with_item(state.counts, player,
                                                   done + (step.worth,)))
        event = Event("counted_group", player, {"step": step.to_json(), "given": given,
                                                "expected": step.worth, "correct": correct})
    else:
        if len(done) < len(steps):
            raise IllegalMove("Count every group first.", "groups_first")
        given = read_int_field(move, "total", 0, MAX_TYPED)
        expected = sum(done)
        correct = given == expected
        attempts = [Attempt("add", done, expected, given, correct)]
        state = set_fields(state, totals=with_item(state.totals, player, expected))
        event = Event("counted_total", player, {"given": given, "expected": expected,
                                                "correct": correct})
    state = finish_if_counted(state)
    events = [event]
    if state.phase == "over":
        events.append(Event("game_over", None, {"scores": list(final_scores(state))}))
    return Outcome(state, tuple(events), tuple(attempts))


def count_view(state: NumxState, player: int) -> dict[str, Any]:
    steps = state.steps(player)
    counted = state.counts[player]
    return {
        "steps": [{**s.to_json(), "worth": counted[i] if i < len(counted) else None}
                  for i, s in enumerate(steps)],
        "next": len(counted) if len(counted) < len(steps) else None,
        "needs_total": len(steps) >= 2,
        "total": state.totals[player],
        "done": count_done(state, player),
        "score": sum(counted) if count_done(state, player) else None,
    }
