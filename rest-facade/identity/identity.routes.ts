import { requestHeader } from '../../platform/http/request-header.js';
import { z } from 'zod';
import { readSessionToken, SESSION_HEADER } from '../../platform/auth/token-reader.js';
import { defineRoute, type Route } from '../../platform/http/route.js';
import {
  apiKeyTokenView,
  generatedKeyView,
  generateJwtBody,
  keyNameParams,
  refreshJwtBody,
} from '../../identity/identity.schemas.js';
import type { TokenService } from '../../identity/token.service.js';
import { REFRESH_PATH } from './refresh-cors.js';

export const API_KEY_HEADER = 'x-svc-api';
const tag = 'Tokens';

/** The identity service's paths (spec 4.3). It enforces no permission: it must not be reachable from outside. */
export function identityRoutes(tokens: TokenService): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/generatejwt',
      operationId: 'generateJwt',
      summary: 'Mint a session token for a login',
      description:
        "Provisions the login through the account service and answers the token as text/plain. 403 when there is nobody to issue to and no account pattern permits creating one (the caller should end the session). The account's name and address win over the provider's; sub is the account id.",
      tag,
      auth: 'none',
      body: generateJwtBody,
      response: z.string(),
      responseContentType: 'text/plain',
      errors: [403],
      handle: ({ body }) => tokens.generate(body),
    }),
    defineRoute({
      method: 'post',
      path: REFRESH_PATH,
      operationId: 'refreshJwt',
      summary: 'Renew a session token',
      description: `Needs the session's token (header or cookie ${SESSION_HEADER}), possibly expired, for the userId and orgId given, within Jwt:RefreshDurationInMinutes of the sign-in. Re-reads the permissions; creates and changes nothing. From a browser, only origins in TokenRefresh:AllowedOrigins.`,
      tag,
      auth: 'none',
      body: refreshJwtBody,
      response: z.string(),
      responseContentType: 'text/plain',
      errors: [401, 403],
      handle: ({ request, body }) => tokens.refresh(readSessionToken(request.headers), body),
    }),
    defineRoute({
      method: 'post',
      path: '/apikeyjwt',
      operationId: 'apiKeyJwt',
      summary: 'Exchange an API key for a session token',
      description: `The key is read from header ${API_KEY_HEADER} only. The token is answered in response header ${SESSION_HEADER}. 401 (one body for every cause) for no key, an unknown, revoked or expired key; 500 when the key was accepted but signing failed.`,
      tag,
      auth: 'none',
      requestHeaders: [{ name: API_KEY_HEADER, description: 'The API key to exchange.', required: true }],
      responseHeaders: [
        { name: SESSION_HEADER, description: 'The session token (JWT) the key was exchanged for.' },
      ],
      response: apiKeyTokenView,
      errors: [401],
      handle: async ({ request, response }) => {
        const { token, expiresAt } = await tokens.fromApiKey(requestHeader(request, API_KEY_HEADER));
        response.setHeader(SESSION_HEADER, token);
        return { expiresAt: expiresAt.toISOString() };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/generatejwk/{key}',
      operationId: 'generateJwk',
      summary: 'Generate a signing key pair',
      description:
        'Operational tool: a new RS256 key pair (public PEM, private PEM, public JWK) with the given key id. Stores nothing. One key is made at a time: a call while another is under way is 503 with `Retry-After: 1`.',
      tag,
      auth: 'none',
      params: keyNameParams,
      response: generatedKeyView,
      errors: [503],
      handle: ({ params }) => tokens.generateKeyPair(params.key),
    }),
  ];
}
