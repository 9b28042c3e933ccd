"""A demo teacher and class, with three weeks of games played, so that `make
run` shows reports and the next lesson on a fresh machine.

The command lives beside the games (it plays them; classroom cannot import
games): the class is ``classroom.demo``'s, the play ``games.demo_play``'s."""

import time

from django.core.management.base import BaseCommand

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

    def handle(self, *args, **options):
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
