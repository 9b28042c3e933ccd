"""NUM-X follows RULES 4.5 and 4.8 from rulebook 2 on: a drawn card that can be
played is played, and a Block by anyone but the trick's owner lets the trick
stand. A session saved before plays on and replays by rulebook 1: its options
say so, so a table started later in it (a late pupil) and a replay of its move
log follow the rules its other tables were played by. Tables already started
keep them anyway: a stored state without a rulebook is of rulebook 1."""

from django.db import migrations


def pin_old_rulebook(apps, schema_editor):
    GameSession = apps.get_model("games", "GameSession")
    for session in GameSession.objects.filter(game="numx").only("options"):
        options = session.options or {}
        if "rulebook" not in options:
            session.options = {**options, "rulebook": 1}
            session.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("games", "0005_team_size")]

    operations = [migrations.RunPython(pin_old_rulebook, migrations.RunPython.noop)]
