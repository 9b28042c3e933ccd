"""Learning records written by hand for the tests of the learning package."""

from datetime import UTC, datetime, timedelta

from hypothesis import settings

from learning import tally
from learning.records import AttemptRecord, OpportunityRecord

FAST = settings(max_examples=200, deadline=None)
START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)  # a Monday


def attempts_from(outcomes, skill="add", pupil=1, first_try=True, start=0, games=2):
    """First tries of one pupil and skill, one per minute, oldest first, the
    first half in one game and the second half in another (``games``)."""
    count = max(len(outcomes), 1)
    return [
        AttemptRecord(
            pupil_id=pupil,
            skill=skill,
            operands=[3, 4],
            expected="7",
            given="7" if right else "8",
            correct=right,
            first_try=first_try,
            response_ms=2000,
            created_at=START + timedelta(minutes=start + i),
            session_id=1 + i * games // count,
        )
        for i, right in enumerate(outcomes)
    ]


def skill_of(attempts, skill="add", pupil=1):
    return tally.summarise(attempts)[pupil].skills[skill]


def step(skill, a, b, expected, given, right=None, minute=0, first_try=True, pupil=1, game=1):
    return AttemptRecord(
        pupil_id=pupil,
        skill=skill,
        operands=[a, b],
        expected=str(expected),
        given=str(given),
        correct=(str(expected) == str(given)) if right is None else right,
        first_try=first_try,
        created_at=START + timedelta(minutes=minute),
        session_id=game,
    )


def turns(could_div, used_div, pupil=1):
    """Turns where + and ÷ could both make a free square."""
    return [
        OpportunityRecord(
            pupil, [6, 3, 2], {"add": True, "sub": False, "mul": False, "div": True},
            ["div", "add"] if i < used_div else ["add"],
        )
        for i in range(could_div)
    ]  # fmt: skip


def synthetic_attempts(pupils, per_pupil, rng):
    rows = []
    skills = ("add", "sub", "mul", "div", "brackets")
    for pupil in range(pupils):
        skill_level = {skill: rng.random() for skill in skills}
        for i in range(per_pupil):
            skill = rng.choice(skills)
            a, b = rng.randint(1, 12), rng.randint(1, 12)
            right = rng.random() < 0.5 + skill_level[skill] / 2
            product = a * b
            rows.append(
                AttemptRecord(
                    pupil_id=pupil,
                    skill=skill,
                    operands=[product, b] if skill == "div" else [a, b],
                    expected=str(a if skill == "div" else product),
                    given=str(a if skill == "div" else product) if right else str(product + 1),
                    correct=right,
                    first_try=rng.random() < 0.85,
                    response_ms=rng.randint(800, 15000),
                    created_at=START + timedelta(seconds=20 * i + pupil),
                    game="numberquest",
                )
            )
    rng.shuffle(rows)
    return rows
