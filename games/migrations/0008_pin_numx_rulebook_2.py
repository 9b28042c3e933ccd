"""NUM-X follows RULES 4.6 and 4.8 more closely from rulebook 3 on: a Block its
player laid before they laid or completed the top trick no longer gives them the
turn back on it. A session saved before (rulebook 2, the default then, so not
written in its options) plays on and replays by rulebook 2, like 0006 did for
rulebook 1: a late pupil's table and a replay of its move log follow the rules
its other tables were played by. Tables already started keep them anyway: their
stored state says rulebook 2."""

from django.db import migrations


def pin_rulebook_2(apps, schema_editor):
    GameSession = apps.get_model("games", "GameSession")
    for session in GameSession.objects.filter(game="numx").only("options"):
        options = session.options or {}
        if "rulebook" not in options:
            session.options = {**options, "rulebook": 2}
            session.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("games", "0007_session_practice_skill")]

    operations = [migrations.RunPython(pin_rulebook_2, migrations.RunPython.noop)]
