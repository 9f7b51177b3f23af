import { createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { TokenSigner } from '../../platform/auth/token-signer.js';
import type { GroupView } from '../../subgraphs/account/groups/group.schemas.js';
import type { UserView } from '../../subgraphs/account/users/user.schemas.js';
import type { HttpClient } from '../support/http-client.js';
import { eventually } from '../support/eventually.js';
import { rsaKeyPair } from '../support/rsa-keys.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { loginToken } from './identity-test-helpers.js';
import { auditEntries } from '../support/audit-log.js';
import { createOrganization } from '../support/factories.js';

const ALLOWED_ORIGIN = 'https://login.example';
const DURATION_MINUTES = 60;
const REFRESH_WINDOW_MINUTES = 120;
const MINUTE = 60_000;

let system: TestSystem;
let identity: HttpClient;
let account: HttpClient;

beforeAll(async () => {
  system = await startTestSystem({
    processes: ['account', 'identity', 'audit'],
    overrides: {
      'Jwt:DurationInMinutes': DURATION_MINUTES,
      'Jwt:RefreshDurationInMinutes': REFRESH_WINDOW_MINUTES,
      'TokenRefresh:AllowedOrigins': ALLOWED_ORIGIN,
    },
  });
  identity = system.client('identity');
  account = system.client('account');
});

afterAll(() => system.stop());

interface Session {
  organizationId: string;
  userId: string;
  token: string;
}

/** An administrator of a new organization who has just signed in. */
async function signIn(): Promise<Session> {
  const domain = `${randomUUID().slice(0, 8)}.example`;
  const organization = await createOrganization(system, {
    name: `Refresh Org ${domain}`,
    adminEmails: [`admin@${domain}`],
  });
  const token = await loginToken(system, { orgId: organization.id, email: `admin@${domain}`, name: 'Admin' });
  return { organizationId: organization.id, userId: decodeJwt(token).sub!, token };
}

const refresh = (
  session: Session,
  options: { token?: string; headers?: Record<string, string>; body?: unknown } = {},
) =>
  identity.post<string>('/refreshjwt', {
    token: options.token ?? session.token,
    headers: options.headers,
    body: options.body ?? { userId: session.userId, orgId: session.organizationId },
  });

describe('spec 4.3: POST /refreshjwt renews the presented session for the userId and orgId of the body', () => {
  it('renews a token sent in header x-svc-auth: same account, organization, name and sign-in time, issued now', async () => {
    const session = await signIn();
    system.clock.advance(5 * MINUTE);
    const response = await refresh(session);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const before = decodeJwt(session.token);
    const after = decodeJwt(response.text);
    expect(after).toMatchObject({
      sub: session.userId,
      org: session.organizationId,
      name: before.name,
      email: before.email,
      auth_time: before.auth_time,
      iss: system.settings.jwt.issuer,
      aud: system.settings.jwt.audience,
    });
    expect(after.iat).toBe(Math.floor(system.clock.now().getTime() / 1000));
    expect(after.iat).toBeGreaterThan(before.iat!);
    expect(after.exp).toBe(after.iat! + DURATION_MINUTES * 60);
    expect((await account.get('/users/me', { token: response.text })).status).toBe(200);
  });

  it('renews a token sent in the x-svc-auth cookie', async () => {
    const session = await signIn();
    const response = await identity.post<string>('/refreshjwt', {
      headers: { cookie: `x-svc-auth=${session.token}` },
      body: { userId: session.userId, orgId: session.organizationId },
    });
    expect(response.status).toBe(200);
    expect(decodeJwt(response.text).sub).toBe(session.userId);
  });

  it('no token is 401', async () => {
    const session = await signIn();
    const response = await identity.post('/refreshjwt', {
      body: { userId: session.userId, orgId: session.organizationId },
    });
    expect(response.status).toBe(401);
  });

  it('a token the system did not sign is 401', async () => {
    const session = await signIn();
    const keys = rsaKeyPair();
    const forged = await new TokenSigner(
      {
        privateKey: createPrivateKey(keys.privateKey),
        publicKey: createPublicKey(keys.publicKey),
        keyId: 'x',
      },
      system.settings.jwt,
    ).sign({ sub: session.userId, org: session.organizationId, permissions: [] }, system.clock.now());
    expect((await refresh(session, { token: forged })).status).toBe(401);
  });

  it('a body naming another account is 403', async () => {
    const session = await signIn();
    const response = await refresh(session, {
      body: { userId: randomUUID(), orgId: session.organizationId },
    });
    expect(response.status).toBe(403);
  });

  it('a body naming another organization is 403, even one the account could sign in to', async () => {
    const session = await signIn();
    const other = await signIn();
    const response = await refresh(session, {
      body: { userId: session.userId, orgId: other.organizationId },
    });
    expect(response.status).toBe(403);
  });

  it.each([
    [{ orgId: randomUUID() }, 'body.userId'],
    [{ userId: 'me', orgId: randomUUID() }, 'body.userId'],
    [{ userId: randomUUID() }, 'body.orgId'],
  ])('a bad body %j is 400 naming %s', async (body, field) => {
    const session = await signIn();
    const response = await refresh(session, { body });
    expect(response.status).toBe(400);
    expect(response.text).toContain(field);
  });

  it('an account that no longer exists is 401', async () => {
    const session = await signIn();
    const admin = await system.token({ organizationId: session.organizationId, permissions: ['UserDelete'] });
    expect((await account.delete(`/users/${session.userId}`, { token: admin })).status).toBe(200);
    expect((await refresh(session)).status).toBe(401);
  });
  it('a session of an organization disabled since its sign-in is no longer renewed (401)', async () => {
    const session = await signIn();
    const global = await system.token({
      permissions: ['GlobalOrganizationRead', 'GlobalOrganizationUpdate'],
    });
    const organization = await account.get<{ name: string; adminEmails: string[] }>(
      `/organizations/${session.organizationId}`,
      { token: global },
    );
    const disabled = await account.put(`/organizations/${session.organizationId}`, {
      token: global,
      body: { name: organization.body.name, adminEmails: organization.body.adminEmails, active: false },
    });
    expect(disabled.status).toBe(200);
    expect((await refresh(session)).status).toBe(401);
  });
});

describe('spec 4.3 / 5.6: a refresh re-reads the permissions, and creates and changes nothing', () => {
  it("the renewed token carries the account's permissions as they are now, after a change of its groups", async () => {
    const session = await signIn();
    expect(decodeJwt(session.token).permissions).toContain('UserDelete');
    const readers = await account.post<GroupView>('/groups', {
      token: session.token,
      body: { name: 'Readers', permissions: ['UserList', 'UserRead'] },
    });
    expect(readers.status).toBe(200);
    const moved = await account.put<UserView>(`/users/${session.userId}/groups`, {
      token: session.token,
      body: { groupIds: [readers.body.id] },
    });
    expect(moved.status).toBe(200);
    // The presented token still says what it said when it was minted.
    expect(decodeJwt(session.token).permissions).toContain('UserDelete');

    const renewed = await refresh(session);
    expect(renewed.status).toBe(200);
    expect([...(decodeJwt(renewed.text).permissions as string[])].sort()).toEqual(['UserList', 'UserRead']);
  });

  it('accounts, groups, keys and the organization are the same before and after', async () => {
    const session = await signIn();
    const reader = await system.token({
      organizationId: session.organizationId,
      permissions: ['UserList', 'UserRead', 'GlobalOrganizationRead'],
    });
    const snapshot = async () => ({
      users: (await account.get('/users', { token: reader })).body,
      groups: (await account.get('/groups', { token: reader })).body,
      keys: (await account.get(`/users/${session.userId}/apikeys`, { token: reader })).body,
      organization: (await account.get(`/organizations/${session.organizationId}`, { token: reader })).body,
    });
    expect(
      (await account.post('/users/me/apikeys', { token: session.token, body: { expiry: 'OneDay' } })).status,
    ).toBe(201);
    const before = await snapshot();
    system.clock.advance(MINUTE);
    expect((await refresh(session)).status).toBe(200);
    expect((await refresh(session)).status).toBe(200);
    expect(await snapshot()).toEqual(before);
  });
});

describe('spec 5.6 / 8: a session can be renewed for RefreshDurationInMinutes from its sign-in', () => {
  it('an expired token within the refresh window still refreshes', async () => {
    const session = await signIn();
    system.clock.advance((DURATION_MINUTES + 1) * MINUTE);
    // It is expired: the services refuse it.
    expect((await account.get('/users/me', { token: session.token })).status).toBe(401);
    const renewed = await refresh(session);
    expect(renewed.status).toBe(200);
    expect((await account.get('/users/me', { token: renewed.text })).status).toBe(200);
  });

  it('past RefreshDurationInMinutes from the sign-in it is 401', async () => {
    const session = await signIn();
    system.clock.advance((REFRESH_WINDOW_MINUTES + 1) * MINUTE);
    expect((await refresh(session)).status).toBe(401);
  });

  it('the window counts from the original sign-in, not from the last refresh', async () => {
    const session = await signIn();
    system.clock.advance(100 * MINUTE);
    const first = await refresh(session);
    expect(first.status).toBe(200);
    system.clock.advance(19 * MINUTE); // 119 minutes after sign-in
    const second = await refresh(session, { token: first.text });
    expect(second.status).toBe(200);
    expect(decodeJwt(second.text).auth_time).toBe(decodeJwt(session.token).auth_time);
    system.clock.advance(2 * MINUTE); // 121 minutes after sign-in; the last token is two minutes old
    expect((await account.get('/users/me', { token: second.text })).status).toBe(200);
    expect((await refresh(session, { token: second.text })).status).toBe(401);
  });
});

describe('decisions "Renewal": a service account signs in only with its keys, so its sessions are not renewed', () => {
  /** A key minted by the session's administrator, exchanged for a session of the key's account. */
  async function keySession(
    session: Session,
    path: string,
    expiry: string,
  ): Promise<Session & { keyId: number }> {
    const key = await account.post<{ id: number; apiKey: string }>(path, {
      token: session.token,
      body: { description: 'refresh test', expiry },
    });
    expect(key.status).toBe(201);
    const exchanged = await identity.post('/apikeyjwt', { headers: { 'x-svc-api': key.body.apiKey } });
    expect(exchanged.status).toBe(200);
    const token = exchanged.headers.get('x-svc-auth')!;
    return {
      organizationId: session.organizationId,
      userId: decodeJwt(token).sub!,
      token,
      keyId: key.body.id,
    };
  }

  it("a service account's session from a OneHour key is refused (401), before and after the key is revoked and the token expired", async () => {
    const session = await signIn();
    const robot = await account.post<UserView>('/users', {
      token: session.token,
      body: {
        name: 'Refresh Robot',
        email: `robot-${randomUUID().slice(0, 8)}@robots.example`,
        serviceAccount: true,
      },
    });
    expect(robot.status).toBe(200);
    const machine = await keySession(session, `/users/${robot.body.id}/apikeys`, 'OneHour');
    expect(machine.userId).toBe(robot.body.id);

    // Refused while the key is still valid: a key-only account renews by exchanging its key again.
    const early = await refresh(machine);
    expect(early.status).toBe(401);
    expect(early.text).toContain('service account');

    const revoked = await account.delete(`/users/${robot.body.id}/apikeys/${machine.keyId}`, {
      token: session.token,
    });
    expect(revoked.status).toBe(204);
    system.clock.advance((DURATION_MINUTES + 1) * MINUTE);
    expect((await account.get('/users/me', { token: machine.token })).status).toBe(401);
    const late = await refresh(machine);
    expect(late.status).toBe(401);
  });

  it("a person's session from their own key is renewed like their login (same account)", async () => {
    const session = await signIn();
    const personal = await keySession(session, '/users/me/apikeys', 'OneDay');
    expect(personal.userId).toBe(session.userId);
    system.clock.advance(5 * MINUTE);
    const renewed = await refresh(personal);
    expect(renewed.status).toBe(200);
    expect(decodeJwt(renewed.text)).toMatchObject({ sub: session.userId, org: session.organizationId });
  });
});

describe('spec 5.7: from a browser, only origins in TokenRefresh:AllowedOrigins may refresh', () => {
  it('an allowed Origin gets Access-Control-Allow-Origin with credentials', async () => {
    const session = await signIn();
    const response = await refresh(session, { headers: { origin: ALLOWED_ORIGIN } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('vary')).toMatch(/origin/i);
  });

  it('the preflight from an allowed Origin is 204 with the allowed method and headers', async () => {
    const response = await identity.request('OPTIONS', '/refreshjwt', {
      headers: {
        origin: ALLOWED_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-svc-auth',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-methods')).toMatch(/\bPOST\b/);
    const allowedHeaders = response.headers.get('access-control-allow-headers')!.toLowerCase();
    expect(allowedHeaders).toContain('content-type');
    expect(allowedHeaders).toContain('x-svc-auth');
  });

  it.each(['https://evil.example', 'https://login.example.evil.example', 'http://login.example', 'null'])(
    'another Origin (%s) is 403 on POST, without CORS headers and without a token',
    async (origin) => {
      const session = await signIn();
      const response = await refresh(session, { headers: { origin } });
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    },
  );

  it('another Origin is 403 on the preflight, without CORS headers', async () => {
    const response = await identity.request('OPTIONS', '/refreshjwt', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
  });
});

describe('spec 6: a refresh writes a JWTRefresh entry', () => {
  it("writes JWTRefresh / Refresh in the session's organization, logged by its account", async () => {
    const session = await signIn();
    expect((await refresh(session)).status).toBe(200);
    await eventually(async () => {
      const entries = await auditEntries(system, session.organizationId, [
        { field: 'EntryType', value: 'JWTRefresh' },
        { field: 'EntityId', value: session.userId },
      ]);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        action: 'Refresh',
        organizationId: session.organizationId,
        loggedBy: session.userId,
      });
    });
  });
});
