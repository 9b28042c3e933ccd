"""Single sign-on end to end: Numbo against a real OpenID Connect provider
(tests/sso/provider.mjs, started by the ``oidc`` fixture), the teacher's browser
going through the provider's own sign-in and consent pages."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import SESSION_KEY
from django.utils import translation

from classroom.models import Classroom, Teacher

from .flow import Trip, sign_in, start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    yield
    translation.activate("en")


@pytest.fixture
def ada(db):
    teacher = Teacher.objects.create_user("ada@school.example", "her-own-password-1")
    Classroom.objects.create(teacher=teacher, name="CE2 Jupiter")
    return teacher


def signed_in(client) -> int | None:
    value = client.session.get(SESSION_KEY)
    return int(value) if value is not None else None


@pytest.mark.parametrize(
    ("provider_id", "login"), [("google", "ada"), ("entra", "ada-entra"), ("oidc", "ada")]
)
def test_an_invited_teacher_signs_in_and_lands_on_their_classes(
    client, school_sso, ada, provider_id, login
):
    answer = sign_in(client, provider_id, login)

    assert answer.status_code == 302
    assert answer["Location"] == "/classes/"
    assert signed_in(client) == ada.pk
    page = client.get("/classes/")
    assert page.status_code == 200
    assert "CE2 Jupiter" in page.content.decode()
    assert Teacher.objects.count() == 1
    assert SocialAccount.objects.get(provider=provider_id).user == ada


def test_a_second_sign_in_uses_the_same_link_and_keeps_the_password(client, school_sso, ada):
    sign_in(client, "oidc", "ada")
    client.post("/accounts/logout/")
    assert signed_in(client) is None

    answer = sign_in(client, "oidc", "ada")

    assert answer.status_code == 302 and signed_in(client) == ada.pk
    assert SocialAccount.objects.filter(user=ada).count() == 1
    ada.refresh_from_db()
    # Single sign-on never takes the teacher's password away.
    assert ada.check_password("her-own-password-1")


def test_the_address_matches_whatever_its_capitals(client, school_sso, ada):
    answer = sign_in(client, "google", "capitals")

    assert answer.status_code == 302 and signed_in(client) == ada.pk


def test_a_teacher_the_school_does_not_know_is_refused_and_no_account_is_made(
    client, school_sso, ada
):
    answer = sign_in(client, "oidc", "stranger")

    assert answer.status_code == 403
    page = answer.content.decode()
    assert "Your school has not invited this address (stranger@school.example)" in page
    assert "No account was created." in page
    assert signed_in(client) is None
    assert not Teacher.objects.filter(email__iexact="stranger@school.example").exists()
    assert Teacher.objects.count() == 1
    assert not SocialAccount.objects.exists()


def test_a_deactivated_teacher_is_refused(client, school_sso, ada):
    ada.is_active = False
    ada.save()

    answer = sign_in(client, "google", "ada")

    assert answer.status_code == 403
    assert "has not invited this address" in answer.content.decode()
    assert signed_in(client) is None


def test_an_address_outside_the_allowed_domain_is_refused(client, school_sso, ada):
    Teacher.objects.create_user("bob@elsewhere.example", "bobs-password-22")

    answer = sign_in(client, "oidc", "bob")

    assert answer.status_code == 403
    page = answer.content.decode()
    assert "only your school's addresses (@school.example)" in page
    assert "bob@elsewhere.example is not one of them" in page
    assert signed_in(client) is None
    assert not SocialAccount.objects.exists()


def test_an_unverified_address_is_refused(client, school_sso):
    Teacher.objects.create_user("carla@school.example", "carlas-password-3")

    answer = sign_in(client, "oidc", "carla-unverified")

    assert answer.status_code == 403
    assert "has not confirmed that the address carla@school.example is yours" in (
        answer.content.decode()
    )
    assert signed_in(client) is None


def test_a_personal_google_account_on_the_school_address_is_refused(client, school_sso):
    Teacher.objects.create_user("dan@school.example", "dans-password-44")

    answer = sign_in(client, "google", "dan-personal")

    assert answer.status_code == 403
    assert "not one of your school's Google Workspace accounts" in answer.content.decode()
    assert signed_in(client) is None


def test_an_entra_account_of_another_tenant_is_refused(client, school_sso):
    Teacher.objects.create_user("eve@school.example", "eves-password-55")

    answer = sign_in(client, "entra", "eve-other-tenant")

    assert answer.status_code == 403
    assert "does not belong to your school's directory" in answer.content.decode()
    assert signed_in(client) is None


def test_an_entra_address_without_its_domain_verified_is_refused(client, school_sso):
    Teacher.objects.create_user("eve@school.example", "eves-password-55")

    answer = sign_in(client, "entra", "eve-entra-unverified")

    assert answer.status_code == 403
    assert "has not confirmed that the address eve@school.example" in answer.content.decode()


def test_a_replayed_callback_is_refused(client, school_sso, ada, django_user_model):
    trip = Trip()
    first = sign_in(client, "oidc", "ada", trip=trip)
    assert first.status_code == 302 and signed_in(client) == ada.pk
    path = urlsplit(trip.callback_url)

    # The same browser sends it again: its state was used up.
    again = client.get(f"{path.path}?{path.query}")
    assert again.status_code == 400
    assert "could not be confirmed" in again.content.decode()

    # Another browser (someone who read the address) gets nothing either.
    from django.test import Client

    thief = Client()
    stolen = thief.get(f"{path.path}?{path.query}")
    assert stolen.status_code == 400
    assert signed_in(thief) is None


def test_a_callback_started_in_another_browser_is_refused(client, school_sso, ada):
    """Login CSRF: an attacker's own sign-in, finished in the teacher's browser."""
    from django.test import Client

    from .flow import through_provider

    attacker = Client()
    callback = through_provider(start(attacker, "oidc"), "ada")
    path = urlsplit(callback)

    answer = client.get(f"{path.path}?{path.query}")

    assert answer.status_code == 400
    assert signed_in(client) is None


def test_an_id_token_for_another_nonce_is_refused(client, school_sso, ada):
    """The provider signs whatever nonce the browser carried to it: one that is
    not this sign-in's is refused, though the state and the code are right."""

    def other_nonce(url: str) -> str:
        parts = urlsplit(url)
        query = dict(parse_qsl(parts.query))
        assert query["nonce"]  # Numbo sends one with every sign-in
        query["nonce"] = "a-nonce-of-another-sign-in"
        return parts._replace(query=urlencode(query)).geturl()

    answer = sign_in(client, "oidc", "ada", tamper=other_nonce)

    assert answer.status_code == 403
    assert "This sign-in could not be confirmed" in answer.content.decode()
    assert signed_in(client) is None
    assert not SocialAccount.objects.exists()


def test_the_authorization_request_asks_what_the_school_needs(client, school_sso):
    query = dict(parse_qsl(urlsplit(start(client, "google")).query))

    assert sorted(query["scope"].split()) == ["email", "openid", "profile"]
    assert query["hd"] == "school.example"
    assert query["code_challenge_method"] == "S256"
    assert len(query["nonce"]) >= 32 and len(query["state"]) >= 16


def test_a_teacher_who_cancels_at_the_provider_is_told_so(client, school_sso, ada):
    answer = sign_in(client, "oidc", "ada", cancel=True)

    assert answer.status_code == 200
    assert "Sign-in cancelled" in answer.content.decode()
    assert signed_in(client) is None


def test_the_refusal_speaks_french(client, school_sso):
    answer = sign_in(client, "oidc", "stranger", HTTP_ACCEPT_LANGUAGE="fr")

    assert answer.status_code == 403
    page = answer.content.decode()
    assert "Votre école n’a pas invité cette adresse (stranger@school.example)" in page
    assert "Aucun compte n’a été créé." in page


def test_the_next_page_asked_for_is_where_the_teacher_lands(client, school_sso, ada):
    classroom = ada.classrooms.get()
    target = f"/classes/{classroom.pk}/"
    authorization = start(client, "oidc", next=target)
    from .flow import through_provider

    callback = urlsplit(through_provider(authorization, "ada"))
    answer = client.get(f"{callback.path}?{callback.query}")

    assert answer.status_code == 302 and answer["Location"] == target


def test_a_next_page_on_another_site_is_not_followed(client, school_sso, ada):
    from .flow import through_provider

    authorization = start(client, "oidc", next="https://evil.example/")
    callback = urlsplit(through_provider(authorization, "ada"))
    answer = client.get(f"{callback.path}?{callback.query}")

    assert answer.status_code == 302 and answer["Location"] == "/classes/"


@pytest.fixture
def invited_stranger(db):
    """The school's administrator invited stranger@school.example by e-mail as
    its maths lead; the link was never opened."""
    from school import invitations
    from school.models import School

    school = School.objects.create(name="École des Tilleuls")
    admin = Teacher.objects.create_user(
        "head@school.example", "head-password-1", school=school, role=Teacher.Role.ADMIN
    )
    return invitations.invite_by_email(
        school, "stranger@school.example", Teacher.Role.MATHS_LEAD, admin,
        lambda token: f"http://testserver/school/invitation/{token}/",
    )


def test_an_address_invited_by_email_signs_in_and_joins_the_school(
    client, school_sso, invited_stranger
):
    answer = sign_in(client, "oidc", "stranger")

    assert answer.status_code == 302 and answer["Location"] == "/classes/"
    stranger = Teacher.objects.get(email="stranger@school.example")
    assert signed_in(client) == stranger.pk
    assert (stranger.school, stranger.role) == (invited_stranger.school, Teacher.Role.MATHS_LEAD)
    # The provider vouches for them: no password of ours until they ask for one.
    assert not stranger.has_usable_password()
    invited_stranger.refresh_from_db()
    assert invited_stranger.uses == 1
    # Used once: signing in again finds the account, and makes no other.
    client.post("/accounts/logout/")
    assert sign_in(client, "oidc", "stranger").status_code == 302
    assert Teacher.objects.filter(email__iexact="stranger@school.example").count() == 1


def test_a_withdrawn_or_expired_invitation_lets_nobody_in(client, school_sso, invited_stranger):
    from django.utils import timezone

    from school import invitations

    invitations.revoke(invited_stranger)
    answer = sign_in(client, "oidc", "stranger")
    assert answer.status_code == 403
    assert not Teacher.objects.filter(email="stranger@school.example").exists()

    invited_stranger.revoked_at = None
    invited_stranger.expires_at = timezone.now()
    invited_stranger.save()
    assert sign_in(client, "oidc", "stranger").status_code == 403
    assert not Teacher.objects.filter(email="stranger@school.example").exists()


def test_an_address_typed_with_a_school_code_is_taken_back_by_its_owner(
    client, school_sso, invited_stranger
):
    """Someone who heard the school code joined as stranger@school.example with
    a password of their own; the address's owner signs in with the school's
    provider: the account is theirs, the password chosen before is gone and
    the session it opened ends."""
    from django.test import Client

    from school import invitations

    code = invitations.make_code(
        invited_stranger.school, Teacher.Role.TEACHER, 30, 7, invited_stranger.invited_by
    )
    squatter = invitations.accept(
        code, email="stranger@school.example", display_name="Squatter",
        password="the-squatters-own-9",
    )
    assert not squatter.address_confirmed
    theirs = Client()
    theirs.force_login(squatter)
    assert theirs.get("/classes/").status_code == 200

    assert sign_in(client, "oidc", "stranger").status_code == 302
    assert signed_in(client) == squatter.pk
    squatter.refresh_from_db()
    assert squatter.address_confirmed and not squatter.has_usable_password()
    assert theirs.get("/classes/").status_code == 302  # sent to sign in again


def test_a_provider_is_never_connected_to_a_signed_in_account(client, school_sso, ada):
    """allauth's "connect" (a provider added to the signed-in account) ends on
    pages Numbo does not have: it is refused, and nothing is tied."""
    from .flow import through_provider

    client.force_login(ada)
    url = start(client, "oidc", process="connect")
    parts = urlsplit(through_provider(url, "ada", trip=Trip()))
    answer = client.get(f"{parts.path}?{parts.query}")
    assert answer.status_code in (400, 403)
    assert not SocialAccount.objects.exists()


def test_the_sites_staff_never_sign_in_by_a_provider(client, school_sso, ada):
    # Django's admin is the school's IT person's: a provider vouching for the
    # address must not open it.
    Teacher.objects.filter(pk=ada.pk).update(is_staff=True)
    answer = sign_in(client, "oidc", "ada")
    assert answer.status_code == 403 and signed_in(client) is None
    assert not SocialAccount.objects.exists()
