"""Game sessions, their tables and seats, and the move log.

A table's `state` is the engine's JSON snapshot after the last move and
`version` counts the moves: the move log replays to the same state.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from classroom.models import Classroom, Pupil


class GameSession(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("playing")
        PAUSED = "paused", _("paused")
        ENDED = "ended", _("ended")

    class Tablets(models.TextChoices):
        OWN = "own", _("one tablet per pupil")
        SHARED = "shared", _("one shared tablet per table")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="sessions")
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_sessions"
    )
    game = models.CharField(_("game"), max_length=30)
    options = models.JSONField(_("options"), default=dict)
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=2)
    # Teams (RULES 0.2): this many pupils share each seat; any of them may
    # play for it, and each one's calculations are their own.
    team_size = models.PositiveSmallIntegerField(_("pupils per seat"), default=1)
    tablets = models.CharField(max_length=10, choices=Tablets.choices, default=Tablets.OWN)
    bot_level = models.CharField(_("computer players"), max_length=20, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    # NMBR 9 with the whole class at once: one table per pupil, one deck, and
    # the teacher's screen turns the cards (how many are turned so far).
    whole_class = models.BooleanField(_("the whole class at once"), default=False)
    cards_shown = models.PositiveSmallIntegerField(default=0)
    # The skill the session was started to practise, from the class report's
    # "Start these tables" ("" otherwise): its reports say what it changed.
    practice_skill = models.CharField(_("skill practised"), max_length=20, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game session")
        verbose_name_plural = _("game sessions")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.game} · {self.classroom.name} · {self.created_at:%Y-%m-%d %H:%M}"

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING


class Table(models.Model):
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    # When the current player's turn started: response times and stuck pupils.
    turn_started_at = models.DateTimeField()
    updated_at = models.DateTimeField(auto_now=True)
    finished = models.BooleanField(default=False)
    # Counts the changes of who sits where (a late pupil, a seat changed): a
    # move bumps `version`, but a seating change must reach the tablets too.
    seating = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="one_number_per_table")
        ]

    def __str__(self) -> str:
        return f"{_('Table')} {self.number}"


class Seat(models.Model):
    """A player of a table: a pupil, a computer player (no pupil) or, for
    teams, several pupils sharing one player index."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    player = models.PositiveSmallIntegerField()
    pupil = models.ForeignKey(
        Pupil, on_delete=models.CASCADE, null=True, blank=True, related_name="seats"
    )
    bot_level = models.CharField(max_length=20, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "player"]
        constraints = [
            models.UniqueConstraint(fields=["table", "pupil"], name="one_seat_per_pupil"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.player}"


class Move(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()
    player = models.SmallIntegerField(null=True)
    pupil = models.ForeignKey(
        Pupil, on_delete=models.CASCADE, null=True, blank=True, related_name="moves"
    )
    # The tablet's id for this tap: a double tap or a retry sends the same one.
    move_id = models.CharField(max_length=64)
    move = models.JSONField()
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_move_per_number"),
            models.UniqueConstraint(fields=["table", "move_id"], name="one_move_per_tap"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.number}: {self.move}"
