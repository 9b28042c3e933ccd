"""Erase the pupils who left, once their school's retention days are over:
what Celery beat runs each night, for a school that runs cron instead."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from school import leavers


class Command(BaseCommand):
    help = "Erase the pupils whose school's days to keep a leaver's record are over."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--now",
            help="Act as if it were this moment (ISO 8601, e.g. 2027-08-01T03:00+02:00).",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="Say who is due, erase nothing."
        )

    def handle(self, *args, now: str | None = None, dry_run: bool = False, **options) -> None:
        moment = timezone.now()
        if now:
            try:
                moment = leavers.moment(now)
            except ValueError as error:
                raise CommandError(f"--now: {error}") from error
        if dry_run:
            due = leavers.due(moment)
            self.stdout.write(f"{len(due)} pupils who left are due to be erased.")
            return
        erased = leavers.erase_due(moment)
        total = sum(e.count for e in erased)
        self.stdout.write(f"Erased {total} pupils who left, in {len(erased)} classes.")
