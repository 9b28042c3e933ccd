"""A school to attack: a teacher with a class, pupils, a game at tables, a
whole-class game and a finished export; every object the URLs take. The
teacher is their school's administrator (school.School), with a school code
waiting: another school's administrator is refused all of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from classroom.models import Classroom, Pupil, ReportJob, Teacher
from games import services
from games.models import GameSession, Table
from school import invitations
from school.models import Invitation
from school.models import School as RealSchool

PASSWORD = "correct-horse-battery-91"


@dataclass
class School:
    teacher: Teacher
    classroom: Classroom
    pupils: list[Pupil]
    sessions: list[GameSession]
    tables: list[Table]
    jobs: list[ReportJob]
    invitations: list[Invitation] = field(default_factory=list)
    # Strings only this school's pages may show: another user seeing one sees its data.
    markers: list[str] = field(default_factory=list)
    # The rows that are this school's (tests.security.snapshots keys), once taken.
    rows: set = field(default_factory=set)

    def objects(self, kind: str) -> list[Any]:
        return {
            "classroom": [self.classroom],
            "pupil": self.pupils,
            "session": self.sessions,
            "table": self.tables,
            "job": self.jobs,
            "teacher": [self.teacher],
            "invitation": self.invitations,
        }[kind]


def build_school(tag: str, first_names: tuple[str, str, str]) -> School:
    """``tag`` makes the names unique, so that a page showing them is caught."""
    teacher = Teacher.objects.create_user(
        f"{tag.lower()}@school.test",
        PASSWORD,
        display_name=f"Teacher {tag}",
        school=RealSchool.objects.create(name=f"School {tag}"),
        role=Teacher.Role.ADMIN,
    )
    code = invitations.make_code(teacher.school, Teacher.Role.TEACHER, 5, 7, teacher)
    classroom = Classroom.objects.create(teacher=teacher, name=f"Class {tag}")
    pupils = [
        Pupil.objects.create(
            classroom=classroom,
            first_name=name,
            initial="Q",
            avatar=avatar,
            picture_password="sun,moon,star",
        )
        for name, avatar in zip(first_names, ("cat", "dog", "fox"), strict=True)
    ]
    at_tables = services.start_session(
        classroom, teacher, game="numberquest", options={"preset": "addition"},
        pupils=pupils[:2], table_size=2, seed=3,
    )
    whole_class = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils, table_size=1,
        whole_class=True, seed=4,
    )
    export = ReportJob.objects.create(
        teacher=teacher, classroom=classroom, kind=ReportJob.Kind.EXPORT,
        key=f"export-{tag}", status=ReportJob.Status.DONE, result=f"{first_names[0]}\n".encode(),
        result_name=f"{tag}.csv", result_type="text/csv",
    )
    return School(
        teacher=teacher,
        classroom=classroom,
        pupils=pupils,
        sessions=[at_tables, whole_class],
        tables=list(at_tables.tables.all()) + list(whole_class.tables.all()[:1]),
        jobs=[export],
        invitations=[code],
        markers=[classroom.name, classroom.code, teacher.email, code.code, *first_names],
    )
