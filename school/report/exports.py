"""The school report's CSV, XLSX and PDF files, from the report the page shows.

They read the same ``SchoolReport`` (``figures.load``), so a file never says
other numbers than the page, and they are written the class report's way
(``classroom.reports.exports``): a CSV in the separators of the page's
language with a BOM, any text a spreadsheet would run as a formula made
harmless, ReportLab's Vera font for − × ÷ and accents.

- CSV: one row per class and skill, its pupils by verdict, how many avoid the
  operation and who needs help (first name and initial): a spreadsheet sums
  the rows of a year group.
- XLSX: three sheets, as the page's three parts: year groups, classes, who
  needs help.
- PDF: the same three parts for a staff meeting, and how to read a verdict.
"""

from __future__ import annotations

import csv
import io

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from classroom.reports import exports as class_exports
from classroom.reports.exports import CONTENT_TYPES, csv_separators, safe_text

from .figures import STATUS_ORDER, Helped, SchoolReport, classes_text, pupils_text

FORMATS = ("csv", "xlsx", "pdf")


def _status_heads(report: SchoolReport) -> list[str]:
    return [label for _status, label in report.statuses]


def class_header(report: SchoolReport) -> list[str]:
    return [
        pgettext("school report", "Year group"),
        pgettext("school report", "Class"),
        pgettext("school report", "Teacher"),
        pgettext("school report", "Pupils"),
        _("Skill"),
        *_status_heads(report),
        pgettext("school report", "Avoid it"),
        pgettext("school report", "Need help"),
    ]


def _helped_text(helped: Helped) -> str:
    """ "Léa M.", or "Noah B. (avoids)" for a pupil who only avoids the operation."""
    if helped.needs_help:
        return helped.pupil.label
    return _("%(pupil)s (avoids)") % {"pupil": helped.pupil.label}


def _who(report: SchoolReport) -> dict[tuple[int, str], list[Helped]]:
    found: dict[tuple[int, str], list[Helped]] = {}
    for group in report.needs_help:
        for helped in group.pupils:
            found.setdefault((helped.classroom_id, group.skill), []).append(helped)
    return found


def class_rows(report: SchoolReport) -> list[list]:
    """One row per class and skill, numbers as numbers."""
    who = _who(report)
    lines = []
    for line in report.classes:
        for tally in line.tallies:
            names = [_helped_text(h) for h in who.get((line.pk, tally.skill), [])]
            lines.append(
                [
                    line.year_label,
                    line.name,
                    line.teacher,
                    line.pupils,
                    str(tally.name),
                    *[tally.count(status) for status in STATUS_ORDER],
                    tally.avoids,
                    ", ".join(names),
                ]
            )
    return lines


def year_group_rows(report: SchoolReport) -> list[list]:
    return [
        [
            group.label,
            group.classes,
            group.pupils,
            str(tally.name),
            *[tally.count(status) for status in STATUS_ORDER],
            tally.avoids,
        ]
        for group in report.year_groups
        for tally in group.tallies
    ]


def year_group_header(report: SchoolReport) -> list[str]:
    return [
        pgettext("school report", "Year group"),
        pgettext("school report", "Classes"),
        pgettext("school report", "Pupils"),
        _("Skill"),
        *_status_heads(report),
        pgettext("school report", "Avoid it"),
    ]


def help_header() -> list[str]:
    return [
        _("Skill"),
        pgettext("school report", "Class"),
        _("Pupil"),
        pgettext("school report", "Needs help"),
        _("Recent right"),
        _("Recent counted"),
        _("Avoids"),
        _("Turns it was used"),
        _("Turns where it would help"),
    ]


def help_rows(report: SchoolReport) -> list[list]:
    return [
        [
            str(group.name),
            h.classroom,
            h.pupil.label,
            pgettext("school report", "yes") if h.needs_help else "",
            h.right if h.needs_help else None,
            h.total if h.needs_help else None,
            _("avoids") if h.avoids else "",
            h.used if h.avoids else None,
            h.could if h.avoids else None,
        ]
        for group in report.needs_help
        for h in group.pupils
    ]


def filename(report: SchoolReport, ext: str) -> str:
    day = timezone.localtime(report.built_at) if report.built_at else timezone.localtime()
    parts = [pgettext("school report", "school report"), str(report.school), f"{day:%Y-%m-%d}"]
    return f"{slugify('-'.join(parts)) or 'school-report'}.{ext}"


def to_csv(report: SchoolReport) -> bytes:
    delimiter, decimal = csv_separators()
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow([safe_text(v) for v in class_header(report)])
    for line in class_rows(report):
        writer.writerow(["" if v is None else safe_text(v) for v in line])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def to_xlsx(report: SchoolReport) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    sheets = [
        (
            pgettext("school report", "Year groups"),
            year_group_header(report),
            year_group_rows(report),
        ),
        (pgettext("school report", "Classes"), class_header(report), class_rows(report)),
        (pgettext("school report", "Need help"), help_header(), help_rows(report)),
    ]
    for index, (title, head, lines) in enumerate(sheets):
        sheet = book.active if index == 0 else book.create_sheet()
        sheet.title = title[:31]
        sheet.append([safe_text(v) for v in head])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for line in lines:
            sheet.append([safe_text(v) for v in line])
        sheet.freeze_panes = "A2"
        for column in sheet.columns:
            letter = column[0].column_letter
            widest = max(len(str(cell.value or "")) for cell in column)
            sheet.column_dimensions[letter].width = min(60, max(8, widest + 2))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# ------------------------------------------------------------------ PDF

PDF_MARGIN_CM = 1.4


def _table(data, widths_cm, font_size=8.5, numbers_from=1):
    from reportlab.lib import colors
    from reportlab.lib.enums import TA_CENTER
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import cm
    from reportlab.platypus import Paragraph, Table, TableStyle

    regular, bold = class_exports._fonts()
    head = ParagraphStyle("head", fontName=bold, fontSize=font_size, leading=font_size + 2)
    head_number = ParagraphStyle("head_number", parent=head, alignment=TA_CENTER)
    text = ParagraphStyle("text", fontName=regular, fontSize=font_size, leading=font_size + 2)
    rows = [
        [
            Paragraph(class_exports._escape(v), head_number if i >= numbers_from else head)
            for i, v in enumerate(data[0])
        ]
    ]
    for line in data[1:]:
        rows.append(
            [Paragraph(class_exports._escape(v), text) if isinstance(v, str) else v for v in line]
        )
    table = Table(rows, colWidths=[w * cm for w in widths_cm], repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), regular, font_size),
                ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.3, colors.grey),
                ("ALIGN", (numbers_from, 1), (-1, -1), "CENTER"),
                ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
                ("VALIGN", (0, 1), (-1, -1), "MIDDLE"),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return table


def to_pdf(report: SchoolReport) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import cm
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer

    regular, bold = class_exports._fonts()
    escape = class_exports._escape
    title = ParagraphStyle("title", fontName=bold, fontSize=18, leading=22, spaceAfter=6)
    heading = ParagraphStyle(
        "heading", fontName=bold, fontSize=13, leading=16, spaceBefore=8, spaceAfter=4
    )
    body = ParagraphStyle("body", fontName=regular, fontSize=10, leading=13)
    small = ParagraphStyle("small", fontName=regular, fontSize=8.5, leading=11)
    out = io.BytesIO()
    margin = PDF_MARGIN_CM * cm
    doc = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        title=_("School report of %(school)s") % {"school": report.school},
    )
    statuses = _status_heads(report)
    story = [
        Paragraph(escape(_("School report of %(school)s") % {"school": report.school}), title),
        Paragraph(escape(_summary(report)), body),
        Spacer(1, 0.3 * cm),
        Paragraph(escape(_("Year groups and skills")), heading),
    ]
    # 18.2 cm between the margins.
    for group in report.year_groups:
        story.append(Paragraph(escape(f"{group.label} · {_group_size(group)}"), body))
        data = [[_("Skill"), *statuses, pgettext("school report", "Avoid it")]]
        data += [
            [str(t.name), *[t.count(s) for s in STATUS_ORDER], t.avoids] for t in group.tallies
        ]
        story += [_table(data, [3.4] + [2.1] * 6 + [2.2]), Spacer(1, 0.3 * cm)]
    story += [PageBreak(), Paragraph(escape(_("Classes side by side")), heading)]
    data = [
        [
            pgettext("school report", "Class"),
            _("Skill"),
            *statuses,
            pgettext("school report", "Avoid it"),
        ]
    ]
    for line in report.classes:
        for index, tally in enumerate(line.tallies):
            said = [line.name, line.teacher, line.year_label, pupils_text(line.pupils)]
            who = Paragraph("<br/>".join(escape(part) for part in said), small) if not index else ""
            data.append(
                [who, str(tally.name), *[tally.count(s) for s in STATUS_ORDER], tally.avoids]
            )
    story.append(_table(data, [3.6, 2.6] + [1.8] * 6 + [1.2], font_size=8, numbers_from=2))
    story += [PageBreak(), Paragraph(escape(_("Who needs help across the school")), heading)]
    if not report.needs_help:
        story.append(Paragraph(escape(_("Nobody needs help right now.")), body))
    who = _who(report)
    for group in report.needs_help:
        story.append(
            Paragraph(escape(f"{str(group.name).capitalize()} · {len(group.pupils)}"), body)
        )
        for line in report.classes:
            found = who.get((line.pk, group.skill))
            if found:
                names = ", ".join(_helped_text(h) for h in found)
                story.append(Paragraph(escape(f"{line.name}: {names}"), small))
        story.append(Spacer(1, 0.2 * cm))
    story += [Spacer(1, 0.4 * cm), Paragraph(escape(class_exports.how_to_read()), small)]
    doc.build(story)
    return out.getvalue()


def _group_size(group) -> str:
    return f"{classes_text(group.classes)} · {pupils_text(group.pupils)}"


def _summary(report: SchoolReport) -> str:
    when = (
        date_format(timezone.localtime(report.built_at), "SHORT_DATETIME_FORMAT")
        if report.built_at
        else ""
    )
    built = _("Built %(when)s") % {"when": when}
    return f"{built} · {classes_text(len(report.classes))} · {pupils_text(report.pupils)}"


WRITERS = {"csv": to_csv, "xlsx": to_xlsx, "pdf": to_pdf}


def render(report: SchoolReport, fmt: str) -> tuple[bytes, str, str]:
    """(content, content type, file name) of the report in this format."""
    return WRITERS[fmt](report), CONTENT_TYPES[fmt], filename(report, fmt)
