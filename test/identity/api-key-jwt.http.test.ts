import { createHash, createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { TokenSigner } from '../../platform/auth/token-signer.js';
import type { ApiKeyCreatedView } from '../../subgraphs/account/api-keys/api-key.schemas.js';
import type { UserView } from '../../subgraphs/account/users/user.schemas.js';
import type { HttpClient } from '../support/http-client.js';
import { eventually } from '../support/eventually.js';
import { rsaKeyPair } from '../support/rsa-keys.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { loginToken } from './identity-test-helpers.js';
import { GLOBAL_ORGANIZATION, auditEntries } from '../support/audit-log.js';
import { createOrganization } from '../support/factories.js';

let system: TestSystem;
let identity: HttpClient;
let account: HttpClient;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'identity', 'audit'] });
  identity = system.client('identity');
  account = system.client('account');
});

afterAll(() => system.stop());

const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

/** A person who signed in (an administrator of a new organization), with the login token. */
async function signedIn(): Promise<{ organizationId: string; accountId: string; loginToken: string }> {
  const domain = `${randomUUID().slice(0, 8)}.example`;
  const organization = await createOrganization(system, {
    name: unique('Key Org'),
    adminEmails: [`admin@${domain}`],
  });
  const token = await loginToken(system, { orgId: organization.id, email: `admin@${domain}`, name: 'Admin' });
  return { organizationId: organization.id, accountId: decodeJwt(token).sub!, loginToken: token };
}

async function ownKey(token: string, expiry = 'OneDay'): Promise<ApiKeyCreatedView> {
  const response = await account.post<ApiKeyCreatedView>('/users/me/apikeys', {
    token,
    body: { description: 'test', expiry },
  });
  expect(response.status).toBe(201);
  return response.body;
}

const exchange = (key: string | undefined, headers: Record<string, string> = {}) =>
  identity.post('/apikeyjwt', { headers: key === undefined ? headers : { ...headers, 'x-svc-api': key } });

describe('spec 4.3 / 5.2 / 5.3: POST /apikeyjwt reads the key from header x-svc-api only and answers the token in header x-svc-auth', () => {
  let key: string;

  beforeAll(async () => {
    key = (await ownKey((await signedIn()).loginToken)).apiKey;
  });

  it('answers 200 with the token in response header x-svc-auth', async () => {
    const response = await exchange(key);
    expect(response.status).toBe(200);
    const token = response.headers.get('x-svc-auth');
    expect(token).toBeTruthy();
    expect(decodeProtectedHeader(token!).alg).toBe('RS256');
    // The body names when the token expires (to the second: exp is in whole seconds).
    const { expiresAt } = response.body as { expiresAt: string };
    expect(Math.floor(Date.parse(expiresAt) / 1000)).toBe(decodeJwt(token!).exp);
  });

  it('a cookie named x-svc-api is not read: 401', async () => {
    const response = await exchange(undefined, { cookie: `x-svc-api=${key}` });
    expect(response.status).toBe(401);
    expect(response.headers.get('x-svc-auth')).toBeNull();
  });

  it.each([[{ apiKey: 'KEY' }], [{ 'x-svc-api': 'KEY' }], [{ key: 'KEY' }]])(
    'the key in the body %j is not read: 401',
    async (shape) => {
      const body = JSON.parse(JSON.stringify(shape).replace('KEY', key)) as Record<string, string>;
      const response = await identity.post('/apikeyjwt', { body });
      expect(response.status).toBe(401);
      expect(response.headers.get('x-svc-auth')).toBeNull();
    },
  );

  it('the key in the query string is not read: 401', async () => {
    const response = await identity.post(`/apikeyjwt?x-svc-api=${encodeURIComponent(key)}`);
    expect(response.status).toBe(401);
  });

  it('the Authorization header is not read: 401', async () => {
    const response = await exchange(undefined, { authorization: `Bearer ${key}` });
    expect(response.status).toBe(401);
  });
});

describe('spec 4.3 / 5.12 / 3: no key, an unknown, a revoked and an expired key are the same 401, byte for byte', () => {
  it('answers 401 with one body for every cause, and no token', async () => {
    const person = await signedIn();
    const revoked = await ownKey(person.loginToken, 'OneDay');
    const expiring = await ownKey(person.loginToken, 'OneHour');
    // Both work before they are revoked or expire.
    expect((await exchange(revoked.apiKey)).status).toBe(200);
    expect((await exchange(expiring.apiKey)).status).toBe(200);
    expect(
      (await account.delete(`/users/me/apikeys/${revoked.id}`, { token: person.loginToken })).status,
    ).toBe(204);
    system.clock.advance(61 * 60_000);

    const answers = {
      none: await exchange(undefined),
      empty: await exchange(''),
      unknown: await exchange(`svc_${randomUUID()}`),
      revoked: await exchange(revoked.apiKey),
      expired: await exchange(expiring.apiKey),
    };
    for (const answer of Object.values(answers)) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(answer.headers.get('x-svc-auth')).toBeNull();
      expect(answer.text).toBe(answers.none.text);
    }
    const problem = answers.none.body as { status: number; title: unknown; detail: unknown };
    expect(problem.status).toBe(401);
    expect(typeof problem.title).toBe('string');
    expect(typeof problem.detail).toBe('string');
  });
});

describe('spec 4.3 / 5.5: a token minted from a key is indistinguishable from a login token of the same account', () => {
  it('carries exactly the same claims, header and lifetime as the login token', async () => {
    const person = await signedIn();
    const key = await ownKey(person.loginToken);
    // Both minted at the same moment of the system's clock.
    const fromLogin = person.loginToken;
    const fromKey = (await exchange(key.apiKey)).headers.get('x-svc-auth')!;
    const login = decodeJwt(fromLogin);
    const minted = decodeJwt(fromKey);
    expect(Object.keys(minted).sort()).toEqual(Object.keys(login).sort());
    expect(minted.exp! - minted.iat!).toBe(login.exp! - login.iat!);
    expect(minted.exp! - minted.iat!).toBe(system.settings.jwt.durationInMinutes * 60);
    const { iat: _li, exp: _le, auth_time: _la, ...loginRest } = login;
    const { iat: _mi, exp: _me, auth_time: _ma, ...mintedRest } = minted;
    expect(mintedRest).toEqual(loginRest);
    expect(minted).toMatchObject({
      sub: person.accountId,
      org: person.organizationId,
      iss: system.settings.jwt.issuer,
      aud: system.settings.jwt.audience,
    });
    expect(decodeProtectedHeader(fromKey)).toEqual(decodeProtectedHeader(fromLogin));
  });

  it("names the key's account and organization whatever else the request says", async () => {
    const person = await signedIn();
    const key = await ownKey(person.loginToken);
    const otherOrganization = randomUUID();
    const otherAccount = randomUUID();
    const otherToken = await system.token({
      organizationId: otherOrganization,
      accountId: otherAccount,
      permissions: ['GlobalOrganizationList', 'PermissionsAllGlobal'],
    });
    const response = await identity.post('/apikeyjwt', {
      headers: {
        'x-svc-api': key.apiKey,
        'x-svc-auth': otherToken,
        'x-svc-org': otherOrganization,
        cookie: `x-svc-auth=${otherToken}`,
      },
      body: { userId: otherAccount, orgId: otherOrganization, sub: otherAccount, org: otherOrganization },
    });
    expect(response.status).toBe(200);
    const claims = decodeJwt(response.headers.get('x-svc-auth')!);
    expect(claims.sub).toBe(person.accountId);
    expect(claims.org).toBe(person.organizationId);
    expect(claims.permissions).not.toContain('GlobalOrganizationList');
    expect(claims.permissions).not.toContain('PermissionsAllGlobal');
    expect(claims.permissions).toEqual(decodeJwt(person.loginToken).permissions);
  });
});

describe('spec 6: key exchanges write audit entries', () => {
  it('a refused key writes a global ApiKeyDenied entry that names a prefix of its hash, never the key', async () => {
    const key = `svc_${randomUUID()}`;
    expect((await exchange(key)).status).toBe(401);
    const prefix = createHash('sha256').update(key).digest('hex').slice(0, 12);
    await eventually(async () => {
      const entries = await auditEntries(system, randomUUID(), [
        { field: 'Action', value: 'ApiKeyDenied' },
        { field: 'EntityId', value: prefix },
      ]);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        entryType: 'JWT',
        entityName: 'UserApiKey',
        organizationId: GLOBAL_ORGANIZATION,
      });
      expect(JSON.stringify(entries[0])).not.toContain(key);
    });
  });

  it('a request without a key writes a global ApiKeyDenied entry too', async () => {
    // A moment of the clock no other entry has, to tell this entry from those of earlier tests.
    system.clock.advance(1_234);
    const loggedAt = system.clock.now().toISOString();
    expect((await exchange(undefined)).status).toBe(401);
    await eventually(async () => {
      const entries = await auditEntries(system, randomUUID(), [
        { field: 'Action', value: 'ApiKeyDenied' },
        { field: 'LoggedAt', value: loggedAt },
      ]);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ organizationId: GLOBAL_ORGANIZATION, entityId: '' });
    });
  });

  it("an accepted key writes a JWT Create entry in the key's organization, logged by its account", async () => {
    const person = await signedIn();
    const key = await ownKey(person.loginToken);
    expect((await exchange(key.apiKey)).status).toBe(200);
    await eventually(async () => {
      const entries = await auditEntries(system, person.organizationId, [
        { field: 'EntryType', value: 'JWT' },
        { field: 'Action', value: 'Create' },
        { field: 'EntityId', value: person.accountId },
      ]);
      // One for the login, one for the key.
      expect(entries).toHaveLength(2);
      expect(entries.map((e) => (JSON.parse(e.afterState!) as { via: string }).via).sort()).toEqual([
        'apiKey',
        'login',
      ]);
      for (const entry of entries) {
        expect(entry).toMatchObject({ organizationId: person.organizationId, loggedBy: person.accountId });
      }
    });
  });
});

describe('spec 4.3 / 5.12: a key that is accepted but cannot be signed for is 500, never 401', () => {
  // The identity service of this system holds only the public key (Jwt:PublicKey without
  // Jwt:PrivateKey, a verify-only deployment): every key check passes, signing cannot.
  const BOOTSTRAP_KEY = 'bootstrap-key-of-the-verify-only-system-0123456789';
  const keys = rsaKeyPair();
  let verifyOnly: TestSystem;
  /** Signs with the private half of the configured public key, as the identity service of a full deployment would. */
  let signer: TokenSigner;

  beforeAll(async () => {
    verifyOnly = await startTestSystem({
      processes: ['account', 'identity', 'audit'],
      overrides: {
        'Jwt:PrivateKey': undefined,
        'Jwt:PublicKey': keys.publicKey,
        SVC_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
      },
    });
    const platformKeys = verifyOnly.system.platform!.keys;
    expect(platformKeys.privateKey).toBeUndefined();
    signer = new TokenSigner(
      {
        privateKey: createPrivateKey(keys.privateKey),
        publicKey: createPublicKey(keys.publicKey),
        keyId: platformKeys.keyId,
      },
      verifyOnly.settings.jwt,
    );
  });

  afterAll(() => verifyOnly?.stop());

  const expectSigningFailure = (response: { status: number; text: string; headers: Headers }) => {
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(response.headers.get('x-svc-auth')).toBeNull();
    expect(response.text).not.toMatch(/at .*\.ts|stack/i);
  };

  it('the bootstrap key, accepted, is 500', async () => {
    expectSigningFailure(
      await verifyOnly.client('identity').post('/apikeyjwt', { headers: { 'x-svc-api': BOOTSTRAP_KEY } }),
    );
  });

  it("a service account's key, accepted, is 500", async () => {
    const organizationId = randomUUID();
    const sign = (permissions: string[]) =>
      signer.sign({ sub: randomUUID(), org: organizationId, permissions }, verifyOnly.clock.now());
    const accountClient = verifyOnly.client('account');
    const organization = await accountClient.post<{ id: string }>('/organizations', {
      token: await sign(['GlobalOrganizationCreate']),
      body: { name: 'Verify Only Org' },
    });
    expect(organization.status).toBe(200);
    const admin = await signer.sign(
      {
        sub: randomUUID(),
        org: organization.body.id,
        permissions: ['UserCreate', 'UserRead', 'UserCreateServiceAccountApiKey'],
      },
      verifyOnly.clock.now(),
    );
    const robot = await accountClient.post<UserView>('/users', {
      token: admin,
      body: { name: 'Robot', email: 'robot@verify-only.example', serviceAccount: true },
    });
    expect(robot.status).toBe(200);
    const key = await accountClient.post<ApiKeyCreatedView>(`/users/${robot.body.id}/apikeys`, {
      token: admin,
      body: { expiry: 'OneDay' },
    });
    expect(key.status).toBe(201);
    expectSigningFailure(
      await verifyOnly.client('identity').post('/apikeyjwt', { headers: { 'x-svc-api': key.body.apiKey } }),
    );
  });

  it('a refused key is still 401 there: the key is checked before anything is signed', async () => {
    const response = await verifyOnly
      .client('identity')
      .post('/apikeyjwt', { headers: { 'x-svc-api': `svc_${randomUUID()}` } });
    expect(response.status).toBe(401);
  });
});

describe('issue 13 item 5: the OpenAPI document declares the key header and the token header, so "Try it out" works', () => {
  it('POST /apikeyjwt takes x-svc-api as a required header parameter and answers x-svc-auth as a response header', async () => {
    interface Operation {
      parameters?: { name: string; in: string; required: boolean }[];
      responses: Record<string, { headers?: Record<string, unknown> }>;
    }
    const document = await identity.get<{ paths: Record<string, Record<string, Operation>> }>(
      '/openapi/v1.json',
    );
    const operation = document.body.paths['/apikeyjwt']!.post!;
    expect(operation.parameters).toContainEqual(
      expect.objectContaining({ name: 'x-svc-api', in: 'header', required: true }),
    );
    expect(Object.keys(operation.responses['200']!.headers ?? {})).toEqual(['x-svc-auth']);
  });
});
