"""Bayesian Knowledge Tracing: how likely a pupil is to know a skill.

Standard BKT (Corbett & Anderson 1995), one hidden "knows the skill" state per
pupil and skill, updated on first tries in ``created_at`` order::

    posterior = L(1-S) / (L(1-S) + (1-L)G)      after a right answer
    posterior = L S    / (L S    + (1-L)(1-G))  after a wrong answer
    L' = posterior + (1 - posterior) T

The parameters are the module constants ``P_INIT``, ``P_TRANSIT``, ``P_SLIP``
and ``P_GUESS``; their docstrings say why each value. With these values a right
answer never lowers the estimate (because 1-S > G) and, from ``P_INIT``
onwards, a wrong answer never raises it: the wrong-answer update only raises
estimates below its fixed point ``BKT_WRONG_FLOOR`` (about 0.11), and estimates
that start at ``P_INIT`` = 0.3 never fall below it.

BKT has no forgetting: after a long run of right answers the estimate stays
near 100% through a few slips. The last-10 accuracy in the status rules
(``learning.verdicts``) is what catches a recent dip in a skill the pupil once had.
"""

from __future__ import annotations

from collections.abc import Iterable

P_INIT = 0.3
"""L0, chance a pupil already knows the skill before the first recorded step.
Pupils meet an operation in Numbo after it has been taught in class, so better
than even odds of not knowing is too pessimistic for addition and too
optimistic for division; 0.3 is in the usual 0.2-0.4 range of published BKT
fits, and it sits above BKT_WRONG_FLOOR so wrong answers never raise the
estimate."""

P_TRANSIT = 0.1
"""T, chance of learning the skill at each practice step. Around 0.1 in most
published fits; a game gives practice but little teaching, so we do not go
higher."""

P_SLIP = 0.1
"""S, chance of a wrong first try by a pupil who knows the skill. Pupils type on
a tablet in a game with a clock and other players: mis-taps and haste are real,
so 0.1 (Baker et al. 2008 bound BKT slip below 0.1 for non-degenerate
models)."""

P_GUESS = 0.2
"""G, chance of a right first try by a pupil who does not know the skill. The
answer is typed, not chosen, so guessing blindly is rare; but small facts known
by heart and counting on fingers give right answers without the skill, so 0.2
rather than the near-zero a typed answer alone would suggest (and below the 0.3
bound for non-degenerate models)."""


def bkt_update(estimate: float, correct: bool) -> float:
    """One standard BKT step: condition on the answer, then allow learning."""
    if correct:
        known = estimate * (1 - P_SLIP)
        posterior = known / (known + (1 - estimate) * P_GUESS)
    else:
        known = estimate * P_SLIP
        posterior = known / (known + (1 - estimate) * (1 - P_GUESS))
    # Clamp: rounding must never show 100.0000001% or a negative estimate.
    return min(1.0, max(0.0, posterior + (1 - posterior) * P_TRANSIT))


def bkt_estimate(outcomes: Iterable[bool], start: float = P_INIT) -> float:
    """Estimate after a sequence of first-try outcomes, oldest first."""
    estimate = start
    for correct in outcomes:
        estimate = bkt_update(estimate, correct)
    return estimate


def _wrong_floor() -> float:
    # Fixed point of the wrong-answer update: iterating from 0 climbs to it
    # monotonically, since the update is increasing and lifts 0 to P_TRANSIT.
    estimate = 0.0
    for _ in range(200):
        estimate = bkt_update(estimate, False)
    return estimate


BKT_WRONG_FLOOR = _wrong_floor()
