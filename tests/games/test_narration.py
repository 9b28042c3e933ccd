"""Log lines that end on a pupil's name: its initial's full stop ends the sentence."""

from django.utils import translation

from games import narration


def test_time_up_names_the_pupil_first():
    event = {"kind": "timeout", "player": 0, "data": {}}
    assert narration.event_text(event, {0: "Léa M."}) == "Léa M.: time is up."
    with translation.override("fr"):
        assert narration.event_text(event, {0: "Léa M."}) == "Léa M. : le temps est écoulé."
