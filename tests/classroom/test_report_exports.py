"""The class report's files as a French or an English school opens them."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from django.utils import translation

from classroom.reports import exports, services
from tests.classroom.test_reports import played  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks", "computed")]


@pytest.fixture
def computed(played, pupils):  # noqa: F811
    services.recompute_pupils([p.pk for p in pupils])


def rows_of(content: bytes, delimiter: str) -> list[list[str]]:
    assert content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=delimiter))


def test_a_french_csv_has_semicolons_and_decimal_commas(teacher_client, classroom):
    response = teacher_client.get(
        reverse("reports:class_export", args=[classroom.pk, "csv"]), HTTP_ACCEPT_LANGUAGE="fr"
    )
    text = response.content.decode("utf-8-sig")
    assert text.splitlines()[0].startswith("Élève;Compétence;")
    rows = rows_of(response.content, ";")
    assert {len(row) for row in rows} == {len(exports.header())}
    lea = next(row for row in rows if row[0] == "Léa M." and row[1] == "addition")
    assert lea[3] == "12" and lea[10] == "4,0"  # 4 s per step, as French Excel reads it


def test_an_english_csv_keeps_commas_and_decimal_points(teacher_client, classroom):
    response = teacher_client.get(reverse("reports:class_export", args=[classroom.pk, "csv"]))
    rows = rows_of(response.content, ",")
    assert rows[0][:2] == ["Pupil", "Skill"]
    lea = next(row for row in rows if row[0] == "Léa M." and row[1] == "addition")
    assert lea[3] == "12" and lea[10] == "4.0"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_pdf_headings_fit_their_columns(classroom, language):
    """A heading wider than its column printed over its neighbour ("Justes au
    premier essai" over "10 derniers"): each now wraps within its column."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.platypus import Paragraph

    with translation.override(language):
        report = services.class_report(classroom)
        table = exports.pupil_table(report.rows[0], dict(report.skill_names))
    widths = table._argW
    for row in table._cellvalues:
        for cell, width in zip(row, widths, strict=True):
            room = width - 2 * exports.PDF_PADDING
            if isinstance(cell, Paragraph):
                cell.wrap(room, 1000)
                used = max(cell.getActualLineWidths0())
                assert used <= room and cell.minWidth() <= room, cell.text
            else:
                assert stringWidth(str(cell), "Vera", 10) <= room, cell


def test_the_french_pdf_builds(teacher_client, classroom):
    response = teacher_client.get(
        reverse("reports:class_export", args=[classroom.pk, "pdf"]), HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
