// A real OpenID Connect provider for Numbo's single sign-on tests: panva's
// certified oidc-provider (pinned in package.json / package-lock.json), with
// its development sign-in and consent pages standing in for Google's or
// Microsoft's. tests/sso/provider.py starts it on a free port and stops it.
//
// Configuration, as JSON in NUMBO_TEST_OIDC:
//   {"port": 8203,
//    "clients": [{"client_id": ..., "client_secret": ..., "redirect_uris": [...]}],
//    "accounts": {"<login typed on the sign-in page>": {<the account's claims>}}}
// An account's claims go into its ID token (as Google and Entra put the e-mail
// there), and into the userinfo answer.
import { generateKeyPairSync, randomBytes } from 'node:crypto';

import { Provider } from 'oidc-provider';

const config = JSON.parse(process.env.NUMBO_TEST_OIDC);
const issuer = `http://127.0.0.1:${config.port}`;
// A signing key of this run only: Numbo must fetch it from the jwks_uri.
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' };

const provider = new Provider(issuer, {
  clients: config.clients.map((client) => ({
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    ...client,
  })),
  jwks: { keys: [jwk] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  claims: {
    openid: ['sub', 'hd', 'tid', 'xms_edov'],
    email: ['email', 'email_verified'],
    profile: ['name', 'given_name', 'family_name'],
  },
  // The ID token carries the account's claims, as Google's and Entra's do.
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: true } },
  async findAccount(ctx, id) {
    const claims = config.accounts[id];
    if (!claims) return undefined;
    return { accountId: id, async claims() { return { sub: id, ...claims }; } };
  },
});
// Plain http on the loopback address (tests only).
provider.proxy = false;

const server = provider.listen(config.port, '127.0.0.1', () => {
  console.log(`ready ${issuer}`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
