"""What the reports say, read as a teacher reads them, in English and French."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import translation

from classroom.models import Opportunity
from classroom.reports import services
from games import services as game_services
from games.models import GameSession
from games.pages import presenter
from learning import verdicts
from learning.verdicts import STATUS_LABELS
from tests.classroom.test_reports import played  # noqa: F401 (a fixture)
from tests.games.conftest import one_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]
LANGUAGES = ["en", "fr"]


def page(client, url: str, language: str) -> str:
    return html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())


def section(text: str, heading_id: str) -> str:
    found = re.search(rf'<section aria-labelledby="{heading_id}">(.*?)</section>', text, re.S)
    return found.group(1) if found else ""


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_skill_card_says_its_status_once(played, teacher_client, pupils, language):  # noqa: F811
    text = page(teacher_client, reverse("reports:pupil_report", args=[pupils[0].pk]), language)
    cards = section(text, "skills")
    with translation.override(language):
        labels = [translation.gettext(label) for label in STATUS_LABELS.values()]
    shown = [label for label in labels if f'status-word">{label}<' in cards]
    assert shown
    for label in shown:
        assert not re.search(rf"<p>{re.escape(label)}\s*:", cards), label


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("status", list(STATUS_LABELS))
def test_the_reason_is_the_sentence_without_its_status(language, status):
    """What the card strips is the status, for every status, in each language."""
    summary = verdicts.SkillSummary(
        skill="add", attempts=10, first_tries=0 if status == "not_started" else 10, retries=0,
        correct_first=5, accuracy=0.5, last10_accuracy=0.5, last10_right=5, last10_total=10,
        median_ms=2000, estimate=0.5, status=status, sentence="", games=2, help_right=5,
        help_total=10,
    )  # fmt: skip
    with translation.override(language):
        summary = replace(summary, sentence=verdicts.explain(summary, translation.gettext))
        cell = services.Cell(summary, services.status_label(status))
        assert summary.sentence.startswith(cell.label)
        assert cell.reason and cell.reason[0] not in ": " and cell.label not in cell.reason


@pytest.mark.parametrize("language", LANGUAGES)
def test_operation_choices_say_what_they_count(played, teacher_client, pupils, language):  # noqa: F811
    lea = pupils[0]
    Opportunity.objects.bulk_create(
        Opportunity(pupil=lea, session=played, table=played.tables.get(), game="numberquest",
                    roll=[1, 2, 3], could={"add": True, "div": False}, used=["add"])
        for _ in range(3)
    )
    text = page(teacher_client, reverse("reports:pupil_report", args=[lea.pk]), language)
    choices = section(text, "choices")
    mistakes = section(text, "mistakes")
    with translation.override(language):
        intro = translation.gettext("Operations chosen")
    assert intro in choices and "3" in choices and "5" in choices
    assert ("turns needed so far" if language == "en" else "tours nécessaires") in choices
    assert "division" not in choices.lower()  # no roll allowed it: nothing to say
    assert "5" not in mistakes.replace("15", "")  # mistakes hold mistakes only


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_pupil_who_never_calculated_has_no_operation_choices(
    played, teacher_client, pupils, language  # noqa: F811
):
    ines = pupils[2]
    Opportunity.objects.create(pupil=ines, session=played, table=played.tables.get(),
                               game="numberquest", roll=[1, 2, 3], could={"add": True})
    text = page(teacher_client, reverse("reports:pupil_report", args=[ines.pk]), language)
    assert not section(text, "choices")
    assert not re.search(r"\b1 (of|sur) (the |les )?5\b", text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_who_needs_help_waits_for_the_first_computation(
    played, teacher_client, classroom, pupils, language  # noqa: F811
):
    url = reverse("reports:class_report", args=[classroom.pk])
    with translation.override(language):
        nobody = translation.gettext("Nobody needs help right now.")
        heading = translation.gettext("Who needs help now")
    before = page(teacher_client, url, language)
    assert nobody not in before and heading not in before
    services.recompute_pupils([p.pk for p in pupils])
    after = page(teacher_client, url, language)
    assert heading in after


def test_a_pupil_alone_who_never_moved_did_not_win(classroom, teacher, pupils):
    session, table = one_table(classroom, teacher, pupils[:1], game="numberquest",
                               options={"preset": "addition"})
    game_services.set_status(session, GameSession.Status.ENDED)
    table.refresh_from_db()
    shown = presenter("numberquest")
    state = shown.engine.from_json(table.state)
    context = shown.card_context(table, state, {0: "Zoé"}, [])
    assert [p["winner"] for p in context["players"]] == [False]


@pytest.fixture
def every_kind(classroom, teacher, pupils):
    """One wrong attempt of each kind that is not a two-number operation, by Léa."""
    from django.utils import timezone

    from classroom.models import Attempt
    from games.models import Seat, Table

    session = GameSession.objects.create(classroom=classroom, teacher=teacher, game="numx")
    table = Table.objects.create(
        session=session, number=1, seed=1, state={}, turn_started_at=timezone.now()
    )
    Seat.objects.create(table=table, player=0, pupil=pupils[0])
    kinds = [
        ("scoring", ["shadow4"], "0", "4"),
        ("add", ["3", "12", "13"], "28", "27"),
        ("primes", ["17"], "19", "18"),
        ("left_to_right", ["7", "4", "3", "4"], "2", "10"),
    ]
    Attempt.objects.bulk_create(
        Attempt(pupil=pupils[0], session=session, table=table, game="numx", skill=skill,
                operands=operands, expected=expected, given=given, correct=False)
        for skill, operands, expected, given in kinds
    )
    return session


EVERY_KIND_SHOWN = {
    "en": ["Card Shadow 4 is worth 0 (not 4)", "3 + 12 + 13 = 27 (28)",
           "17 is ultimate: on to 19 (not 18)",
           "7, 4, 3 and 4 from left to right to make 2 (a step was wrong)"],
    "fr": ["La carte Ombre 4 vaut 0 (pas 4)", "3 + 12 + 13 = 27 (28)",
           "17 est ultime : le pion avance à 19 (pas 18)",
           "7, 4, 3 et 4 de gauche à droite pour faire 2 (une étape fausse)"],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_of_calculation_reads_in_words_not_skill_ids(
    every_kind, teacher_client, pupils, language
):
    session_page = page(
        teacher_client, reverse("reports:session_report", args=[every_kind.pk]), language
    )
    mistakes = section(
        page(teacher_client, reverse("reports:pupil_report", args=[pupils[0].pk]), language),
        "mistakes",
    )
    for shown in EVERY_KIND_SHOWN[language]:
        assert shown in session_page
        assert shown in mistakes
    for skill_id in ("scoring:", "add:", "primes:", "left_to_right", "multi_step"):
        assert skill_id not in session_page and skill_id not in mistakes


def visible(text: str) -> str:
    """The words of a page: no tags, no styles or scripts (their "a:b" is CSS)."""
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.S)
    return re.sub(r"<[^>]+>", " ", text)


def test_french_reports_put_no_de_before_a_name_and_a_space_before_colons(
    played, every_kind, teacher_client, pupils  # noqa: F811
):
    from classroom import roster

    urls = [
        reverse("reports:session_report", args=[played.pk]),
        reverse("reports:session_report", args=[every_kind.pk]),
        *(reverse("reports:pupil_report", args=[p.pk]) for p in pupils),
    ]
    names = [p.label for p in roster.label_each(pupils)]
    for url in urls:
        text = page(teacher_client, url, "fr")
        for name in names:
            # "de Inès D." wants "d'Inès D.": names are data, so no "de" before one.
            assert f"de {name}" not in text and f"que {name}" not in text
        words = visible(text)
        assert not re.search(r"\w:(\s|$)", words), re.search(r".{30}\w:(\s|$)", words)
    pupil_page = page(teacher_client, reverse("reports:pupil_report", args=[pupils[1].pk]), "fr")
    assert "Bilan de l'élève Noah B." in pupil_page
    session_page = page(
        teacher_client, reverse("reports:session_report", args=[every_kind.pk]), "fr"
    )
    assert "Calculs de l'élève Léa M." in session_page
    assert "semaine du " in pupil_page and not re.search(r"\d{4}-W\d\d", pupil_page)
    english = page(teacher_client, reverse("reports:pupil_report", args=[pupils[1].pk]), "en")
    assert "week of " in english and not re.search(r"\d{4}-W\d\d", english)


def _turns(pupil, session, game, count, used):
    Opportunity.objects.bulk_create(
        Opportunity(pupil=pupil, session=session, table=session.tables.get(), game=game,
                    roll=[6, 3, 2], could={"add": True, "div": True}, used=used)
        for _ in range(count)
    )  # fmt: skip


AVOIDS = {
    "en": ("avoids: 0/14 turns", "avoids", "has not divided in 14 turns where dividing would help"),
    "fr": ("évite : 0/14 tours", "évite", "n'a pas divisé en 14 tours où diviser aurait servi"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_class_report_says_who_avoids_an_operation(
    played, teacher_client, classroom, pupils, language  # noqa: F811
):
    """Issue 32: "Ben has not divided in 14 turns where dividing would help"
    is news a teacher acts on: the grid and "who needs help" say it."""
    lea = pupils[0]
    _turns(lea, played, "numberquest", 14, ["add"])
    services.recompute_pupils([p.pk for p in pupils])
    text = page(teacher_client, reverse("reports:class_report", args=[classroom.pk]), language)
    marker, label, why = AVOIDS[language]
    grid = text[text.index('class="report-grid"'):]
    grid = grid[:grid.index("</table>")]
    assert grid.count(marker) == 1  # Léa's ÷, and nobody else's +
    helped = text[text.index('id="help-now"'):text.index('class="report-grid"')]
    assert "Léa M." in helped and why in helped and f'status-word">{label}<' in helped
    with translation.override(language):
        report = services.class_report(classroom)
        [(pupil, cells)] = [(p, c) for p, c in report.needs_help if p == lea]
        assert [c.skill for c in cells] == ["div"] and cells[0].avoid_reason == why


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_skill_that_needs_help_never_shows_a_high_estimate(
    played, teacher_client, classroom, pupils, language  # noqa: F811
):
    """"needs help · 95 %" cannot appear: after a long right run, a bad last 20."""
    from classroom.models import Attempt

    lea = pupils[0]
    first = Attempt.objects.filter(pupil=lea).order_by("created_at").first()
    later = first.created_at + timedelta(hours=1)
    rows = [Attempt(pupil=lea, session=first.session, table=first.table, game="numberquest",
                    skill="sub", operands=["9", "4"], expected="5", given=given, correct=ok)
            for given, ok in [("5", True)] * 14 + [("6", False), ("5", True)] * 8]
    Attempt.objects.bulk_create(rows)
    for index, row in enumerate(Attempt.objects.filter(pupil=lea, skill="sub").order_by("pk")):
        session = played if index >= 10 else first.session
        Attempt.objects.filter(pk=row.pk).update(created_at=later + timedelta(minutes=index),
                                                 session=session)
    services.recompute_pupils([lea.pk])
    with translation.override(language):
        row = next(r for r in services.class_report(classroom).rows if r.pupil == lea)
        cell = next(c for c in row.cells if c.skill == "sub")
    assert cell.status == "needs_help" and cell.summary.estimate > 0.9
    assert cell.estimate_percent is None
    text = page(teacher_client, reverse("reports:class_report", args=[classroom.pk]), language)
    td = re.search(r'<td class="cell-needs_help"[^>]*>(.*?)</td>', text, re.S)[1]
    assert re.search(r"\d+/20", td) and "%" not in td
    pupil_page = page(teacher_client, reverse("reports:pupil_report", args=[lea.pk]), language)
    card = re.search(r'<li class="card cell-needs_help">(.*?)</li>', pupil_page, re.S)[1]
    assert "%" not in card


@pytest.mark.parametrize("language", LANGUAGES)
def test_operations_chosen_speak_of_each_game_the_pupil_played(
    played, teacher_client, pupils, language  # noqa: F811
):
    lea = pupils[0]
    _turns(lea, played, "nambarz", 6, ["add"])
    text = page(teacher_client, reverse("reports:pupil_report", args=[lea.pk]), language)
    choices = section(text, "choices")
    nambarz, dice = {"en": ("In Nambarz", "dice"), "fr": ("Au Nambarz", "dés")}[language]
    assert nambarz in choices and dice not in choices and "Number Quest" not in choices
    _turns(lea, played, "numberquest", 1, ["add"])
    both = section(page(teacher_client, reverse("reports:pupil_report", args=[lea.pk]),
                        language), "choices")
    assert nambarz in both and dice in both


def test_every_sentence_of_the_verdicts_exists_in_french():
    from learning import opportunities

    messages = [*verdicts.STATUS_LABELS.values(), verdicts.MSG_NOT_STARTED,
                *verdicts.MSG_NOT_ENOUGH.values(), verdicts.MSG_MASTERED, verdicts.MSG_HELP,
                verdicts.MSG_NEARLY, verdicts.MSG_NEARLY_RECENT, verdicts.MSG_PRACTISING,
                verdicts.MSG_PRACTISING_RECENT, *opportunities.MSG_AVOIDS.values(),
                *opportunities.MSG_USES.values(), *opportunities.MSG_TOO_FEW.values()]
    for group in opportunities.MSG_AVOIDED.values():
        messages.extend(group)
    from classroom.reports import exports

    with translation.override("fr"):
        messages_fr = [translation.gettext(m) for m in messages]
        headings = exports.header()
        rules = exports.how_to_read()
    for english, french in zip(messages, messages_fr, strict=True):
        assert french != english, english
    assert "Tours où elle aurait servi" in headings and "Comment le lire" in rules
