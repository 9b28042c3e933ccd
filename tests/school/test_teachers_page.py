"""The administrator's teachers page: roles and last sign-in, a role changed,
an account deactivated, reactivated, a password reset sent; never the last
administrator removed; only the school's own administrator, and forged
values answered in words."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client
from django.urls import reverse

from classroom.models import Teacher
from school.models import Invitation, School
from tests.security.world import PASSWORD

from .people import make_teacher

pytestmark = pytest.mark.django_db


@pytest.fixture
def school():
    return School.objects.create(name="École des Tilleuls")


@pytest.fixture
def admin(school):
    return make_teacher("Admin", school, Teacher.Role.ADMIN)


@pytest.fixture
def colleague(school):
    return make_teacher("Colleague", school)


@pytest.fixture
def admin_client(client, admin):
    client.force_login(admin)
    return client


def _said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def _change(client, teacher, **data):
    return client.post(reverse("school:teacher_change", args=[teacher.pk]), data)


def test_the_page_lists_the_school_s_teachers_with_role_and_last_sign_in(
    admin_client, colleague, admin
):
    signed_in = Client()
    assert signed_in.login(username=colleague.email, password=PASSWORD)
    elsewhere = make_teacher("Elsewhere")
    page = admin_client.get(reverse("school:teachers")).content.decode()
    assert "Teacher Colleague" in page and "Teacher Admin" in page
    assert "school administrator" in page
    # The colleague signed in: a date, where a newcomer's row says "never".
    newcomer = make_teacher("Newcomer", colleague.school)
    page = admin_client.get(reverse("school:teachers")).content.decode()

    def row(teacher):
        return page.split(f'id="teacher-{teacher.pk}"')[1].split("</tr>")[0]

    assert "never" not in row(colleague) and "never" in row(newcomer)
    assert elsewhere.email not in page


def test_the_administrator_changes_a_role_and_the_rule_follows(admin_client, colleague):
    response = _change(admin_client, colleague, action="role", role="maths_lead")
    assert _said(response) == ["Teacher Colleague is now maths lead."]
    colleague.refresh_from_db()
    assert colleague.role == Teacher.Role.MATHS_LEAD


@pytest.mark.parametrize("forged", ["head", "", "admin' OR 1=1", "ADMIN"])
def test_a_role_not_in_the_list_is_refused_in_words(admin_client, colleague, forged):
    response = _change(admin_client, colleague, action="role", role=forged)
    assert response.status_code == 302
    assert _said(response) == ["Choose one of the roles in the list."]
    colleague.refresh_from_db()
    assert colleague.role == Teacher.Role.TEACHER


def test_an_unknown_action_is_refused_in_words(admin_client, colleague):
    assert _said(_change(admin_client, colleague, action="delete")) == [
        "That change is not one this page makes."
    ]


def test_deactivated_a_teacher_cannot_sign_in_and_reactivated_they_can(
    admin_client, colleague
):
    theirs = Client()
    theirs.force_login(colleague)
    _change(admin_client, colleague, action="deactivate")
    colleague.refresh_from_db()
    assert not colleague.is_active
    # Their open session ends at once, and the password opens nothing.
    assert theirs.get(reverse("classroom:class_list")).status_code == 302
    assert not Client().login(username=colleague.email, password=PASSWORD)
    _change(admin_client, colleague, action="reactivate")
    assert Client().login(username=colleague.email, password=PASSWORD)


def test_a_password_reset_sends_django_s_reset_e_mail(admin_client, colleague):
    response = _change(admin_client, colleague, action="reset")
    assert _said(response) == [f"{colleague.email} has been sent a link to choose a new password."]
    [message] = mail.outbox
    assert message.to == [colleague.email] and "/accounts/reset/" in message.body


def test_a_teacher_without_a_password_yet_is_sent_a_reset_too(admin_client, colleague):
    # Single sign-on makes accounts without a password: Django's own reset
    # skips them, and they could never choose one.
    colleague.set_unusable_password()
    colleague.save()
    _change(admin_client, colleague, action="reset")
    [message] = mail.outbox
    assert message.to == [colleague.email] and "/accounts/reset/" in message.body
    mail.outbox.clear()
    Client().post(reverse("password_reset"), {"email": colleague.email.upper()})
    assert [m.to for m in mail.outbox] == [[colleague.email]]


def test_the_last_administrator_can_be_neither_demoted_nor_deactivated(
    admin_client, admin, school
):
    for data in ({"action": "role", "role": "teacher"}, {"action": "deactivate"}):
        response = _change(admin_client, admin, **data)
        assert "The school needs an administrator" in _said(response)[0]
        admin.refresh_from_db()
        assert admin.role == Teacher.Role.ADMIN and admin.is_active
    # With a second administrator, the first may step down.
    make_teacher("Second", school, Teacher.Role.ADMIN)
    _change(admin_client, admin, action="role", role="teacher")
    admin.refresh_from_db()
    assert admin.role == Teacher.Role.TEACHER


def test_another_school_s_teacher_or_invitation_is_not_found(admin_client, admin):
    theirs = School.objects.create(name="Theirs")
    their_teacher = make_teacher("Their", theirs, Teacher.Role.ADMIN)
    response = _change(admin_client, their_teacher, action="deactivate")
    assert response.status_code == 404
    their_teacher.refresh_from_db()
    assert their_teacher.is_active
    code = Invitation.objects.create(
        school=theirs, kind="code", code="ACDEFGHJ", role="teacher", max_uses=5,
        expires_at="2999-01-01T00:00Z")
    revoke = admin_client.post(reverse("school:invitation_revoke", args=[code.pk]))
    assert revoke.status_code == 404
    code.refresh_from_db()
    assert code.revoked_at is None


@pytest.mark.parametrize("data, said", [
    ({"invite-email": "not an address", "invite-role": "teacher"}, "Enter a valid email"),
    ({"invite-email": "x@tilleuls.example", "invite-role": "owner"}, "Select a valid choice"),
    ({"invite-email": "colleague@school.test", "invite-role": "teacher"}, "already one of"),
])
def test_a_bad_invitation_is_refused_on_the_page(admin_client, colleague, data, said):
    response = admin_client.post(reverse("school:invite"), data)
    assert response.status_code == 400 and said in response.content.decode()
    assert not mail.outbox and not Invitation.objects.exists()


@pytest.mark.parametrize("data", [
    {"code-role": "teacher", "code-max_uses": "0", "code-days": "7"},
    {"code-role": "teacher", "code-max_uses": "5", "code-days": "9999"},
    {"code-role": "janitor", "code-max_uses": "5", "code-days": "7"},
    {"code-role": "teacher", "code-max_uses": "ten", "code-days": "7"},
])
def test_a_bad_code_is_refused_on_the_page(admin_client, data):
    response = admin_client.post(reverse("school:code_new"), data)
    assert response.status_code == 400 and 'class="errorlist' in response.content.decode()
    assert not Invitation.objects.exists()


@pytest.mark.parametrize("role", [Teacher.Role.TEACHER, Teacher.Role.MATHS_LEAD, None])
def test_only_the_administrator_uses_the_teachers_pages(client, school, colleague, role):
    user = make_teacher("Asker", school if role else None, role or Teacher.Role.TEACHER)
    client.force_login(user)
    code = Invitation.objects.create(
        school=school, kind="code", code="ACDEFGHJ", role="teacher", max_uses=5,
        expires_at="2999-01-01T00:00Z")
    for method, url, data in [
        ("get", reverse("school:teachers"), {}),
        ("post", reverse("school:invite"), {"invite-email": "a@b.example", "invite-role": "admin"}),
        ("post", reverse("school:code_new"),
         {"code-role": "admin", "code-max_uses": "5", "code-days": "7"}),
        ("post", reverse("school:teacher_change", args=[colleague.pk]),
         {"action": "role", "role": "admin"}),
        ("post", reverse("school:invitation_revoke", args=[code.pk]), {}),
    ]:
        assert getattr(client, method)(url, data).status_code == 403, url
    colleague.refresh_from_db()
    code.refresh_from_db()
    assert colleague.role == "teacher" and code.revoked_at is None
    assert Invitation.objects.count() == 1 and not mail.outbox
