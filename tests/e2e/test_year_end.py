"""The year's end in real Chromium, with the keyboard alone, on a 768 px
portrait tablet and at 320 px: hand a class over, move a pupil, mark a leaver,
archive the year, read the record. No page scrolls sideways and every control
is a 44 px target. With NUMBO_SCREENSHOTS set, each page is saved there."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from classroom.models import Classroom, Pupil, Teacher, YearGroup
from school.models import AuditEntry, School

from .helpers import small_targets
from .keyboard import focused, follow, press, tab_to

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("NUMBO_SCREENSHOTS", "")
WIDE = "() => document.scrollingElement.scrollWidth"


@pytest.fixture
def school(db):
    ferry = School.objects.create(name="École Jules Ferry", leavers_kept_days=30)

    def teacher(email, name, role=Teacher.Role.TEACHER):
        return Teacher.objects.create_user(
            email, "correct-horse-77", display_name=name, school=ferry, role=role
        )

    admin = teacher("admin@ferry.test", "Mme Admin", Teacher.Role.ADMIN)
    ana, ben = teacher("ana@ferry.test", "Mme Ana"), teacher("ben@ferry.test", "M. Ben")
    ce2 = Classroom.objects.create(
        teacher=ana, name="CE2 B", school_year="2025-2026", year_group=YearGroup.AGE_8
    )
    cm1 = Classroom.objects.create(
        teacher=ben, name="CM1 A", school_year="2026-2027", year_group=YearGroup.AGE_9
    )
    cm1.co_teachers.add(ana)
    for classroom, names in ((ce2, ["Léa M", "Noah B", "Inès D"]), (cm1, ["Léa M", "Tom R"])):
        for n, name in enumerate(names):
            first, initial = name.split()
            Pupil.objects.create(
                classroom=classroom, first_name=first, initial=initial,
                avatar=["cat", "dog", "fox"][n], picture_password="sun,moon,star",
            )
    return {"school": ferry, "admin": admin, "ana": ana, "ben": ben, "ce2": ce2, "cm1": cm1}


@pytest.fixture
def tablet(browser, browser_context_args, live_server):
    """A signed-in tablet of the width and language asked for."""

    def open_as(teacher: Teacher, width: int = 768, language: str = "en") -> Page:
        client = Client()
        client.force_login(teacher)
        context = browser.new_context(
            **{**browser_context_args, "viewport": {"width": width, "height": 1024}}
        )
        context.add_cookies(
            [{"name": name, "value": kept.value, "url": live_server.url}
             for name, kept in client.cookies.items()]
            + [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        return context.new_page()

    return open_as


def looked_at(page: Page, name: str, width: int) -> None:
    """The page fits its width, its targets are 44 px; saved when asked."""
    assert page.evaluate(WIDE) <= width, f"{name} scrolls sideways at {width} px"
    assert small_targets(page) == [], name
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.mark.parametrize("width, language", [(768, "en"), (320, "fr")])
def test_a_teacher_moves_a_pupil_and_marks_a_leaver_by_keyboard(
    live_server, tablet, school, width, language
):
    ce2 = school["ce2"]
    page = tablet(school["ana"], width, language)
    page.goto(f"{live_server.url}/classes/{ce2.pk}/")
    looked_at(page, f"class-page-{width}-{language}", width)
    words = {
        "en": ("Move pupils to another class", "Into the class", "Move the pupils ticked",
               "Leaves the school", "Inès D. leaves the school"),
        "fr": ("Changer des élèves de classe", "Dans la classe",
               "Changer de classe les élèves cochés", "Quitte l’école", "Inès D. quitte l’école"),
    }[language]
    tab_to(page, words[0], most=60)
    follow(page)
    looked_at(page, f"move-{width}-{language}", width)
    tab_to(page, re.compile(r"Léa M\."), most=20)
    assert focused(page)["tag"] == "input"
    press(page, "Space")
    tab_to(page, words[1], most=6)
    press(page, "ArrowDown")
    assert page.locator("select[name=to]").input_value() == str(school["cm1"].pk)
    tab_to(page, words[2], most=4)
    follow(page)
    expect(page.locator(".messages")).to_contain_text("CM1 A")
    lea = Pupil.objects.get(first_name="Léa", namesake=2)
    assert lea.classroom == school["cm1"]
    looked_at(page, f"moved-{width}-{language}", width)
    tab_to(page, words[3], most=60)  # the first pupil of the list: Inès D.
    follow(page)
    expect(page.locator(".messages")).to_contain_text(words[4])
    expect(page.get_by_test_id("leaving")).to_be_visible()
    assert Pupil.objects.get(first_name="Inès").left_at is not None
    looked_at(page, f"leaver-marked-{width}-{language}", width)


@pytest.mark.parametrize("width, language", [(768, "fr"), (320, "en")])
def test_a_class_is_handed_over_by_keyboard(live_server, tablet, school, width, language):
    ce2 = school["ce2"]
    page = tablet(school["ana"], width, language)
    page.goto(f"{live_server.url}/classes/{ce2.pk}/")
    words = {
        "en": ("Hand over to next year's teacher", "Next year's teacher",
               "The present teacher stays on as a co-teacher", "Hand the class over"),
        "fr": ("Confier à l’enseignant de l’an prochain", "L’enseignant de l’an prochain",
               "L’enseignant actuel reste co-enseignant", "Confier la classe"),
    }[language]
    tab_to(page, words[0], most=70)
    follow(page)
    looked_at(page, f"hand-over-{width}-{language}", width)
    tab_to(page, words[1], most=12)
    press(page, "ArrowDown")  # the first teacher by name: M. Ben (then Mme Admin)
    assert page.locator("select[name=to]").input_value() == str(school["ben"].pk)
    tab_to(page, re.compile(re.escape(words[2])), most=3)
    press(page, "Space")
    tab_to(page, words[3], most=3)
    follow(page)
    ce2.refresh_from_db()
    assert ce2.teacher == school["ben"] and list(ce2.co_teachers.all()) == [school["ana"]]
    looked_at(page, f"handed-over-{width}-{language}", width)


@pytest.mark.parametrize("width, language", [(768, "en"), (320, "fr")])
def test_the_administrator_archives_the_year_and_reads_the_record(
    live_server, tablet, school, width, language
):
    page = tablet(school["admin"], width, language)
    page.goto(f"{live_server.url}/school/year-end/")
    looked_at(page, f"year-end-{width}-{language}", width)
    words = {
        "en": ("I understand", "Archive 2025-2026: 1 class", "2025-2026 archived",
               "What was done"),
        "fr": ("J’ai compris", "Archiver 2025-2026 : 1 classe", "2025-2026 archivée",
               "Ce qui a été fait"),
    }[language]
    noah = Pupil.objects.get(first_name="Noah")
    tab_to(page, re.compile(r"Noah B\."), most=40)
    press(page, "Space")
    tab_to(page, re.compile(words[0]), most=10)
    press(page, "Space")
    tab_to(page, words[1], most=3)
    follow(page)
    expect(page.locator(".messages")).to_contain_text(words[2])
    school["ce2"].refresh_from_db()
    noah.refresh_from_db()
    assert school["ce2"].is_archived and noah.left_at is not None
    page.goto(f"{live_server.url}/school/settings/")
    looked_at(page, f"settings-{width}-{language}", width)
    page.goto(f"{live_server.url}/school/record/")
    expect(page.get_by_test_id("record")).to_be_visible()
    looked_at(page, f"record-{width}-{language}", width)
    tab_to(page, words[3], most=20)  # the filter
    press(page, "End")  # its last kind: the leavers' retention changed
    press(page, "Tab")  # "Show"
    follow(page)
    assert page.url.endswith("?kind=retention_changed")
    expect(page.get_by_test_id("empty")).to_be_visible()
    assert AuditEntry.objects.filter(kind=AuditEntry.Kind.YEAR_ARCHIVED).count() == 1
    page.goto(f"{live_server.url}/privacy/")
    expect(page.get_by_test_id("leavers")).to_contain_text("30")
    looked_at(page, f"privacy-{width}-{language}", width)
