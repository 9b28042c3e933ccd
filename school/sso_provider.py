"""allauth's OpenID Connect provider, with a nonce.

allauth's ``openid_connect`` checks the state (once, in the session) and the ID
token's signature, issuer and audience, but sends no nonce. This one sends a
fresh nonce with every sign-in and keeps it in the sign-in's state, so that
``school.sso_adapter`` can refuse an ID token that was not issued for this
sign-in (OpenID Connect Core 3.1.2.1 and 3.1.3.7). Named in settings as the
provider's ``provider_class``.
"""

from __future__ import annotations

import logging
import secrets

from allauth.socialaccount.providers.openid_connect.provider import OpenIDConnectProvider
from requests import RequestException

from .views.sso import unreachable_page

NONCE = "nonce"
# The provider's discovery document unreachable, not JSON (ValueError), or
# without the addresses it must name (KeyError).
UNREADABLE_PROVIDER = (RequestException, ValueError, KeyError)

logger = logging.getLogger(__name__)


class SchoolOpenIDConnectProvider(OpenIDConnectProvider):
    def redirect(self, request, process, next_url=None, data=None, **kwargs):
        nonce = secrets.token_urlsafe(32)
        auth_params = dict(kwargs.pop("auth_params", None) or self.get_auth_params())
        auth_params[NONCE] = nonce
        # The keyword arguments left over are kept in the state (stash_redirect_state).
        kwargs[NONCE] = nonce
        try:
            return super().redirect(
                request, process, next_url, data, auth_params=auth_params, **kwargs
            )
        except UNREADABLE_PROVIDER as error:
            # allauth reads the provider's discovery document here, on the
            # teacher's click: a provider down or misconfigured was a 500.
            logger.warning("Single sign-on with %s: the provider did not answer: %r",
                           self.app.provider_id, error)
            return unreachable_page(request, self.name)
