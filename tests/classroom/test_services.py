"""The classroom's writes (classroom/services.py) and reads (classroom/selectors.py),
called as the views call them."""

from __future__ import annotations

import pytest

from classroom import roster, selectors, services
from classroom.models import Classroom, ReportJob

pytestmark = pytest.mark.django_db


def test_pupils_add_gives_each_a_free_avatar_and_a_picture_password(classroom, pupils):
    lines = roster.parse_paste("Zoé L\nMaël K")
    added = services.pupils_add(classroom, lines)
    assert [p.short_name for p in added] == ["Zoé L.", "Maël K."]
    avatars = list(classroom.pupils.values_list("avatar", flat=True))
    assert len(set(avatars)) == len(avatars) == len(pupils) + 2
    assert all(len(p.password_pictures) == 3 for p in added)


def test_class_copy_keeps_the_pupils_only_when_asked(classroom, pupils, teacher):
    empty = services.class_copy(
        classroom, teacher=teacher, name="CM1 B", school_year="2027-2028", copy_pupils=False
    )
    full = services.class_copy(
        classroom, teacher=teacher, name="CM1 B", school_year="2027-2028", copy_pupils=True
    )
    assert not empty.pupils.exists()
    assert sorted(full.pupils.values_list("first_name", "avatar", "picture_password")) == sorted(
        classroom.pupils.values_list("first_name", "avatar", "picture_password")
    )
    assert len({classroom.code, empty.code, full.code}) == 3


def test_archiving_toggles_and_hides_the_class_from_its_code(classroom, teacher):
    assert services.class_archive_toggle(classroom) is True
    assert selectors.active_class_by_code(classroom.code) is None
    assert list(selectors.classes_of(teacher)) == []
    assert list(selectors.classes_of(teacher, archived=True)) == [classroom]
    assert services.class_archive_toggle(classroom) is False
    assert selectors.active_class_by_code(classroom.code.lower()) == classroom


def test_a_pupil_of_another_class_is_not_found(classroom, pupils, other_teacher):
    other = Classroom.objects.create(teacher=other_teacher, name="CE1", school_year="2026-2027")
    assert selectors.pupil_in_class(classroom, pupils[0].pk) == pupils[0]
    assert selectors.pupil_in_class(other, pupils[0].pk) is None
    assert selectors.pupil_in_class(None, pupils[0].pk) is None


def test_picture_password_renew_saves_a_new_one(pupils):
    before = pupils[0].picture_password
    for _ in range(5):  # one chance in many of drawing the same password again
        services.picture_password_renew(pupils[0])
        if pupils[0].picture_password != before:
            break
    pupils[0].refresh_from_db()
    assert pupils[0].picture_password != before


def test_report_jobs_shown_are_the_teachers_own(classroom, teacher, other_teacher):
    running = ReportJob.objects.create(
        teacher=teacher, classroom=classroom, kind="class_mastery", key="a"
    )
    done = ReportJob.objects.create(
        teacher=teacher, classroom=classroom, kind="export", key="b", status="done"
    )
    theirs = ReportJob.objects.create(
        teacher=other_teacher, classroom=classroom, kind="export", key="c", status="done"
    )
    assert list(selectors.report_jobs_shown(teacher, classroom)) == [running]
    assert list(selectors.report_jobs_shown(teacher, classroom, done.pk)) == [running, done]
    assert list(selectors.report_jobs_shown(teacher, classroom, theirs.pk)) == [running]
