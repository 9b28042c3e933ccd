"""CSV, XLSX and PDF files of a class report.

All three take the ``ClassReport`` the page shows (``services.class_report``),
so a file never disagrees with the page it was downloaded from.

- CSV: UTF-8 with a BOM (spreadsheets then read accents right), numbers as
  numbers with the separators of the page's language (``csv_separators``),
  and any text cell that a spreadsheet would read as a formula (starting with
  = + - @, a tab or a carriage return) prefixed with an apostrophe.
- XLSX: openpyxl, the same rows and the same protection (openpyxl too would
  store "=..." as a formula).
- PDF: ReportLab, one page per pupil for a parents' meeting. ReportLab is pure
  Python with wheels on PyPI, has been maintained for twenty years, and needs no
  system libraries (WeasyPrint would need Pango); its bundled Vera font has the
  − × ÷ signs and French accents.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime

from django.utils import timezone
from django.utils.formats import get_format
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .services import RULES

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}


def safe_text(value):
    """A cell that cannot run as a formula; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def header() -> list[str]:
    return [
        _("Pupil"),
        _("Skill"),
        _("Status"),
        _("Calculations"),
        _("First tries"),
        _("Right first time"),
        _("Accuracy %"),
        _("Recent right"),
        _("Recent counted"),
        _("Estimate %"),
        _("Median time (s)"),
        _("Why"),
        _("Turns where it would help"),
        _("Turns it was used"),
        _("Avoids"),
        _("Operation chosen"),
    ]


def rows(report) -> list[list]:
    """One row per pupil and skill, numbers as numbers (None: empty cell). The
    recent figures are those the status rests on (``verdicts.evidence``), the
    estimate only where it agrees with the status."""
    lines = []
    names = dict(report.skill_names)
    for row in report.rows:
        for cell in row.cells:
            s = cell.summary
            shown = cell.evidence
            chances = cell.avoidance if cell.avoidance and cell.avoidance.could else None
            lines.append(
                [
                    row.pupil.label,
                    str(names[cell.skill]),
                    cell.label,
                    s.attempts,
                    s.first_tries,
                    s.correct_first,
                    cell.accuracy_percent,
                    shown.right if s.first_tries else None,
                    shown.total if s.first_tries else None,
                    shown.estimate,
                    None if s.median_ms is None else round(s.median_ms / 1000, 1),
                    s.sentence,
                    chances.could if chances else None,
                    chances.used if chances else None,
                    _("avoids") if cell.avoids else "",
                    cell.choice_sentence,
                ]
            )
    return lines


def filename(report, ext: str) -> str:
    parts = [_("skills"), report.classroom.name]
    parts += [str(v) for v in report.filters.as_params().values()]
    return f"{slugify('-'.join(parts)) or 'report'}.{ext}"


def csv_separators() -> tuple[str, str]:
    """(column separator, decimal separator) of the active language.

    Excel opens a .csv with the separators of the computer's regional settings,
    and offers no choice on a double-click: a French school's Excel splits on
    ";" and reads "1,9" as a number, but "1.9" as text (or a date). Where the
    decimal separator is already the comma, the columns take the semicolon."""
    decimal = get_format("DECIMAL_SEPARATOR")
    return (";" if decimal == "," else ","), decimal


def _csv_value(value, decimal: str):
    if value is None:
        return ""
    if isinstance(value, float):
        return str(value).replace(".", decimal)
    return safe_text(value)


def to_csv(report) -> bytes:
    delimiter, decimal = csv_separators()
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow([safe_text(v) for v in header()])
    for line in rows(report):
        writer.writerow([_csv_value(v, decimal) for v in line])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def to_xlsx(report) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook(write_only=False)
    sheet = book.active
    sheet.title = _("Skills")[:31]
    sheet.append([safe_text(v) for v in header()])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for line in rows(report):
        sheet.append([safe_text(v) for v in line])
    sheet.freeze_panes = "A2"
    for column, width in zip(
        "ABCDEFGHIJKLMNOP",
        (18, 16, 14, 12, 10, 14, 11, 12, 12, 11, 12, 60, 12, 12, 10, 60),
        strict=True,
    ):
        sheet.column_dimensions[column].width = width
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _fonts() -> tuple[str, str]:
    from pathlib import Path

    import reportlab
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if "Vera" not in pdfmetrics.getRegisteredFontNames():
        folder = Path(reportlab.__file__).parent / "fonts"
        pdfmetrics.registerFont(TTFont("Vera", str(folder / "Vera.ttf")))
        pdfmetrics.registerFont(TTFont("VeraBd", str(folder / "VeraBd.ttf")))
    return "Vera", "VeraBd"


# Widths of the PDF's columns, in cm (the page leaves 17.8 cm between margins).
PDF_COLUMNS = (3.8, 4.2, 3.4, 3.0, 2.6)
PDF_PADDING = 6  # points, each side of a cell


def pupil_table(row, names):
    """One pupil's skills as a ReportLab table. Headings and statuses are
    paragraphs: "Justes au premier essai" is wider than its column and must
    wrap, not print over "10 derniers"."""
    from reportlab.lib import colors
    from reportlab.lib.enums import TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import cm
    from reportlab.platypus import Paragraph, Table, TableStyle

    regular, bold = _fonts()
    head = ParagraphStyle("head", fontName=bold, fontSize=10, leading=12)
    head_number = ParagraphStyle("head_number", parent=head, alignment=TA_RIGHT)
    text = ParagraphStyle("text", fontName=regular, fontSize=10, leading=12)
    data = [
        [Paragraph(_escape(_("Skill")), head), Paragraph(_escape(_("Status")), head)]
        + [
            Paragraph(_escape(label), head_number)
            for label in (_("Right first time"), _("Recent"), _("Estimate"))
        ]
    ]
    for cell in row.cells:
        s = cell.summary
        shown = cell.evidence
        status = _escape(cell.label)
        if cell.avoids:
            status += "<br/>" + _escape(_("avoids"))
        data.append(
            [
                Paragraph(_escape(names[cell.skill]), text),
                Paragraph(status, text),
                f"{s.correct_first} / {s.first_tries}",
                f"{shown.right} / {shown.total}" if s.first_tries else "—",
                "—" if shown.estimate is None else f"{shown.estimate}\u00a0%",
            ]
        )
    table = Table(data, colWidths=[width * cm for width in PDF_COLUMNS], repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), regular, 10),
                ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.3, colors.grey),
                ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
                ("VALIGN", (0, 1), (-1, -1), "MIDDLE"),
                ("LEFTPADDING", (0, 0), (-1, -1), PDF_PADDING),
                ("RIGHTPADDING", (0, 0), (-1, -1), PDF_PADDING),
                ("TOPPADDING", (0, 0), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ]
        )
    )
    return table


def to_pdf(report) -> bytes:
    """One A4 page per pupil: each skill in words and numbers, and why."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import cm
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer

    regular, bold = _fonts()
    title = ParagraphStyle("title", fontName=bold, fontSize=18, leading=22, spaceAfter=6)
    body = ParagraphStyle("body", fontName=regular, fontSize=10, leading=13)
    small = ParagraphStyle("small", fontName=regular, fontSize=8.5, leading=11)
    out = io.BytesIO()
    doc = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=1.6 * cm,
        rightMargin=1.6 * cm,
        topMargin=1.6 * cm,
        bottomMargin=1.6 * cm,
        title=_("Skills of %(class)s") % {"class": report.classroom.name},
    )
    names = dict(report.skill_names)
    period = _period(report)
    story = []
    for index, row in enumerate(report.rows):
        if index:
            story.append(PageBreak())
        story.append(Paragraph(_escape(row.pupil.label), title))
        story.append(Paragraph(_escape(f"{report.classroom} · {period}"), body))
        story.append(Spacer(1, 0.4 * cm))
        story.append(pupil_table(row, names))
        story.append(Spacer(1, 0.5 * cm))
        for cell in row.cells:
            said = [cell.summary.sentence] if cell.summary.first_tries else []
            said += [cell.avoid_sentence] if cell.avoids else []
            for sentence in said:
                story.append(
                    Paragraph(
                        _escape(
                            _("%(skill)s: %(sentence)s")
                            % {"skill": names[cell.skill], "sentence": sentence}
                        ),
                        small,
                    )
                )
        story.append(Spacer(1, 0.4 * cm))
        story.append(Paragraph(_escape(how_to_read()), small))
    if not story:
        story.append(Paragraph(_escape(_("No pupils in this class yet.")), body))
    doc.build(story)
    return out.getvalue()


def how_to_read() -> str:
    """The PDF's "how to read it": the status and avoidance rules as they are."""
    return _(
        "How to read it: a status needs calculations from %(games)d games or more, at least"
        " %(count)d of them (%(help_count)d for “needs help”); before that it reads “not"
        " enough yet”. “Recent” counts the last"
        " %(recent)d first tries (the last %(help_window)d for “needs help” and “practising”,"
        " all of them for “not enough yet”)."
        " Mastered: %(mastered_recent)d of the last %(recent)d right and an estimate (how"
        " sure Numbo is that the skill is known) of %(mastered)d %% or more. Needs help:"
        " fewer than %(help_percent)d %% of the last %(help_window)d right. Nearly there: an"
        " estimate of %(nearly)d %% or more and %(nearly_recent)d of the last %(recent)d"
        " right. Practising: everything else. The estimate is shown only where it agrees"
        " with the status. Avoids: the operation used in fewer than 1 turn in %(avoid_in)d"
        " where it would have helped, over %(chances)d such turns or more."
    ) % RULES


def _escape(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _period(report) -> str:
    f = report.filters
    if f.date_from and f.date_to:
        text = _("from %(start)s to %(end)s") % {"start": f.date_from, "end": f.date_to}
    elif f.date_from:
        text = _("since %(start)s") % {"start": f.date_from}
    elif f.date_to:
        text = _("until %(end)s") % {"end": f.date_to}
    else:
        text = _("all calculations")
    stamp: datetime = timezone.localtime()
    return f"{text} · {stamp:%Y-%m-%d}"


WRITERS = {"csv": to_csv, "xlsx": to_xlsx, "pdf": to_pdf}


def render(report, fmt: str) -> tuple[bytes, str, str]:
    """(content, content type, file name) of the report in this format."""
    return WRITERS[fmt](report), CONTENT_TYPES[fmt], filename(report, fmt)
