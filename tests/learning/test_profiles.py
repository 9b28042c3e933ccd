"""The five pupils of issue 32 as record streams, and what the report says of them.

Each plays two games a week for four weeks. A turn is one calculation of a few
steps, and its opportunity records the operations that could have made the
turn's number (``could``) and those the pupil typed a step with, right or wrong
(``used``: the meaning the games record from session 16 on).
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from learning import opportunities, tally, trend, verdicts
from learning.records import AttemptRecord, OpportunityRecord
from tests.learning.factories import START

WEEKS, GAMES_A_WEEK, TURNS_A_GAME = 4, 2, 6
OPS = ("add", "sub", "mul", "div")


class Pupil:
    """A profile: which operations a turn's calculation uses, and whether each
    step is right (``right(skill, tries_so_far)``)."""

    def __init__(self, pupil_id, plan, right, turns=None):
        self.pupil_id, self.plan, self.right, self.turns = pupil_id, plan, right, turns

    def records(self, seed: int = 1):
        rng = random.Random(seed)
        attempts, chances, tried = [], [], dict.fromkeys(OPS, 0)
        minute, turns = 0, 0
        for game in range(WEEKS * GAMES_A_WEEK):
            day = START + timedelta(days=7 * (game // GAMES_A_WEEK) + game % GAMES_A_WEEK)
            for _turn in range(TURNS_A_GAME):
                if self.turns is not None and turns >= self.turns:
                    return attempts, chances
                turns += 1
                when = day + timedelta(minutes=minute)
                minute += 1
                steps = self.plan(rng)
                for step, skill in enumerate(steps):
                    correct = self.right(skill, tried[skill], rng)
                    tried[skill] += 1
                    attempts.append(AttemptRecord(
                        self.pupil_id, skill, [6, 3], "2", "2" if correct else "5", correct,
                        created_at=when + timedelta(seconds=step), game="numberquest",
                        session_id=game,
                    ))  # fmt: skip
                # Every operation could have made this turn's number.
                chances.append(OpportunityRecord(
                    self.pupil_id, [6, 3, 2], dict.fromkeys(OPS, True), sorted(set(steps)),
                    created_at=when,
                ))  # fmt: skip
        return attempts, chances


def every_op(rng):
    return [rng.choice(OPS) for _ in range(2)] + [OPS[rng.randrange(4)]]


def no_division(rng):
    return [rng.choice(("add", "sub", "mul")) for _ in range(3)]


ADA = Pupil("Ada", every_op, lambda skill, n, rng: True)
BEN = Pupil("Ben", no_division, lambda skill, n, rng: skill != "mul" or rng.random() < 0.3)
CLEO = Pupil("Cleo", every_op, lambda skill, n, rng: skill == "add" and n >= 20)
DAN = Pupil("Dan", every_op, lambda skill, n, rng: rng.random() < 0.7, turns=3)
EVE = Pupil("Eve", every_op, lambda skill, n, rng: rng.random() < 0.3)


def report(pupil: Pupil):
    attempts, chances = pupil.records()
    return tally.summarise(attempts, chances)[pupil.pupil_id], attempts


def statuses(mastery) -> dict[str, str]:
    return {skill: summary.status for skill, summary in mastery.skills.items()}


def avoided(mastery) -> set[str]:
    return {skill for skill, a in mastery.avoidance.items() if a.avoids}


def test_ada_always_right_is_mastered_and_two_divisions_are_not_nearly_there():
    mastery, _ = report(ADA)
    assert set(statuses(mastery).values()) == {"mastered"}
    assert not avoided(mastery)
    two = [a for a in report(ADA)[1] if a.skill == "div"][:2]
    early = tally.summarise(two)["Ada"].skills["div"]
    assert early.status == "not_enough"
    assert early.sentence == (
        "not enough yet: 2 of 2 right so far; 6 more calculations needed, in another game"
    )
    assert "nearly" not in early.sentence


def test_ben_masters_adding_and_subtracting_needs_help_multiplying_and_avoids_dividing():
    mastery, _ = report(BEN)
    assert statuses(mastery) == {
        "add": "mastered", "sub": "mastered", "mul": "needs_help", "div": "not_started"
    }  # fmt: skip
    assert avoided(mastery) == {"div"}
    division = mastery.avoidance["div"]
    assert division.used == 0 and division.could == WEEKS * GAMES_A_WEEK * TURNS_A_GAME
    assert opportunities.explain(division) == (
        "avoids division: has not divided in 48 turns where dividing would help"
    )
    # The × he gets wrong is × he used: wrong steps are use, not avoidance.
    assert mastery.avoidance["mul"].rate > 0.5
    help_ = mastery.skills["mul"]
    assert help_.sentence.startswith("needs help: ") and "estimate" not in help_.sentence


def test_cleo_masters_adding_after_twenty_tries_and_needs_help_with_the_rest():
    mastery, attempts = report(CLEO)
    found = statuses(mastery)
    assert found.pop("add") == "mastered"
    assert set(found.values()) == {"needs_help"}
    weeks = trend.trend(attempts, "add")
    assert weeks[0].accuracy < weeks[-1].accuracy == 1.0  # progressing week by week


def test_dan_after_three_turns_is_not_enough_yet_everywhere():
    mastery, attempts = report(DAN)
    tried = {a.skill for a in attempts}
    for skill, summary in mastery.skills.items():
        assert summary.status == ("not_enough" if skill in tried else "not_started")
        assert "nearly" not in summary.sentence and "estimate" not in summary.sentence
    assert not avoided(mastery)
    add = mastery.skills["add"]
    assert add.sentence.endswith("more calculations needed, in another game")


def test_eve_who_guesses_needs_help_everywhere():
    mastery, _ = report(EVE)
    assert set(statuses(mastery).values()) == {"needs_help"}


@pytest.mark.parametrize("pupil", [ADA, BEN, CLEO, DAN, EVE], ids=lambda p: p.pupil_id)
def test_the_figures_beside_a_status_never_argue_with_it(pupil):
    mastery, _ = report(pupil)
    for summary in mastery.skills.values():
        shown = verdicts.evidence(summary)
        bands = {
            "mastered": (95, 100), "nearly_there": (80, 94), "practising": (0, 79),
        }  # fmt: skip
        if shown.estimate is not None:
            low, high = bands[summary.status]
            assert low <= shown.estimate <= high, summary
            assert f"estimate {shown.estimate}%" in summary.sentence
        else:
            assert "estimate" not in summary.sentence
