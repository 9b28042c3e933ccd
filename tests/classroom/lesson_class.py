"""A class of synthetic pupils of known needs, played through the real move
path: the five profiles of ``test_pupil_profiles`` (Ada, Ben, Cleo, Dan, Eve)
and Finn, who plays the plus-and-minus game only, always right: he masters +
and − and has never met ×.

``play_class`` takes any class and a cast (pupil -> profile name), so the
tests and the demo class (``tests/bench/play_demo_class.py``) play the same way.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F

from classroom.models import Attempt, Opportunity
from classroom.reports import services as reports
from engine.arithmetic import explain, reachable_frozen
from games import services
from games.models import GameSession
from tests.classroom.test_pupil_profiles import (
    DAN_TURNS,
    GAMES,
    OPTIONS,
    SOLO,
    TURNS,
    WEEKS,
    WHOLE_GAME,
    Profile,
    Tablet,
)

PLUS_MINUS = {"preset": "plus-minus"}


class Finn(Profile):
    """Always right, and plays only what he is given."""

    def answer(self, skill: str, right: int, most: int = 999) -> int:
        return right


class PlusMinusTablet(Tablet):
    """A tablet whose pupil calculates with the variant's operations only."""

    def calculation(self, state) -> list[dict]:
        numbers = [v for v, _ in state.available]
        covered = state.covered_squares()
        allowed = state.variant.operations
        for square in sorted(reachable_frozen(tuple(numbers), allowed, False)):
            if state.variant.lo <= square <= state.variant.hi and square not in covered:
                found = explain(numbers, square, allowed)
                return [
                    {"type": "step", "left": s.left, "op": s.op, "right": s.right,
                     "result": s.result}
                    for s in found.steps
                ] + [{"type": "place", "square": square}]
        return [{"type": "cant"}]


def _end(session, week: int) -> None:
    services.set_status(session, GameSession.Status.ENDED)
    # Played weeks ago: the newest week is this one.
    ago = timedelta(weeks=WEEKS - 1 - week)
    for rows in (Attempt.objects, Opportunity.objects):
        rows.filter(session=session).update(created_at=F("created_at") - ago)


def play_class(classroom, teacher, cast: dict) -> None:
    """Weeks of play of ``cast`` (pupil -> "Ada", "Ben", "Cleo", "Dan", "Eve"
    or "Finn"), then the report's snapshot. Call with services.BOT_PAUSE at
    zero and the Celery tasks eager, as the profiles' fixture does."""
    profiles = {
        pupil.pk: (Finn if name == "Finn" else Profile)(name, seed)
        for seed, (pupil, name) in enumerate(cast.items())
    }
    everyone = [pupil for pupil, name in cast.items() if name != "Finn"]
    finns = [pupil for pupil, name in cast.items() if name == "Finn"]
    for week in range(WEEKS):
        for game in GAMES:
            if game in WHOLE_GAME and week != WEEKS - 1:
                continue
            playing = [p for p in everyone
                       if profiles[p.pk].name != "Dan" or profiles[p.pk].turns < DAN_TURNS]
            if not playing:
                continue
            session = services.start_session(
                classroom, teacher, game=game, options=OPTIONS.get(game, {}), pupils=playing,
                table_size=SOLO.get(game, 2), bot_level="" if game in SOLO else "greedy",
                seating={p.pk: n for n, p in enumerate(playing, start=1)}, seed=week,
            )
            for table in session.tables.all():
                pupil = table.seats.exclude(pupil=None).get().pupil
                profile = profiles[pupil.pk]
                turns = DAN_TURNS - profile.turns if profile.name == "Dan" else TURNS
                if profile.name != "Dan":
                    turns = WHOLE_GAME.get(game, turns)
                Tablet(table, pupil, profile).play(turns)
            _end(session, week)
        if finns:
            session = services.start_session(
                classroom, teacher, game="numberquest", options=PLUS_MINUS, pupils=finns,
                table_size=1, bot_level="",
                seating={p.pk: n for n, p in enumerate(finns, start=1)}, seed=week,
            )
            for table in session.tables.all():
                pupil = table.seats.exclude(pupil=None).get().pupil
                PlusMinusTablet(table, pupil, profiles[pupil.pk]).play(2 * TURNS)
            _end(session, week)
    reports.recompute_pupils([pupil.pk for pupil in cast])
