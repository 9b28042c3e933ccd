"""Two pupils of a class with the same first name and initial carry one label
each, the same on every page and in every file: 'Noah B. (1)', 'Noah B. (2)'."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from classroom import roster
from classroom.models import Pupil
from classroom.reports import exports, services
from games import services as game_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def twins(classroom, pupils):
    """A second Noah B., added after the first."""
    second = Pupil.objects.create(
        classroom=classroom, first_name="Noah", initial="B", avatar="owl",
        picture_password="boat,cloud,heart",
    )
    return pupils[1], second


def test_labels_count_the_whole_class_whoever_is_listed(twins):
    first, second = twins
    assert roster.labels([second]) == {second.pk: "Noah B. (2)"}
    assert roster.labels([first, second]) == {first.pk: "Noah B. (1)", second.pk: "Noah B. (2)"}


def test_the_start_form_and_a_table_tell_twins_apart(teacher_client, classroom, twins):
    first, second = twins
    form = teacher_client.get(reverse("games:session_new", args=[classroom.pk])).content.decode()
    assert "Noah B. (1)" in form and "Noah B. (2)" in form
    session = game_services.start_session(
        classroom, classroom.teacher, game="numberquest", options={"preset": "classic"},
        pupils=[second], table_size=1,
    )
    table = session.tables.get()
    live = teacher_client.get(reverse("games:session_live", args=[session.pk])).content.decode()
    assert "Noah B. (2)" in live
    report = teacher_client.get(
        reverse("reports:session_report", args=[session.pk])
    ).content.decode()
    assert "Noah B. (2)" in report
    assert table.pk


def test_the_class_report_and_its_files_tell_twins_apart(
    teacher_client, classroom, twins, monkeypatch
):
    from reportlab import platypus

    first, second = twins
    page = teacher_client.get(reverse("reports:class_report", args=[classroom.pk])).content.decode()
    assert "Noah B. (1)" in page and "Noah B. (2)" in page
    rows = list(csv.reader(io.StringIO(
        exports.to_csv(services.class_report(classroom)).decode("utf-8-sig")
    )))
    assert {"Noah B. (1)", "Noah B. (2)"} <= {row[0] for row in rows}
    from openpyxl import load_workbook

    xlsx = teacher_client.get(reverse("reports:class_export", args=[classroom.pk, "xlsx"]))
    names = {row[0] for row in load_workbook(io.BytesIO(xlsx.content)).active.iter_rows(
        values_only=True)}
    assert {"Noah B. (1)", "Noah B. (2)"} <= names
    # The PDF's fonts are embedded subsets (its text is glyph numbers): read
    # what the pages were given to draw.
    drawn = []
    real = platypus.Paragraph
    monkeypatch.setattr(platypus, "Paragraph", lambda text, *a, **k: drawn.append(text) or real(
        text, *a, **k))
    pdf = teacher_client.get(reverse("reports:class_export", args=[classroom.pk, "pdf"]))
    assert pdf.content.startswith(b"%PDF")
    assert "Noah B. (1)" in drawn and "Noah B. (2)" in drawn
    pupil_page = teacher_client.get(
        reverse("reports:pupil_report", args=[second.pk])
    ).content.decode()
    assert "Noah B. (2)" in pupil_page


def test_a_namesake_keeps_their_number_when_another_leaves(teacher_client, classroom):
    # The number is printed on the pupil's card: erasing "(2)" must not make "(3)" a "(2)".
    from classroom import services as class_services
    from classroom.roster import RosterLine

    lucas = class_services.pupils_add(
        classroom, [RosterLine(n, "Lucas B", "Lucas", "B") for n in (1, 2, 3)]
    )
    assert [p.namesake for p in lucas] == [1, 2, 3]
    teacher_client.post(reverse("classroom:pupil_erase", args=[lucas[1].pk]))
    assert not Pupil.objects.filter(pk=lucas[1].pk).exists()
    assert roster.labels([lucas[0], lucas[2]]) == {
        lucas[0].pk: "Lucas B. (1)", lucas[2].pk: "Lucas B. (3)",
    }
    teacher_client.post(reverse("classroom:pupil_erase", args=[lucas[0].pk]))
    assert roster.labels([lucas[2]]) == {lucas[2].pk: "Lucas B. (3)"}  # as the card says
    # A new Lucas B. comes after every number the name has held.
    (new,) = class_services.pupils_add(classroom, [RosterLine(4, "Lucas B", "Lucas", "B")])
    assert new.namesake == 4


def test_a_pupil_renamed_to_a_namesake_takes_the_next_number(teacher_client, classroom, pupils):
    lea = pupils[0]
    teacher_client.post(
        reverse("classroom:pupil_edit", args=[lea.pk]),
        {"first_name": "Noah", "initial": "B", "avatar": lea.avatar},
    )
    lea.refresh_from_db()
    assert (lea.short_name, lea.namesake) == ("Noah B.", 2)
    assert roster.labels([lea]) == {lea.pk: "Noah B. (2)"}
