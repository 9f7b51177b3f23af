import { randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { ORGANIZATION_ADMINISTRATOR_PERMISSIONS } from '../../subgraphs/account/organizations/organization.service.js';
import type { UserView } from '../../subgraphs/account/users/user.schemas.js';
import { PERMISSION_CATALOGUE } from '../../platform/permissions/catalogue.js';
import type { HttpClient } from '../support/http-client.js';
import { storeAccountPatterns } from '../account/account-test-helpers.js';
import { eventually } from '../support/eventually.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { login, loginToken } from './identity-test-helpers.js';
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
const GLOBAL_PERMISSIONS = PERMISSION_CATALOGUE.filter((p) => p.globalPermission).map((p) => p.name);

/** An account as the account service answers GET /users/{id}, read with UserRead in its organization. */
async function readUser(organizationId: string, id: string): Promise<UserView> {
  const token = await system.token({ organizationId, permissions: ['UserList', 'UserRead'] });
  const response = await account.get<UserView>(`/users/${id}`, { token });
  expect(response.status).toBe(200);
  return response.body;
}

async function userCount(organizationId: string): Promise<number> {
  const token = await system.token({ organizationId, permissions: ['UserList'] });
  return (await account.get<{ total: number }>('/users', { token })).body.total;
}

describe('spec 4.3 / CONTRACT 4: POST /generatejwt answers the session token as text/plain', () => {
  it('answers 200 text/plain with a token whose sub is the account id and whose org, iss, aud, exp, iat and permissions are set', async () => {
    const organization = await createOrganization(system, {
      name: unique('Claims Org'),
      adminEmails: ['ada@claims.example'],
    });
    const response = await login(system, {
      orgId: organization.id,
      email: 'ada@claims.example',
      name: 'Ada',
      provider: 'Entra',
      providerUserId: 'ada-oid',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const token = response.text;
    expect(decodeProtectedHeader(token).alg).toBe('RS256');
    const claims = decodeJwt(token);
    expect(claims.iss).toBe(system.settings.jwt.issuer);
    expect(claims.aud).toBe(system.settings.jwt.audience);
    expect(claims.org).toBe(organization.id);
    expect(claims.iat).toBe(Math.floor(system.clock.now().getTime() / 1000));
    expect(claims.exp).toBe(claims.iat! + system.settings.jwt.durationInMinutes * 60);
    expect(claims.permissions).toEqual(expect.arrayContaining(ORGANIZATION_ADMINISTRATOR_PERMISSIONS));

    // sub is the service's own account id: the account the account service knows.
    const users = await account.get<{ items: UserView[] }>('/users', {
      token: await system.token({ organizationId: organization.id, permissions: ['UserList'] }),
    });
    expect(users.body.items.map((u) => [u.id, u.email])).toEqual([[claims.sub, 'ada@claims.example']]);
    expect(claims.sub).not.toBe('ada-oid');

    // The token is signed with the system's key and accepted by the other services.
    await expect(
      jwtVerify(token, system.system.platform!.keys.publicKey, {
        issuer: system.settings.jwt.issuer,
        audience: system.settings.jwt.audience,
        currentDate: system.clock.now(),
      }),
    ).resolves.toBeDefined();
    const me = await account.get<UserView>('/users/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(claims.sub);
  });

  it('sub is the account the provider identity names, never a userId given in the body', async () => {
    const organization = await createOrganization(system, {
      name: unique('Sub Org'),
      accountPatterns: ['@sub\\.example$'],
    });
    const first = decodeJwt(await loginToken(system, { orgId: organization.id, email: 'sam@sub.example' }));
    const other = randomUUID();
    const second = await identity.post<string>('/generatejwt', {
      body: {
        userId: other,
        orgId: organization.id,
        email: 'sam@sub.example',
        name: 'Sam',
        provider: 'Entra',
        providerUserId: 'oid-sam@sub.example',
      },
    });
    expect(second.status).toBe(200);
    expect(decodeJwt(second.text).sub).toBe(first.sub);
    expect(decodeJwt(second.text).sub).not.toBe(other);
  });

  it.each([
    [{ email: 'a@b.example', provider: 'Entra', providerUserId: 'x' }, 'body.orgId'],
    [{ orgId: 'not-a-guid', email: 'a@b.example', provider: 'Entra', providerUserId: 'x' }, 'body.orgId'],
    [{ orgId: randomUUID(), email: 'not an address', provider: 'Entra', providerUserId: 'x' }, 'body.email'],
    [{ orgId: randomUUID(), provider: 'Entra', providerUserId: 'x' }, 'body.email'],
    [{ orgId: randomUUID(), email: 'a@b.example', providerUserId: 'x' }, 'body.provider'],
    [{ orgId: randomUUID(), email: 'a@b.example', provider: 'Entra' }, 'body.providerUserId'],
    [
      { orgId: randomUUID(), email: 'a@b.example', provider: 'Entra', providerUserId: '  ' },
      'body.providerUserId',
    ],
  ])('spec 7: a bad request %j is 400 naming %s', async (body, field) => {
    const response = await identity.post('/generatejwt', { body });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((response.body as { errors: { field: string }[] }).errors.map((e) => e.field)).toContain(field);
  });

  it('spec 7: a body that is not JSON is 400', async () => {
    const response = await identity.post('/generatejwt', { body: '{"orgId": ' });
    expect(response.status).toBe(400);
  });
});

describe('spec 4.2 / CONTRACT 4: provisioning creates an account only when an account pattern matches or the address is an administrator address', () => {
  it('an address matching an account pattern gets a new account, in no group, and a token without permissions', async () => {
    const organization = await createOrganization(system, {
      name: unique('Pattern Org'),
      accountPatterns: ['@pattern\\.example$'],
    });
    expect(await userCount(organization.id)).toBe(0);
    const claims = decodeJwt(
      await loginToken(system, { orgId: organization.id, email: 'pat@pattern.example', name: 'Pat' }),
    );
    expect(claims.permissions).toEqual([]);
    const user = await readUser(organization.id, claims.sub!);
    expect(user).toMatchObject({
      name: 'Pat',
      email: 'pat@pattern.example',
      serviceAccount: false,
      groups: [],
    });
    expect(user.identities.map((i) => [i.provider, i.providerUserId])).toEqual([
      ['Entra', 'oid-pat@pattern.example'],
    ]);
  });

  it('account patterns are matched without regard to case', async () => {
    const organization = await createOrganization(system, {
      name: unique('Case Org'),
      accountPatterns: ['@case\\.example$'],
    });
    expect((await login(system, { orgId: organization.id, email: 'Bob@CASE.Example' })).status).toBe(200);
  });

  it('an address in adminEmails is provisioned without a pattern and joins Administrators: the token holds its permissions, no global one', async () => {
    const organization = await createOrganization(system, {
      name: unique('Admin Org'),
      adminEmails: ['boss@admin.example'],
    });
    const claims = decodeJwt(
      await loginToken(system, { orgId: organization.id, email: 'boss@admin.example' }),
    );
    expect([...(claims.permissions as string[])].sort()).toEqual(
      [...ORGANIZATION_ADMINISTRATOR_PERMISSIONS].sort(),
    );
    for (const global of GLOBAL_PERMISSIONS) expect(claims.permissions).not.toContain(global);
    const user = await readUser(organization.id, claims.sub!);
    expect(user.groups.map((g) => g.name)).toEqual(['Administrators']);
  });

  it('spec 4.3: nobody to issue to and no pattern permitting one is 403, and no account is created', async () => {
    const organization = await createOrganization(system, {
      name: unique('Closed Org'),
      accountPatterns: ['@closed\\.example$'],
      adminEmails: ['boss@closed.example'],
    });
    const response = await login(system, { orgId: organization.id, email: 'stranger@elsewhere.example' });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await userCount(organization.id)).toBe(0);
  });

  it('spec 2: a stored pattern that does not compile is skipped: another valid pattern still permits, and nothing else fails', async () => {
    const organization = await createOrganization(system, { name: unique('Broken Pattern Org') });
    await storeAccountPatterns(system, organization.id, ['([unclosed', '@good\\.example$']);
    expect((await login(system, { orgId: organization.id, email: 'gil@good.example' })).status).toBe(200);
    expect((await login(system, { orgId: organization.id, email: 'nat@other.example' })).status).toBe(403);
  });

  it('spec 2: with only a broken stored pattern, an existing account still signs in', async () => {
    const organization = await createOrganization(system, { name: unique('Only Broken Org') });
    await storeAccountPatterns(system, organization.id, ['*invalid(']);
    const admin = await system.token({ organizationId: organization.id, permissions: ['UserCreate'] });
    const created = await account.post<UserView>('/users', {
      token: admin,
      body: { name: 'Existing', email: 'existing@broken.example' },
    });
    expect(created.status).toBe(200);
    const response = await login(system, { orgId: organization.id, email: 'existing@broken.example' });
    expect(response.status).toBe(200);
    expect(decodeJwt(response.text).sub).toBe(created.body.id);
    expect((await login(system, { orgId: organization.id, email: 'new@broken.example' })).status).toBe(403);
  });

  it('a disabled organization is 403, even for an address it would otherwise provision or an account it has', async () => {
    const organization = await createOrganization(system, {
      name: unique('Soon Disabled Org'),
      adminEmails: ['boss@disabled.example'],
    });
    expect((await login(system, { orgId: organization.id, email: 'boss@disabled.example' })).status).toBe(
      200,
    );
    const global = await system.token({
      permissions: ['GlobalOrganizationUpdate', 'GlobalOrganizationRead'],
    });
    const disabled = await account.put(`/organizations/${organization.id}`, {
      token: global,
      body: { name: organization.name, active: false, adminEmails: ['boss@disabled.example'] },
    });
    expect(disabled.status).toBe(200);
    expect((await login(system, { orgId: organization.id, email: 'boss@disabled.example' })).status).toBe(
      403,
    );
    expect((await login(system, { orgId: organization.id, email: 'other@disabled.example' })).status).toBe(
      403,
    );
  });

  it('an unknown organization is 403', async () => {
    expect((await login(system, { orgId: randomUUID(), email: 'who@nowhere.example' })).status).toBe(403);
  });

  describe("a login with a service account's address", () => {
    let organizationId: string;
    let robotId: string;

    beforeAll(async () => {
      const organization = await createOrganization(system, {
        name: unique('Robot Org'),
        accountPatterns: ['@robots\\.example$'],
      });
      organizationId = organization.id;
      const admin = await system.token({ organizationId, permissions: ['UserCreate'] });
      const robot = await account.post<UserView>('/users', {
        token: admin,
        body: { name: 'Robot', email: 'robot@robots.example', serviceAccount: true },
      });
      expect(robot.status).toBe(200);
      robotId = robot.body.id;
    });

    it("never gets the service account's token: a login must not take a service account over", async () => {
      const response = await login(system, { orgId: organizationId, email: 'robot@robots.example' });
      expect(response.status).not.toBe(200);
      expect(response.text).not.toContain(robotId);
    });

    it('spec 4.3: is 403 (nobody can be issued a token for it), not a fault of the service', async () => {
      // The pattern permits creating a person account, but the address is the service account's, so
      // there is nobody to issue to; the spec's answers for /generatejwt are 200, 400 and 403.
      const response = await login(system, { orgId: organizationId, email: 'robot@robots.example' });
      expect(response.status).toBe(403);
    });
  });
});

describe("spec 4.2 / 4.3: provisioning brings an existing account in step with the provider; the token carries the account's name and address", () => {
  it('name, address and photo follow the provider, as GET /users/{id} shows, and the token carries them', async () => {
    const organization = await createOrganization(system, {
      name: unique('Sync Org'),
      accountPatterns: ['@sync\\.example$'],
    });
    const identityOf = { orgId: organization.id, provider: 'Google', providerUserId: 'g-sync-1' };
    const first = decodeJwt(
      await loginToken(system, {
        ...identityOf,
        email: 'old@sync.example',
        name: 'Old Name',
        profileImage: 'cGhvdG8x',
      }),
    );
    const before = await readUser(organization.id, first.sub!);
    expect(before).toMatchObject({ name: 'Old Name', email: 'old@sync.example', profileImage: 'cGhvdG8x' });

    const second = decodeJwt(
      await loginToken(system, {
        ...identityOf,
        email: 'new@sync.example',
        name: 'New Name',
        profileImage: 'cGhvdG8y',
      }),
    );
    expect(second.sub).toBe(first.sub);
    expect(second).toMatchObject({ name: 'New Name', email: 'new@sync.example' });
    const after = await readUser(organization.id, first.sub!);
    expect(after).toMatchObject({
      name: 'New Name',
      email: 'new@sync.example',
      profileImage: 'cGhvdG8y',
      version: before.version + 1,
    });
    expect(after.identities).toHaveLength(1);
  });

  it('decisions "Users": a photo given as an https: address (Google\'s picture claim) signs in and is stored', async () => {
    const organization = await createOrganization(system, {
      name: unique('Picture Org'),
      accountPatterns: ['@picture\\.example$'],
    });
    const picture = 'https://lh3.googleusercontent.com/a/x';
    const response = await login(system, {
      orgId: organization.id,
      email: 'pia@picture.example',
      provider: 'Google',
      providerUserId: 'g-pia',
      profileImage: picture,
    });
    expect(response.status).toBe(200);
    expect((await readUser(organization.id, decodeJwt(response.text).sub!)).profileImage).toBe(picture);
  });

  it('decisions "Users": a photo the account service does not store (an SVG, a javascript: address) never fails the login; the account keeps its photo', async () => {
    const organization = await createOrganization(system, {
      name: unique('Odd Photo Org'),
      accountPatterns: ['@odd\\.example$'],
    });
    const identityOf = {
      orgId: organization.id,
      email: 'oz@odd.example',
      provider: 'Google',
      providerUserId: 'g-oz',
    };
    const sub = decodeJwt(await loginToken(system, { ...identityOf, profileImage: 'cGhvdG8x' })).sub!;
    for (const profileImage of ['data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=', 'javascript:alert(1)']) {
      const response = await login(system, { ...identityOf, profileImage });
      expect(response.status).toBe(200);
      expect(decodeJwt(response.text).sub).toBe(sub);
    }
    expect((await readUser(organization.id, sub)).profileImage).toBe('cGhvdG8x');
  });

  it('a login that says nothing new changes nothing', async () => {
    const organization = await createOrganization(system, {
      name: unique('Still Org'),
      accountPatterns: ['@still\\.example$'],
    });
    const body = {
      orgId: organization.id,
      email: 'sue@still.example',
      name: 'Sue',
      profileImage: 'cGhvdG8=',
    };
    const sub = decodeJwt(await loginToken(system, body)).sub!;
    const before = await readUser(organization.id, sub);
    await loginToken(system, body);
    await loginToken(system, { ...body, profileImage: undefined });
    expect(await readUser(organization.id, sub)).toEqual(before);
  });

  it('where the account keeps its own values, they win in the token: an empty provider name, an address another account holds', async () => {
    const organization = await createOrganization(system, {
      name: unique('Keep Org'),
      accountPatterns: ['@keep\\.example$'],
    });
    const alice = decodeJwt(
      await loginToken(system, {
        orgId: organization.id,
        email: 'alice@keep.example',
        name: 'Alice Account',
        providerUserId: 'alice-oid',
      }),
    );
    const bob = decodeJwt(
      await loginToken(system, { orgId: organization.id, email: 'bob@keep.example', name: 'Bob' }),
    );
    // Alice's provider identity now reports no name and Bob's address.
    const response = await identity.post<string>('/generatejwt', {
      body: {
        orgId: organization.id,
        email: 'bob@keep.example',
        name: '',
        provider: 'Entra',
        providerUserId: 'alice-oid',
      },
    });
    expect(response.status).toBe(200);
    const claims = decodeJwt(response.text);
    expect(claims.sub).toBe(alice.sub);
    expect(claims.sub).not.toBe(bob.sub);
    expect(claims).toMatchObject({ name: 'Alice Account', email: 'alice@keep.example' });
    expect(await readUser(organization.id, alice.sub!)).toMatchObject({
      name: 'Alice Account',
      email: 'alice@keep.example',
    });
  });

  it('spec 6: a second provider identity for the same address links to the same account, with a LinkIdentity entry', async () => {
    const organization = await createOrganization(system, {
      name: unique('Link Org'),
      accountPatterns: ['@link\\.example$'],
    });
    const first = decodeJwt(
      await loginToken(system, {
        orgId: organization.id,
        email: 'ann@link.example',
        provider: 'Entra',
        providerUserId: 'ann-entra',
      }),
    );
    const second = decodeJwt(
      await loginToken(system, {
        orgId: organization.id,
        email: 'ANN@link.example',
        provider: 'Google',
        providerUserId: 'ann-google',
      }),
    );
    expect(second.sub).toBe(first.sub);
    expect(await userCount(organization.id)).toBe(1);
    const user = await readUser(organization.id, first.sub!);
    expect(user.identities.map((i) => [i.provider, i.providerUserId]).sort()).toEqual([
      ['Entra', 'ann-entra'],
      ['Google', 'ann-google'],
    ]);
    await eventually(async () => {
      const entries = await auditEntries(system, organization.id, [
        { field: 'EntryType', value: 'User' },
        { field: 'Action', value: 'LinkIdentity' },
      ]);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ organizationId: organization.id, entityId: first.sub });
      expect(JSON.parse(entries[0]!.afterState!)).toMatchObject({
        provider: 'Google',
        providerUserId: 'ann-google',
      });
    });
  });
});

describe('spec 6: every token mint and every refused login writes an audit entry', () => {
  it("a login writes a JWT Create entry in the account's organization, logged by the account", async () => {
    const organization = await createOrganization(system, {
      name: unique('Audit Login Org'),
      adminEmails: ['al@audit.example'],
    });
    const sub = decodeJwt(
      await loginToken(system, { orgId: organization.id, email: 'al@audit.example' }),
    ).sub!;
    await eventually(async () => {
      const entries = await auditEntries(system, organization.id, [
        { field: 'EntryType', value: 'JWT' },
        { field: 'EntityId', value: sub },
      ]);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        organizationId: organization.id,
        loggedBy: sub,
        action: 'Create',
        entityName: 'User',
      });
    });
  });

  it('a login nobody may be created for writes User ProvisionDenied in the organization and a global JWT Denied', async () => {
    const organization = await createOrganization(system, {
      name: unique('Audit Denied Org'),
      accountPatterns: ['@allowed\\.example$'],
    });
    const email = `denied-${randomUUID().slice(0, 8)}@refused.example`;
    expect((await login(system, { orgId: organization.id, email })).status).toBe(403);
    await eventually(async () => {
      const provision = await auditEntries(system, organization.id, [
        { field: 'Action', value: 'ProvisionDenied' },
        { field: 'EntityId', value: email },
      ]);
      expect(provision).toHaveLength(1);
      expect(provision[0]).toMatchObject({ entryType: 'User', organizationId: organization.id });
      const denied = await auditEntries(system, organization.id, [
        { field: 'Action', value: 'Denied' },
        { field: 'EntityId', value: email },
      ]);
      expect(denied).toHaveLength(1);
      expect(denied[0]).toMatchObject({ entryType: 'JWT', organizationId: GLOBAL_ORGANIZATION });
      expect(JSON.parse(denied[0]!.afterState!)).toMatchObject({ organizationId: organization.id });
    });
  });

  it('a login to a disabled organization writes a global JWT Denied entry and no ProvisionDenied', async () => {
    const organization = await createOrganization(system, {
      name: unique('Audit Disabled Org'),
      active: false,
      adminEmails: ['boss@audit-disabled.example'],
    });
    const email = 'boss@audit-disabled.example';
    expect((await login(system, { orgId: organization.id, email })).status).toBe(403);
    await eventually(async () => {
      const denied = await auditEntries(system, organization.id, [
        { field: 'Action', value: 'Denied' },
        { field: 'EntityId', value: email },
      ]);
      expect(denied).toHaveLength(1);
      expect(denied[0]).toMatchObject({ entryType: 'JWT', organizationId: GLOBAL_ORGANIZATION });
    });
    const provision = await auditEntries(system, organization.id, [
      { field: 'Action', value: 'ProvisionDenied' },
      { field: 'EntityId', value: email },
    ]);
    expect(provision).toEqual([]);
  });
});
