"""Synthetic pupils of known needs who play real games through the path a
tablet's move takes (the presenter reads the posted form, ``services.play``
applies it): the demo class (``manage.py load_demo``) and the tests' classes
play the same way, so the demo's reports and next lesson show what the tests
assert.

Six profiles: Ada is always right. Ben is right at + and −, wrong 7 times in
10 at ×, and never divides (he finds another calculation, or draws). Cleo is
wrong at everything, until her 21st addition: right at + from then on. Dan
plays 3 turns and leaves. Eve guesses. Finn plays the plus-and-minus game
only, always right: he masters + and − and has never met ×.

Their moves are the computer's choices (engine bots), with the numbers a pupil
types changed by their profile, so the evidence is the games' own.
"""

from __future__ import annotations

import random
from collections import Counter
from contextlib import contextmanager
from datetime import timedelta
from itertools import count

from django.db import transaction
from django.db.models import F
from django.http import QueryDict

from classroom.models import Attempt, Classroom, Opportunity, Pupil
from classroom.reports import services as reports
from engine.arithmetic import SKILL_OF, explain, reachable_frozen
from engine.nmbr9.game import phase as nmbr9_phase

from . import services
from .models import GameSession, Table
from .pages import engine_of, presenter

GAMES = ("numberquest", "nambarz", "numx", "nmbr9", "ultimes")
WEEKS = 3
TURNS = 5  # a pupil's turns at a table before the teacher ends the game
# The counting games' evidence is their final count: played to the end.
WHOLE_GAME = {"numx": 400, "nmbr9": 400}
SOLO = {"nmbr9": 1, "numberquest": 1, "ultimes": 1}  # alone at the table: no computer to wait for
DAN_TURNS = 3
PROFILES = ("Ada", "Ben", "Cleo", "Dan", "Eve")
OPTIONS = {"numberquest": {"preset": "classic"}}


class Profile:
    """How one pupil types: ``answer`` is what they type where ``right`` is
    the answer of a step of ``skill``."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.additions = 0
        self.turns = 0
        self.ops: Counter = Counter()  # Number Quest: the operations chosen so far

    def answer(self, skill: str, right: int, most: int = 999) -> int:
        wrong = right + 1 if right < most else right - 1
        if self.name == "Ada" or self.name == "Dan":
            return right
        if self.name == "Ben":
            if skill == "mul":
                return wrong if self.rng.random() < 0.7 else right
            return right
        if self.name == "Cleo":
            if skill == "add":
                self.additions += 1
                return right if self.additions > 20 else wrong
            return wrong
        # Eve guesses near the right answer.
        return min(most, max(0, right + self.rng.randint(-4, 4)))

    @property
    def divides(self) -> bool:
        return self.name != "Ben"


# ------------------------------------------------------------------ a tablet


def form_of(move: dict) -> QueryDict:
    """The form a tablet posts for ``move``: lists as the pages join them."""
    form = QueryDict(mutable=True)
    for key, value in move.items():
        if isinstance(value, list | tuple):
            form[key] = ",".join(str(v) for v in value)
        elif isinstance(value, bool):
            form[key] = "1" if value else ""
        elif value is not None:
            form[key] = str(value)
    return form


class Tablet:
    """One pupil at their table: moves read from their form, then played."""

    ids = count()

    def __init__(self, table: Table, pupil: Pupil, profile: Profile) -> None:
        self.table, self.pupil, self.profile = table, pupil, profile
        self.game = table.session.game
        self.shown = presenter(self.game)
        self.engine = engine_of(self.game)
        self.player = table.seats.get(pupil=pupil).player
        self.tries = 0  # Nambarz: wrong tries at this turn's calculation
        self.stale = True  # the table moved since this tablet last read it

    def state(self):
        if self.stale:
            self.table = Table.objects.select_related("session").get(pk=self.table.pk)
            self.stale = False
        return self.engine.from_json(self.table.state)

    def send(self, move: dict, typed: bool = False, form: QueryDict | None = None) -> str:
        read = self.shown.read_move(form if form is not None else form_of(move))
        if read != move:
            # A move no form of these pages posts as such (a NUM-X card's
            # choices): the service takes it as the tablet's script sends it.
            assert not typed, (move, read)
            read = move
        result = services.play(
            self.table.pk, self.pupil, read, self.table.version, f"p{next(self.ids)}"
        )
        assert result.status == "applied", (self.game, move, result.status, result.refusal)
        self.table = result.table  # as the move left it
        return result.status

    def my_turn(self, state) -> bool:
        if self.engine.result(state) is not None:
            return False
        return self.player in self.shown.waiting_on(state) and self.shown.current(state) in (
            None, self.player
        )

    def play(self, turns: int) -> None:
        """Until ``turns`` of the pupil's turns were played or the game is over."""
        played, last_key = 0, None
        for _ in range(2000):
            state = self.state()
            if self.engine.result(state) is not None:
                return
            if not self.my_turn(state):
                if not services.advance(self.table.pk):
                    return  # nobody can move: the game waits on no one
                self.stale = True
                continue
            key = self.shown.turn_key(state)
            if key != last_key:
                played, last_key, self.tries = played + 1, key, 0
                self.profile.turns += 1
                if played > turns:
                    return
            getattr(self, self.game)(state)

    # each game: the move a pupil makes, with what their profile types

    def bot(self, state) -> dict:
        return self.shown.bot_moves(state, self.player, "greedy", self.table.version)[0]

    def numberquest(self, state) -> None:
        if state.phase != "calculate" or state.steps:
            self.numberquest_move(state, self.bot(state))
            return
        moves = self.calculation(state)
        turn = state.turn
        for move in moves:
            self.numberquest_move(state, move)
            state = self.state()
            if state.turn != turn or self.engine.result(state) is not None:
                return  # a wrong step ends the turn

    def numberquest_move(self, state, move: dict) -> None:
        if move["type"] != "step":
            self.send(move)
            return
        move = {**move, "result": self.profile.answer(SKILL_OF[move["op"]], move["result"])}
        # The tiles post "value|origin": two equal dice stay two tiles.
        tiles = list(state.available)
        form = form_of(move)
        for side in ("left", "right"):
            index = max(i for i, (v, _) in enumerate(tiles) if v == move[side])
            form[side] = f"{tiles[index][0]}|{tiles.pop(index)[1]}"
        self.send(move, typed=True, form=form)

    def calculation(self, state) -> list[dict]:
        """The pupil's calculation for a free square: among those the roll
        allows (Ben's without ÷), one with the operation they used least so
        far, as a pupil tries this and that; else they give up."""
        numbers = [v for v, _ in state.available]
        covered = state.covered_squares()
        allowed = "+-*/" if self.profile.divides else "+-*"
        best, best_score = None, None
        for square in sorted(reachable_frozen(tuple(numbers), allowed, False)):
            if not state.variant.lo <= square <= state.variant.hi or square in covered:
                continue
            # A tuple, not a set: a set of strings is walked in an order that
            # changes with each run's hash seed, and the first of two calculations
            # scoring alike is the one kept (Cleo divided in some runs, not others).
            for ops in (allowed, *(allowed.replace(op, "") for op in allowed)):
                found = explain(numbers, square, ops) if ops else None
                if found is None:
                    continue
                score = sum(1 / (1 + self.profile.ops[s.op]) for s in found.steps)
                if best_score is None or score > best_score:
                    best, best_score = (square, found), score
        if best is None:
            return [{"type": "cant"}]
        square, found = best
        for s in found.steps:
            self.profile.ops[s.op] += 1
        return [
            {"type": "step", "left": s.left, "op": s.op, "right": s.right, "result": s.result}
            for s in found.steps
        ] + [{"type": "place", "square": square}]

    def nambarz(self, state) -> None:
        move = self.bot(state)
        if move["type"] == "calculate":
            if self.tries >= 2 or (not self.profile.divides and "/" in move["ops"]):
                move = {"type": "pass"} if state.pending == "drawn" else {"type": "draw"}
            else:
                results = [
                    self.profile.answer(SKILL_OF[op], right)
                    for op, right in zip(move["ops"], move["results"], strict=True)
                ]
                move = {**move, "results": results}
                self.send(move, typed=True)
                if self.state().retrying:
                    self.tries += 1
                return
        self.send(move)

    def numx(self, state) -> None:
        move = self.bot(state)
        if move["type"] == "count_group":
            step = state.steps(self.player)[len(state.counts[self.player])]
            skill = "mul" if step.mul else "scoring"
            move = {**move, "worth": self.profile.answer(skill, step.worth)}
            move.pop("min", None), move.pop("max", None)
            self.send(move, typed=True)
        elif move["type"] == "count_total":
            right = sum(state.counts[self.player])
            self.send({"type": "count_total", "total": self.profile.answer("add", right)},
                      typed=True)
        else:
            self.send(move)

    def nmbr9(self, state) -> None:
        move = self.bot(state)
        if nmbr9_phase(state, self.player) == "count":
            skill = "mul" if move["type"] == "level_score" else "add"
            move = {**move, "value": self.profile.answer(skill, move["value"])}
            self.send(move, typed=True)
        else:
            self.send(move)

    def ultimes(self, state) -> None:
        move = self.bot(state)
        if move["type"] == "sum":
            move = {**move, "value": self.profile.answer("add", move["value"])}
        elif move["type"] == "reach":
            skill = "sub" if state.pawn_move().bounced else "add"
            move = {**move, "square": self.profile.answer(skill, move["square"], 99)}
        elif move["type"] == "send":
            skill = "powers" if state.pawn_move().effect == "source" else "primes"
            move = {**move, "square": self.profile.answer(skill, move["square"], 99)}
        self.send(move, typed=move["type"] in ("sum", "reach", "send"))



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
    or "Finn"), then the report's snapshot. Call inside ``at_once()``."""
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


# The demo class's pupils (classroom.demo.DEMO_PUPILS) and the profile each plays.
DEMO_CAST = {
    "Léa": "Ada", "Noah": "Ben", "Inès": "Cleo", "Gabriel": "Eve", "Jade": "Dan",
    "Louis": "Finn", "Emma": "Ada", "Adam": "Ben", "Chloé": "Finn", "Hugo": "Finn",
}


@contextmanager
def at_once():
    """Computer players move without the pause children need to see them
    coming, and the reports are computed once after the play rather than at
    each game's end (``play_class`` does it): what the tests' fixtures do."""
    # The project's Celery app (config's), as the current one: games may not
    # import config.
    from celery import current_app as celery_app

    pause, refresh = services.BOT_PAUSE, services._refresh_reports
    eager = celery_app.conf.task_always_eager
    services.BOT_PAUSE = timedelta(0)
    services._refresh_reports = lambda pupil_ids: None
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        services.BOT_PAUSE, services._refresh_reports = pause, refresh
        celery_app.conf.task_always_eager = eager


def play_demo(classroom: Classroom) -> bool:
    """The demo class's weeks of play, once: False (and nothing played) when
    the class has played already, so ``load_demo`` may run again."""
    if classroom.sessions.exists():
        return False
    pupils = list(classroom.pupils.filter(first_name__in=DEMO_CAST))
    cast = {pupil: DEMO_CAST[pupil.first_name] for pupil in pupils}
    with at_once(), transaction.atomic():
        play_class(classroom, classroom.teacher, cast)
    return True
