import { randomBytes } from 'node:crypto';
import { PERMISSION_CATALOGUE, type PermissionName } from '../../platform/permissions/catalogue.js';
import type { ApiKeyCreatedView, ApiKeyView } from '../../subgraphs/account/api-keys/api-key.schemas.js';
import type { SessionAccountView, UserView } from '../../subgraphs/account/users/user.schemas.js';
import type { HttpClient, TestResponse } from '../support/http-client.js';
import { eventually } from '../support/eventually.js';
import { TestClock } from '../support/test-clock.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import type { Problem } from '../support/problem.js';
import { onDatabase, sha256Hex } from './account-test-helpers.js';
import { auditEntries, conditionsAbout } from '../support/audit-log.js';
import {
  createGroup,
  createOrganization,
  createUser,
  expectStatus,
  setMembers,
} from '../support/factories.js';

const HOUR = 60 * 60_000;
/** Every permission of the catalogue, global ones included. */
const EVERY_PERMISSION: PermissionName[] = PERMISSION_CATALOGUE.map((p) => p.name);

let system: TestSystem;
let account: HttpClient;
let orgA: string;
let orgB: string;
/** A real account of A that calls the by-id routes. */
let adminA: UserView;
/** A person (not a service account) of A, member of a group holding TagList only. */
let person: UserView;
/** A service account of A, member of a group holding VariableList and VariableRead for set 4. */
let robot: UserView;
let robotB: UserView;

beforeAll(async () => {
  // A fixed start, so month and year arithmetic is unambiguous.
  system = await startTestSystem({
    processes: ['account', 'audit'],
    clock: new TestClock(new Date('2026-01-15T10:00:00.000Z')),
  });
  account = system.client('account');
  orgA = (await createOrganization(system, 'Keys Org A')).id;
  orgB = (await createOrganization(system, 'Keys Org B')).id;
  adminA = await createUser(system, orgA, { name: 'Key Admin' });
  person = await createUser(system, orgA, { name: 'Key Person' });
  robot = await createUser(system, orgA, { name: 'Key Robot', serviceAccount: true });
  robotB = await createUser(system, orgB, { name: 'Key Robot B', serviceAccount: true });
  const people = await createGroup(system, orgA, { name: 'People', permissions: ['TagList'] });
  await setMembers(system, orgA, people.id, [person.id]);
  const robots = await createGroup(system, orgA, {
    name: 'Robots',
    permissions: ['VariableList', 'VariableRead'],
    variableSetIds: [4],
  });
  await setMembers(system, orgA, robots.id, [robot.id]);
});

afterAll(() => system.stop());

/** Tokens are minted per request: the clock moves in this file, and a token lives 60 minutes. */
const personToken = (permissions: PermissionName[]) =>
  system.token({ organizationId: orgA, accountId: person.id, permissions });
const adminToken = (permissions: PermissionName[]) =>
  system.token({ organizationId: orgA, accountId: adminA.id, permissions });
const allBut = (missing: PermissionName) => adminToken(EVERY_PERMISSION.filter((p) => p !== missing));

const mintOwn = async (body: Record<string, unknown> = {}) =>
  expectStatus(
    account.post<ApiKeyCreatedView>('/users/me/apikeys', {
      token: await personToken(['ProfileCreateApiKey', 'ProfileNeverExpiresApiKey']),
      body,
    }),
    201,
  );

const mintFor = async (userId: string, body: Record<string, unknown> = {}, organizationId = orgA) =>
  expectStatus(
    account.post<ApiKeyCreatedView>(`/users/${userId}/apikeys`, {
      token: await system.token({
        organizationId,
        permissions: ['UserCreateServiceAccountApiKey', 'UserRead'],
      }),
      body,
    }),
    201,
  );

const lookup = (key: string): Promise<TestResponse<SessionAccountView & Problem>> =>
  account.post('/apikeys/lookup', { body: { sha: sha256Hex(key) } });

type KeyPage = { total: number; items: ApiKeyView[] };

const ownKeys = async () =>
  (await expectStatus(account.get<KeyPage>('/users/me/apikeys', { token: await personToken([]) }), 200))
    .items;

const keysOf = async (userId: string) =>
  (
    await expectStatus(
      account.get<KeyPage>(`/users/${userId}/apikeys`, { token: await adminToken(['UserRead']) }),
      200,
    )
  ).items;

/** A date moved by whole calendar units in UTC. */
function plus(from: Date, units: { hours?: number; days?: number; months?: number; years?: number }): string {
  return new Date(
    Date.UTC(
      from.getUTCFullYear() + (units.years ?? 0),
      from.getUTCMonth() + (units.months ?? 0),
      from.getUTCDate() + (units.days ?? 0),
      from.getUTCHours() + (units.hours ?? 0),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  ).toISOString();
}

describe('spec 4.2: POST /users/me/apikeys needs ProfileCreateApiKey and answers 201 with the key, shown once', () => {
  it('answers 201 with apiKey, a 4-character hint, description, createdAt and expiresAt (OneHour by default)', async () => {
    const now = system.clock.now();
    const response = await account.post<ApiKeyCreatedView>('/users/me/apikeys', {
      token: await personToken(['ProfileCreateApiKey']),
      body: { description: 'laptop' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      description: 'laptop',
      createdAt: now.toISOString(),
      expiresAt: plus(now, { hours: 1 }),
    });
    expect(typeof response.body.apiKey).toBe('string');
    expect(response.body.apiKey.length).toBeGreaterThanOrEqual(32);
    expect(response.body.hint).toHaveLength(4);
    expect(response.body.apiKey).toContain(response.body.hint);
    expect((await lookup(response.body.apiKey)).status).toBe(200);
  });

  it('is 403 without ProfileCreateApiKey (holding every other permission), and no key is minted', async () => {
    const before = await ownKeys();
    const response = await account.post('/users/me/apikeys', {
      token: await system.token({
        organizationId: orgA,
        accountId: person.id,
        permissions: EVERY_PERMISSION.filter(
          (p) => p !== 'ProfileCreateApiKey' && p !== 'ProfileNeverExpiresApiKey',
        ),
      }),
      body: { description: 'refused' },
    });
    expect(response.status).toBe(403);
    expect(await ownKeys()).toEqual(before);
  });

  it('is 401 without a session', async () => {
    expect((await account.post('/users/me/apikeys', { body: {} })).status).toBe(401);
  });
});

describe('spec 2 API key / spec 8: the expiry date is computed server-side from expiry', () => {
  it.each([
    ['OneHour', { hours: 1 }],
    ['OneDay', { days: 1 }],
    ['OneMonth', { months: 1 }],
    ['OneYear', { years: 1 }],
  ] as const)('%s expires %j after creation, by the system clock', async (expiry, units) => {
    const now = system.clock.now();
    const created = await mintOwn({ expiry });
    expect(created.createdAt).toBe(now.toISOString());
    expect(created.expiresAt).toBe(plus(now, units));
  });

  it('NoExpiry, with ProfileNeverExpiresApiKey, answers expiresAt null', async () => {
    const created = await mintOwn({ expiry: 'NoExpiry' });
    expect(created.expiresAt).toBeNull();
  });

  it('an expiresAt in the body is not taken; an expiry outside the list is 400', async () => {
    const now = system.clock.now();
    const created = await mintOwn({ expiresAt: '2099-01-01T00:00:00.000Z' });
    expect(created.expiresAt).toBe(plus(now, { hours: 1 }));
    const bad = await account.post('/users/me/apikeys', {
      token: await personToken(['ProfileCreateApiKey']),
      body: { expiry: 'OneCentury' },
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('body.expiry');
  });
});

describe('spec 4.2 key creation rule 2: on the own route, NoExpiry without ProfileNeverExpiresApiKey is 400 (not 403) and the message names it', () => {
  it('is 400 naming ProfileNeverExpiresApiKey, and no key is minted', async () => {
    const before = await ownKeys();
    const response = await account.post<Problem>('/users/me/apikeys', {
      token: await personToken(['ProfileCreateApiKey']),
      body: { expiry: 'NoExpiry' },
    });
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain('ProfileNeverExpiresApiKey');
    expect(await ownKeys()).toEqual(before);
  });
});

describe('spec 4.2 key creation rule 1: the key is minted for the account in the token or the path; ownership is never taken from the body', () => {
  it('own route: a userId and organizationId in the body are ignored, the key belongs to the caller', async () => {
    const created = await mintOwn({
      description: 'not for the robot',
      userId: robot.id,
      organizationId: orgB,
    });
    const found = await lookup(created.apiKey);
    expect(found.status).toBe(200);
    expect(found.body.user).toMatchObject({ id: person.id, organizationId: orgA });
    expect((await ownKeys()).map((k) => k.id)).toContain(created.id);
    expect((await keysOf(robot.id)).map((k) => k.id)).not.toContain(created.id);
  });

  it('service-account route: a userId in the body is ignored, the key belongs to the account in the path', async () => {
    const created = await mintFor(robot.id, { description: 'not for the person', userId: person.id });
    const found = await lookup(created.apiKey);
    expect(found.body.user.id).toBe(robot.id);
    expect((await ownKeys()).map((k) => k.id)).not.toContain(created.id);
  });
});

describe('spec 4.2 key creation rule 3: POST /users/{id}/apikeys needs UserCreateServiceAccountApiKey and UserRead; service accounts of the organization only', () => {
  it('is 403 with UserCreateServiceAccountApiKey alone (its dependency UserRead is checked too), and with UserRead alone', async () => {
    const before = await keysOf(robot.id);
    for (const permissions of [['UserCreateServiceAccountApiKey'], ['UserRead']] as PermissionName[][]) {
      const response = await account.post(`/users/${robot.id}/apikeys`, {
        token: await adminToken(permissions),
        body: { description: 'refused' },
      });
      expect(response.status).toBe(403);
    }
    expect(await keysOf(robot.id)).toEqual(before);
  });

  it('answers 201 with UserCreateServiceAccountApiKey and UserRead', async () => {
    const now = system.clock.now();
    const response = await account.post<ApiKeyCreatedView>(`/users/${robot.id}/apikeys`, {
      token: await adminToken(['UserCreateServiceAccountApiKey', 'UserRead']),
      body: { description: 'deployer', expiry: 'OneDay' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ description: 'deployer', expiresAt: plus(now, { days: 1 }) });
    expect(response.body.hint).toHaveLength(4);
  });

  it('a target that is not a service account is 400, even for a caller holding every permission', async () => {
    const response = await account.post(`/users/${person.id}/apikeys`, {
      token: await adminToken(EVERY_PERMISSION),
      body: { description: 'not a robot' },
    });
    expect(response.status).toBe(400);
    expect((await ownKeys()).map((k) => k.description)).not.toContain('not a robot');
  });

  it('a target in another organization is 404 (and gets no key), an unknown one too', async () => {
    const response = await account.post(`/users/${robotB.id}/apikeys`, {
      token: await adminToken(EVERY_PERMISSION),
      body: { description: 'cross-tenant' },
    });
    expect(response.status).toBe(404);
    const keysOfB = await expectStatus(
      account.get<KeyPage>(`/users/${robotB.id}/apikeys`, {
        token: await system.token({ organizationId: orgB, permissions: ['UserRead'] }),
      }),
      200,
    );
    expect(keysOfB.items.map((k) => k.description)).not.toContain('cross-tenant');
    const unknown = await account.post(`/users/00000000-0000-4000-8000-000000000000/apikeys`, {
      token: await adminToken(EVERY_PERMISSION),
      body: {},
    });
    expect(unknown.status).toBe(404);
  });

  it("NoExpiry is checked against the caller's ProfileNeverExpiresApiKey (400 naming it without), not the target's", async () => {
    const refused = await account.post<Problem>(`/users/${robot.id}/apikeys`, {
      token: await adminToken(['UserCreateServiceAccountApiKey', 'UserRead']),
      body: { expiry: 'NoExpiry' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('ProfileNeverExpiresApiKey');

    // The robot's groups hold neither Profile permission; the caller's do.
    const granted = await account.post<ApiKeyCreatedView>(`/users/${robot.id}/apikeys`, {
      token: await adminToken([
        'UserCreateServiceAccountApiKey',
        'UserRead',
        'ProfileCreateApiKey',
        'ProfileNeverExpiresApiKey',
      ]),
      body: { expiry: 'NoExpiry' },
    });
    expect(granted.status).toBe(201);
    expect(granted.body.expiresAt).toBeNull();
  });
});

describe("spec 4.2 key creation rule 5: the key belongs to the target account and carries the permissions of its groups, not the caller's", () => {
  it("a service account's key, minted by a caller holding everything, carries only the service account's groups' permissions", async () => {
    const created = await expectStatus(
      account.post<ApiKeyCreatedView>(`/users/${robot.id}/apikeys`, {
        token: await adminToken(EVERY_PERMISSION),
        body: { description: 'rule 5' },
      }),
      201,
    );
    const found = await lookup(created.apiKey);
    expect(found.status).toBe(200);
    expect(found.body.user).toMatchObject({ id: robot.id, organizationId: orgA, serviceAccount: true });
    expect(found.body.permissions).toEqual(['VariableList', 'VariableRead']);
    expect(found.body.variableSets).toEqual({ VariableList: [4], VariableRead: [4] });
  });

  it("an own key carries the caller's groups' permissions, not what the minting token claimed", async () => {
    const created = await expectStatus(
      account.post<ApiKeyCreatedView>('/users/me/apikeys', {
        token: await personToken(['ProfileCreateApiKey', 'UserDelete', 'AuditList']),
        body: {},
      }),
      201,
    );
    const found = await lookup(created.apiKey);
    expect(found.body.user.id).toBe(person.id);
    expect(found.body.permissions).toEqual(['TagList']);
  });
});

describe('spec 4.2 key creation rule 4: keys are unique across organizations', () => {
  it("a key of organization B cannot become a key of another organization: a start with it as SVC_BOOTSTRAP_API_KEY (the System organization's key) is refused, and it still resolves only to its owner", async () => {
    const key = (await mintFor(robotB.id, { description: 'taken' }, orgB)).apiKey;
    await expect(
      startTestSystem({
        processes: ['account'],
        overrides: { SVC_BOOTSTRAP_API_KEY: key },
        databaseUrl: system.databaseUrl,
      }),
    ).rejects.toThrow(/SVC_BOOTSTRAP_API_KEY: this value is already an API key of an account/);
    const found = await lookup(key);
    expect(found.status).toBe(200);
    expect(found.body.user).toMatchObject({ id: robotB.id, organizationId: orgB });
    // The refused start left nothing behind: no System organization was made.
    const organizations = await expectStatus(
      account.get<{ items: { name: string }[] }>('/organizations', {
        token: await system.token({ permissions: ['GlobalOrganizationList'] }),
      }),
      200,
    );
    expect(organizations.items.map((o) => o.name)).not.toContain('System');
  });
});

describe('decisions "API keys": a lookup finds candidates by the first 16 hex digits of the hash, and the whole hash, compared in constant time, decides', () => {
  it('two stored keys whose hashes share the first 16 hex digits each find their own account; a third hash with that prefix is 404', async () => {
    const hex = (digits: number) => randomBytes(digits / 2).toString('hex');
    const prefix = hex(16);
    const [hashOfPerson, hashOfRobotB, neither] = [hex(48), hex(48), hex(48)].map((rest) => prefix + rest);
    for (const [owner, hash] of [
      [person, hashOfPerson],
      [robotB, hashOfRobotB],
    ] as const) {
      await onDatabase(
        system,
        `insert into "account"."user_api_key"
           (user_id, organization_id, key_hash, key_hash_prefix, hint, description, created_at, expires_at, bootstrap)
         values ($1, $2, $3, $4, 'xxxx', 'crafted', '2000-01-01T00:00:00Z', null, false)`,
        [owner.id, owner.organizationId, hash, prefix],
      );
    }
    const find = (sha: string) => account.post<SessionAccountView>('/apikeys/lookup', { body: { sha } });
    const [forPerson, forRobotB, forNeither] = await Promise.all([
      find(hashOfPerson!),
      find(hashOfRobotB!),
      find(neither!),
    ]);
    expect(forPerson.status).toBe(200);
    expect(forPerson.body.user).toMatchObject({ id: person.id, organizationId: orgA });
    expect(forRobotB.status).toBe(200);
    expect(forRobotB.body.user).toMatchObject({ id: robotB.id, organizationId: orgB });
    expect(forNeither.status).toBe(404);
  });

  it('a hash sharing the first 16 hex digits of a real key but not the rest gives the same 404 as an unknown key', async () => {
    const created = await mintOwn({ description: 'prefix' });
    const hash = sha256Hex(created.apiKey);
    const samePrefix = `${hash.slice(0, 16)}${hash[16] === '0' ? '1' : '0'}${hash.slice(17)}`;
    const near = await account.post<Problem>('/apikeys/lookup', { body: { sha: samePrefix } });
    expect(near.status).toBe(404);
    const unknown = await lookup(`svc_${randomBytes(32).toString('base64url')}`);
    expect(near.body).toEqual(unknown.body);
    const upperCase = await account.post('/apikeys/lookup', { body: { sha: hash.toUpperCase() } });
    expect(upperCase.status).toBe(200);
  });
});

describe('spec 2 API key / spec 4.2: the key lists are newest first and never hold the key or its hash', () => {
  const expectNoSecret = (response: TestResponse<unknown>, keys: string[]) => {
    for (const key of keys) {
      expect(response.text).not.toContain(key);
      expect(response.text.toLowerCase()).not.toContain(sha256Hex(key));
    }
  };

  it('GET /users/me/apikeys needs only a session and answers own keys newest first, each with id, hint, description, createdAt, expiresAt', async () => {
    const first = await mintOwn({ description: 'first' });
    system.clock.advance(60_000);
    const second = await mintOwn({ description: 'second' });
    system.clock.advance(60_000);
    const third = await mintOwn({ description: 'third' });
    const response = await account.get<KeyPage>('/users/me/apikeys', { token: await personToken([]) });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(response.body.items.length);
    expect(response.body.items.slice(0, 3).map((k) => k.id)).toEqual([third.id, second.id, first.id]);
    const createdAts = response.body.items.map((k) => k.createdAt);
    expect(createdAts).toEqual([...createdAts].sort().reverse());
    expect(response.body.items[0]).toMatchObject({
      id: third.id,
      hint: third.hint,
      description: 'third',
      createdAt: third.createdAt,
      expiresAt: third.expiresAt,
    });
    for (const item of response.body.items) {
      expect(Object.keys(item)).toEqual(
        expect.arrayContaining(['id', 'hint', 'description', 'createdAt', 'expiresAt']),
      );
    }
    expectNoSecret(response, [first.apiKey, second.apiKey, third.apiKey]);
  });

  it("GET /users/{id}/apikeys needs UserRead and answers the account's keys newest first, never the key or hash", async () => {
    const older = await mintFor(robot.id, { description: 'older' });
    system.clock.advance(60_000);
    const newer = await mintFor(robot.id, { description: 'newer' });
    const response = await account.get<KeyPage>(`/users/${robot.id}/apikeys`, {
      token: await adminToken(['UserRead']),
    });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(response.body.items.length);
    expect(response.body.items.slice(0, 2).map((k) => k.id)).toEqual([newer.id, older.id]);
    const createdAts = response.body.items.map((k) => k.createdAt);
    expect(createdAts).toEqual([...createdAts].sort().reverse());
    expectNoSecret(response, [older.apiKey, newer.apiKey]);
    expect(
      (await account.get(`/users/${robot.id}/apikeys`, { token: await allBut('UserRead') })).status,
    ).toBe(403);
  });
});

describe('spec 4 / CONTRACT 6: the key lists answer { total, items }, take and skip page them, total is counted before paging, and without take everything is returned', () => {
  it('GET /users/{id}/apikeys pages newest first', async () => {
    const pager = await createUser(system, orgA, { name: 'Key Pager', serviceAccount: true });
    const minted: ApiKeyCreatedView[] = [];
    for (const description of ['oldest', 'middle', 'newest']) {
      minted.push(await mintFor(pager.id, { description }));
      system.clock.advance(60_000);
    }
    const token = await adminToken(['UserRead']);
    const all = await expectStatus(account.get<KeyPage>(`/users/${pager.id}/apikeys`, { token }), 200);
    expect(all.total).toBe(3);
    expect(all.items.map((k) => k.description)).toEqual(['newest', 'middle', 'oldest']);
    const page = await expectStatus(
      account.get<KeyPage>(`/users/${pager.id}/apikeys?take=1&skip=1`, { token }),
      200,
    );
    expect(page).toEqual({ total: 3, items: [all.items[1]] });
    const beyond = await expectStatus(
      account.get<KeyPage>(`/users/${pager.id}/apikeys?skip=3`, { token }),
      200,
    );
    expect(beyond).toEqual({ total: 3, items: [] });
    expect((await account.get(`/users/${pager.id}/apikeys?take=-1`, { token })).status).toBe(400);
  });

  it('GET /users/me/apikeys pages the same way', async () => {
    await mintOwn({ description: 'paged own 1' });
    await mintOwn({ description: 'paged own 2' });
    const token = await personToken([]);
    const all = await expectStatus(account.get<KeyPage>('/users/me/apikeys', { token }), 200);
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(all.items).toHaveLength(all.total);
    const page = await expectStatus(account.get<KeyPage>('/users/me/apikeys?take=1&skip=1', { token }), 200);
    expect(page).toEqual({ total: all.total, items: [all.items[1]] });
  });
});

describe('spec 4.2 / spec 5.13: DELETE /users/me/apikeys/{id} needs no permission and answers 204', () => {
  it('revokes an own key with a session holding no permission; the key no longer resolves', async () => {
    const created = await mintOwn({ description: 'to revoke' });
    const response = await account.delete(`/users/me/apikeys/${created.id}`, {
      token: await personToken([]),
    });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await lookup(created.apiKey)).status).toBe(404);
    expect((await ownKeys()).map((k) => k.id)).not.toContain(created.id);
  });

  it("another account's key cannot be revoked through the me route (404), even holding every permission, and it still resolves", async () => {
    const robotKey = await mintFor(robot.id, { description: 'not yours' });
    const response = await account.delete(`/users/me/apikeys/${robotKey.id}`, {
      token: await system.token({
        organizationId: orgA,
        accountId: person.id,
        permissions: EVERY_PERMISSION,
      }),
    });
    expect(response.status).toBe(404);
    expect((await lookup(robotKey.apiKey)).status).toBe(200);
  });

  it('an unknown key id is 404', async () => {
    expect((await account.delete('/users/me/apikeys/999999', { token: await personToken([]) })).status).toBe(
      404,
    );
  });

  it('a key id that is not plain decimal digits is 400 naming path.id, and the key stays', async () => {
    const created = await mintOwn({ description: 'kept' });
    const response = await account.delete(`/users/me/apikeys/${created.id}.0`, {
      token: await personToken([]),
    });
    expect(response.status).toBe(400);
    expect(response.text).toContain('path.id');
    expect((await lookup(created.apiKey)).status).toBe(200);
  });
});

describe('spec 4.2 / spec 5.13: DELETE /users/{id}/apikeys/{apiKeyId} needs UserDelete and answers 204', () => {
  it('is 403 without UserDelete, and the key still resolves', async () => {
    const created = await mintFor(robot.id, { description: 'guarded' });
    const response = await account.delete(`/users/${robot.id}/apikeys/${created.id}`, {
      token: await allBut('UserDelete'),
    });
    expect(response.status).toBe(403);
    expect((await lookup(created.apiKey)).status).toBe(200);
  });

  it('revokes with UserDelete alone: 204, and the key no longer resolves nor is listed', async () => {
    const created = await mintFor(robot.id, { description: 'revoked by admin' });
    const response = await account.delete(`/users/${robot.id}/apikeys/${created.id}`, {
      token: await adminToken(['UserDelete']),
    });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await lookup(created.apiKey)).status).toBe(404);
    expect((await keysOf(robot.id)).map((k) => k.id)).not.toContain(created.id);
  });

  it("a key named under another account's path is 404, and it still resolves", async () => {
    const created = await mintFor(robot.id, { description: 'wrong path' });
    const response = await account.delete(`/users/${person.id}/apikeys/${created.id}`, {
      token: await adminToken(['UserDelete']),
    });
    expect(response.status).toBe(404);
    expect((await lookup(created.apiKey)).status).toBe(200);
  });
});

describe('spec 4.2: POST /apikeys/lookup is anonymous; unknown, revoked and expired keys give the same 404', () => {
  it('answers the account with its permissions without a session', async () => {
    const created = await mintOwn();
    const response = await account.post<SessionAccountView>('/apikeys/lookup', {
      body: { sha: sha256Hex(created.apiKey) },
    });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ id: person.id, organizationId: orgA, name: person.name });
    expect(response.body.permissions).toEqual(['TagList']);
  });

  it('an unknown key and a revoked key give the same 404, with the same body', async () => {
    const unknown = await lookup(`svc_${randomBytes(32).toString('base64url')}`);
    expect(unknown.status).toBe(404);
    const created = await mintOwn();
    await expectStatus(
      account.delete(`/users/me/apikeys/${created.id}`, { token: await personToken([]) }),
      204,
    );
    const revoked = await lookup(created.apiKey);
    expect(revoked.status).toBe(404);
    expect(revoked.body).toEqual(unknown.body);
  });

  it('a key of an account that was deleted gives the same 404', async () => {
    const doomed = await createUser(system, orgA, { name: 'Doomed Robot', serviceAccount: true });
    const created = await mintFor(doomed.id);
    expect((await lookup(created.apiKey)).status).toBe(200);
    await expectStatus(
      account.delete(`/users/${doomed.id}`, { token: await adminToken(['UserDelete']) }),
      200,
    );
    const gone = await lookup(created.apiKey);
    expect(gone.status).toBe(404);
    const unknown = await lookup(`svc_${randomBytes(32).toString('base64url')}`);
    expect(gone.body).toEqual(unknown.body);
  });

  it('takes the hash, not the key: the key itself or anything not a hex SHA-256 does not resolve', async () => {
    const created = await mintOwn();
    const raw = await account.post('/apikeys/lookup', { body: { sha: created.apiKey } });
    expect(raw.status).toBe(400);
    expect((await account.post('/apikeys/lookup', { body: {} })).status).toBe(400);
  });
});

describe('spec 3: expiry is a state: a key past expiresAt no longer resolves (404, as an unknown key) and lists mark it expired', () => {
  it('a OneHour key resolves, and 61 minutes later gives the same 404 as an unknown key; a OneDay key still resolves', async () => {
    const hourKey = await mintOwn({ description: 'one hour', expiry: 'OneHour' });
    const dayKey = await mintOwn({ description: 'one day', expiry: 'OneDay' });
    expect((await lookup(hourKey.apiKey)).status).toBe(200);
    expect((await ownKeys()).find((k) => k.id === hourKey.id)).toMatchObject({ expired: false });

    system.clock.advance(61 * 60_000);

    const expired = await lookup(hourKey.apiKey);
    expect(expired.status).toBe(404);
    const unknown = await lookup(`svc_${randomBytes(32).toString('base64url')}`);
    expect(expired.body).toEqual(unknown.body);
    expect((await lookup(dayKey.apiKey)).status).toBe(200);

    const listed = await ownKeys();
    expect(listed.find((k) => k.id === hourKey.id)).toMatchObject({ expired: true });
    expect(listed.find((k) => k.id === dayKey.id)).toMatchObject({ expired: false });
    const robotListed = await keysOf(robot.id);
    expect(
      robotListed.every(
        (k) => k.expired === (k.expiresAt !== null && k.expiresAt <= system.clock.now().toISOString()),
      ),
    ).toBe(true);
  });

  it('spec 3: the owner may still remove an expired key (204)', async () => {
    const hourKey = await mintOwn({ description: 'expires then removed' });
    system.clock.advance(HOUR + 60_000);
    expect((await ownKeys()).find((k) => k.id === hourKey.id)).toMatchObject({ expired: true });
    const response = await account.delete(`/users/me/apikeys/${hourKey.id}`, {
      token: await personToken([]),
    });
    expect(response.status).toBe(204);
    expect((await ownKeys()).map((k) => k.id)).not.toContain(hourKey.id);
  });
});

describe("spec 6: revoking another account's key through DELETE /users/{id}/apikeys/{apiKeyId} writes a UserApiKey Delete entry", () => {
  it("logged by the revoking account, in its organization, with the key's state (and its owner) before", async () => {
    const created = await mintFor(robot.id, { description: 'revoked, audited' });
    await expectStatus(
      account.delete(`/users/${robot.id}/apikeys/${created.id}`, { token: await adminToken(['UserDelete']) }),
      204,
    );
    await eventually(async () => {
      const entries = await auditEntries(system, orgA, conditionsAbout('UserApiKey', created.id, 'Delete'));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ organizationId: orgA, loggedBy: adminA.id, afterState: null });
      expect(JSON.parse(entries[0]!.beforeState!)).toEqual({
        id: created.id,
        userId: robot.id,
        hint: created.hint,
        description: 'revoked, audited',
        createdAt: created.createdAt,
        expiresAt: created.expiresAt,
        expired: false,
      });
      expect(JSON.stringify(entries)).not.toContain(sha256Hex(created.apiKey));
    });
  });
});

describe('spec 6: minting and revoking write UserApiKey Create and Delete entries, without the key or its hash', () => {
  it('create carries afterState only, delete beforeState only', async () => {
    const created = await mintOwn({ description: 'audited key' });
    await expectStatus(
      account.delete(`/users/me/apikeys/${created.id}`, { token: await personToken([]) }),
      204,
    );
    await eventually(async () => {
      const entries = await auditEntries(system, orgA, conditionsAbout('UserApiKey', created.id));
      expect(entries).toHaveLength(2);
      const byAction = new Map(entries.map((entry) => [entry.action, entry]));
      for (const entry of entries) expect(entry).toMatchObject({ organizationId: orgA, loggedBy: person.id });

      const create = byAction.get('Create')!;
      expect(create.beforeState).toBeNull();
      expect(JSON.parse(create.afterState!)).toMatchObject({ id: created.id, description: 'audited key' });

      const remove = byAction.get('Delete')!;
      expect(remove.afterState).toBeNull();
      expect(JSON.parse(remove.beforeState!)).toMatchObject({ id: created.id, description: 'audited key' });

      const text = JSON.stringify(entries);
      expect(text).not.toContain(created.apiKey);
      expect(text).not.toContain(sha256Hex(created.apiKey));
    });
  });
});
