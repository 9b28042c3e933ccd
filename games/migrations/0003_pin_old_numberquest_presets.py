"""RULES.md 0.2 changed the boards of the presets `addition` (4..24 -> 9..19)
and `plus-minus` (1..24 -> 1..18). A session saved before keeps its board: its
options get the old shape written out, so a table started later in the same
session (a late pupil) plays the same board as the others. Tables already
started keep their board anyway: their state holds the whole variant."""

from django.db import migrations

# Frozen here on purpose: a migration must not follow later edits of the engine.
OLD_SHAPES = {
    "addition": {"dice": 4, "operations": "+", "lo": 4, "hi": 24},
    "plus-minus": {"dice": 4, "operations": "+-", "lo": 1, "hi": 24},
}
SHAPE_KEYS = ("dice", "operations", "lo", "hi")


def pin_old_boards(apps, schema_editor):
    GameSession = apps.get_model("games", "GameSession")
    for session in GameSession.objects.filter(game="numberquest").only("options"):
        options = session.options or {}
        shape = OLD_SHAPES.get(options.get("preset"))
        if shape and not any(key in options for key in SHAPE_KEYS):
            session.options = {**options, **shape}
            session.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("games", "0002_whole_class_nmbr9")]

    operations = [migrations.RunPython(pin_old_boards, migrations.RunPython.noop)]
