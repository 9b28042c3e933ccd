"""What a practice session changed: the last 10 first tries before it against
the first 10 from it on."""

from datetime import timedelta

from learning import practice_effect
from tests.learning.factories import START


def tries(*rights, start=0):
    return [(START + timedelta(minutes=start + i), right) for i, right in enumerate(rights)]


def test_the_last_ten_before_against_the_first_ten_after():
    before = tries(*[True] * 5, *[False] * 6, *[True] * 4)  # the last 10: 4 right
    after = tries(*[True] * 8, False, False, *[False] * 5, start=100)  # first 10: 8 right
    found = practice_effect.change("mul", before + after, START + timedelta(minutes=50))
    assert found == practice_effect.Change("mul", 4, 10, 8, 10)
    assert practice_effect.explain(found, "Multiplication", "26 November") == (
        "Multiplication: 4 of the last 10 right before the session of 26 November, 8 of 10 after"
    )


def test_what_is_missing_is_said():
    at = START + timedelta(minutes=50)
    only_after = practice_effect.change("div", tries(True, False, True, start=60), at)
    assert practice_effect.explain(only_after, "Division", "3 May") == (
        "Division: no calculation before the session of 3 May, 2 of 3 right after"
    )
    only_before = practice_effect.change("div", tries(True, False), at)
    assert practice_effect.explain(only_before, "Division", "3 May").endswith(", none after yet")
    nothing = practice_effect.change("div", [], at)
    assert practice_effect.explain(nothing, "Division", "3 May") == (
        "Division: no calculation before the session of 3 May, nor after"
    )


def test_order_given_does_not_matter_and_translation_applies():
    rows = tries(False, True, True, start=0)
    found = practice_effect.change("add", list(reversed(rows)), START + timedelta(minutes=1))
    assert found == practice_effect.Change("add", 0, 1, 2, 2)
    said = practice_effect.explain(found, "Addition", "1 May", gettext=lambda m: "»" + m)
    assert said.startswith("»Addition: 0 of the last 1 right")
