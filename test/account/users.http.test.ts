import { randomUUID } from 'node:crypto';
import type { PermissionName } from '../../platform/permissions/catalogue.js';
import type { ApiKeyCreatedView } from '../../subgraphs/account/api-keys/api-key.schemas.js';
import type { GroupView } from '../../subgraphs/account/groups/group.schemas.js';
import type { SessionAccountView, UserView } from '../../subgraphs/account/users/user.schemas.js';
import type { HttpClient } from '../support/http-client.js';
import { eventually } from '../support/eventually.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import type { Problem } from '../support/problem.js';
import { permissionsOf, sha256Hex } from './account-test-helpers.js';
import {
  ORGANIZATION_PERMISSIONS,
  createGroup,
  createOrganization,
  createUser,
  expectStatus,
  setMembers,
  uniqueEmail,
} from '../support/factories.js';
import { auditEntries, conditionsAbout } from '../support/audit-log.js';

/** A 1x1 PNG, as a data URL. */
const PHOTO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

let system: TestSystem;
let account: HttpClient;
let orgA: string;
let orgB: string;
/** A real account of organization A, the caller of most tests. */
let adminA: UserView;
/** An account of organization B, which no caller of A may see. */
let userB: UserView;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit'] });
  account = system.client('account');
  orgA = (await createOrganization(system, 'Users Org A')).id;
  orgB = (await createOrganization(system, 'Users Org B')).id;
  adminA = await createUser(system, orgA, { name: 'Admin A' });
  userB = await createUser(system, orgB, { name: 'Bob of B' });
});

afterAll(() => system.stop());

/** A session in organization A holding exactly these permissions, as the account `accountId`. */
const tokenA = (permissions: PermissionName[], accountId = adminA.id) =>
  system.token({ organizationId: orgA, accountId, permissions });

/** Every non-global permission but one: proves a 403 comes from that one permission. */
const allBut = (missing: PermissionName) => tokenA(ORGANIZATION_PERMISSIONS.filter((p) => p !== missing));

const listUsers = async (token: string) =>
  expectStatus(account.get<{ total: number; items: UserView[] }>('/users', { token }), 200);

describe('spec 4.2: GET /users needs UserList', () => {
  it("answers the organization's accounts, and none of another organization, with UserList alone", async () => {
    const user = await createUser(system, orgA, { name: 'Listed Lisa' });
    const response = await account.get<{ total: number; items: UserView[] }>('/users', {
      token: await tokenA(['UserList']),
    });
    expect(response.status).toBe(200);
    const ids = response.body.items.map((u) => u.id);
    expect(ids).toEqual(expect.arrayContaining([adminA.id, user.id]));
    expect(ids).not.toContain(userB.id);
    expect(response.body.items.every((u) => u.organizationId === orgA)).toBe(true);
    expect(response.body.total).toBe(response.body.items.length);
  });

  it('decisions "Account details": identities, groups and photo are listed with UserRead, and of the caller\'s own account', async () => {
    const user = await createUser(system, orgA, { name: 'Detailed Dora' });
    const listed = async (permissions: PermissionName[], accountId?: string) => {
      const token = await system.token({ organizationId: orgA, accountId, permissions });
      const page = await expectStatus(account.get<{ items: UserView[] }>('/users', { token }), 200);
      return page.items.find((item) => item.id === user.id)!;
    };
    expect(Object.keys(await listed(['UserList']))).not.toEqual(expect.arrayContaining(['identities']));
    expect(await listed(['UserList'], user.id)).toMatchObject({
      identities: [],
      groups: [],
      profileImage: null,
    });
    expect(await listed(['UserList', 'UserRead'])).toMatchObject({
      identities: [],
      groups: [],
      profileImage: null,
    });
  });

  it('is 403 without UserList (holding every other permission), and 401 without a session', async () => {
    expect((await account.get('/users', { token: await allBut('UserList') })).status).toBe(403);
    expect((await account.get('/users')).status).toBe(401);
  });

  it('CONTRACT 6: takes take and skip, with the total counted before paging', async () => {
    const token = await tokenA(['UserList']);
    const all = await listUsers(token);
    expect(all.total).toBeGreaterThanOrEqual(2);
    const page = await expectStatus(
      account.get<{ total: number; items: UserView[] }>('/users?take=1&skip=1', { token }),
      200,
    );
    expect(page.total).toBe(all.total);
    expect(page.items.map((u) => u.id)).toEqual([all.items[1]!.id]);
  });
});

describe('spec 4.2: GET /users/names needs AuditList and answers names and email addresses only', () => {
  it("answers each account of the organization with its name and address, nothing more, and none of another organization's", async () => {
    const user = await createUser(system, orgA, { name: 'Named Nora', email: uniqueEmail('nora') });
    const response = await account.get<{ total: number; items: Record<string, unknown>[] }>('/users/names', {
      token: await tokenA(['AuditList']),
    });
    expect(response.status).toBe(200);
    expect(response.body.items).toContainEqual({ id: user.id, name: 'Named Nora', email: user.email });
    for (const item of response.body.items) expect(Object.keys(item).sort()).toEqual(['email', 'id', 'name']);
    expect(response.body.items.map((item) => item.id)).not.toContain(userB.id);
  });

  it('is 403 without AuditList, even with UserList and UserRead', async () => {
    expect(
      (await account.get('/users/names', { token: await tokenA(['UserList', 'UserRead']) })).status,
    ).toBe(403);
    expect((await account.get('/users/names', { token: await allBut('AuditList') })).status).toBe(403);
  });
});

describe("spec 4.2: POST /users/names/lookup needs only a session, answers only about the ids given, only in the caller's organization", () => {
  it("answers {id, name} for the given ids of the caller's organization; another organization's and unknown ids are simply absent", async () => {
    const asked = await createUser(system, orgA, { name: 'Asked Alice' });
    const notAsked = await createUser(system, orgA, { name: 'Unasked Ursula' });
    const response = await account.post<Record<string, unknown>[]>('/users/names/lookup', {
      token: await tokenA([]),
      body: { userIds: [asked.id, userB.id, randomUUID()] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ id: asked.id, name: 'Asked Alice' }]);
    expect(response.text).not.toContain(notAsked.id);
    expect(response.text).not.toContain(userB.name);
  });

  it('answers an empty array for no ids, and 401 without a session', async () => {
    const empty = await account.post('/users/names/lookup', {
      token: await tokenA([]),
      body: { userIds: [] },
    });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    expect((await account.post('/users/names/lookup', { body: { userIds: [adminA.id] } })).status).toBe(401);
  });
});

describe("spec 4.2: GET /users/me needs only a session and answers the caller's own account", () => {
  it('answers the account named by the token, with its linked identities and profile image', async () => {
    const me = await createUser(system, orgA, { name: 'Self Sam' });
    const response = await account.get<UserView>('/users/me', { token: await tokenA([], me.id) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: me.id,
      name: 'Self Sam',
      email: me.email,
      organizationId: orgA,
    });
    expect(response.body.identities).toEqual([]);
    expect(response.body).toHaveProperty('profileImage', null);
  });

  it('answers the identity linked at login and the photo the provider gave (provisioned through /users/provision)', async () => {
    const organization = (await createOrganization(system, `Me Org ${randomUUID()}`)).id;
    const owner = await system.token({ permissions: ['GlobalOrganizationUpdate'] });
    await expectStatus(
      account.put(`/organizations/${organization}`, {
        token: owner,
        body: { accountPatterns: ['@me\\.example$'] },
      }),
      200,
    );
    const provisioned = await expectStatus(
      account.post<SessionAccountView>('/users/provision', {
        body: {
          organizationId: organization,
          provider: 'Google',
          providerUserId: 'google-sub-1',
          email: 'pia@me.example',
          name: 'Pia',
          profileImage: PHOTO,
        },
      }),
      200,
    );
    const me = await expectStatus(
      account.get<UserView>('/users/me', {
        token: await system.token({
          organizationId: organization,
          accountId: provisioned.user.id,
          permissions: [],
        }),
      }),
      200,
    );
    expect(me).toMatchObject({
      id: provisioned.user.id,
      name: 'Pia',
      email: 'pia@me.example',
      profileImage: PHOTO,
    });
    expect(me.identities).toEqual([
      { provider: 'Google', providerUserId: 'google-sub-1', linkedAt: expect.any(String) as unknown },
    ]);
  });

  it('is 401 without a session', async () => {
    expect((await account.get('/users/me')).status).toBe(401);
  });
});

describe('spec 4.2: GET /users/{id} needs UserRead', () => {
  it('answers the account with UserRead alone', async () => {
    const user = await createUser(system, orgA, { name: 'Read Rita', serviceAccount: true });
    const response = await account.get<UserView>(`/users/${user.id}`, { token: await tokenA(['UserRead']) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(user);
  });

  it('is 403 without UserRead, 404 for an unknown id, 400 for an id that is not a GUID', async () => {
    expect((await account.get(`/users/${adminA.id}`, { token: await allBut('UserRead') })).status).toBe(403);
    expect((await account.get(`/users/${randomUUID()}`, { token: await tokenA(['UserRead']) })).status).toBe(
      404,
    );
    const malformed = await account.get<Problem>('/users/not-a-guid', { token: await tokenA(['UserRead']) });
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('path.id');
  });
});

describe('spec 4.2 / CONTRACT 5: POST /users needs UserCreate; body name, email, serviceAccount', () => {
  it('creates an account with UserCreate alone and answers it with its id; serviceAccount defaults to false', async () => {
    const email = uniqueEmail('carl');
    const response = await account.post<UserView>('/users', {
      token: await tokenA(['UserCreate']),
      body: { name: 'Created Carl', email },
    });
    expect(response.status).toBe(200);
    expect(response.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(response.body).toMatchObject({
      name: 'Created Carl',
      email,
      serviceAccount: false,
      organizationId: orgA,
    });
    // decisions "Account details": without UserRead the answer leaves out identities, groups and photo.
    for (const detail of ['identities', 'groups', 'profileImage'])
      expect(response.body).not.toHaveProperty(detail);
    const read = await account.get<UserView>(`/users/${response.body.id}`, {
      token: await tokenA(['UserRead']),
    });
    expect(read.body).toEqual({ ...response.body, identities: [], groups: [], profileImage: null });
  });

  it('creates a service account when serviceAccount is true', async () => {
    const response = await account.post<UserView>('/users', {
      token: await tokenA(['UserCreate']),
      body: { name: 'Robot Rick', email: uniqueEmail('rick'), serviceAccount: true },
    });
    expect(response.status).toBe(200);
    expect(response.body.serviceAccount).toBe(true);
  });

  it('is 403 without UserCreate, and nothing is created', async () => {
    const email = uniqueEmail('nobody');
    const response = await account.post('/users', {
      token: await allBut('UserCreate'),
      body: { name: 'Never Nick', email },
    });
    expect(response.status).toBe(403);
    expect(response.text).not.toContain('UserCreate');
    const all = await listUsers(await tokenA(['UserList']));
    expect(all.items.map((u) => u.email)).not.toContain(email);
  });

  it('an address already used in the organization, without regard to case, is 409 and creates nothing', async () => {
    const email = uniqueEmail('dora');
    await createUser(system, orgA, { name: 'Dup Dora', email });
    const before = (await listUsers(await tokenA(['UserList']))).total;
    const response = await account.post<Problem>('/users', {
      token: await tokenA(['UserCreate']),
      body: { name: 'Dup Dora Again', email: email.toUpperCase() },
    });
    expect(response.status).toBe(409);
    expect((await listUsers(await tokenA(['UserList']))).total).toBe(before);
  });

  it("spec 1 tenancy rule 1: an address used in another organization is no conflict in the caller's", async () => {
    const response = await account.post<UserView>('/users', {
      token: await tokenA(['UserCreate']),
      body: { name: 'Same Address', email: userB.email },
    });
    expect(response.status).toBe(200);
    expect(response.body.organizationId).toBe(orgA);
  });

  it.each([
    [{ email: 'x@example.test' }, 'body.name'],
    [{ name: 'No Address' }, 'body.email'],
    [{ name: 'Bad Address', email: 'not-an-address' }, 'body.email'],
    [{ name: 'Bad Flag', email: 'flag@example.test', serviceAccount: 'yes' }, 'body.serviceAccount'],
  ])('a bad body %j is 400 naming %s', async (body, field) => {
    const response = await account.post('/users', { token: await tokenA(['UserCreate']), body });
    expect(response.status).toBe(400);
    expect(response.text).toContain(field);
  });
});

describe('spec 4.2 / CONTRACT 6: PUT /users/{id} needs UserUpdate', () => {
  it('changes name and address with UserUpdate alone and increments the version', async () => {
    const user = await createUser(system, orgA, { name: 'Update Uma' });
    const email = uniqueEmail('uma-new');
    const response = await account.put<UserView>(`/users/${user.id}`, {
      token: await tokenA(['UserUpdate']),
      body: { name: 'Updated Uma', email, version: user.version },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: user.id,
      name: 'Updated Uma',
      email,
      version: user.version + 1,
    });
  });

  it('is 403 without UserUpdate, and nothing changes', async () => {
    const user = await createUser(system, orgA, { name: 'Unchanged Ulf' });
    const response = await account.put(`/users/${user.id}`, {
      token: await allBut('UserUpdate'),
      body: { name: 'Changed Ulf', email: user.email },
    });
    expect(response.status).toBe(403);
    expect(response.text).not.toContain('UserUpdate');
    const read = await account.get<UserView>(`/users/${user.id}`, { token: await tokenA(['UserRead']) });
    expect(read.body).toEqual(user);
  });

  it('CONTRACT 6: a version that is not the stored one is 409, and nothing changes', async () => {
    const user = await createUser(system, orgA, { name: 'Version Vera' });
    const first = await account.put<UserView>(`/users/${user.id}`, {
      token: await tokenA(['UserUpdate', 'UserRead']),
      body: { name: 'Version Vera 2', email: user.email, version: user.version },
    });
    expect(first.status).toBe(200);
    const stale = await account.put(`/users/${user.id}`, {
      token: await tokenA(['UserUpdate']),
      body: { name: 'Version Vera 3', email: uniqueEmail('vera'), version: user.version },
    });
    expect(stale.status).toBe(409);
    const read = await account.get<UserView>(`/users/${user.id}`, { token: await tokenA(['UserRead']) });
    expect(read.body).toEqual(first.body);
  });

  it('whether an account is a service account cannot change (400), and nothing changes; sending the same value is fine', async () => {
    const person = await createUser(system, orgA, { name: 'Person Pat' });
    const refused = await account.put<Problem>(`/users/${person.id}`, {
      token: await tokenA(['UserUpdate']),
      body: { name: 'Robot Pat', email: person.email, serviceAccount: true },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('serviceAccount');
    const read = await account.get<UserView>(`/users/${person.id}`, { token: await tokenA(['UserRead']) });
    expect(read.body).toEqual(person);

    const robot = await createUser(system, orgA, { name: 'Robot Rex', serviceAccount: true });
    const toPerson = await account.put(`/users/${robot.id}`, {
      token: await tokenA(['UserUpdate']),
      body: { name: 'Rex', email: robot.email, serviceAccount: false },
    });
    expect(toPerson.status).toBe(400);
    const same = await account.put<UserView>(`/users/${robot.id}`, {
      token: await tokenA(['UserUpdate']),
      body: { name: 'Robot Rex 2', email: robot.email, serviceAccount: true },
    });
    expect(same.status).toBe(200);
    expect(same.body.serviceAccount).toBe(true);
  });

  it('an address another account of the organization has, without regard to case, is 409', async () => {
    const first = await createUser(system, orgA, { name: 'First Fay' });
    const second = await createUser(system, orgA, { name: 'Second Sid' });
    const response = await account.put(`/users/${second.id}`, {
      token: await tokenA(['UserUpdate']),
      body: { name: 'Second Sid', email: first.email.toUpperCase() },
    });
    expect(response.status).toBe(409);
    const read = await account.get<UserView>(`/users/${second.id}`, { token: await tokenA(['UserRead']) });
    expect(read.body.email).toBe(second.email);
  });
});

describe('decision "Updates": PUT /users/{id} changes only the fields it sends', () => {
  const put = (id: string, body: Record<string, unknown>) =>
    account.put<UserView>(`/users/${id}`, { token: tokenForUpdates, body });
  let tokenForUpdates: string;
  let user: UserView;

  beforeEach(async () => {
    tokenForUpdates = await tokenA(['UserUpdate', 'UserRead']);
    const created = await createUser(system, orgA, { name: 'Partial Pam' });
    user = await expectStatus(put(created.id, { profileImage: PHOTO }), 200);
  });

  it('only {name}: the address and the photo stay', async () => {
    const renamed = await expectStatus(put(user.id, { name: 'Pamela' }), 200);
    expect(renamed).toEqual({
      ...user,
      name: 'Pamela',
      version: user.version + 1,
      updatedAt: renamed.updatedAt,
    });
  });

  it('only {email}: the name and the photo stay', async () => {
    const email = uniqueEmail('pam-new');
    const moved = await expectStatus(put(user.id, { email }), 200);
    expect(moved).toMatchObject({ name: 'Partial Pam', email, profileImage: PHOTO });
  });

  it('profileImage null clears the photo', async () => {
    expect((await expectStatus(put(user.id, { profileImage: null }), 200)).profileImage).toBeNull();
  });

  it.each([
    ['a data URL of a PNG', PHOTO],
    ['the base64 of an image alone', PHOTO.replace(/^data:image\/png;base64,/, '')],
    ['a data URL of a WebP', 'data:image/webp;base64,UklGRg=='],
    ["an https: address (Google's picture claim)", 'https://lh3.googleusercontent.com/a/x=s96-c'],
  ])('decisions "Users": profileImage accepts %s', async (_case, profileImage) => {
    expect((await expectStatus(put(user.id, { profileImage }), 200)).profileImage).toBe(profileImage);
  });

  it.each([
    ['plain text', 'not an image at all'],
    ['an SVG data URL', 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4='],
    ['an HTML data URL', 'data:text/html;base64,PHNjcmlwdD4='],
    ['a data URL that is not base64', 'data:image/png,<svg onload=alert(1)>'],
    ['an http: address (loaded in the clear)', 'http://example.com/me.png'],
    ['a javascript: address', 'javascript:alert(1)'],
    ['an https: address carrying a password', 'https://user:secret@example.com/me.png'],
    ['an https: address that does not parse', 'https://[bad/me.png'],
    ['an https: address over the bound', `https://example.com/${'a'.repeat(2_100)}`],
    ['an image over the bound', `data:image/png;base64,${'A'.repeat(700_000)}`],
  ])(
    'decisions "Users": profileImage refuses %s (400 naming body.profileImage), and nothing changes',
    async (_case, profileImage) => {
      const response = await account.put<Problem>(`/users/${user.id}`, {
        token: tokenForUpdates,
        body: { profileImage },
      });
      expect(response.status).toBe(400);
      expect(response.body.errors?.map((error) => error.field)).toContain('body.profileImage');
      expect(
        (await expectStatus(account.get<UserView>(`/users/${user.id}`, { token: tokenForUpdates }), 200))
          .profileImage,
      ).toBe(PHOTO);
    },
  );
});

describe('CONTRACT 6: two PUT /users/{id} sent with the same version: one succeeds, the other is 409 (no lost update)', () => {
  it('holds round after round', async () => {
    const user = await createUser(system, orgA, { name: 'Raced Rae' });
    const token = await tokenA(['UserUpdate', 'UserRead']);
    for (let round = 0; round < 4; round += 1) {
      const { version } = await expectStatus(account.get<UserView>(`/users/${user.id}`, { token }), 200);
      const answers = await Promise.all(
        [`Left ${round}`, `Right ${round}`].map((name) =>
          account.put<UserView>(`/users/${user.id}`, { token, body: { name, version } }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const winner = answers.find((answer) => answer.status === 200)!.body;
      const read = await expectStatus(account.get<UserView>(`/users/${user.id}`, { token }), 200);
      expect(read).toMatchObject({ name: winner.name, version: version + 1 });
    }
  });
});

describe('CONTRACT 5: PUT /users/{id}/groups needs UserUpdate; body {groupIds} is the whole membership', () => {
  it('sets the membership to exactly the groups given, replacing what was there', async () => {
    const user = await createUser(system, orgA, { name: 'Member Mia' });
    const g1 = await createGroup(system, orgA, { name: `Mia one ${randomUUID()}`, permissions: ['TagList'] });
    const g2 = await createGroup(system, orgA, { name: `Mia two ${randomUUID()}`, permissions: ['TagRead'] });
    const both = await account.put<UserView>(`/users/${user.id}/groups`, {
      token: await tokenA(['UserUpdate', 'UserRead']),
      body: { groupIds: [g1.id, g2.id] },
    });
    expect(both.status).toBe(200);
    expect(both.body.groups.map((g) => g.id).sort()).toEqual([g1.id, g2.id].sort());
    expect((await permissionsOf(account, orgA, user.id)).permissions).toEqual(['TagList', 'TagRead']);

    const onlySecond = await account.put<UserView>(`/users/${user.id}/groups`, {
      token: await tokenA(['UserUpdate', 'UserRead']),
      body: { groupIds: [g2.id] },
    });
    expect(onlySecond.status).toBe(200);
    // A group kept from the previous membership must stay: stored, in the answer and in the permissions.
    const read = await account.get<UserView>(`/users/${user.id}`, { token: await tokenA(['UserRead']) });
    expect(read.body.groups).toEqual([{ id: g2.id, name: g2.name }]);
    expect(onlySecond.body.groups).toEqual([{ id: g2.id, name: g2.name }]);
    expect((await permissionsOf(account, orgA, user.id)).permissions).toEqual(['TagRead']);
    const first = await account.get<GroupView>(`/groups/${g1.id}`, { token: await tokenA(['UserRead']) });
    expect(first.body.members).toEqual([]);

    const none = await account.put<UserView>(`/users/${user.id}/groups`, {
      token: await tokenA(['UserUpdate', 'UserRead']),
      body: { groupIds: [] },
    });
    expect(none.body.groups).toEqual([]);
  });

  it('issue 8.5: unknown group ids are 400 saying so in plain words, and the membership does not change', async () => {
    const user = await createUser(system, orgA, { name: 'Member Max' });
    const group = await createGroup(system, orgA, { name: `Max ${randomUUID()}`, permissions: ['TagList'] });
    await account.put(`/users/${user.id}/groups`, {
      token: await tokenA(['UserUpdate']),
      body: { groupIds: [group.id] },
    });
    const response = await account.put<Problem>(`/users/${user.id}/groups`, {
      token: await tokenA(['UserUpdate']),
      body: { groupIds: [999_999] },
    });
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe('There is no group with id 999999 in this organization.');
    expect(response.body.errors).toEqual([{ field: 'body.groupIds', message: 'unknown ids: 999999' }]);
    const several = await account.put<Problem>(`/users/${user.id}/groups`, {
      token: await tokenA(['UserUpdate']),
      body: { groupIds: [999_998, 999_999] },
    });
    expect(several.body.detail).toBe('There are no groups with ids 999998, 999999 in this organization.');
    const read = await account.get<UserView>(`/users/${user.id}`, { token: await tokenA(['UserRead']) });
    expect(read.body.groups).toEqual([{ id: group.id, name: group.name }]);
  });

  it('is 403 without UserUpdate, and the membership does not change', async () => {
    const user = await createUser(system, orgA, { name: 'Member Mo' });
    const group = await createGroup(system, orgA, { name: `Mo ${randomUUID()}`, permissions: ['TagList'] });
    const response = await account.put(`/users/${user.id}/groups`, {
      token: await allBut('UserUpdate'),
      body: { groupIds: [group.id] },
    });
    expect(response.status).toBe(403);
    expect((await permissionsOf(account, orgA, user.id)).permissions).toEqual([]);
  });
});

describe('spec 4.2 / CONTRACT 6: DELETE /users/{id} needs UserDelete and answers 200 with the removed record', () => {
  it('removes the account and answers it', async () => {
    const user = await createUser(system, orgA, { name: 'Deleted Dan' });
    const response = await account.delete<UserView>(`/users/${user.id}`, {
      token: await tokenA(['UserDelete', 'UserRead']),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(user);
    expect((await account.get(`/users/${user.id}`, { token: await tokenA(['UserRead']) })).status).toBe(404);
  });

  it('is 403 without UserDelete, and the account stays', async () => {
    const user = await createUser(system, orgA, { name: 'Kept Kim' });
    expect((await account.delete(`/users/${user.id}`, { token: await allBut('UserDelete') })).status).toBe(
      403,
    );
    expect((await account.get(`/users/${user.id}`, { token: await tokenA(['UserRead']) })).status).toBe(200);
  });

  it('deleting oneself is 409, and the account stays', async () => {
    const self = await createUser(system, orgA, { name: 'Self Deleter' });
    const response = await account.delete(`/users/${self.id}`, {
      token: await tokenA(ORGANIZATION_PERMISSIONS, self.id),
    });
    expect(response.status).toBe(409);
    expect((await account.get(`/users/${self.id}`, { token: await tokenA(['UserRead']) })).status).toBe(200);
  });

  it('an unknown id is 404', async () => {
    expect(
      (await account.delete(`/users/${randomUUID()}`, { token: await tokenA(['UserDelete']) })).status,
    ).toBe(404);
  });

  it('spec 3 / 6: removes its API keys too, and writes a UserApiKey Delete entry for each (the audit entry keeps the record)', async () => {
    const robot = await createUser(system, orgA, { name: 'Keyed Robot', serviceAccount: true });
    const admin = await tokenA(ORGANIZATION_PERMISSIONS);
    const keys = await Promise.all(
      ['first key', 'second key'].map((description) =>
        expectStatus(
          account.post<ApiKeyCreatedView>(`/users/${robot.id}/apikeys`, {
            token: admin,
            body: { description },
          }),
          201,
        ),
      ),
    );
    await expectStatus(account.delete(`/users/${robot.id}`, { token: admin }), 200);
    for (const key of keys) {
      const lookup = await account.post('/apikeys/lookup', { body: { sha: sha256Hex(key.apiKey) } });
      expect(lookup.status).toBe(404);
    }
    await eventually(async () => {
      for (const key of keys) {
        const entries = await auditEntries(system, orgA, conditionsAbout('UserApiKey', key.id));
        const deletion = entries.find((entry) => entry.action === 'Delete');
        expect(deletion).toMatchObject({ afterState: null, loggedBy: adminA.id });
        expect(JSON.parse(deletion!.beforeState!)).toMatchObject({
          id: key.id,
          hint: key.hint,
          description: key.description,
          userId: robot.id,
        });
      }
    });
  });
});

describe('spec 4.2: GET /users/{id}/permissions is anonymous, takes organizationId, and is 404 for another organization', () => {
  it("answers the permissions of the account's groups without a session", async () => {
    const user = await createUser(system, orgA, { name: 'Perm Paula' });
    const group = await createGroup(system, orgA, {
      name: `Paula ${randomUUID()}`,
      permissions: ['TagList', 'AuditList'],
    });
    await setMembers(system, orgA, group.id, [user.id]);
    const response = await account.get<{ permissions: string[]; variableSets: Record<string, number[]> }>(
      `/users/${user.id}/permissions?organizationId=${orgA}`,
    );
    expect(response.status).toBe(200);
    expect(response.body.permissions).toEqual(['TagList', 'AuditList']);
    expect(response.body.variableSets).toEqual({});
  });

  it('is 404 when the account is not of the organization named, either way round', async () => {
    expect((await account.get(`/users/${adminA.id}/permissions?organizationId=${orgB}`)).status).toBe(404);
    expect((await account.get(`/users/${userB.id}/permissions?organizationId=${orgA}`)).status).toBe(404);
    expect((await account.get(`/users/${userB.id}/permissions?organizationId=${orgB}`)).status).toBe(200);
  });

  it('is 400 without organizationId', async () => {
    const response = await account.get(`/users/${adminA.id}/permissions`);
    expect(response.status).toBe(400);
    expect(response.text).toContain('query.organizationId');
  });
});

describe('spec 2 Audit entry / spec 6: User create, update and delete write User entries with the states the spec gives', () => {
  it('create carries afterState only, update both, delete beforeState only', async () => {
    const token = await tokenA(['UserCreate', 'UserUpdate', 'UserDelete']);
    const created = await expectStatus(
      account.post<UserView>('/users', { token, body: { name: 'Audit Ann', email: uniqueEmail('ann') } }),
      200,
    );
    await expectStatus(
      account.put(`/users/${created.id}`, { token, body: { name: 'Audit Ann 2', email: created.email } }),
      200,
    );
    await expectStatus(account.delete(`/users/${created.id}`, { token }), 200);

    await eventually(async () => {
      const entries = await auditEntries(system, orgA, conditionsAbout('User', created.id));
      const byAction = new Map(entries.map((entry) => [entry.action, entry]));
      expect(entries).toHaveLength(3);
      for (const entry of entries) expect(entry).toMatchObject({ organizationId: orgA, loggedBy: adminA.id });

      const create = byAction.get('Create')!;
      expect(create.beforeState).toBeNull();
      expect(JSON.parse(create.afterState!)).toMatchObject({ id: created.id, name: 'Audit Ann' });

      const update = byAction.get('Update')!;
      expect(JSON.parse(update.beforeState!)).toMatchObject({ name: 'Audit Ann' });
      expect(JSON.parse(update.afterState!)).toMatchObject({ name: 'Audit Ann 2' });

      const remove = byAction.get('Delete')!;
      expect(JSON.parse(remove.beforeState!)).toMatchObject({ id: created.id, name: 'Audit Ann 2' });
      expect(remove.afterState).toBeNull();
    });
  });
});
