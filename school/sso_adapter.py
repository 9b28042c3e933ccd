"""Where django-allauth's sign-in through a provider meets the school's rules.

allauth runs the OpenID Connect flow (the state, the code, the ID token's
signature); these adapters decide what comes of it. A sign-in goes on only when
the provider's answer proves what the school asks (``school.sso_claims``) and
the school lets the address in (``school.sso_rules``); it then signs in to
that teacher's existing account. Nothing else of allauth is used: no account
is ever made here, and Numbo's own password pages stay Numbo's.
"""

from __future__ import annotations

import logging
import re

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.core.exceptions import ValidationError

from classroom.validators import no_hidden_characters

from . import sso_claims, sso_rules
from .sso_provider import NONCE, UNREADABLE_PROVIDER
from .views.sso import failure_page, refusal_page, unreachable_page

logger = logging.getLogger(__name__)
# allauth's provider types ("openid_connect") and config.sso's ids ("google").
PROVIDER_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request) -> bool:
        return False

    def add_message(self, *args, **kwargs) -> None:
        # A teacher signed in by a provider lands on their classes as one
        # signed in by password does: without allauth's "Successfully signed in".
        return None


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request, sociallogin) -> bool:
        return False

    def is_auto_signup_allowed(self, request, sociallogin) -> bool:
        return False

    def list_apps(self, request, provider=None, client_id=None):
        if provider is not None and not PROVIDER_ID.fullmatch(provider):
            # The address's provider id (accounts/oidc/<id>/login/) goes into
            # a query, and PostgreSQL refuses one with a NUL: a 500 where no
            # provider has such an id (config.sso names them).
            return []
        # Providers come from the environment alone (config.sso): an app typed
        # into the admin would carry none of the school's rules.
        apps = super().list_apps(request, provider=provider, client_id=client_id)
        return [app for app in apps if app.pk is None]

    def on_authentication_error(
        self, request, provider, error=None, exception=None, extra_context=None
    ) -> None:
        """A flow that broke before its answer could be read (a callback
        without its state, sent twice or from another browser; the provider's
        error; a wrong client secret): our page, never allauth's own."""
        cancelled = error == "cancelled"
        if not cancelled:
            # For the school's IT person: what the provider or allauth said.
            logger.warning(
                "Single sign-on with %s failed: %s %r", provider.app.provider_id, error, exception
            )
        if isinstance(exception, UNREADABLE_PROVIDER):
            # The code could not be exchanged: the provider did not answer.
            raise ImmediateHttpResponse(unreachable_page(request, provider.name))
        raise ImmediateHttpResponse(failure_page(request, provider.name, cancelled=cancelled))

    def pre_social_login(self, request, sociallogin) -> None:
        """Refuse with a page, or tie the provider's account to the teacher's."""
        app = sociallogin.account.get_provider().app
        if (sociallogin.state or {}).get("process", "login") != "login":
            # allauth's "connect" ends on account pages Numbo does not have:
            # a provider is only ever a way to sign in.
            raise ImmediateHttpResponse(failure_page(request, app.name, cancelled=False))
        rules = app.settings.get("numbo", {})
        data = sociallogin.account.extra_data or {}
        id_token = data.get("id_token")
        userinfo = data.get("userinfo")
        expected_nonce = (sociallogin.state or {}).get(NONCE)
        identity = sso_claims.identity_from(id_token or {}, userinfo, rules.get("kind", ""))
        refusal = sso_claims.refusal(id_token, userinfo, rules, expected_nonce)
        teacher = None
        if refusal is None:
            if sso_rules.may_sign_in(identity.email):
                teacher = sso_rules.teacher_for(identity.email, _shown_name(id_token or {}))
            if teacher is None:
                refusal = sso_claims.Refusal.NOT_INVITED
        if refusal is not None:
            raise ImmediateHttpResponse(
                refusal_page(request, refusal, identity.email, app.name, rules.get("domains", []))
            )
        if not teacher.address_confirmed:
            sso_rules.take_back(teacher)
        if not sociallogin.is_existing:
            sociallogin.connect(request, teacher)
        elif sociallogin.user.pk != teacher.pk:
            # The provider's account was tied to another teacher whose address
            # this was: the address decides who signs in.
            sociallogin.account.user = teacher
            sociallogin.account.save(update_fields=["user"])
            sociallogin.user = teacher


def _shown_name(id_token: dict) -> str:
    """The provider's name for a teacher whose account the sign-in makes (an
    invitation accepted), if it is plain text: pupils read it."""
    name = str(id_token.get("name") or "").strip()[:60]
    try:
        no_hidden_characters(name)
    except ValidationError:
        return ""
    return name
