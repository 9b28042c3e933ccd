"""Mastery model: pure functions, no database (classroom/mastery.py)."""

import random
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom import mastery as m
from classroom.mastery import AttemptRecord, OpportunityRecord

FAST = settings(max_examples=200, deadline=None)
START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)  # a Monday


def attempts_from(outcomes, skill="add", pupil=1, first_try=True, start=0, games=2):
    """First tries of one pupil and skill, one per minute, oldest first, the
    first half in one game and the second half in another (``games``)."""
    count = max(len(outcomes), 1)
    return [
        AttemptRecord(
            pupil_id=pupil,
            skill=skill,
            operands=[3, 4],
            expected="7",
            given="7" if right else "8",
            correct=right,
            first_try=first_try,
            response_ms=2000,
            created_at=START + timedelta(minutes=start + i),
            session_id=1 + i * games // count,
        )
        for i, right in enumerate(outcomes)
    ]


def skill_of(attempts, skill="add", pupil=1):
    return m.summarise(attempts)[pupil].skills[skill]


def step(skill, a, b, expected, given, right=None, minute=0, first_try=True, pupil=1, game=1):
    return AttemptRecord(
        pupil_id=pupil,
        skill=skill,
        operands=[a, b],
        expected=str(expected),
        given=str(given),
        correct=(str(expected) == str(given)) if right is None else right,
        first_try=first_try,
        created_at=START + timedelta(minutes=minute),
        session_id=game,
    )


# ------------------------------------------------------------------ the module stays pure


def test_module_imports_without_django():
    code = (
        "import sys, classroom.mastery; "
        "sys.exit(any(name.startswith('django') for name in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


# ------------------------------------------------------------------ BKT


def test_parameters_are_sane():
    # Non-degenerate BKT (Baker et al. 2008): a right answer is evidence of knowing.
    assert m.P_GUESS < 0.5 and m.P_SLIP < 0.5 and 1 - m.P_SLIP > m.P_GUESS
    # Wrong answers only ever lower estimates that start above this floor.
    assert m.P_INIT > m.BKT_WRONG_FLOOR
    assert m.bkt_update(m.BKT_WRONG_FLOOR, False) == pytest.approx(m.BKT_WRONG_FLOOR)


@FAST
@given(st.floats(0, 1))
def test_a_right_answer_never_lowers_the_estimate(estimate):
    assert m.bkt_update(estimate, True) >= estimate


@FAST
@given(st.floats(0, 1))
def test_estimate_stays_between_0_and_1(estimate):
    for correct in (True, False):
        assert 0.0 <= m.bkt_update(estimate, correct) <= 1.0


@FAST
@given(st.lists(st.booleans(), max_size=60))
def test_each_step_from_the_start_moves_the_right_way(outcomes):
    estimate = m.P_INIT
    for correct in outcomes:
        after = m.bkt_update(estimate, correct)
        assert 0.0 <= after <= 1.0
        if correct:
            assert after >= estimate
        else:
            assert after <= estimate
        estimate = after


@FAST
@given(st.floats(0.115, 1))
def test_a_wrong_answer_never_raises_an_estimate_above_the_floor(estimate):
    assert m.bkt_update(estimate, False) <= estimate


@FAST
@given(st.lists(st.booleans(), max_size=30), st.lists(st.booleans(), max_size=30))
def test_retries_never_change_the_estimate_or_accuracy(outcomes, retry_outcomes):
    firsts = attempts_from(outcomes)
    # Retries at the same minutes as first tries, and after them: order must not matter.
    retries = attempts_from(retry_outcomes, first_try=False)
    if not firsts and not retries:
        assert m.summarise([]) == {}
        return
    alone = skill_of(firsts) if firsts else None
    both = skill_of(firsts + retries)
    if alone is None:
        assert both.estimate == m.P_INIT and both.status == "not_started"
    else:
        assert both.estimate == alone.estimate
        assert both.accuracy == alone.accuracy
        assert both.last10_right == alone.last10_right
        assert both.status == alone.status
    assert both.retries == len(retries)
    assert both.attempts == len(firsts) + len(retries)


@FAST
@given(st.lists(st.booleans(), min_size=1, max_size=40))
def test_summary_matches_the_plain_bkt_formula(outcomes):
    summary = skill_of(attempts_from(outcomes))
    assert summary.estimate == pytest.approx(m.bkt_estimate(outcomes))
    assert summary.first_tries == len(outcomes)
    assert summary.correct_first == sum(outcomes)
    assert summary.last10_total == min(10, len(outcomes))
    assert summary.last10_right == sum(outcomes[-10:])


def test_attempts_are_sorted_by_time_before_tracing():
    outcomes = [False, False, True, True, True]
    rows = attempts_from(outcomes)
    assert skill_of(list(reversed(rows))).estimate == pytest.approx(m.bkt_estimate(outcomes))


# ------------------------------------------------------------------ status rules, in order


@pytest.mark.parametrize(
    ("first_tries", "right", "total", "estimate", "help", "games", "status"),
    [
        # 1. not_started
        (0, 0, 0, m.P_INIT, (0, 0), 0, "not_started"),
        (1, 0, 1, 0.2, (0, 1), 1, "practising"),
        # 2. mastered: each of its four conditions at its boundary
        (8, 8, 8, 0.95, (8, 8), 2, "mastered"),
        (7, 7, 7, 0.99, (7, 7), 2, "nearly_there"),  # one first try short
        (8, 8, 8, 0.9499, (8, 8), 2, "nearly_there"),  # estimate just short
        (20, 8, 10, 0.95, (16, 20), 2, "mastered"),  # last 10 exactly 0.8
        (20, 7, 10, 0.99, (15, 20), 2, "nearly_there"),  # last 10 just short
        (8, 8, 8, 0.95, (8, 8), 1, "nearly_there"),  # one game only
        # 3. needs_help: boundaries of count, the last 20, the estimate and games
        (6, 2, 6, 0.5, (2, 6), 2, "needs_help"),
        (5, 0, 5, 0.2, (0, 5), 2, "practising"),  # too few to call for help
        (20, 7, 10, 0.5, (14, 20), 2, "practising"),  # exactly 70% of the last 20
        (20, 7, 10, 0.5, (13, 20), 2, "needs_help"),
        (10, 7, 10, 0.2, (7, 10), 2, "practising"),  # a low estimate alone: no verdict
        (6, 2, 6, 0.5, (2, 6), 1, "practising"),  # one game only
        # 3 before 4: both hold, needs_help wins
        (10, 4, 10, 0.98, (4, 10), 2, "needs_help"),
        # 4. nearly_there
        (3, 3, 3, 0.8, (3, 3), 2, "nearly_there"),
        (3, 3, 3, 0.7999, (3, 3), 2, "practising"),
        # 5. practising
        (4, 2, 4, 0.6, (2, 4), 2, "practising"),
    ],
)
def test_status_rules_and_their_order(first_tries, right, total, estimate, help, games, status):
    help_right, help_total = help
    assert m.status_for(
        first_tries, right, total, estimate, games=games, help_right=help_right,
        help_total=help_total,
    ) == status


def test_statuses_from_real_sequences():
    assert skill_of(attempts_from([True] * 3)).status == "nearly_there"
    assert skill_of(attempts_from([True] * 8)).status == "mastered"
    # BKT has no forgetting: after 20 right the estimate stays near 100% through
    # three slips, and it is the last-10 rule that keeps this from "mastered".
    saturated = skill_of(attempts_from([True] * 20 + [False] * 3))
    assert saturated.estimate > 0.99
    assert saturated.status == "nearly_there"
    assert saturated.sentence == "nearly there: 7 of the last 10 right, estimate 100%"
    six_wrong_four_right = [False] * 6 + [True] * 4
    summary = skill_of(attempts_from(six_wrong_four_right))
    assert summary.estimate >= m.NEARLY_ESTIMATE
    assert summary.status == "needs_help"
    assert m.summarise([]) == {}


def test_the_four_operations_are_always_reported():
    skills = m.summarise(attempts_from([True], skill="primes"))[1].skills
    assert set(skills) == {"add", "sub", "mul", "div", "primes"}
    assert skills["div"].status == "not_started"
    assert skills["div"].sentence == "no evidence yet: no calculation with this skill"


# ------------------------------------------------------------------ sentences


def test_sentences_a_teacher_reads():
    mastered = skill_of(attempts_from([True] * 8 + [False] + [True] * 9))
    assert mastered.sentence == "mastered: 9 of the last 10 right, estimate 99%"
    help_ = skill_of(attempts_from([True, False, False, True, False, False, True, False] * 2))
    assert help_.status == "needs_help"
    assert help_.sentence == "needs help: 6 of the last 16 right"
    nearly = skill_of(attempts_from([True] * 3))
    assert nearly.sentence == (
        "nearly there: 3 of the last 3 right, estimate 98%, needs 5 more to be sure"
    )
    practising = skill_of(attempts_from([True, False]))
    assert practising.sentence.startswith("practising: 1 of the last 2 right, estimate ")


@FAST
@given(st.lists(st.booleans(), min_size=1, max_size=60))
def test_a_low_estimate_always_comes_with_a_low_last_20(outcomes):
    """Why the help rule reads the last 20 alone (the module's docstring)."""
    if m.bkt_estimate(outcomes) < 0.4:
        window = outcomes[-m.HELP_WINDOW :]
        assert sum(window) / len(window) < m.HELP_ACCURACY


def test_one_short_game_gives_no_verdict_and_says_why():
    one_game = skill_of(attempts_from([True] * 11 + [False] * 2, games=1))
    assert one_game.estimate > 0.95 and one_game.status == "nearly_there"
    assert one_game.sentence.endswith("in one game only: a second game will tell")
    struggling = skill_of(attempts_from([False, True] * 5, games=1))
    assert struggling.status == "practising"
    assert struggling.sentence.endswith("in one game only: a second game will tell")
    assert skill_of(attempts_from([True] * 11 + [False] * 2, games=2)).status == "mastered"
    assert skill_of(attempts_from([False, True] * 5, games=2)).status == "needs_help"


def test_estimate_is_floored_so_it_never_reads_as_the_threshold():
    summary = m.SkillSummary("add", 9, 9, 0, 9, 1.0, 1.0, 9, 9, None, 0.94999, "nearly_there", "")
    assert "estimate 94%" in m.explain(summary)


def test_sentences_go_through_gettext():
    seen = []

    def gettext(message):
        seen.append(message)
        return "«" + message + "»"

    summary = skill_of(attempts_from([True] * 3))
    assert m.explain(summary, gettext).startswith("«nearly there: 3 of")
    assert seen == [m.MSG_NEARLY_MORE]
    result = m.summarise(attempts_from([True]), gettext=gettext)
    assert result[1].skills["sub"].sentence == "«no evidence yet: no calculation with this skill»"


def test_every_template_formats():
    values = {
        "right": 1, "total": 2, "estimate": 3, "more": 4, "could": 5, "used": 6,
        "needed": 5, "table": 7, "attempts": 8, "correct": 9, "help_right": 10, "help_total": 11,
    }  # fmt: skip
    templates = [
        m.MSG_NOT_STARTED, m.MSG_PRACTISING, m.MSG_NEARLY, m.MSG_NEARLY_MORE, m.MSG_MASTERED,
        m.MSG_HELP_RECENT, m.MSG_ONE_GAME_NEARLY, m.MSG_ONE_GAME_PRACTISING, *m.MSG_USES.values(),
        *m.MSG_TOO_FEW.values(),
        *m.MSG_TABLE.values(),
    ]  # fmt: skip
    for group in m.MSG_AVOIDS.values():
        templates.extend(group)
    for template in templates:
        assert "%(" not in template % values


# ------------------------------------------------------------------ mistakes


@pytest.mark.parametrize(
    ("skill", "operands", "expected", "given", "kind"),
    [
        ("mul", [6, 7], "42", "13", "added_instead"),
        ("sub", [9, 4], "5", "13", "added_instead"),
        ("div", [12, 3], "4", "15", "added_instead"),
        ("add", [6, 7], "13", "42", "multiplied_instead"),
        ("div", [12, 3], "4", "36", "multiplied_instead"),
        ("add", [9, 4], "13", "5", "subtracted_instead"),
        ("sub", [52, 17], "35", "45", "smaller_from_larger"),
        ("sub", [43, 8], "35", "45", "smaller_from_larger"),
        ("add", [8, 5], "13", "12", "off_by_one"),
        ("sub", [9, 4], "5", "6", "off_by_one"),
        ("mul", [7, 8], "56", "49", "table_neighbour"),  # 7 × 7
        ("mul", [7, 8], "56", "64", "table_neighbour"),  # 8 × 8
        ("mul", [7, 8], "56", "48", "table_neighbour"),  # 6 × 8
        ("mul", [6, 4], "24", "42", "digit_swap"),
        ("add", [50, 23], "73", "37", "digit_swap"),
        ("mul", [7, 8], "56", "54", "other"),
        ("add", [2, 3], "5", "banana", "other"),
        ("add", ["1/2", "1/4"], "3/4", "1/3", "other"),
        ("add", ["1/2", "1/4"], "3/4", "7/4", "off_by_one"),
        ("multi_step", [2, 3, 4], "20", "14", "other"),
        ("add", [2, 3], "5", "5", ""),
    ],
)
def test_named_mistakes(skill, operands, expected, given, kind):
    assert m.name_mistake(skill, operands, expected, given) == kind


def test_operation_confusion_is_named_before_off_by_one():
    # 2 + 3 typed as 6: both "multiplied" and "off by one"; the documented order names it.
    assert m.name_mistake("add", [2, 3], "5", "6") == "multiplied_instead"
    # 1 × 5 typed as 4: also the table neighbour 1 × 4; off by one is named first.
    assert m.name_mistake("mul", [1, 5], "5", "4") == "off_by_one"


def test_recent_mistakes_are_the_last_ten_wrong_first_tries():
    rows = [step("mul", 7, 8, 56, 54, minute=0)]
    rows += [step("add", 8, 5, 13, 12, minute=i) for i in range(1, 12)]
    rows += [step("mul", 7, 8, 56, 55, minute=12, first_try=False)]  # a retry: not listed
    rows += [step("div", 12, 3, 4, 36, minute=13), step("add", 1, 1, 2, 2, minute=14)]
    mistakes = m.summarise(rows)[1].mistakes
    assert len(mistakes) == 10
    assert mistakes[-1] == m.Mistake(
        "div", "multiplied_instead", "12 ÷ 3 = 36 (4)", START + timedelta(minutes=13)
    )
    assert mistakes[0].calculation == "8 + 5 = 12 (13)"
    assert m.calculation_text("mul", [7, 8], "56", "54") == "7 × 8 = 54 (56)"
    assert m.calculation_text("sub", ["3/4", 0], "3/4", "1") == "3/4 − 0 = 1 (3/4)"


# ------------------------------------------------------------------ times tables


def test_tables_grid_counts_both_operands_and_the_quotient():
    rows = [
        step("mul", 6, 7, 42, 42),
        step("mul", 7, 7, 49, 48),  # counts once for the 7s
        step("div", 56, 8, 7, 7),  # table of 8 and of 7
        step("mul", 13, 2, 26, 26),  # 13 is in no table; the 2s still count
        step("mul", 6, 7, 42, 41, first_try=False),  # retries are not evidence
        step("add", 6, 7, 13, 13),  # not a table fact
    ]
    grid = m.tables_grid(rows)
    assert set(grid) == set(range(1, 13))
    assert (grid[7].attempts, grid[7].correct) == (3, 2)
    assert (grid[6].attempts, grid[8].attempts, grid[2].attempts) == (1, 1, 1)
    assert grid[12] == m.TableCell(12, 0, 0, None, "unknown")
    assert m.tables_grid(rows, skills=("div",))[7].attempts == 1


@pytest.mark.parametrize(
    ("right", "total", "status"),
    [(3, 3, "unknown"), (4, 4, "solid"), (9, 10, "solid"), (8, 10, "shaky"),
     (7, 10, "shaky"), (6, 10, "weak"), (0, 4, "weak")],
)  # fmt: skip
def test_table_status_thresholds(right, total, status):
    rows = [step("mul", 6, 3, 18, 18 if i < right else 17, minute=i) for i in range(total)]
    cell = m.tables_grid(rows)[6]
    assert (cell.correct, cell.attempts, cell.status) == (right, total, status)
    assert m.explain(cell).startswith(f"table of 6 {status}" if total >= 4 else "table of 6:")


def test_fact_grid_is_10_by_10_and_symmetric():
    rows = [step("mul", 6, 7, 42, 42), step("mul", 7, 6, 42, 40), step("mul", 3, 3, 9, 9)]
    rows += [step("mul", 11, 2, 22, 22), step("div", 42, 6, 7, 7)]
    grid = m.fact_grid(rows)
    assert len(grid) == 100
    assert grid[6, 7] == grid[7, 6] == m.FactCell(right=1, total=2)
    assert grid[3, 3] == m.FactCell(1, 1)
    assert grid[2, 2] == m.FactCell(0, 0)
    assert m.summarise(rows)[1].facts == grid


# ------------------------------------------------------------------ avoidance


def turns(could_div, used_div, pupil=1):
    """Turns where + and ÷ could both make a free square."""
    return [
        OpportunityRecord(
            pupil, [6, 3, 2], {"add": True, "sub": False, "mul": False, "div": True},
            ["div", "add"] if i < used_div else ["add"],
        )
        for i in range(could_div)
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("could", "used", "avoids"),
    [(9, 1, True), (5, 0, True), (4, 0, False), (10, 2, False), (10, 1, True)],
)
def test_avoidance_rule(could, used, avoids):
    result = m.avoidance(turns(could, used))
    assert result["div"] == m.Avoidance("div", could, used, used / could, avoids)
    assert result["add"].avoids is False and result["add"].rate == 1.0
    assert result["mul"] == m.Avoidance("mul", 0, 0, None, False)


def test_avoidance_shows_even_with_perfect_accuracy():
    rows = [step("div", 12, 3, 4, 4, minute=i, game=1 + i % 2) for i in range(10)]
    pupil = m.summarise(rows, turns(9, 1))[1]
    assert pupil.skills["div"].status == "mastered"
    assert pupil.avoidance["div"].avoids
    assert m.explain(pupil.avoidance["div"]) == (
        "avoids division: could have divided 9 times, divided once"
    )
    assert m.explain(m.avoidance(turns(6, 0))["div"]) == (
        "avoids division: could have divided 6 times, never divided"
    )
    assert m.explain(m.avoidance(turns(3, 0))["div"]) == (
        "division: too few chances to tell yet (3 of 5)"
    )
    assert m.explain(m.avoidance(turns(6, 0))["add"]) == (
        "uses addition: added 6 of 6 times it could"
    )


def test_opportunities_alone_make_a_pupil():
    assert m.summarise([], turns(5, 0, pupil=9))[9].avoidance["div"].avoids


# ------------------------------------------------------------------ rows as dicts, streams


def test_dict_rows_give_the_same_result():
    rows = attempts_from([True, False, True] * 5, skill="mul")
    dicts = [row._asdict() for row in rows]
    assert m.summarise(dicts) == m.summarise(rows)


def test_accumulator_and_stream_match_summarise():
    rng = random.Random(7)
    rows = synthetic_attempts(5, 400, rng)
    opportunities = [o for p in range(5) for o in turns(6, p, pupil=p)]
    expected = m.summarise(rows, opportunities)
    ordered = sorted(rows, key=lambda row: (row.pupil_id, row.created_at))
    by_pupil = {p: [o for o in opportunities if o.pupil_id == p] for p in range(5)}
    streamed = dict(m.summarise_stream(ordered, by_pupil.__getitem__))
    assert streamed == expected


def test_accumulator_refuses_rows_out_of_time_order():
    accumulator = m.MasteryAccumulator(1)
    later, earlier = attempts_from([True, True])[::-1]
    accumulator.add(later)
    with pytest.raises(ValueError, match="created_at order"):
        accumulator.add(earlier)


def test_stream_refuses_pupils_not_grouped():
    rows = attempts_from([True], pupil=1) + attempts_from([True], pupil=2, start=1)
    rows += attempts_from([True], pupil=1, start=2)
    with pytest.raises(ValueError, match="grouped by pupil"):
        list(m.summarise_stream(rows))


# ------------------------------------------------------------------ trend


def test_trend_per_week_carries_the_estimate():
    outcomes = [False, True, True, True, False, True, True, True, True]
    rows = [
        row._replace(created_at=START + timedelta(days=3 * i))
        for i, row in enumerate(attempts_from(outcomes))
    ]
    rows.append(rows[0]._replace(first_try=False, created_at=START + timedelta(days=1)))
    points = m.trend(rows, "add")
    assert [p.bucket for p in points] == ["2025-W02", "2025-W03", "2025-W04", "2025-W05"]
    assert [(p.correct, p.attempts) for p in points] == [(2, 3), (1, 2), (2, 2), (2, 2)]
    assert points[-1].estimate == pytest.approx(m.bkt_estimate(outcomes))
    assert points[0].estimate == pytest.approx(m.bkt_estimate(outcomes[:3]))
    assert m.trend(rows, "div") == []
    assert len(m.trend(rows, "add", buckets=m.by_day)) == len(outcomes)


# ------------------------------------------------------------------ speed


def synthetic_attempts(pupils, per_pupil, rng):
    rows = []
    skills = ("add", "sub", "mul", "div", "brackets")
    for pupil in range(pupils):
        skill_level = {skill: rng.random() for skill in skills}
        for i in range(per_pupil):
            skill = rng.choice(skills)
            a, b = rng.randint(1, 12), rng.randint(1, 12)
            right = rng.random() < 0.5 + skill_level[skill] / 2
            product = a * b
            rows.append(
                AttemptRecord(
                    pupil_id=pupil,
                    skill=skill,
                    operands=[product, b] if skill == "div" else [a, b],
                    expected=str(a if skill == "div" else product),
                    given=str(a if skill == "div" else product) if right else str(product + 1),
                    correct=right,
                    first_try=rng.random() < 0.85,
                    response_ms=rng.randint(800, 15000),
                    created_at=START + timedelta(seconds=20 * i + pupil),
                    game="numberquest",
                )
            )
    rng.shuffle(rows)
    return rows


def test_a_class_of_30_with_60000_attempts_is_fast():
    rng = random.Random(2025)
    rows = synthetic_attempts(30, 2000, rng)
    opportunities = [o for p in range(30) for o in turns(100, 30, pupil=p)]
    started = time.perf_counter()
    result = m.summarise(rows, opportunities)
    elapsed = time.perf_counter() - started
    print(f"\nsummarise: 60,000 attempts, 30 pupils, 3,000 opportunities in {elapsed:.3f} s")
    assert len(result) == 30
    assert sum(s.attempts for p in result.values() for s in p.skills.values()) == 60_000
    assert elapsed < 1.5
