"""What a provider's answer must prove (school.sso_claims), case by case; the
sign-in tests go through the same rules with a real provider."""

from __future__ import annotations

from school.sso_claims import Refusal, identity_from, refusal

NONCE = "n-0123456789"
GENERIC = {"kind": "oidc", "domains": ["school.example"]}


def token(**claims) -> dict:
    return {"sub": "42", "nonce": NONCE, **claims}


def test_a_verified_school_address_passes():
    assert refusal(token(email="a@school.example", email_verified=True), None, GENERIC,
                   NONCE) is None


def test_a_verified_flag_written_as_text_counts_only_when_true():
    assert refusal(token(email="a@school.example", email_verified="true"), None, GENERIC,
                   NONCE) is None
    assert refusal(token(email="a@school.example", email_verified="false"), None, GENERIC,
                   NONCE) == Refusal.UNVERIFIED
    assert refusal(token(email="a@school.example", email_verified=1), None, GENERIC,
                   NONCE) == Refusal.UNVERIFIED


def test_no_domain_list_lets_any_domain_through_to_the_school_rule():
    rules = {"kind": "oidc", "domains": []}
    assert refusal(token(email="a@else.example", email_verified=True), None, rules,
                   NONCE) is None


def test_a_subdomain_is_not_the_domain():
    assert refusal(token(email="a@evil.school.example", email_verified=True), None, GENERIC,
                   NONCE) == Refusal.DOMAIN


def test_without_a_nonce_nothing_is_proved():
    claims = token(email="a@school.example", email_verified=True)
    assert refusal(claims, None, GENERIC, None) == Refusal.NONCE
    assert refusal({**claims, "nonce": None}, None, GENERIC, NONCE) == Refusal.NONCE
    assert refusal(None, {"email": "a@school.example"}, GENERIC, NONCE) == Refusal.NONCE


def test_the_address_from_userinfo_only_when_it_is_about_the_same_person():
    same = {"sub": "42", "email": "a@school.example", "email_verified": True}
    other = {**same, "sub": "43"}
    assert identity_from(token(), same, "oidc").email == "a@school.example"
    assert identity_from(token(), other, "oidc").email == ""
    assert refusal(token(), other, GENERIC, NONCE) == Refusal.NO_EMAIL


def test_the_id_token_address_wins_over_userinfo():
    claims = token(email="a@school.example", email_verified=True)
    userinfo = {"sub": "42", "email": "b@school.example", "email_verified": True}
    assert identity_from(claims, userinfo, "oidc").email == "a@school.example"


def test_google_needs_the_school_workspace():
    rules = {"kind": "google", "domains": ["school.example"]}
    claims = token(email="a@school.example", email_verified=True)
    assert refusal({**claims, "hd": "school.example"}, None, rules, NONCE) is None
    assert refusal(claims, None, rules, NONCE) == Refusal.HOSTED_DOMAIN
    assert refusal({**claims, "hd": "other.example"}, None, rules, NONCE) == (
        Refusal.HOSTED_DOMAIN
    )


def test_entra_needs_its_tenant_and_a_verified_domain():
    rules = {"kind": "entra", "domains": [], "tenant": "t-1"}
    claims = token(email="a@school.example", tid="t-1")
    assert refusal({**claims, "xms_edov": True}, None, rules, NONCE) is None
    assert refusal({**claims, "xms_edov": "1"}, None, rules, NONCE) is None
    assert refusal(claims, None, rules, NONCE) == Refusal.UNVERIFIED
    assert refusal({**claims, "xms_edov": True, "tid": "t-2"}, None, rules, NONCE) == (
        Refusal.TENANT
    )
