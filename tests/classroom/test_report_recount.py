"""Every figure the reports print, recounted from the attempts table.

A class of mixed pupils (always right; wrong at × and never dividing; with
second tries; three steps in one game; none at all) plays over three weeks.
The test counts again, from the Attempt and Opportunity rows and the rules as
written in learning's docstrings (not through learning's code), what the class
page, the pupil pages, the session pages, the CSV, the XLSX and the PDF print:
a figure that drifts from the evidence fails here.
"""

from __future__ import annotations

import csv
import html
import io
import math
import random
import re
from collections import defaultdict
from datetime import timedelta
from statistics import median

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import Attempt, Opportunity, Pupil
from classroom.reports import exports, services
from games.models import GameSession, Seat, Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

OPS = ("add", "sub", "mul", "div")
SKILLS = (*OPS, "multi_step")
SKILL_NAMES = {"add": "addition", "sub": "subtraction", "mul": "multiplication",
               "div": "division", "multi_step": "several steps"}  # fmt: skip


def _pupil(classroom, first, initial, avatar):
    return Pupil.objects.create(classroom=classroom, first_name=first, initial=initial,
                                avatar=avatar, picture_password="sun,moon,star")


@pytest.fixture
def mixed(classroom, teacher, pupils):
    """Four game sessions over three weeks; returns the sessions."""
    lea, noah, ines = pupils
    ben = _pupil(classroom, "Ben", "K", "owl")
    dan = _pupil(classroom, "Dan", "R", "bee")
    rng = random.Random(32)
    start = timezone.now() - timedelta(days=21)
    sessions, tables = [], []
    for number in range(4):
        session = GameSession.objects.create(
            classroom=classroom, teacher=teacher, game="numberquest", status="ended"
        )
        table = Table.objects.create(
            session=session, number=1, seed=number, state={}, turn_started_at=start
        )
        for player, pupil in enumerate((lea, noah, ben)):
            Seat.objects.create(table=table, player=player, pupil=pupil)
        if number == 0:
            Seat.objects.create(table=table, player=3, pupil=dan)
        sessions.append(session)
        tables.append(table)
    rows, when = [], []

    def step(pupil, game, minute, skill, right, first_try=True):
        a, b = rng.randint(2, 9), rng.randint(2, 9)
        operands, expected = {
            "add": ([a, b], a + b), "sub": ([a + b, b], a), "mul": ([a, b], a * b),
            "div": ([a * b, b], a), "multi_step": ([a, b, 1], a * b + 1),
        }[skill]  # fmt: skip
        given = expected if right else expected + 1
        rows.append(Attempt(
            pupil=pupil, session=sessions[game], table=tables[game], game="numberquest",
            skill=skill, operands=[str(x) for x in operands], expected=str(expected),
            given=str(given), correct=right, first_try=first_try,
            response_ms=rng.randint(1500, 9000),
        ))  # fmt: skip
        when.append(start + timedelta(days=7 * game // 2, minutes=minute))

    for game in range(4):
        for turn in range(12):
            minute = 10 * turn
            step(lea, game, minute, OPS[turn % 3], True)
            if game == 3 and turn < 2:
                step(lea, game, minute + 1, "div", True)
            noah_op = ("add", "sub", "mul")[turn % 3]
            step(noah, game, minute + 2, noah_op, noah_op != "mul" or rng.random() < 0.3)
            right = rng.random() < 0.6
            skill = rng.choice(SKILLS)
            step(ben, game, minute + 3, skill, right)
            if not right:
                step(ben, game, minute + 4, skill, rng.random() < 0.5, first_try=False)
        if game == 0:
            for minute, skill in ((200, "add"), (201, "mul"), (202, "add")):
                step(dan, game, minute, skill, True)
    Attempt.objects.bulk_create(rows)
    for saved, moment in zip(Attempt.objects.order_by("pk"), when, strict=True):
        Attempt.objects.filter(pk=saved.pk).update(created_at=moment)
    turns = []
    for game in range(4):
        for turn in range(12):
            moment = start + timedelta(days=7 * game // 2, minutes=10 * turn)
            could = {op: True for op in OPS}
            turns.append(Opportunity(pupil=noah, session=sessions[game], table=tables[game],
                                     game="numberquest", roll=[6, 3, 2], could=could,
                                     used=[("add", "sub", "mul")[turn % 3]]))  # fmt: skip
            turns.append(Opportunity(pupil=lea, session=sessions[game], table=tables[game],
                                     game="numberquest", roll=[6, 3, 2], could=could,
                                     used=[OPS[turn % 3], *(["div"] if turn % 4 == 0 else [])]))
            del moment
    Opportunity.objects.bulk_create(turns)
    services.recompute_pupils([p.pk for p in classroom.pupils.all()])
    return sessions


# ------------------------------------------------------------------ the recount


def bkt(outcomes) -> float:
    """The estimate, from learning/bkt.py's docstring formula and parameters."""
    known, slip, guess, learn = 0.3, 0.1, 0.2, 0.1
    for right in outcomes:
        if right:
            posterior = known * (1 - slip) / (known * (1 - slip) + (1 - known) * guess)
        else:
            posterior = known * slip / (known * slip + (1 - known) * (1 - guess))
        known = min(1.0, max(0.0, posterior + (1 - posterior) * learn))
    return known


def status(n, games, last10, last20, estimate) -> str:
    """learning/verdicts.py's rules, as its docstring writes them."""
    if n == 0:
        return "not_started"
    if games < 2:
        return "not_enough"
    recent = sum(last10) / len(last10)
    if n >= 8 and estimate >= 0.95 and recent >= 0.8:
        return "mastered"
    if n >= 6 and sum(last20) / len(last20) < 0.7:
        return "needs_help"
    if n < 8:
        return "not_enough"
    if estimate >= 0.8 and recent >= 0.7:
        return "nearly_there"
    return "practising"


def recount(pupil) -> dict[str, dict]:
    found = {}
    for skill in SKILLS:
        rows = list(Attempt.objects.filter(pupil=pupil, skill=skill).order_by("created_at", "id"))
        firsts = [r for r in rows if r.first_try]
        outcomes = [r.correct for r in firsts]
        n, right = len(firsts), sum(outcomes)
        estimate = bkt(outcomes)
        last10, last20 = outcomes[-10:], outcomes[-20:]
        said = status(n, len({r.session_id for r in firsts}), last10, last20, estimate)
        whole = math.floor(estimate * 100 + 1e-9)
        if said == "not_enough":
            evidence = (right, n, None)
        elif said in ("needs_help", "practising"):
            agrees = said == "practising" and estimate < 0.8
            evidence = (sum(last20), len(last20), whole if agrees else None)
        elif said in ("mastered", "nearly_there"):
            agrees = said == "mastered" or estimate < 0.95
            evidence = (sum(last10), len(last10), whole if agrees else None)
        else:
            evidence = (None, None, None)
        times = [r.response_ms for r in firsts if r.response_ms is not None]
        chances = Opportunity.objects.filter(pupil=pupil) if skill in OPS else []
        could = [t for t in chances if t.could.get(skill)]
        used = [t for t in could if skill in t.used]
        found[skill] = {
            "status": said,
            "attempts": len(rows),
            "first_tries": n,
            "right": right,
            "accuracy": round(100 * right / n) if n else None,
            "evidence": evidence,
            "median": round(median(times) / 1000, 1) if times else None,
            "could": len(could) if could else None,
            "used": len(used) if could else None,
            "avoids": bool(could) and len(could) >= 5 and len(used) / len(could) < 0.2,
            "firsts": firsts,
        }
    return found


def numbers(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"\d+", text)]


def page(client, url) -> str:
    return html.unescape(client.get(url).content.decode())


def everyone(classroom):
    from classroom import roster

    return roster.label_each(roster.in_name_order(classroom.pupils.all()))


def test_the_exports_print_the_recount(mixed, classroom, monkeypatch):
    from openpyxl import load_workbook
    from reportlab import platypus

    report = services.class_report(classroom)
    expected = {p.label: recount(p) for p in everyone(classroom)}
    csv_rows = list(csv.reader(io.StringIO(exports.to_csv(report).decode("utf-8-sig"))))[1:]
    sheet = load_workbook(io.BytesIO(exports.to_xlsx(report))).active
    xlsx_rows = list(sheet.iter_rows(values_only=True))[1:]
    checked = 0
    for line, cells in zip(csv_rows, xlsx_rows, strict=True):
        want = expected[line[0]][next(s for s, name in SKILL_NAMES.items() if name == line[1])]
        right, total, estimate = want["evidence"]
        figures = [want["attempts"], want["first_tries"], want["right"], want["accuracy"],
                   right, total, estimate, want["median"], want["could"], want["used"]]
        shown_csv = [line[i] for i in (3, 4, 5, 6, 7, 8, 9, 10, 12, 13)]
        shown_xlsx = [cells[i] for i in (3, 4, 5, 6, 7, 8, 9, 10, 12, 13)]
        assert shown_csv == ["" if f is None else str(f) for f in figures], line
        assert shown_xlsx == figures, cells
        assert (line[14] == "avoids") == want["avoids"] == (cells[14] == "avoids")
        # The sentence says the figures beside it, and only them.
        if want["first_tries"]:
            said = [right, total] + ([estimate] if estimate is not None else [])
            assert numbers(line[11])[: len(said)] == said, line[11]
        if want["could"]:
            assert {want["could"], want["used"]} >= set(numbers(line[15])) - {5}, line[15]
        checked += 1
    assert checked == len(expected) * len(SKILLS)

    tables = []
    real = platypus.Table
    monkeypatch.setattr(platypus, "Table", lambda data, *a, **k: tables.append(data) or real(
        data, *a, **k))
    exports.to_pdf(report)
    for row, data in zip(report.rows, tables, strict=True):
        for line in data[1:]:
            name = line[0].text
            want = expected[row.pupil.label][next(s for s, n in SKILL_NAMES.items() if n == name)]
            right, total, estimate = want["evidence"]
            assert line[2] == f"{want['right']} / {want['first_tries']}"
            assert line[3] == ("—" if not want["first_tries"] else f"{right} / {total}")
            assert line[4] == ("—" if estimate is None else f"{estimate}\u00a0%")


def test_the_class_page_prints_the_recount(mixed, teacher_client, classroom):
    text = page(teacher_client, reverse("reports:class_report", args=[classroom.pk]))
    grid = text[text.index('<table class="report-grid">'):]
    body = grid[grid.index("<tbody>"):grid.index("</tbody>")]
    lines = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    pupils = everyone(classroom)
    assert len(lines) == len(pupils)
    for pupil, line in zip(pupils, lines, strict=True):
        assert pupil.label in line
        want = recount(pupil)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", line, re.S)
        for skill, cell in zip(services.in_report_order(SKILLS), cells, strict=True):
            w = want[skill]
            right, total, estimate = w["evidence"]
            words = re.sub(r"<[^>]+>", " ", cell)
            figures = re.search(r"(\d+)/(\d+) (recent|so far)(?: · (\d+)%)?", words)
            if w["first_tries"]:
                assert figures, (pupil.label, skill, words)
                shown = (int(figures[1]), int(figures[2]),
                         int(figures[4]) if figures[4] else None)  # fmt: skip
                assert shown == (right, total, estimate), (pupil.label, skill, words)
                assert (figures[3] == "so far") == (w["status"] == "not_enough")
            else:
                assert not figures and "%" not in words
            avoided = re.search(r"avoids: (\d+)/(\d+) turns", words)
            assert bool(avoided) == w["avoids"], (pupil.label, skill, words)
            if avoided:
                assert (int(avoided[1]), int(avoided[2])) == (w["used"], w["could"])
    # The section alone: the next lesson, below it, names pupils too.
    start = text.index('id="help-now"')
    helped = text[start:text.index("</section>", start)]
    for pupil in pupils:
        want = recount(pupil)
        for skill, w in want.items():
            name = SKILL_NAMES[skill].capitalize()
            if w["status"] == "needs_help":
                right, total, _ = w["evidence"]
                assert f"{name}</strong>: {right} of the last {total} right" in helped
            if w["avoids"]:
                assert re.search(rf"{name}</strong>: \D*{w['could']} turns", helped), name
        needing = any(w["status"] == "needs_help" or w["avoids"] for w in want.values())
        assert (f">{pupil.label}</strong>" in helped) == needing, pupil.label


def test_the_pupil_and_session_pages_print_the_recount(mixed, teacher_client, classroom):
    for pupil in everyone(classroom):
        text = page(teacher_client, reverse("reports:pupil_report", args=[pupil.pk]))
        want = recount(pupil)
        cards = re.findall(r'<li class="card cell-[a-z_]+">(.*?)</li>', text, re.S)
        shown_skills = [re.search(r"<h3>(.*?)</h3>", c)[1].lower() for c in cards]
        assert set(shown_skills) >= {"addition", "subtraction", "multiplication", "division"}
        for card, name in zip(cards, shown_skills, strict=True):
            skill = next(s for s, n in SKILL_NAMES.items() if n == name)
            w = want[skill]
            right, total, estimate = w["evidence"]
            if w["first_tries"]:
                assert f"{w['right']} of {w['first_tries']} right first time" in card
                assert f"about {w['median']} s per step" in card
                reason = re.findall(r"<p>(.*?)</p>", card, re.S)[1]
                said = [right, total] + ([estimate] if estimate is not None else [])
                assert numbers(reason)[: len(said)] == said, reason
            if w["avoids"]:
                assert f"in {w['could']} turns" in card or f"of {w['could']} turns" in card
        # Week by week: right first time and the estimate, from the rows of each week.
        for skill, w in want.items():
            if not w["first_tries"]:
                continue
            weeks = defaultdict(list)
            for row in w["firsts"]:
                year, week, _ = timezone.localtime(row.created_at).isocalendar()
                weeks[(year, week)].append(row.correct)
            name = SKILL_NAMES[skill].capitalize()
            chart = text[text.index(f"<strong>{name}</strong>"):]
            chart = chart[:chart.index("</figure>")]
            table = re.findall(
                r"<tr><td>[^<]*</td><td>(\d+)/(\d+) \((\d+)%\)</td>(?:<td>(\d+)%</td>)?", chart
            )
            assert len(table) == len(weeks) > 0
            seen: list[bool] = []
            for (c, a, acc, est), outcomes in zip(table, weeks.values(), strict=True):
                seen += outcomes
                assert (int(c), int(a), int(acc)) == (
                    sum(outcomes), len(outcomes), round(100 * sum(outcomes) / len(outcomes))
                )
                assert (est == "") == (w["evidence"][2] is None)
                if est:
                    assert int(est) == math.floor(bkt(seen) * 100 + 1e-9)
        # The times tables, from the first tries of × and ÷.
        tables = defaultdict(lambda: [0, 0])
        for skill in ("mul", "div"):
            for row in want[skill]["firsts"]:
                a, b = (int(x) for x in row.operands)
                for t in ({a, b} if skill == "mul" else {b, a // b}):
                    tables[t][0] += row.correct
                    tables[t][1] += 1
        strip = text[text.index('class="times-tables"'):]
        cells = re.findall(r'<td class="table-\w+">(.*?)<br>', strip[:strip.index("</table>")])
        assert cells == [f"{tables[t][0]}/{tables[t][1]}" if tables[t][1] else "–"
                         for t in range(1, 13)]
        # Every fact of the 10 × 10 grid: 6 × 7 counts in both its cells.
        facts = defaultdict(lambda: [0, 0])
        for row in want["mul"]["firsts"]:
            a, b = (int(x) for x in row.operands)
            for cell in {(a, b), (b, a)}:
                facts[cell][0] += row.correct
                facts[cell][1] += 1
        grid = text[text.index('class="fact-grid"'):]
        shown = re.findall(r'<td class="heat-\d">(.*?)</td>', grid[:grid.index("</table>")])
        assert shown == [f"{facts[(a, b)][0]}/{facts[(a, b)][1]}" if facts[(a, b)][1] else ""
                         for a in range(1, 11) for b in range(1, 11)]
        # Games played: calculations, right and wrong first time in each.
        played = text[text.index('id="games"'):]
        sessions = GameSession.objects.filter(tables__seats__pupil=pupil)
        assert sessions.exists() or pupil.first_name == "Inès"
        for session in sessions:
            rows = answers_typed(pupil, session)
            figures = (len(rows), sum(r.first_try and r.correct for r in rows),
                       sum(r.first_try and not r.correct for r in rows))
            assert re.search(
                r'data-label="Answers typed">{}</td><td data-label="Right first time">{}</td>'
                r'<td data-label="Wrong first time">{}</td>'.format(*figures), played
            ), (pupil.label, figures)
        # Operations chosen: the turns it would have helped and those it was used.
        choices = re.search(r'<h2 id="choices">.*?</section>', text, re.S)
        for skill in OPS:
            w = want[skill]
            if not w["could"]:
                continue
            sentence = re.search(rf"<li>[^<]*{SKILL_NAMES[skill]}[^<]*</li>", choices[0])[0]
            assert set(numbers(sentence)) - {5} <= {w["could"], w["used"]}, sentence
            assert str(w["could"]) in sentence
    for session in mixed:
        text = page(teacher_client, reverse("reports:session_report", args=[session.pk]))
        for seat in session.tables.get().seats.select_related("pupil"):
            rows = answers_typed(seat.pupil, session)
            figures = (len(rows), sum(r.first_try and r.correct for r in rows),
                       sum(r.first_try and not r.correct for r in rows),
                       sum(not r.first_try for r in rows))
            assert re.search(
                r'data-label="Answers typed">{}</td><td data-label="Right first time">{}</td>'
                r'<td data-label="Wrong first time">{}</td><td data-label="Tries again">{}</td>'
                .format(*figures), text
            ), figures


def answers_typed(pupil, session) -> list:
    """The answers the pupil typed in a session: a whole calculation's plan
    (several steps, brackets, ...) and NUM-X's product behind a count are
    judgements of what they typed, not more answers (docs/EVIDENCE.md)."""
    whole = {"multi_step", "brackets", "left_to_right"}
    return [a for a in Attempt.objects.filter(pupil=pupil, session=session).order_by("pk")
            if a.skill not in whole and not (a.game == "numx" and a.skill == "mul")]


def test_the_class_mixes_every_status(mixed, classroom):
    said = {w["status"] for p in everyone(classroom) for w in recount(p).values()}
    assert said >= {"not_started", "not_enough", "mastered", "needs_help"}
    assert any(w["avoids"] for p in everyone(classroom) for w in recount(p).values())
