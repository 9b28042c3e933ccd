"""Status rules and the sentences a teacher reads (learning/verdicts.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from learning import bkt, opportunities, tally, times_tables, verdicts
from tests.learning.factories import FAST, attempts_from, skill_of


@pytest.mark.parametrize(
    ("first_tries", "right", "total", "estimate", "help", "games", "status"),
    [
        # 1. not_started
        (0, 0, 0, bkt.P_INIT, (0, 0), 0, "not_started"),
        # 2. not_enough: one game only, whatever it says
        (1, 0, 1, 0.2, (0, 1), 1, "not_enough"),
        (8, 8, 8, 0.95, (8, 8), 1, "not_enough"),
        (20, 2, 10, 0.2, (4, 20), 1, "not_enough"),
        # 5. not_enough: too few first tries for any status but "needs help"
        (3, 3, 3, 0.98, (3, 3), 2, "not_enough"),  # three right answers: no "nearly there"
        (7, 7, 7, 0.99, (7, 7), 2, "not_enough"),  # one first try short
        (5, 0, 5, 0.1, (0, 5), 2, "not_enough"),  # nor "needs help" before 6
        (6, 5, 6, 0.9, (5, 6), 2, "not_enough"),
        # 3. mastered: each of its conditions at its boundary
        (8, 8, 8, 0.95, (8, 8), 2, "mastered"),
        (8, 8, 8, 0.9499, (8, 8), 2, "nearly_there"),  # estimate just short
        (20, 8, 10, 0.95, (16, 20), 2, "mastered"),  # last 10 exactly 0.8
        (20, 7, 10, 0.99, (15, 20), 2, "nearly_there"),  # last 10 just short
        # 4. needs_help: from 6 first tries, the last 20 at its boundary
        (6, 4, 6, 0.5, (4, 6), 2, "needs_help"),
        (7, 0, 7, 0.1, (0, 7), 2, "needs_help"),
        (8, 2, 8, 0.5, (2, 8), 2, "needs_help"),
        (20, 7, 10, 0.5, (14, 20), 2, "practising"),  # exactly 70% of the last 20
        (20, 7, 10, 0.5, (13, 20), 2, "needs_help"),
        (10, 7, 10, 0.2, (7, 10), 2, "practising"),  # a low estimate alone: no verdict
        # 4 before 5: both hold, needs_help wins
        (10, 4, 10, 0.98, (4, 10), 2, "needs_help"),
        # 5. nearly_there
        (8, 8, 8, 0.8, (8, 8), 2, "nearly_there"),
        (8, 8, 8, 0.7999, (8, 8), 2, "practising"),
        (20, 7, 10, 0.99, (14, 20), 2, "nearly_there"),  # 7 of the last 10 will do
        (20, 6, 10, 0.99, (14, 20), 2, "practising"),  # 6 will not, whatever the estimate
        # 6. practising
        (10, 6, 10, 0.6, (8, 10), 2, "practising"),
    ],
)
def test_status_rules_and_their_order(first_tries, right, total, estimate, help, games, status):
    help_right, help_total = help
    assert verdicts.status_for(
        first_tries, right, total, estimate, games=games, help_right=help_right,
        help_total=help_total,
    ) == status


def test_statuses_from_real_sequences():
    assert skill_of(attempts_from([True] * 3)).status == "not_enough"
    assert skill_of(attempts_from([True] * 8)).status == "mastered"
    # BKT has no forgetting: after 20 right the estimate stays near 100% through
    # three slips, and it is the last-10 rule that keeps this from "mastered".
    saturated = skill_of(attempts_from([True] * 20 + [False] * 3))
    assert saturated.estimate > 0.99
    assert saturated.status == "nearly_there"
    # Its 100% would read "mastered": the last ten are said, and what they need.
    assert saturated.sentence == "nearly there: 7 of the last 10 right, 8 needed for mastered"
    six_wrong_four_right = [False] * 6 + [True] * 4
    summary = skill_of(attempts_from(six_wrong_four_right))
    assert summary.estimate >= verdicts.NEARLY_ESTIMATE
    assert summary.status == "needs_help"
    assert summary.sentence == "needs help: 4 of the last 10 right"  # no estimate of 80% or more
    assert tally.summarise([]) == {}


def test_the_four_operations_are_always_reported():
    skills = tally.summarise(attempts_from([True], skill="primes"))[1].skills
    assert set(skills) == {"add", "sub", "mul", "div", "primes"}
    assert skills["div"].status == "not_started"
    assert skills["div"].sentence == "no evidence yet: no calculation with this skill"


def test_sentences_a_teacher_reads():
    mastered = skill_of(attempts_from([True] * 8 + [False] + [True] * 9))
    assert mastered.sentence == "mastered: 9 of the last 10 right, estimate 99%"
    help_ = skill_of(attempts_from([True, False, False, True, False, False, True, False] * 2))
    assert help_.status == "needs_help"
    assert help_.sentence == "needs help: 6 of the last 16 right"
    early = skill_of(attempts_from([True] * 3))
    assert early.sentence == (
        "not enough yet: 3 of 3 right so far; 5 more calculations needed"
    )
    # A long good run, then 6 of the last 10: the estimate (100%) is no figure for it.
    practising = skill_of(attempts_from([True] * 12 + [False] * 2 + [True] + [False] * 2
                                        + [True] * 3))
    assert practising.status == "practising" and practising.estimate > 0.99
    assert practising.sentence == "practising: 16 of the last 20 right"
    nearly = verdicts.SkillSummary(
        "add", 9, 9, 0, 8, 8 / 9, 8 / 9, 8, 9, None, 0.9, "nearly_there", "", 2, 8, 9
    )
    assert verdicts.explain(nearly) == "nearly there: 8 of the last 9 right, estimate 90%"
    unsure = verdicts.SkillSummary(
        "add", 9, 9, 0, 7, 7 / 9, 7 / 9, 7, 9, None, 0.6, "practising", "", 2, 7, 9
    )
    assert verdicts.explain(unsure) == "practising: 7 of the last 9 right, estimate 60%"


def test_not_enough_yet_says_what_is_missing():
    def said(outcomes, games):
        return skill_of(attempts_from(outcomes, games=games)).sentence

    assert said([True, True], 1) == (
        "not enough yet: 2 of 2 right so far; 6 more calculations needed, in another game"
    )
    assert said([True] * 7, 2) == "not enough yet: 7 of 7 right so far; 1 more calculation needed"
    assert said([True] * 7, 1) == (
        "not enough yet: 7 of 7 right so far; 1 more calculation needed, in another game"
    )
    # Enough calculations, all in one game: one more is missing, in another game.
    assert said([False] * 12, 1) == (
        "not enough yet: 0 of 12 right so far; 1 more calculation needed, in another game"
    )


@FAST
@given(st.lists(st.booleans(), min_size=1, max_size=60))
def test_a_low_estimate_always_comes_with_a_low_last_20(outcomes):
    """Why the help rule reads the last 20 alone (the module's docstring)."""
    if bkt.bkt_estimate(outcomes) < 0.4:
        window = outcomes[-verdicts.HELP_WINDOW :]
        assert sum(window) / len(window) < verdicts.HELP_ACCURACY


def test_one_short_game_gives_no_verdict_and_says_why():
    one_game = skill_of(attempts_from([True] * 11 + [False] * 2, games=1))
    assert one_game.estimate > 0.95 and one_game.status == "not_enough"
    assert one_game.sentence.endswith("1 more calculation needed, in another game")
    struggling = skill_of(attempts_from([False, True] * 5, games=1))
    assert struggling.status == "not_enough"
    assert skill_of(attempts_from([True] * 11 + [False] * 2, games=2)).status == "mastered"
    assert skill_of(attempts_from([False, True] * 5, games=2)).status == "needs_help"


def test_estimate_is_floored_so_it_never_reads_as_the_threshold():
    summary = verdicts.SkillSummary(
        "add", 9, 9, 0, 9, 1.0, 1.0, 9, 9, None, 0.94999, "nearly_there", "", 2, 9, 9
    )
    assert "estimate 94%" in verdicts.explain(summary)


def test_sentences_go_through_gettext():
    seen = []

    def gettext(message):
        seen.append(message)
        return "«" + message + "»"

    summary = skill_of(attempts_from([True] * 3))
    assert verdicts.explain(summary, gettext).startswith("«not enough yet: 3 of")
    assert seen == [verdicts.MSG_NOT_ENOUGH[(False, False)]]
    result = tally.summarise(attempts_from([True]), gettext=gettext)
    assert result[1].skills["sub"].sentence == "«no evidence yet: no calculation with this skill»"


def test_every_template_formats():
    values = {
        "right": 1, "total": 2, "estimate": 3, "more": 4, "could": 5, "used": 6,
        "needed": 5, "table": 7, "attempts": 8, "correct": 9, "why": "x",
    }  # fmt: skip
    templates = [
        verdicts.MSG_NOT_STARTED, verdicts.MSG_PRACTISING, verdicts.MSG_NEARLY,
        verdicts.MSG_PRACTISING_RECENT,
        verdicts.MSG_NEARLY_RECENT, verdicts.MSG_MASTERED, verdicts.MSG_HELP,
        *verdicts.MSG_NOT_ENOUGH.values(), *opportunities.MSG_AVOIDS.values(),
        *opportunities.MSG_USES.values(),
        *opportunities.MSG_TOO_FEW.values(),
        *times_tables.MSG_TABLE.values(),
    ]  # fmt: skip
    for group in opportunities.MSG_AVOIDED.values():
        templates.extend(group)
    for template in templates:
        assert "%(" not in template % values
