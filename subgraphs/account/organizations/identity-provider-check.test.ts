import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { BadRequestError } from '../../../platform/errors/domain-errors.js';
import type { HostResolver, ResolvedAddress } from '../../../platform/http/public-address.js';
import {
  ENTRA_TOKEN_HOST,
  GOOGLE_TOKEN_HOST,
  IdentityProviderCheck,
  MAX_PROVIDER_RESPONSE_BYTES,
  PROVIDER_CHECK_TIMEOUT_MS,
  ProviderResponseTooLargeError,
  buildEntraTokenRequest,
  buildGoogleTokenRequest,
  httpsRequestOptions,
  httpsTransport,
  interpretEntraResponse,
  interpretGoogleResponse,
  isValidEntraTenantId,
  prepareProviderCheck,
  providerInputIssues,
  readLimitedBody,
  type ProviderCheckInput,
  type ProviderCheckResult,
  type ProviderRequest,
  type ProviderResponse,
  type ProviderTransport,
} from './identity-provider-check.js';

const SECRET = 'Zq8~s3cr3t&value=with+odd/chars';
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const ENTRA_CLIENT = '11111111-2222-3333-4444-555555555555';
const GOOGLE_CLIENT = '1234567890-abcdef.apps.googleusercontent.com';

const entra = (overrides: Partial<ProviderCheckInput> = {}): ProviderCheckInput => ({
  provider: 'Entra',
  clientId: ENTRA_CLIENT,
  tenantId: TENANT,
  clientSecret: SECRET,
  ...overrides,
});
const google = (overrides: Partial<ProviderCheckInput> = {}): ProviderCheckInput => ({
  provider: 'Google',
  clientId: GOOGLE_CLIENT,
  clientSecret: SECRET,
  ...overrides,
});

/** A resolver answering the same addresses for any host, recording the hosts it was asked for. */
function fixedResolver(...addresses: string[]): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolver, { asked });
}

interface TransportCall {
  request: ProviderRequest;
  target: ResolvedAddress;
  signal: AbortSignal;
}

/**
 * A transport standing in for the provider: answers `behaviour`, or never answers ('hang'),
 * or never answers and ignores the abort signal too ('hang-ignoring-abort').
 */
function fakeTransport(
  behaviour: ProviderResponse | Error | 'hang' | 'hang-ignoring-abort',
): ProviderTransport & { calls: TransportCall[] } {
  const calls: TransportCall[] = [];
  const transport: ProviderTransport = (request, target, signal) => {
    calls.push({ request, target, signal });
    if (behaviour === 'hang-ignoring-abort') return new Promise<ProviderResponse>(() => undefined);
    if (behaviour === 'hang') {
      return new Promise<ProviderResponse>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      );
    }
    return behaviour instanceof Error ? Promise.reject(behaviour) : Promise.resolve(behaviour);
  };
  return Object.assign(transport, { calls });
}

const json = (status: number, body: unknown): ProviderResponse => ({ status, body: JSON.stringify(body) });

const ENTRA_OK = json(200, {
  token_type: 'Bearer',
  expires_in: 3599,
  access_token: 'eyJ0eXAiOiJKV1Qi.token',
});
const GOOGLE_OK = json(400, { error: 'invalid_grant', error_description: 'Malformed auth code.' });

function entraError(code: number, error = 'invalid_client', description = `AADSTS${code}: Something.`) {
  return json(400, {
    error,
    error_description: `${description}\r\nTrace ID: 0b1c Correlation ID: 9f2e Timestamp: 2024-01-01 00:00:00Z`,
    error_codes: [code],
    trace_id: '0b1c',
  });
}

const entraContext = { clientId: ENTRA_CLIENT, tenantId: TENANT };
const googleContext = { clientId: GOOGLE_CLIENT };

/** Every detail is checked for the secret, raw and encoded. */
function expectNoSecret(result: ProviderCheckResult): void {
  expect(result.detail).not.toContain(SECRET);
  expect(result.detail).not.toContain(encodeURIComponent(SECRET));
  expect(result.detail).not.toContain(new URLSearchParams({ s: SECRET }).toString().slice(2));
}

function checker(
  resolver: HostResolver,
  transport: ProviderTransport,
  timeoutMs = 1000,
): IdentityProviderCheck {
  return new IdentityProviderCheck({ resolver, timeoutMs, transport });
}

const PUBLIC_MICROSOFT = '20.190.160.1';
const PUBLIC_GOOGLE = '142.250.185.74';

describe('spec 4.2 provider check / issue 3: the provider check never connects to a private, loopback or link-local address', () => {
  const refused = ['127.0.0.1', '10.0.0.5', '169.254.169.254', '::1', 'fe80::1', '::ffff:127.0.0.1'];
  const cases = refused.flatMap((address) => [
    ['Entra', address, entra(), ENTRA_TOKEN_HOST] as const,
    ['Google', address, google(), GOOGLE_TOKEN_HOST] as const,
  ]);

  it.each(cases)(
    '%s resolving to %s: valid false, "not public", and the transport is never called',
    async (_provider, address, input, host) => {
      const resolver = fixedResolver(address);
      const transport = fakeTransport(ENTRA_OK);
      const result = await checker(resolver, transport).check(input);
      expect(result.valid).toBe(false);
      expect(result.detail).toMatch(/address of .* is not public/);
      expect(result.detail).toContain(host);
      expect(result.detail).not.toContain(address);
      expect(resolver.asked).toEqual([host]);
      expect(transport.calls).toHaveLength(0);
      expectNoSecret(result);
    },
  );

  it('refuses when any one of several resolved addresses is private, even after public ones', async () => {
    const transport = fakeTransport(ENTRA_OK);
    const result = await checker(
      fixedResolver(PUBLIC_MICROSOFT, '2603:1026::1', '192.168.0.10'),
      transport,
    ).check(entra());
    expect(result).toMatchObject({ valid: false });
    expect(result.detail).toMatch(/not public/);
    expect(transport.calls).toHaveLength(0);
  });

  it('with the production HTTPS transport, starts no HTTP request and opens no socket', async () => {
    const seen: string[] = [];
    const onRequest = (): void => void seen.push('http.client.request.start');
    const onSocket = (): void => void seen.push('net.client.socket');
    subscribe('http.client.request.start', onRequest);
    subscribe('net.client.socket', onSocket);
    try {
      const check = new IdentityProviderCheck({
        resolver: fixedResolver('169.254.169.254'),
        timeoutMs: 1000,
      });
      const results = [await check.check(entra()), await check.check(google())];
      for (const result of results) expect(result.detail).toMatch(/not public/);
    } finally {
      unsubscribe('http.client.request.start', onRequest);
      unsubscribe('net.client.socket', onSocket);
    }
    // The transport tests below show this channel does report the production transport's requests.
    expect(seen).toEqual([]);
  });
});

describe("spec 4.2 provider check / issue 3: the provider check contacts only the provider's own well-known host", () => {
  it('Entra: the host is login.microsoftonline.com whatever the tenant, and the tenant only fills the path', async () => {
    const resolver = fixedResolver(PUBLIC_MICROSOFT);
    const transport = fakeTransport(ENTRA_OK);
    await checker(resolver, transport).check(entra({ tenantId: 'attacker.example.com' }));
    expect(resolver.asked).toEqual([ENTRA_TOKEN_HOST]);
    expect(transport.calls).toHaveLength(1);
    const { request, target } = transport.calls[0]!;
    expect(request).toMatchObject({
      method: 'POST',
      hostname: 'login.microsoftonline.com',
      port: 443,
      path: '/attacker.example.com/oauth2/v2.0/token',
    });
    expect(target).toEqual({ address: PUBLIC_MICROSOFT, family: 4 });
  });

  it('Google: the host is oauth2.googleapis.com, and a tenant is ignored', async () => {
    const resolver = fixedResolver(PUBLIC_GOOGLE);
    const transport = fakeTransport(GOOGLE_OK);
    await checker(resolver, transport).check(google({ tenantId: 'evil.example.com' }));
    expect(resolver.asked).toEqual([GOOGLE_TOKEN_HOST]);
    expect(transport.calls[0]!.request).toMatchObject({
      hostname: 'oauth2.googleapis.com',
      port: 443,
      path: '/token',
    });
    expect(transport.calls[0]!.request.body).not.toContain('evil');
  });

  it('connects to the first vetted address, the one resolvePublicAddress returned', async () => {
    const transport = fakeTransport(ENTRA_OK);
    await checker(fixedResolver('2603:1026:3000::1', PUBLIC_MICROSOFT), transport).check(entra());
    expect(transport.calls[0]!.target).toEqual({ address: '2603:1026:3000::1', family: 6 });
  });

  it('a client ID cannot reach the host or path either (it only travels in the form body)', async () => {
    const transport = fakeTransport(GOOGLE_OK);
    await checker(fixedResolver(PUBLIC_GOOGLE), transport).check(google({ clientId: 'x@evil.com/path?#' }));
    const { request } = transport.calls[0]!;
    expect(request.hostname).toBe(GOOGLE_TOKEN_HOST);
    expect(request.path).toBe('/token');
    expect(new URLSearchParams(request.body).get('client_id')).toBe('x@evil.com/path?#');
  });
});

describe('spec 4.2 provider check / issue 3: the Entra tenant ID is a GUID or a domain name, so it can never change the host or path', () => {
  it.each([
    ['a path', 'evil.com/x'],
    ['user info', 'a@b'],
    ['a host and port', '127.0.0.1:80'],
    ['percent-escapes', '%2e%2e'],
    ['empty', ''],
    ['dot-dot', '..'],
    ['an empty label', 'a..b'],
    ['a leading dot', '.com'],
    ['a trailing dot', 'contoso.com.'],
    ['a label starting with a hyphen', '-contoso.com'],
    ['a label ending with a hyphen', 'contoso-.com'],
    ['a query', 'contoso.com?x=1'],
    ['a fragment', 'contoso.com#x'],
    ['a backslash', 'contoso.com\\x'],
    ['whitespace', ' contoso.com'],
    ['a line break', 'contoso.com\n'],
    ['an IPv4 address', '127.0.0.1'],
    ['the alias common (no single tenant)', 'common'],
    ['the alias organizations', 'organizations'],
    ['a label longer than 63 characters', `${'a'.repeat(64)}.com`],
    ['a GUID with braces', `{${TENANT}}`],
  ])('refuses %s (%j)', (_rule, tenantId) => {
    expect(isValidEntraTenantId(tenantId)).toBe(false);
  });

  it.each([null, undefined, 42, {}])('refuses a non-string (%p)', (tenantId) => {
    expect(isValidEntraTenantId(tenantId)).toBe(false);
  });

  it.each([
    ['a GUID', TENANT],
    ['an upper-case GUID', TENANT.toUpperCase()],
    ['an onmicrosoft.com domain', 'contoso.onmicrosoft.com'],
    ['a verified custom domain', 'contoso.com'],
    ['a punycode domain', 'xn--bcher-kva.example'],
  ])('accepts %s (%s)', (_rule, tenantId) => {
    expect(isValidEntraTenantId(tenantId)).toBe(true);
  });

  it.each(['evil.com/x', 'a@b', '127.0.0.1:80', '%2e%2e', 'common'])(
    'decisions "Identity provider check": check() with tenant %j is a bad request naming tenantId, and contacts nothing',
    async (tenantId) => {
      const resolver = fixedResolver(PUBLIC_MICROSOFT);
      const transport = fakeTransport(ENTRA_OK);
      const checking = checker(resolver, transport).check(entra({ tenantId }));
      await expect(checking).rejects.toBeInstanceOf(BadRequestError);
      await expect(checking).rejects.toMatchObject({
        errors: [{ field: 'tenantId', message: expect.stringMatching(/tenant ID must be/) as unknown }],
      });
      expect(resolver.asked).toEqual([]);
      expect(transport.calls).toEqual([]);
    },
  );

  it.each(['', null, undefined])(
    'decisions "Identity provider check": check() of Entra without a tenant (%p) is a bad request asking for one',
    async (tenantId) => {
      const transport = fakeTransport(ENTRA_OK);
      await expect(
        checker(fixedResolver(PUBLIC_MICROSOFT), transport).check(entra({ tenantId })),
      ).rejects.toMatchObject({
        errors: [{ field: 'tenantId', message: expect.stringMatching(/Enter the tenant ID/) as unknown }],
      });
      expect(transport.calls).toEqual([]);
    },
  );

  it('the request builder refuses an invalid tenant itself, as a backstop', () => {
    expect(() =>
      buildEntraTokenRequest({ clientId: ENTRA_CLIENT, tenantId: 'evil.com/x', clientSecret: SECRET }),
    ).toThrow();
  });
});

describe('spec: Entra credentials are checked with the client-credentials grant', () => {
  it('POSTs the form to https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token', () => {
    const request = buildEntraTokenRequest({
      clientId: ENTRA_CLIENT,
      tenantId: TENANT,
      clientSecret: SECRET,
    });
    expect(request).toMatchObject({
      method: 'POST',
      hostname: 'login.microsoftonline.com',
      port: 443,
      path: `/${TENANT}/oauth2/v2.0/token`,
    });
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers['content-length']).toBe(String(Buffer.byteLength(request.body)));
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: ENTRA_CLIENT,
      client_secret: SECRET,
      scope: 'https://graph.microsoft.com/.default',
    });
  });

  it('encodes a secret with &, = and + so it cannot add form fields', () => {
    const request = buildEntraTokenRequest({
      clientId: ENTRA_CLIENT,
      tenantId: TENANT,
      clientSecret: 'a&grant_type=password+b',
    });
    const form = new URLSearchParams(request.body);
    expect(form.getAll('grant_type')).toEqual(['client_credentials']);
    expect(form.get('client_secret')).toBe('a&grant_type=password+b');
  });
});

describe('spec: Entra answers are interpreted into a result a person can act on', () => {
  it('HTTP 200 with an access token is valid, and the token is not handed back', () => {
    const result = interpretEntraResponse(ENTRA_OK, entraContext);
    expect(result.valid).toBe(true);
    expect(result.detail).toContain(TENANT);
    expect(Object.keys(result).sort()).toEqual(['detail', 'valid']);
    expect(result.detail).not.toContain('eyJ0');
  });

  it('HTTP 200 without an access token is not taken as valid', () => {
    expect(interpretEntraResponse(json(200, { token_type: 'Bearer' }), entraContext)).toMatchObject({
      valid: false,
      detail: expect.stringMatching(/unexpected answer/) as unknown,
    });
  });

  it.each([
    [7000215, /rejected the client secret.*Value, not its Secret ID/],
    [7000222, /client secret has expired.*Create a new client secret/],
    [700016, new RegExp(`Application ${ENTRA_CLIENT} was not found in tenant ${TENANT}`)],
    [90002, new RegExp(`Tenant ${TENANT} was not found`)],
    [900023, /does not accept .* as a tenant/],
    [7000112, /is disabled/],
    [700025, /public client/],
  ])('AADSTS%i gives valid false with a specific detail', (code, detail) => {
    const result = interpretEntraResponse(entraError(code), entraContext);
    expect(result.valid).toBe(false);
    expect(result.detail).toMatch(detail);
    expect(result.detail).toContain(`AADSTS${code}`);
  });

  it('reads the AADSTS code from the description when error_codes is missing', () => {
    const response = json(401, {
      error: 'invalid_client',
      error_description: 'AADSTS7000215: Invalid client secret provided.',
    });
    expect(interpretEntraResponse(response, entraContext).detail).toMatch(/rejected the client secret/);
  });

  it('decisions "Identity provider check": an unknown AADSTS code is named with the error code, never with the provider\'s own words', () => {
    const result = interpretEntraResponse(
      entraError(
        53003,
        'invalid_grant',
        'AADSTS53003: Access has been blocked by Conditional Access policies.',
      ),
      entraContext,
    );
    expect(result.valid).toBe(false);
    expect(result.detail).toBe(
      "Microsoft Entra ID refused the credentials (invalid_grant, AADSTS53003). Look the code up in Microsoft's list of Entra error codes.",
    );
  });

  it('decisions "Identity provider check": an error code outside the known OAuth codes is not repeated', () => {
    const result = interpretEntraResponse(
      entraError(53003, 'whatever the provider says', 'AADSTS53003: x'),
      entraContext,
    );
    expect(result.detail).toContain('an error code this check does not know, AADSTS53003');
    expect(result.detail).not.toContain('whatever');
  });

  it.each([
    ['a server error', { status: 503, body: 'Service Unavailable' }, /temporarily unavailable \(HTTP 503\)/],
    ['throttling', { status: 429, body: '' }, /limiting requests/],
    [
      'a redirect, which is not followed',
      { status: 302, body: '' },
      /redirect \(HTTP 302\), which is not followed/,
    ],
    [
      'an HTML error page',
      { status: 400, body: '<html>Bad Request</html>' },
      /unexpected answer \(HTTP 400\)/,
    ],
    ['a JSON array', { status: 400, body: '[]' }, /unexpected answer/],
  ])('%s is valid false: not checked', (_case, response, detail) => {
    const result = interpretEntraResponse(response, entraContext);
    expect(result.valid).toBe(false);
    expect(result.detail).toMatch(detail);
  });
});

describe('spec: Google credentials are checked by redeeming an obviously invalid authorization code', () => {
  it('POSTs the form to https://oauth2.googleapis.com/token', () => {
    const request = buildGoogleTokenRequest({ clientId: GOOGLE_CLIENT, clientSecret: SECRET });
    expect(request).toMatchObject({
      method: 'POST',
      hostname: 'oauth2.googleapis.com',
      port: 443,
      path: '/token',
    });
    const form = Object.fromEntries(new URLSearchParams(request.body));
    expect(form).toMatchObject({
      grant_type: 'authorization_code',
      client_id: GOOGLE_CLIENT,
      client_secret: SECRET,
    });
    expect(form.code).toMatch(/not-a-real-code/);
    expect(form.redirect_uri).toBeTruthy();
  });

  it('invalid_grant means Google authenticated the client: valid', () => {
    expect(interpretGoogleResponse(GOOGLE_OK, googleContext)).toEqual({
      valid: true,
      detail: 'Google accepted the client ID and secret.',
    });
  });

  it.each([
    [
      'invalid_client, client not found',
      { error: 'invalid_client', error_description: 'The OAuth client was not found.' },
      /does not know the OAuth client .*Check the client ID/,
    ],
    [
      'invalid_client, wrong secret',
      { error: 'invalid_client', error_description: 'Unauthorized' },
      /rejected the client ID or secret.*client secret/,
    ],
    [
      'unauthorized_client',
      { error: 'unauthorized_client', error_description: 'Unauthorized' },
      /Web application/,
    ],
    [
      'deleted_client',
      { error: 'deleted_client', error_description: 'The OAuth client was deleted.' },
      /was deleted/,
    ],
    [
      'disabled_client',
      { error: 'disabled_client', error_description: 'The OAuth client was disabled.' },
      /is disabled/,
    ],
    [
      'invalid_request',
      { error: 'invalid_request', error_description: 'Missing required parameter: code' },
      /^Google could not check the credentials \(invalid_request\)\.$/,
    ],
  ])('%s is valid false', (_case, body, detail) => {
    const result = interpretGoogleResponse(json(401, body), googleContext);
    expect(result.valid).toBe(false);
    expect(result.detail).toMatch(detail);
  });

  it('hints at the shape of a Google client ID when the one given does not have it', () => {
    const result = interpretGoogleResponse(
      json(401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' }),
      { clientId: 'my-client' },
    );
    expect(result.detail).toContain('ends in .apps.googleusercontent.com');
  });

  it.each([
    ['a 200 (no code is ever valid)', json(200, { access_token: 'x' }), /unexpected answer \(HTTP 200\)/],
    ['an error without an error field', json(400, { message: 'nope' }), /unexpected answer/],
    ['a non-JSON body', { status: 400, body: 'Bad Request' }, /unexpected answer/],
    ['an empty body', { status: 400, body: '' }, /unexpected answer/],
    ['a server error', { status: 500, body: '{"error":"internal_failure"}' }, /temporarily unavailable/],
    ['a redirect', { status: 301, body: '' }, /not followed/],
  ])('%s is valid false: not checked', (_case, response, detail) => {
    const result = interpretGoogleResponse(response, googleContext);
    expect(result.valid).toBe(false);
    expect(result.detail).toMatch(detail);
  });
});

describe('spec: the provider check gives up after its timeout and aborts the request', () => {
  it('uses 15 seconds in production', () => {
    expect(PROVIDER_CHECK_TIMEOUT_MS).toBe(15_000);
  });

  it('a provider that never answers gives valid false, and the request is aborted', async () => {
    const transport = fakeTransport('hang');
    const started = Date.now();
    const result = await checker(fixedResolver(PUBLIC_MICROSOFT), transport, 50).check(entra());
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result).toEqual({
      valid: false,
      detail: expect.stringMatching(/Microsoft Entra ID did not answer within 0.05 seconds/) as unknown,
    });
    expect(transport.calls).toHaveLength(1);
    expect(transport.calls[0]!.signal.aborted).toBe(true);
  });

  it('the deadline holds even if a transport ignores the abort signal', async () => {
    const started = Date.now();
    const result = await checker(
      fixedResolver(PUBLIC_GOOGLE),
      fakeTransport('hang-ignoring-abort'),
      50,
    ).check(google());
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.detail).toMatch(/Google did not answer within/);
  });

  it('resolving the host counts against the same deadline', async () => {
    const hangingResolver: HostResolver = () => new Promise<ResolvedAddress[]>(() => undefined);
    const transport = fakeTransport(ENTRA_OK);
    const result = await checker(hangingResolver, transport, 50).check(entra());
    expect(result.detail).toMatch(/did not answer within/);
    expect(transport.calls).toEqual([]);
  });

  it('refuses a timeout that is not a positive number', () => {
    expect(() => new IdentityProviderCheck({ resolver: fixedResolver(), timeoutMs: 0 })).toThrow(RangeError);
    expect(() => new IdentityProviderCheck({ resolver: fixedResolver(), timeoutMs: Number.NaN })).toThrow(
      RangeError,
    );
  });
});

describe('spec 4.2 provider check / issue 3: provider-side failures give valid false with an actionable detail, never an exception', () => {
  it('an unreachable provider', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 20.190.160.1:443'), {
      code: 'ECONNREFUSED',
    });
    const result = await checker(fixedResolver(PUBLIC_MICROSOFT), fakeTransport(refused)).check(entra());
    expect(result).toEqual({
      valid: false,
      detail: expect.stringMatching(
        /could not be reached at login.microsoftonline.com \(ECONNREFUSED\)/,
      ) as unknown,
    });
  });

  it('a TLS failure names its code', async () => {
    const tls = Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
    const result = await checker(fixedResolver(PUBLIC_GOOGLE), fakeTransport(tls)).check(google());
    expect(result.detail).toMatch(/\(CERT_HAS_EXPIRED\)/);
  });

  it('a host that does not resolve', async () => {
    const failing: HostResolver = () =>
      Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
    const result = await checker(failing, fakeTransport(ENTRA_OK)).check(entra());
    expect(result).toEqual({
      valid: false,
      detail: expect.stringMatching(/login.microsoftonline.com could not be resolved/) as unknown,
    });
  });

  it('an oversized answer', async () => {
    const tooLarge = new ProviderResponseTooLargeError(MAX_PROVIDER_RESPONSE_BYTES);
    const result = await checker(fixedResolver(PUBLIC_GOOGLE), fakeTransport(tooLarge)).check(google());
    expect(result.detail).toMatch(/unexpectedly large answer/);
  });

  it('end to end: wrong Entra secret', async () => {
    const result = await checker(fixedResolver(PUBLIC_MICROSOFT), fakeTransport(entraError(7000215))).check(
      entra(),
    );
    expect(result.valid).toBe(false);
    expect(result.detail).toMatch(/AADSTS7000215/);
  });

  it('end to end: good Google credentials', async () => {
    await expect(
      checker(fixedResolver(PUBLIC_GOOGLE), fakeTransport(GOOGLE_OK)).check(google()),
    ).resolves.toEqual({
      valid: true,
      detail: 'Google accepted the client ID and secret.',
    });
  });
});

describe('decisions "Identity provider check": input that cannot be checked is a bad request naming the field, and nobody is contacted', () => {
  it.each([
    [
      'an unknown provider',
      { ...google(), provider: 'Okta' as unknown as 'Google' },
      'provider',
      /must be Entra or Google/,
    ],
    ['a blank client ID', google({ clientId: '  ' }), 'clientId', /Enter the client ID/],
    ['a client ID with a line break', google({ clientId: 'abc\ndef' }), 'clientId', /client ID is not valid/],
    ['an empty secret', google({ clientSecret: '' }), 'clientSecret', /Enter the client secret/],
    [
      'a secret with a line break',
      google({ clientSecret: 'abc\r\n' }),
      'clientSecret',
      /client secret is not valid/,
    ],
    [
      'an Entra client ID that is not a GUID',
      entra({ clientId: 'my-app' }),
      'clientId',
      /Application \(client\) ID/,
    ],
  ])('%s', async (_case, input, field, message) => {
    const resolver = fixedResolver(PUBLIC_GOOGLE);
    const transport = fakeTransport(GOOGLE_OK);
    const expected = { errors: [{ field, message: expect.stringMatching(message) as unknown }] };
    await expect(checker(resolver, transport).check(input)).rejects.toMatchObject(expected);
    expect(resolver.asked).toEqual([]);
    expect(transport.calls).toEqual([]);
    expect(() => prepareProviderCheck(input)).toThrow(BadRequestError);
    expect(providerInputIssues(input)).toEqual(expected.errors);
  });

  it('a stored provider may leave its secret out (the organization keeps the stored one)', () => {
    expect(providerInputIssues({ provider: 'Entra', clientId: ENTRA_CLIENT, tenantId: TENANT })).toEqual([]);
  });
});

describe('spec 4.2 provider check / issue 3: the client secret never appears in a detail', () => {
  it('decisions "Identity provider check": the provider\'s free text is never repeated, so a secret it echoes cannot come back', async () => {
    const echo = json(400, {
      error: SECRET,
      error_description: `Bad secret ${SECRET} / ${encodeURIComponent(SECRET)}`,
    });
    const result = await checker(fixedResolver(PUBLIC_GOOGLE), fakeTransport(echo)).check(google());
    expect(result.detail).toBe(
      'Google could not check the credentials (an error code this check does not know).',
    );
    expectNoSecret(result);
  });

  it('nor from Entra answers', async () => {
    const echo = entraError(99999, 'invalid_client', `AADSTS99999: The secret ${SECRET} is odd.`);
    const result = await checker(fixedResolver(PUBLIC_MICROSOFT), fakeTransport(echo)).check(entra());
    expect(result.detail).not.toContain('is odd');
    expectNoSecret(result);
  });

  it('decisions "Identity provider check": a short secret does not mangle our own words ("Micro[redacted]oft" with secret "s")', async () => {
    const result = await checker(fixedResolver(PUBLIC_MICROSOFT), fakeTransport(entraError(7000215))).check(
      entra({ clientSecret: 's' }),
    );
    expect(result.detail).toMatch(
      /^Microsoft Entra ID rejected the client secret \(AADSTS7000215\)\. Check that/,
    );
    expect(result.detail).not.toContain('redacted');
  });

  it('the transport receives the secret only in the form body', async () => {
    const transport = fakeTransport(ENTRA_OK);
    await checker(fixedResolver(PUBLIC_MICROSOFT), transport).check(entra());
    const { request } = transport.calls[0]!;
    expect(request.path).not.toContain(SECRET);
    expect(JSON.stringify(request.headers)).not.toContain(SECRET);
    expect(new URLSearchParams(request.body).get('client_secret')).toBe(SECRET);
  });
});

describe('spec 4.2 provider check / issue 3: the HTTPS transport connects only to the vetted address, keeping the real host name for TLS', () => {
  /** A TCP server that accepts and records connections and their first bytes, and never answers. */
  async function silentServer(): Promise<{
    port: number;
    received: Buffer[];
    closed: Promise<void>;
    stop: () => Promise<void>;
  }> {
    const received: Buffer[] = [];
    const sockets: Socket[] = [];
    let markClosed: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      socket.on('close', () => markClosed());
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as AddressInfo).port,
      received,
      closed,
      stop: () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        }),
    };
  }

  it('connects to the pinned address without DNS, sends SNI for the real host, and stops on abort', async () => {
    const server = await silentServer();
    const requests: string[] = [];
    const onRequest = (message: unknown): void => {
      const host = (message as { request?: { host?: unknown } }).request?.host;
      requests.push(String(host));
    };
    subscribe('http.client.request.start', onRequest);
    try {
      const request = {
        ...buildEntraTokenRequest({ clientId: ENTRA_CLIENT, tenantId: TENANT, clientSecret: SECRET }),
        // The production request always says 443; only the test points at its own port.
        port: server.port,
      };
      const controller = new AbortController();
      const sending = httpsTransport(request, { address: '127.0.0.1', family: 4 }, controller.signal);
      const outcome = sending.then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      );
      // Wait for the TLS ClientHello, then give up as the deadline would.
      for (let waited = 0; server.received.length === 0 && waited < 5000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      controller.abort();
      await expect(outcome).resolves.toBe('AbortError');
      await server.closed;

      const bytes = Buffer.concat(server.received);
      expect(bytes[0]).toBe(0x16); // a TLS handshake record: this is HTTPS, not plain HTTP
      expect(bytes.includes(Buffer.from('login.microsoftonline.com'))).toBe(true); // SNI names the real host
      expect(bytes.includes(Buffer.from(SECRET))).toBe(false); // nothing is sent before the handshake
      expect(requests).toEqual(['login.microsoftonline.com']); // and the diagnostics channel sees it
    } finally {
      unsubscribe('http.client.request.start', onRequest);
      await server.stop();
    }
  });

  it('pins the lookup to the vetted address, uses no shared agent, and leaves certificate checks on', () => {
    const request = buildGoogleTokenRequest({ clientId: GOOGLE_CLIENT, clientSecret: SECRET });
    const options = httpsRequestOptions(
      request,
      { address: '142.250.185.74', family: 4 },
      new AbortController().signal,
    );
    expect(options).toMatchObject({
      hostname: GOOGLE_TOKEN_HOST,
      servername: GOOGLE_TOKEN_HOST,
      port: 443,
      method: 'POST',
      path: '/token',
      agent: false,
    });
    expect(options.rejectUnauthorized).not.toBe(false);
    expect(options.checkServerIdentity).toBeUndefined();
    expect(options.ca).toBeUndefined();

    const answers: unknown[][] = [];
    const lookup = options.lookup!;
    lookup(GOOGLE_TOKEN_HOST, { all: true }, (...args) => answers.push(args));
    lookup(GOOGLE_TOKEN_HOST, {}, (...args) => answers.push(args));
    lookup('elsewhere.example', { all: true }, (...args) => answers.push(args));
    expect(answers[0]).toEqual([null, [{ address: '142.250.185.74', family: 4 }]]);
    expect(answers[1]).toEqual([null, '142.250.185.74', 4]);
    expect(answers[2]![0]).toBeInstanceOf(Error);
  });

  it('reads an answer up to the limit', async () => {
    await expect(
      readLimitedBody(Readable.from([Buffer.from('{"a":'), Buffer.from('"é"}')]), 64),
    ).resolves.toBe('{"a":"é"}');
  });

  it('stops reading an answer over the limit', async () => {
    const source = Readable.from([Buffer.alloc(40), Buffer.alloc(40)]);
    await expect(readLimitedBody(source, 64)).rejects.toBeInstanceOf(ProviderResponseTooLargeError);
    expect(source.destroyed).toBe(true);
  });

  it('limits answers to 64 KB', () => {
    expect(MAX_PROVIDER_RESPONSE_BYTES).toBe(64 * 1024);
  });
});
