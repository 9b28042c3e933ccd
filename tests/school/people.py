"""A school and its people for the school's tests: teachers of every role, in
the school and in another one, and a lone teacher."""

from __future__ import annotations

from classroom.models import Teacher
from school.models import School
from tests.security.world import PASSWORD


def make_teacher(tag: str, school: School | None = None, role: str = Teacher.Role.TEACHER):
    return Teacher.objects.create_user(
        f"{tag.lower()}@school.test",
        PASSWORD,
        display_name=f"Teacher {tag}",
        school=school,
        role=role,
    )
