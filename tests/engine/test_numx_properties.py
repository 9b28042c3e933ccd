"""NUM-X properties over any legal sequence: cards are conserved, a replayed
log reaches the same state, and no view shows a hidden card."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalMove
from engine.numx import GAME, can_add_rainbow, task, waiting_on
from engine.numx.distribution import feasible, offer, per_player
from engine.numx.state import NumxState, card_count

STEPS = 160


def fill_in(state: NumxState, player: int, move: dict, rng: random.Random) -> dict:
    """A concrete move from a shape listed by ``moves`` (any answer, right or wrong)."""
    kind = move["type"]
    if kind == "distribute":
        o = offer(state)
        k = rng.choice([k for k in range(o["min"], o["max"] + 1)
                        if feasible(k, len(o["receivers"]))])
        got: dict[int, int] = {}
        cards = []
        for c in rng.sample(o["cards"], k):
            p = rng.choice([r for r in o["receivers"] if got.get(r, 0) < per_player(k)])
            got[p] = got.get(p, 0) + 1
            cards.append({"card": c, "to": p, "face_up": rng.random() < 0.5,
                          "end": rng.choice(("left", "right"))})
        return {"type": kind, "cards": cards}
    if kind == "count_group":
        return {**move, "worth": rng.randint(0, 30)}
    if kind == "count_total":
        return {**move, "total": rng.randint(0, 60)}
    if kind == "malus_discard":
        return {"type": kind, "cards": rng.sample(state.hands[player], move["count"])}
    if kind == "malus_remove":
        return {"type": kind, "indices": rng.sample(range(len(state.rows[player])),
                                                   move["count"])}
    if kind == "malus_place":
        return {"type": kind, "cards": [{"card": c, "face_up": rng.random() < 0.5,
                                         "end": "right"} for c in move["cards"]]}
    return move


def hidden_cards(state: NumxState, viewer: int | None) -> set[str]:
    """The cards ``viewer`` must not see now."""
    hidden = {c for p, hand in enumerate(state.hands) if p != viewer for c in hand}
    if state.phase not in ("count", "over"):
        hidden |= {c for row in state.rows for c, up in row if not up}
    if state.pending is not None:
        hidden |= {c for p, _, _, held in state.pending.owed if p != viewer for c in held}
    return hidden


def options(mode: str, players: int, seed: int, rulebook: int | None = None) -> dict:
    """Teams at every other even table; a replaced Malus list at some; an
    older rulebook at some (``rulebook`` says which, if given)."""
    chosen: dict = {"mode": mode}
    if players % 2 == 0 and seed % 2:
        chosen["teams"] = [[p, p + players // 2] for p in range(players // 2)]
    if seed % 3 == 0:
        chosen["malus"] = [[-2, 2], [3, -3], [0, 1], [-1, 0], [2, 2]]
    if seed % 5 == 0:
        chosen["rulebook"] = 1  # games stored before RULES 4.5 and 4.8 were followed
    elif seed % 7 == 0:
        chosen["rulebook"] = 2  # games stored before an owner's earlier Block let a trick stand
    elif seed % 11 == 0:
        chosen["rulebook"] = 3  # games stored before a blocked player without Num-X was asked
    if rulebook is not None:
        chosen["rulebook"] = rulebook
    return chosen


def random_game(seed: int, players: int, mode: str, choices: list[int],
                rulebook: int | None = None):
    rng = random.Random(seed)
    state = GAME.new(options(mode, players, seed, rulebook), players, seed)
    log = []
    for choice in choices[:STEPS]:
        if state.phase == "over":
            break
        adders = [p for p in range(players) if p not in waiting_on(state)
                  and can_add_rainbow(state, p)]
        if adders and choice % 4 == 0:
            player = adders[choice % len(adders)]
        else:
            waiting = sorted(waiting_on(state))
            player = waiting[choice % len(waiting)]
        moves = GAME.moves(state, player)
        assert moves, (state.phase, player)
        move = fill_in(state, player, moves[choice % len(moves)], rng)
        outcome = GAME.apply(state, player, move)
        state = outcome.state
        log.append((player, move))
        yield state, log, outcome.events


games = st.tuples(st.integers(0, 10_000), st.integers(2, 6),
                  st.sampled_from(["speed_run", "x_game", "family"]),
                  st.lists(st.integers(0, 1000), min_size=STEPS, max_size=STEPS))


@settings(max_examples=15, deadline=None)
@given(games)
def test_cards_are_conserved_and_no_view_leaks(game):
    seed, players, mode, choices = game
    for state, _, _ in random_game(seed, players, mode, choices):
        cards = state.all_cards()
        assert len(cards) == len(set(cards)) == card_count(mode)
        for p in range(players):
            # Whoever the game waits on has something to do, and only they.
            assert (task(state, p) not in ("wait", "done")) == (p in waiting_on(state))
            assert p not in waiting_on(state) or GAME.moves(state, p)
        for viewer in [*range(players), None]:
            view = GAME.view(state, viewer)
            text = json.dumps(view)
            leaked = [c for c in hidden_cards(state, viewer) if f'"{c}"' in text]
            assert not leaked, (viewer, leaked)
            # A face-down card shows nothing but its back: no value, no colour.
            assert state.phase in ("count", "over") or all(
                set(entry) == {"face_up"} for row in view["rows"] for entry in row
                if not entry["face_up"])
        if state.phase == "choose":
            for p, chosen in enumerate(state.chosen):
                if chosen is not None:
                    for viewer in [*range(players), None]:
                        if viewer != p:
                            assert f'"{chosen}"' not in json.dumps(GAME.view(state, viewer))


@settings(max_examples=15, deadline=None)
@given(games)
def test_a_replayed_log_reaches_the_same_state(game):
    seed, players, mode, choices = game
    played = list(random_game(seed, players, mode, choices))
    if not played:
        return
    last, log, _ = played[-1]
    state = GAME.new(options(mode, players, seed), players, seed)
    for player, move in log:
        state = GAME.apply(state, player, move).state
    assert state == last
    assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state


def owner_plays_again_only_after_own_block(game, rulebook: int | None = None) -> None:
    """RULES 4.6, 4.8: a trick nobody covered wins its owner the lap; the turn
    comes back to the owner only when their own Block kept the others out
    ("permet de rejouer"); and a drawn card that can be played is played."""
    seed, players, mode, choices = game
    owner_blocked = False
    for state, _, events in random_game(seed, players, mode, choices, rulebook):
        if state.rulebook < 3:
            return
        for event in events:
            if event.kind in ("trick", "rainbow", "tour_started", "round_started"):
                owner_blocked = False
            elif event.kind == "action" and event.data["kind"] == "block" \
                    and event.player == state.owner:
                owner_blocked = True
        if state.phase == "play" and state.pending is None and state.tricks \
                and state.current == state.owner:
            assert owner_blocked, (state.owner, state.passed)
        if state.pending is not None and state.pending.kind == "drawn":
            moves = GAME.moves(state, state.pending.player)
            assert {"type": "keep"} not in moves and moves


@settings(max_examples=25, deadline=None)
@given(games)
def test_the_owner_plays_on_their_own_trick_only_after_their_own_block(game):
    owner_plays_again_only_after_own_block(game)


@pytest.mark.parametrize("rulebook", [3, 4])
def test_a_block_laid_before_the_blocker_took_the_trick_over_lets_it_stand(rulebook):
    # Found by the test above (in rulebook 3): 1 blocks 0 (then the owner),
    # takes 0's trick over with a Rainbow; 2, 3, 4 let it stand and 0's forced
    # pass must too (in rulebook 4, 0 is asked and taps it), so 1 wins the lap
    # instead of playing again on their own trick.
    owner_plays_again_only_after_own_block(
        (382, 5, "speed_run", [410, 0, 0, 0, 0, 211, 0, 0, 3] + [0] * (STEPS - 9)), rulebook)


def blocked_players_are_asked(game) -> int:
    """Rulebook 4: no one is passed over, so whose turn comes next never
    depends on whether a blocked player holds Num-X: a Block's forced pass
    (event ``blocked``) is always the blocked player's own move, and a
    blocked player asked may pass, and play Num-X only if they hold it.
    Returns how many forced passes were made."""
    seed, players, mode, choices = game
    passes = 0
    for state, log, events in random_game(seed, players, mode, choices):
        if state.rulebook < 4:
            return passes
        for event in events:
            if event.kind == "blocked":
                assert event.player == log[-1][0], (event.player, log[-1])
                passes += 1
        if state.phase == "play" and state.pending is None and state.current is not None \
                and state.blocked[state.current]:
            held = "numx" in state.hands[state.current]
            assert GAME.moves(state, state.current) == (
                [{"type": "trick", "cards": ["numx"]}] if held else []) + [{"type": "pass"}]
    return passes


@settings(max_examples=25, deadline=None)
@given(games)
def test_a_blocked_player_is_asked_whatever_they_hold(game):
    blocked_players_are_asked(game)


def test_blocked_players_are_asked_in_games_of_every_size():
    # The property above is not vacuous: forced passes happen in these games.
    made = [blocked_players_are_asked((seed, players, "speed_run", [seed * 13 + i for i in
                                                                   range(STEPS)]))
            for seed, players in ((1, 2), (2, 3), (4, 4), (8, 5), (13, 6))]
    assert sum(made) > 0, made


_junk = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.sampled_from(
        ["blue7", "rainbow7", "numx", "joker1", "block1", "malus2", "all", "left", "team", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["card", "to", "face_up", "end", "target"]), inner, max_size=4),
    max_leaves=8)
_fields = st.dictionaries(
    st.sampled_from(["card", "cards", "value", "from_row", "target", "direction", "mine",
                     "theirs", "team", "trick", "size", "indices", "choice", "worth",
                     "total", "colour"]), _junk, max_size=5)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 100), st.integers(0, 120), st.sampled_from(
    ["choose", "trick", "action", "draw", "keep", "pass", "rainbow", "distribute",
     "malus_discard", "malus_remove", "malus_place", "refill", "count_group", "count_total",
     "nonsense"]), _fields, st.integers(-1, 6))
def test_any_move_is_applied_or_refused_with_a_reason(seed, steps, kind, fields, player):
    played = list(random_game(seed, 4, "speed_run", [seed * 7 + i for i in range(steps)]))
    state = played[-1][0] if played else GAME.new({}, 4, seed)
    try:
        GAME.apply(state, player, {"type": kind, **fields})
    except IllegalMove as refusal:
        assert refusal.reason and refusal.code


def rainbows_jump_forward_only(game) -> int:
    """RULES 4.6: the players told they lost their turn to a Rainbow are a run
    from the player whose turn it was, short of the completer; never the
    completer, the trick's owner before it, nor the next to play. Returns how
    many were told."""
    seed, players, mode, choices = game
    before, told = None, 0
    for state, log, events in random_game(seed, players, mode, choices):
        for event in events:
            if event.kind != "lost_turn":
                continue
            told += 1
            lost, completer = event.data["players"], log[-1][0]
            assert before is not None and before.current is not None and lost
            assert lost == [(before.current + i) % players for i in range(len(lost))]
            assert (lost[-1] + 1) % players == completer
            assert before.owner not in lost
            if not any(e.kind == "blocked" for e in events):
                assert state.current not in lost
        before = state
    return told


@settings(max_examples=25, deadline=None)
@given(games)
def test_a_rainbow_tells_of_lost_turns_only_those_it_jumps_over(game):
    rainbows_jump_forward_only(game)
