"""A demo teacher and class, with three weeks of games played, so that `make
run` shows reports and the next lesson on a fresh machine.

The command lives beside the games (it plays them; classroom cannot import
games): the class is ``classroom.demo``'s, the play ``games.demo_play``'s.

Its accounts have a password printed in the README, one of them a school's
administrator: on a real install (DEBUG off) it refuses to run unless told
``--i-know-this-is-not-production``. `make run` keeps DEBUG's default, on."""

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.demo_play import play_demo
from school.demo import DEMO_CODE, DEMO_EMAIL, DEMO_LEAD_EMAIL, DEMO_PASSWORD, demo_class


class Command(BaseCommand):
    help = (
        "Create (once) the demo school, its two teachers, a class and its pupils, "
        "and play its games (once)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="where `make run` serves")
        parser.add_argument(
            "--no-games", action="store_true", help="the class and its pupils only"
        )
        parser.add_argument(
            "--i-know-this-is-not-production", action="store_true", dest="not_production",
            help="run with DEBUG off all the same (a staging copy, a demo server)",
        )

    def handle(self, *args, **options):
        if not settings.DEBUG and not options["not_production"]:
            raise CommandError(
                f"DEBUG is off: this looks like a real install. The demo would open "
                f"{DEMO_EMAIL} (a school administrator) and {DEMO_LEAD_EMAIL} with the "
                f"password {DEMO_PASSWORD!r}, which anyone can read in the README. "
                "If this server is only a demo, run it again with "
                "--i-know-this-is-not-production."
            )
        classroom = demo_class()
        if not options["no_games"]:
            began = time.perf_counter()
            if play_demo(classroom):
                self.stdout.write(
                    f"The demo class played {classroom.sessions.count()} games "
                    f"in {time.perf_counter() - began:.0f} s."
                )
        site = f"http://localhost:{options['port']}"
        self.stdout.write(
            "Demo ready.\n"
            f"  Teacher: {site}/accounts/login/  {DEMO_EMAIL} / {DEMO_PASSWORD}"
            " (the school's administrator)\n"
            f"  Maths lead: {DEMO_LEAD_EMAIL} / {DEMO_PASSWORD}\n"
            f"  Pupil:   {site}/join/  class code {DEMO_CODE}, "
            "then Léa M. and the pictures sun, moon, star"
        )
