"""Play the demo class (``manage.py load_demo``) through the real move path, so
its reports and its next lesson have something to say (not in the test run).

Run, with the same NUMBO_VAR_DIR (or DATABASE_URL) as the server:
    .venv/bin/python manage.py migrate && .venv/bin/python manage.py load_demo
    .venv/bin/python tests/bench/play_demo_class.py

The ten pupils take the profiles of ``tests/classroom/lesson_class.py``: two
always right, two who need help with × and never divide, one wrong at
everything but + after a while, one who guesses, one who played three turns,
and three who only played the plus-and-minus game.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

CAST = {
    "Léa": "Ada", "Noah": "Ben", "Inès": "Cleo", "Gabriel": "Eve", "Jade": "Dan",
    "Louis": "Finn", "Emma": "Ada", "Adam": "Ben", "Chloé": "Finn", "Hugo": "Finn",
}


def main() -> None:
    import django

    django.setup()
    from django.db import transaction

    from classroom.management.commands.load_demo import DEMO_CODE
    from classroom.models import Classroom
    from config import celery_app
    from games import services
    from tests.classroom.lesson_class import play_class

    classroom = Classroom.objects.get(code=DEMO_CODE)
    if classroom.sessions.exists():
        sys.exit("The demo class has played already: load a fresh demo first.")
    cast = {pupil: CAST[pupil.first_name] for pupil in classroom.pupils.all()}
    services.BOT_PAUSE = timedelta(0)
    services._refresh_reports = lambda pupil_ids: None
    celery_app.conf.task_always_eager = True
    start = time.perf_counter()
    with transaction.atomic():
        play_class(classroom, classroom.teacher, cast)
    print(f"played {classroom.sessions.count()} sessions in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
