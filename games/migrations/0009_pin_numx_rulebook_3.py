"""NUM-X asks a blocked player when the turn reaches them from rulebook 4 on,
holding Num-X or not: until then one without Num-X was passed over at once, so
every tablet could tell from whose turn came next that they held no Num-X. A
session saved before (rulebook 3, the default then, so not written in its
options) plays on and replays by rulebook 3, like 0006 and 0008 did for
rulebooks 1 and 2: a late pupil's table and a replay of its move log follow
the rules its other tables were played by. Tables already started keep them
anyway: their stored state says rulebook 3."""

from django.db import migrations


def pin_rulebook_3(apps, schema_editor):
    GameSession = apps.get_model("games", "GameSession")
    for session in GameSession.objects.filter(game="numx").only("options"):
        options = session.options or {}
        if "rulebook" not in options:
            session.options = {**options, "rulebook": 3}
            session.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("games", "0008_pin_numx_rulebook_2")]

    operations = [migrations.RunPython(pin_rulebook_3, migrations.RunPython.noop)]
