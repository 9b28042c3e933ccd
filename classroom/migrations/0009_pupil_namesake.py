from collections import Counter

from django.db import migrations, models


def number_namesakes(apps, schema_editor):
    # As the pages numbered them until now: namesakes of a class in the order they were added.
    Pupil = apps.get_model("classroom", "Pupil")
    seen: Counter = Counter()
    changed = []
    for pupil in Pupil.objects.order_by("pk").only("pk", "classroom_id", "first_name", "initial"):
        key = (pupil.classroom_id, pupil.first_name.casefold(), pupil.initial)
        seen[key] += 1
        if seen[key] > 1:
            pupil.namesake = seen[key]
            changed.append(pupil)
    Pupil.objects.bulk_update(changed, ["namesake"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("classroom", "0008_no_hidden_characters_in_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="pupil",
            name="namesake",
            field=models.PositiveSmallIntegerField(default=1, editable=False),
        ),
        migrations.RunPython(number_namesakes, migrations.RunPython.noop),
    ]
