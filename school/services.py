"""The writes of the school's pages: a school and its first administrator, a
teacher joining, a teacher's role and account changed by the administrator."""

from __future__ import annotations

import unicodedata

from django.db import transaction

from classroom.forms import TeacherPasswordResetForm
from classroom.models import Teacher
from classroom.signals import teachers_left_class

from .models import School


def normalise_email(email: str) -> str:
    """As the sign-up stores an address: NFKC, trimmed, lower case."""
    return unicodedata.normalize("NFKC", email).strip().lower()


def address_taken(email: str) -> bool:
    return Teacher.objects.filter(email__iexact=normalise_email(email)).exists()


@transaction.atomic
def school_create(name: str, admin_email: str, password: str, display_name: str = "") -> Teacher:
    """A school and its first administrator (manage.py create_school)."""
    school = School.objects.create(name=name)
    return Teacher.objects.create_user(
        normalise_email(admin_email),
        password,
        display_name=display_name,
        school=school,
        role=Teacher.Role.ADMIN,
    )


def administrators_left(school_id: int, *, without: Teacher) -> int:
    """The school's active administrators other than ``without``: a change
    that would leave none is refused (nobody could invite or reset anyone).
    Their rows are locked until the caller's transaction ends: two
    administrators demoting each other at once would both see the other."""
    return len(
        Teacher.objects.select_for_update()
        .filter(school_id=school_id, role=Teacher.Role.ADMIN, is_active=True)
        .exclude(pk=without.pk)
        .values_list("pk", flat=True)
    )


def role_change(teacher: Teacher, role: str) -> None:
    teacher.role = role
    teacher.save(update_fields=["role"])


def active_set(teacher: Teacher, active: bool) -> None:
    """A deactivated teacher cannot sign in, and their open sessions end at
    their next request (Django's ModelBackend refuses an inactive user)."""
    teacher.is_active = active
    teacher.save(update_fields=["is_active"])


def password_reset_send(request, teacher: Teacher) -> None:
    """Django's own password-reset e-mail, as the sign-in page's "forgot"
    sends it: the administrator never learns or sets the password."""
    form = TeacherPasswordResetForm({"email": teacher.email})
    if form.is_valid():
        form.save(request=request, use_https=request.is_secure())


def co_teachers_set(classroom, teachers) -> None:
    """The class's co-teachers are exactly these (chosen on its settings page);
    those taken off it stop watching its tables at once."""
    before = set(classroom.co_teachers.values_list("pk", flat=True))
    classroom.co_teachers.set(teachers)
    left = before - {teacher.pk for teacher in teachers}
    if left:
        teachers_left_class.send(sender=Teacher, teacher_ids=sorted(left))
