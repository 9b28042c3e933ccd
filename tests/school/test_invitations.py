"""Invitations: the administrator's e-mail link and school code, accepted once
(or as many times as the code allows), refused when used, expired or revoked,
and every forged value answered in words, never with a 500."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.models import Teacher
from school import invitations
from school.models import Invitation, School

from .people import make_teacher

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase-9"


@pytest.fixture
def school():
    return School.objects.create(name="École des Tilleuls")


@pytest.fixture
def admin(school):
    return make_teacher("Admin", school, Teacher.Role.ADMIN)


@pytest.fixture
def admin_client(client, admin):
    client.force_login(admin)
    return client


def _link(message) -> str:
    return re.search(r"https?://testserver(/school/join/\S+/)", message.body)[1]


def _new_account(name="Mme Roux"):
    return {"display_name": name, "new_password1": PASSWORD, "new_password2": PASSWORD}


def test_an_invited_teacher_follows_the_link_once_and_joins_with_the_role(
    admin_client, school
):
    response = admin_client.post(
        reverse("school:invite"),
        {"invite-email": " Roux@Tilleuls.example ", "invite-role": "maths_lead"},
    )
    assert response.status_code == 302
    assert invitations.pending_for("ROUX@tilleuls.example").role == "maths_lead"
    [message] = mail.outbox
    assert message.to == ["roux@tilleuls.example"] and "École des Tilleuls" in message.subject
    assert "maths lead" in message.body
    link = _link(message)
    visitor = Client()
    page = visitor.get(link).content.decode()
    assert "roux@tilleuls.example" in page and "maths lead" in page
    response = visitor.post(link, _new_account())
    assert response.url == reverse("classroom:class_create")
    teacher = Teacher.objects.get(email="roux@tilleuls.example")
    assert (teacher.school, teacher.role, teacher.display_name) == (
        school, Teacher.Role.MATHS_LEAD, "Mme Roux"
    )
    assert visitor.get(reverse("school:classes")).status_code == 200
    assert invitations.pending_for("roux@tilleuls.example") is None
    # Used: the link opens nothing more, for anyone.
    again = Client().post(link, _new_account("Someone else"))
    assert again.status_code == 410 and "already used" in again.content.decode()
    assert Teacher.objects.filter(school=school).count() == 2


@pytest.mark.parametrize("how", ["expired", "revoked", "forged", "invited again"])
def test_a_link_expired_revoked_forged_or_replaced_makes_no_account(admin_client, school, how):
    admin_client.post(reverse("school:invite"),
                      {"invite-email": "roux@tilleuls.example", "invite-role": "teacher"})
    link = _link(mail.outbox[0])
    invitation = Invitation.objects.get()
    if how == "expired":
        Invitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    elif how == "revoked":
        admin_client.post(reverse("school:invitation_revoke", args=[invitation.pk]))
    elif how == "forged":
        link = link[:-3] + "AA/"
    else:
        admin_client.post(reverse("school:invite"),
                          {"invite-email": "roux@tilleuls.example", "invite-role": "admin"})
    response = Client().post(link, _new_account())
    assert response.status_code == 410
    said = {"expired": "has expired", "revoked": "was withdrawn", "forged": "not valid",
            "invited again": "was withdrawn"}[how]
    assert said in response.content.decode()
    assert not Teacher.objects.filter(email="roux@tilleuls.example").exists()
    pending = invitations.pending_for("roux@tilleuls.example")
    # A forged link leaves the real one good; the new invitation replaces the old.
    left = {"forged": "teacher", "invited again": "admin"}.get(how)
    assert (pending.role if pending else None) == left


def test_a_teacher_who_signed_up_alone_joins_from_the_link_with_their_classes(
    admin_client, school
):
    lone = make_teacher("Lone")
    admin_client.post(reverse("school:invite"),
                      {"invite-email": lone.email, "invite-role": "teacher"})
    link = _link(mail.outbox[0])
    them = Client()
    refused = them.post(link, _new_account())
    assert "already uses this address" in refused.content.decode()
    them.force_login(lone)
    assert them.post(link).url == reverse("classroom:class_list")
    lone.refresh_from_db()
    assert lone.school == school and lone.role == Teacher.Role.TEACHER
    stranger = Client()
    stranger.force_login(make_teacher("Stranger"))
    assert "already used" in stranger.post(link).content.decode()


def test_an_old_link_does_not_change_the_role_of_one_of_the_school_s_teachers(
    admin_client, school, admin
):
    # The only administrator opening an old "teacher" link must stay administrator.
    invitations.invite_by_email(school, admin.email, Teacher.Role.TEACHER, admin,
                                lambda token: f"http://testserver/school/join/{token}/")
    answer = admin_client.post(_link(mail.outbox[0]), follow=True)
    assert "already one of this school" in answer.content.decode().replace("&#x27;", "'")
    admin.refresh_from_db()
    assert admin.role == Teacher.Role.ADMIN


def test_a_school_code_lets_in_as_many_teachers_as_it_allows(admin_client, school):
    admin_client.post(reverse("school:code_new"),
                      {"code-role": "teacher", "code-max_uses": "2", "code-days": "7"})
    code = Invitation.objects.get(kind="code").code
    assert code in admin_client.get(reverse("school:teachers")).content.decode()
    for n in (1, 2):
        response = Client().post(reverse("school:join"), {
            "code": code.lower()[:4] + "-" + code.lower()[4:],  # as typed: case, a dash
            "email": f"t{n}@tilleuls.example", **_new_account(f"Teacher {n}"),
        })
        assert response.url == reverse("classroom:class_create"), response.content.decode()
    third = Client().post(reverse("school:join"), {
        "code": code, "email": "t3@tilleuls.example", **_new_account("Teacher 3")})
    assert third.status_code == 400
    assert "used as many times as it allows" in third.content.decode()
    assert Teacher.objects.filter(school=school, role="teacher").count() == 2


@pytest.mark.parametrize("how, said", [
    ("revoked", "was withdrawn"),
    ("expired", "has expired"),
    ("unknown", "No school has this code"),
])
def test_a_revoked_expired_or_unknown_code_is_refused_in_words(admin_client, school, how, said):
    code = invitations.make_code(school, "teacher", 5, 7, Teacher.objects.get(role="admin"))
    typed = code.code
    if how == "revoked":
        admin_client.post(reverse("school:invitation_revoke", args=[code.pk]))
    elif how == "expired":
        Invitation.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    else:
        typed = "ZZZZZZZZ"
    response = Client().post(reverse("school:join"), {
        "code": typed, "email": "t@tilleuls.example", **_new_account()})
    assert response.status_code == 400 and said in response.content.decode()
    assert not Teacher.objects.filter(email="t@tilleuls.example").exists()


def test_wrong_codes_from_one_address_stop_a_guessing_script(client, school, settings):
    limit = settings.NUMBO["SCHOOL_CODE_TRIES_PER_ADDRESS"]
    answers = [
        client.post(reverse("school:join"), {
            "code": f"WRONG{n:03d}", "email": "g@x.example", **_new_account()}).status_code
        for n in range(limit + 5)
    ]
    assert answers[:limit] == [400] * limit and set(answers[limit:]) == {429}


def test_the_join_page_says_what_is_wrong_with_each_field(client):
    response = client.post(reverse("school:join"), {
        "code": "", "email": "not an address", "display_name": "",
        "new_password1": "123", "new_password2": "456"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "This field is required." in page and "Enter a valid email address." in page
    assert "The two passwords differ." in page


def test_pending_for_names_only_a_good_e_mail_invitation(school, admin):
    assert invitations.pending_for("x@tilleuls.example") is None
    invitations.make_code(school, "teacher", 5, 7, admin)
    assert invitations.pending_for("") is None  # a code names nobody
    made = invitations.invite_by_email(school, "X@Tilleuls.example", "teacher", admin,
                                       lambda token: f"http://t/{token}")
    assert invitations.pending_for(" x@tilleuls.EXAMPLE") == made
    Invitation.objects.filter(pk=made.pk).update(uses=1)
    assert invitations.pending_for("x@tilleuls.example") is None
