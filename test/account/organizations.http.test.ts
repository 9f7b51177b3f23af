import { randomUUID } from 'node:crypto';
import { PERMISSION_CATALOGUE } from '../../platform/permissions/catalogue.js';
import type {
  OrganizationView,
  SignInView,
} from '../../subgraphs/account/organizations/organization.schemas.js';
import type { ApiKeyCreatedView } from '../../subgraphs/account/api-keys/api-key.schemas.js';
import type { GroupView } from '../../subgraphs/account/groups/group.schemas.js';
import type { UserView } from '../../subgraphs/account/users/user.schemas.js';
import type { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { eventually } from '../support/eventually.js';
import type { Problem } from '../support/problem.js';
import { onDatabase, sha256Hex } from './account-test-helpers.js';
import {
  ORGANIZATION_PERMISSIONS,
  createGroup,
  createUser,
  expectStatus,
  setMembers,
} from '../support/factories.js';
import { auditEntries, conditionsAbout } from '../support/audit-log.js';

/** A valid Entra application (client) id and tenant: both are checked for their shape. */
const ENTRA_CLIENT = '11111111-2222-3333-4444-555555555555';
const ENTRA_TENANT = 'contoso.onmicrosoft.com';

let system: TestSystem;
let account: HttpClient;
let globalAdmin: string;
const home = randomUUID();

beforeAll(async () => {
  system = await startTestSystem({
    processes: ['account', 'audit'],
    overrides: { 'Credits:Bands': { Pro: 5000 } },
  });
  account = system.client('account');
  globalAdmin = await system.token({
    organizationId: home,
    permissions: [
      'GlobalOrganizationList',
      'GlobalOrganizationRead',
      'GlobalOrganizationCreate',
      'GlobalOrganizationUpdate',
      'GlobalOrganizationDelete',
      'AuditList',
      'AuditRead',
    ],
  });
});

afterAll(() => system.stop());

const create = (body: Record<string, unknown>, token = globalAdmin) =>
  account.post<OrganizationView>('/organizations', { token, body });

describe('spec 4.2 / CONTRACT 3: POST /organizations creates an organization and its Administrators group', () => {
  it('answers the organization with its id and no client secret', async () => {
    const response = await create({
      name: 'Contoso',
      accountPatterns: ['@contoso\\.com$'],
      adminEmails: ['admin@contoso.com'],
      providers: [
        {
          provider: 'Entra',
          clientId: ENTRA_CLIENT,
          tenantId: ENTRA_TENANT,
          clientSecret: 's3cr3t-value',
        },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Contoso',
      active: true,
      additionalCredits: 0,
      usedCredits: 0,
      totalCredits: 1000,
      providers: [
        { provider: 'Entra', clientId: ENTRA_CLIENT, tenantId: ENTRA_TENANT, hasClientSecret: true },
      ],
    });
    expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.text).not.toContain('s3cr3t-value');
  });

  it('creates the Administrators group holding exactly the permissions the catalogue does not mark global', async () => {
    const organization = (await create({ name: 'Fabrikam' })).body;
    const admin = await system.token({ organizationId: organization.id, permissions: ['UserList'] });
    const groups = await account.get<{ items: GroupView[] }>('/groups', { token: admin });
    expect(groups.body.items.map((g) => g.name)).toEqual(['Administrators']);
    // Derived from the catalogue's globalPermission flag, not from the service's own list.
    const notGlobal = PERMISSION_CATALOGUE.filter((p) => !p.globalPermission).map((p) => p.name);
    expect([...groups.body.items[0]!.permissions].sort()).toEqual([...notGlobal].sort());
    expect(groups.body.items[0]!.permissions).not.toContain('PermissionsAllGlobal');
    expect(groups.body.items[0]!.variableSetIds).toEqual([]);
  });

  it('needs GlobalOrganizationCreate', async () => {
    const token = await system.token({ organizationId: home, permissions: ['GlobalOrganizationRead'] });
    expect((await create({ name: 'Nope' }, token)).status).toBe(403);
  });

  it('a name already in use, without regard to case, is 409', async () => {
    await create({ name: 'Northwind' });
    expect((await create({ name: 'NORTHWIND' })).status).toBe(409);
  });

  it.each([
    [{}, 'body.name'],
    [{ name: 'X', adminEmails: ['not-an-address'] }, 'body.adminEmails[0]'],
    [{ name: 'X', additionalCredits: -1 }, 'body.additionalCredits'],
    [{ name: 'X', providers: [{ provider: 'Okta', clientId: 'a' }] }, 'body.providers[0].provider'],
    [{ name: 'X', logo: 'not base64!', logoContentType: 'image/png' }, 'body.logo'],
    [{ name: 'X', pricingBand: 'Gold' }, 'body.pricingBand'],
  ])('a bad body %j is 400 naming %s', async (body, field) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.text).toContain(field);
  });

  it("spec 6: writes an Organization Create and a Group Create audit entry in the caller's organization", async () => {
    const organization = (await create({ name: 'Audited Org' })).body;
    await eventually(async () => {
      const entries = await auditEntries(system, home, conditionsAbout('Organization', organization.id));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ action: 'Create', beforeState: null });
      expect(JSON.parse(entries[0]!.afterState!)).toMatchObject({ name: 'Audited Org' });
    });
  });
});

describe("spec 4.2: the global organization endpoints are not scoped to the caller's organization", () => {
  it("lists and reads organizations other than the caller's", async () => {
    const organization = (await create({ name: 'Elsewhere Ltd' })).body;
    const list = await account.get<{ total: number; items: OrganizationView[] }>('/organizations', {
      token: globalAdmin,
    });
    expect(list.body.items.map((o) => o.id)).toContain(organization.id);
    const read = await account.get<OrganizationView>(`/organizations/${organization.id}`, {
      token: globalAdmin,
    });
    expect(read.body.name).toBe('Elsewhere Ltd');
  });

  it('list takes take and skip, with the total counted before paging', async () => {
    const all = await account.get<{ total: number; items: unknown[] }>('/organizations', {
      token: globalAdmin,
    });
    const page = await account.get<{ total: number; items: unknown[] }>('/organizations?take=1&skip=1', {
      token: globalAdmin,
    });
    expect(page.body.total).toBe(all.body.total);
    expect(page.body.items).toHaveLength(1);
  });

  it('each needs its own global permission', async () => {
    const organization = (await create({ name: 'Guarded' })).body;
    const weak = await system.token({
      organizationId: organization.id,
      permissions: ['UserList', 'UserRead'],
    });
    expect((await account.get('/organizations', { token: weak })).status).toBe(403);
    expect((await account.get(`/organizations/${organization.id}`, { token: weak })).status).toBe(403);
    expect(
      (await account.put(`/organizations/${organization.id}`, { token: weak, body: { name: 'x' } })).status,
    ).toBe(403);
    expect((await account.delete(`/organizations/${organization.id}`, { token: weak })).status).toBe(403);
  });

  it('an unknown id is 404', async () => {
    expect((await account.get(`/organizations/${randomUUID()}`, { token: globalAdmin })).status).toBe(404);
  });
});

describe('spec 4.2: PUT and DELETE /organizations/{id}', () => {
  it("updates, keeping a provider's stored secret when none is sent, and increments the version", async () => {
    const created = (
      await create({
        name: 'Renamed Co',
        providers: [{ provider: 'Google', clientId: 'g-1', clientSecret: 'keep-me' }],
      })
    ).body;
    const response = await account.put<OrganizationView>(`/organizations/${created.id}`, {
      token: globalAdmin,
      body: {
        name: 'Renamed Company',
        version: created.version,
        providers: [{ provider: 'Google', clientId: 'g-1' }],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'Renamed Company', version: created.version + 1 });
    expect(response.body.providers[0]!.hasClientSecret).toBe(true);
  });

  it('CONTRACT 6: a stale version is 409 and changes nothing', async () => {
    const created = (await create({ name: 'Versioned' })).body;
    await account.put(`/organizations/${created.id}`, { token: globalAdmin, body: { name: 'Versioned 2' } });
    const stale = await account.put(`/organizations/${created.id}`, {
      token: globalAdmin,
      body: { name: 'Versioned 3', version: created.version },
    });
    expect(stale.status).toBe(409);
    const read = await account.get<OrganizationView>(`/organizations/${created.id}`, { token: globalAdmin });
    expect(read.body.name).toBe('Versioned 2');
  });

  it('CONTRACT 6: DELETE answers 200 with the removed organization, and it is gone', async () => {
    const created = (await create({ name: 'Short Lived' })).body;
    const response = await account.delete<OrganizationView>(`/organizations/${created.id}`, {
      token: globalAdmin,
    });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(created.id);
    expect((await account.get(`/organizations/${created.id}`, { token: globalAdmin })).status).toBe(404);
  });
});

describe('spec 4.2: GET /organizations/{id}/signin answers only for an active organization', () => {
  it('is anonymous and answers id, name, logo, logoContentType, customCss and providers without secrets', async () => {
    const created = (
      await create({
        name: 'Signin Corp',
        logo: Buffer.from('png-bytes').toString('base64'),
        logoContentType: 'image/png',
        customCss: '.login-button { color: #ffffff; background-color: #0a66c2 }',
        providers: [
          {
            provider: 'Entra',
            clientId: ENTRA_CLIENT,
            tenantId: ENTRA_TENANT,
            clientSecret: 'hidden-secret',
          },
        ],
      })
    ).body;
    const response = await account.get<SignInView>(`/organizations/${created.id}/signin`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: created.id,
      name: 'Signin Corp',
      logo: Buffer.from('png-bytes').toString('base64'),
      logoContentType: 'image/png',
      providers: [{ provider: 'Entra', clientId: ENTRA_CLIENT, tenantId: ENTRA_TENANT }],
    });
    expect(response.body.customCss).toContain('#0a66c2');
    expect(Object.keys(response.body.providers[0]!)).toEqual(['provider', 'clientId', 'tenantId']);
    expect(response.text).not.toContain('hidden-secret');
  });

  it('is 404 for a disabled organization and for an unknown one', async () => {
    const created = (await create({ name: 'Disabled Inc', active: false })).body;
    expect((await account.get(`/organizations/${created.id}/signin`)).status).toBe(404);
    expect((await account.get(`/organizations/${randomUUID()}/signin`)).status).toBe(404);
  });

  it('spec 2: custom CSS is filtered against the allow-list when saved', async () => {
    const created = (
      await create({
        name: 'Css Corp',
        customCss:
          '@import url(https://evil.example/x.css); .a { color: red; background: url(javascript:alert(1)) }',
      })
    ).body;
    expect(created.customCss).not.toMatch(/url|import|javascript/i);
    expect(created.customCss).toContain('color');
  });
});

describe('spec 4.2 / CONTRACT 3: GET /organizations/me/credits', () => {
  it('answers usedCredits and totalCredits = included credits + additional credits, for any session', async () => {
    const created = (await create({ name: 'Credits Inc', additionalCredits: 250 })).body;
    const member = await system.token({ organizationId: created.id, permissions: [] });
    const response = await account.get<{ usedCredits: number; totalCredits: number }>(
      '/organizations/me/credits',
      { token: member },
    );
    expect(response.body).toEqual({ usedCredits: 0, totalCredits: 1250 });
  });

  it('is 401 without a token', async () => {
    expect((await account.get('/organizations/me/credits')).status).toBe(401);
  });
});

const put = (id: string, body: Record<string, unknown>) =>
  account.put<OrganizationView>(`/organizations/${id}`, { token: globalAdmin, body });

const read = async (id: string) =>
  expectStatus(account.get<OrganizationView>(`/organizations/${id}`, { token: globalAdmin }), 200);

/** Everything but what any update changes: the name, the version and the update time. */
const unchangedPart = ({ name: _n, version: _v, updatedAt: _u, ...rest }: OrganizationView) => rest;

describe('decision "Updates": PUT /organizations/{id} changes only the fields it sends', () => {
  let full: OrganizationView;

  beforeEach(async () => {
    full = await expectStatus(
      create({
        name: `Full ${randomUUID()}`,
        active: false,
        accountPatterns: ['@full\\.example$'],
        adminEmails: ['boss@full.example'],
        additionalCredits: 50,
        pricingBand: 'Pro',
        providers: [
          { provider: 'Google', clientId: 'g-1.apps.googleusercontent.com', clientSecret: 'google-secret' },
          { provider: 'Entra', clientId: ENTRA_CLIENT, tenantId: ENTRA_TENANT, clientSecret: 'entra-secret' },
        ],
        logo: Buffer.from('png-bytes').toString('base64'),
        logoContentType: 'image/png',
        customCss: '.login-button { color: #ffffff }',
      }),
      200,
    );
  });

  it('only {name}: every other field keeps its stored value (disabled stays disabled, providers keep their secrets)', async () => {
    const renamed = await expectStatus(put(full.id, { name: `${full.name} renamed` }), 200);
    expect(renamed.name).toBe(`${full.name} renamed`);
    expect(renamed.version).toBe(full.version + 1);
    expect(unchangedPart(renamed)).toEqual(unchangedPart(full));
    expect(unchangedPart(await read(full.id))).toEqual(unchangedPart(full));
    expect(renamed.providers.every((provider) => provider.hasClientSecret)).toBe(true);
    expect(renamed).toMatchObject({ active: false, pricingBand: 'Pro', totalCredits: 5050 });
    expect((await account.get(`/organizations/${full.id}/signin`)).status).toBe(404);
  });

  it('an empty body changes nothing but the version', async () => {
    const same = await expectStatus(put(full.id, {}), 200);
    expect({ ...same, version: full.version, updatedAt: full.updatedAt }).toEqual(full);
  });

  it('null clears the band, the logo with its type and the CSS; an empty list clears a list; the rest stays', async () => {
    const cleared = await expectStatus(
      put(full.id, {
        pricingBand: null,
        logo: null,
        logoContentType: null,
        customCss: null,
        accountPatterns: [],
        providers: [],
      }),
      200,
    );
    expect(cleared).toMatchObject({
      pricingBand: null,
      totalCredits: 1050,
      logo: null,
      logoContentType: null,
      customCss: null,
      accountPatterns: [],
      providers: [],
      active: false,
      adminEmails: ['boss@full.example'],
      additionalCredits: 50,
    });
  });

  it('a field sent replaces the stored one', async () => {
    const changed = await expectStatus(put(full.id, { active: true, additionalCredits: 7 }), 200);
    expect(changed).toMatchObject({ active: true, additionalCredits: 7, totalCredits: 5007 });
    expect(changed.accountPatterns).toEqual(full.accountPatterns);
    expect((await account.get(`/organizations/${full.id}/signin`)).status).toBe(200);
  });
});

describe('CONTRACT 6: two PUTs sent with the same version: one succeeds, the other is 409 (no lost update)', () => {
  it('holds round after round', async () => {
    const created = (await create({ name: `Raced ${randomUUID()}` })).body;
    for (let round = 0; round < 4; round += 1) {
      const { version } = await read(created.id);
      const names = [`Left ${round}`, `Right ${round}`];
      const answers = await Promise.all(names.map((name) => put(created.id, { name, version })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const winner = answers.find((answer) => answer.status === 200)!.body;
      expect(await read(created.id)).toMatchObject({ name: winner.name, version: version + 1 });
    }
  });
});

describe('decisions "Organization bodies and responses" / "Account patterns": a body that cannot work is refused (400 naming the field), on POST and PUT', () => {
  const entra = { provider: 'Entra', clientId: ENTRA_CLIENT, tenantId: ENTRA_TENANT };
  const logo = Buffer.from('png-bytes').toString('base64');
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'an Entra provider without a tenant',
      { providers: [{ ...entra, tenantId: undefined }] },
      'body.providers[0].tenantId',
    ],
    [
      'an Entra provider with tenant common',
      { providers: [{ ...entra, tenantId: 'common' }] },
      'body.providers[0].tenantId',
    ],
    [
      'an Entra tenant that is not a domain or GUID',
      { providers: [{ ...entra, tenantId: 'evil.com/x' }] },
      'body.providers[0].tenantId',
    ],
    [
      'an Entra client id that is not a GUID',
      { providers: [{ ...entra, clientId: 'app-1' }] },
      'body.providers[0].clientId',
    ],
    ['a provider without a client id', { providers: [{ provider: 'Google' }] }, 'body.providers[0].clientId'],
    [
      'the same provider and client id twice',
      { providers: [entra, { ...entra, clientSecret: 'x' }] },
      'body.providers[1]',
    ],
    ['a logo without its content type', { logo }, 'body.logoContentType'],
    ['a content type without a logo', { logoContentType: 'image/png' }, 'body.logo'],
    [
      'an SVG logo (it could carry script)',
      { logo, logoContentType: 'image/svg+xml' },
      'body.logoContentType',
    ],
    ['a logo cleared without its type', { logo: null }, 'body.logoContentType'],
    [
      'an account pattern RE2 cannot compile (a backreference)',
      { accountPatterns: ['@fine\\.example$', '^(a)\\1@'] },
      'body.accountPatterns[1]',
    ],
    [
      'an account pattern that is not a regular expression',
      { accountPatterns: ['['] },
      'body.accountPatterns[0]',
    ],
    ['an account pattern with lookahead', { accountPatterns: ['(?=admin)'] }, 'body.accountPatterns[0]'],
  ];

  it.each(cases)('POST with %s', async (_case, body, field) => {
    const response = await account.post<Problem>('/organizations', {
      token: globalAdmin,
      body: { name: `Refused ${randomUUID()}`, ...body },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors?.map((error) => error.field)).toContain(field);
  });

  it.each(cases)('PUT with %s, which changes nothing', async (_case, body, field) => {
    const created = (await create({ name: `Kept ${randomUUID()}` })).body;
    const response = await account.put<Problem>(`/organizations/${created.id}`, { token: globalAdmin, body });
    expect(response.status).toBe(400);
    expect(response.body.errors?.map((error) => error.field)).toContain(field);
    expect(await read(created.id)).toEqual(created);
  });

  it('two providers of different kinds, or of one kind with different client ids, are fine', async () => {
    const response = await create({
      name: `Two Providers ${randomUUID()}`,
      providers: [
        entra,
        { ...entra, clientId: '99999999-2222-3333-4444-555555555555' },
        { provider: 'Google', clientId: 'g.apps.googleusercontent.com' },
      ],
    });
    expect(response.status).toBe(200);
  });
});

describe('spec 6: an update writes an Organization Update entry with both states, a delete a Delete entry with the before state only', () => {
  it('records both', async () => {
    const created = (await create({ name: `Audited ${randomUUID()}` })).body;
    const updated = await expectStatus(
      put(created.id, { name: `${created.name} 2`, additionalCredits: 3 }),
      200,
    );
    const removed = await expectStatus(
      account.delete<OrganizationView>(`/organizations/${created.id}`, { token: globalAdmin }),
      200,
    );
    await eventually(async () => {
      const entries = await auditEntries(system, home, conditionsAbout('Organization', created.id));
      const update = entries.find((entry) => entry.action === 'Update');
      const deletion = entries.find((entry) => entry.action === 'Delete');
      expect(JSON.parse(update!.beforeState!)).toEqual(created);
      expect(JSON.parse(update!.afterState!)).toEqual(updated);
      expect(update!.version).toBe(created.version + 1);
      expect(JSON.parse(deletion!.beforeState!)).toEqual(removed);
      expect(deletion!.afterState).toBeNull();
    });
  });
});

describe('spec 2: custom CSS is filtered when saved, on POST and on PUT, over HTTP', () => {
  // Hostile samples of the filter's unit corpus, each after a harmless rule that must survive.
  const hostile = [
    'a { background: url(http://evil.example/x.png) }',
    'a { background: u\\rl(http://evil.example/x) }',
    '@import url(http://evil.example/x.css);',
    "@IMPORT 'x.css' screen;",
    'a { width: expression(alert(1)) }',
    'a { width: expr/**/ession(alert(1)) }',
    'a { \\62 ehavior: url(x.htc) }',
    'd\\69 v { color: red }',
    '</style><script>alert(1)</script>',
  ];
  const harmless = '.login-button { color: #ffffff; background-color: #0a66c2 }';
  const expectFiltered = (css: string | null) => {
    expect(css).toBe('.login-button{color:#ffffff;background-color:#0a66c2}');
  };

  it.each(hostile)('POST keeps the harmless rule and drops %s', async (sample) => {
    const created = await expectStatus(
      create({ name: `Css ${randomUUID()}`, customCss: `${harmless} ${sample}` }),
      200,
    );
    expectFiltered(created.customCss);
    const signIn = await account.get<SignInView>(`/organizations/${created.id}/signin`);
    expectFiltered(signIn.body.customCss);
  });

  it.each(hostile)('PUT keeps the harmless rule and drops %s', async (sample) => {
    const created = (await create({ name: `Css ${randomUUID()}` })).body;
    const updated = await expectStatus(put(created.id, { customCss: `${harmless} ${sample}` }), 200);
    expectFiltered(updated.customCss);
    expectFiltered((await read(created.id)).customCss);
  });

  it('is idempotent through the API: saving the filtered text again gives the same text', async () => {
    const created = await expectStatus(
      create({ name: `Css ${randomUUID()}`, customCss: `${harmless} ${hostile.join(' ')}` }),
      200,
    );
    const again = await expectStatus(put(created.id, { customCss: created.customCss }), 200);
    expect(again.customCss).toBe(created.customCss);
    expectFiltered(again.customCss);
  });

  it('CSS of which nothing survives is stored as none', async () => {
    const created = await expectStatus(create({ name: `Css ${randomUUID()}`, customCss: hostile[0] }), 200);
    expect(created.customCss).toBeNull();
  });
});

describe('spec 4.2: deleting organizations', () => {
  it('the organization the caller is signed in to cannot be deleted (409), and stays', async () => {
    const created = (await create({ name: `Own ${randomUUID()}` })).body;
    const insider = await system.token({
      organizationId: created.id,
      permissions: ['GlobalOrganizationDelete', 'GlobalOrganizationRead'],
    });
    const response = await account.delete<Problem>(`/organizations/${created.id}`, { token: insider });
    expect(response.status).toBe(409);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await account.get(`/organizations/${created.id}`, { token: globalAdmin })).status).toBe(200);
  });

  it('removes its accounts, groups and keys, and writes a Delete entry for each (spec 3: the audit entry keeps the record)', async () => {
    const created = (await create({ name: `Doomed ${randomUUID()}` })).body;
    const person = await createUser(system, created.id, { name: 'Doomed Person' });
    const robot = await createUser(system, created.id, { name: 'Doomed Robot', serviceAccount: true });
    const group = await createGroup(system, created.id, { name: 'Doomed Group', permissions: ['TagList'] });
    await setMembers(system, created.id, group.id, [person.id, robot.id]);
    const admin = await system.token({ organizationId: created.id, permissions: ORGANIZATION_PERMISSIONS });
    const key = await expectStatus(
      account.post<ApiKeyCreatedView>(`/users/${robot.id}/apikeys`, {
        token: admin,
        body: { description: 'doomed key' },
      }),
      201,
    );
    const lookup = () => account.post('/apikeys/lookup', { body: { sha: sha256Hex(key.apiKey) } });
    expect((await lookup()).status).toBe(200);
    const groups = await expectStatus(account.get<{ items: GroupView[] }>('/groups', { token: admin }), 200);
    const users = await expectStatus(account.get<{ items: UserView[] }>('/users', { token: admin }), 200);

    await expectStatus(account.delete(`/organizations/${created.id}`, { token: globalAdmin }), 200);

    expect((await lookup()).status).toBe(404);
    for (const user of [person, robot]) {
      expect((await account.get(`/users/${user.id}`, { token: admin })).status).toBe(404);
    }
    expect((await account.get(`/groups/${group.id}`, { token: admin })).status).toBe(404);
    await eventually(async () => {
      for (const user of users.items) {
        const [entry] = await auditEntries(system, home, conditionsAbout('User', user.id));
        expect(entry).toMatchObject({ action: 'Delete', afterState: null });
        expect(JSON.parse(entry!.beforeState!)).toEqual(user);
      }
      for (const stored of groups.items) {
        const entries = await auditEntries(system, home, conditionsAbout('Group', stored.id, 'Delete'));
        expect(entries).toHaveLength(1);
        expect(JSON.parse(entries[0]!.beforeState!)).toEqual(stored);
      }
      const [keyEntry] = await auditEntries(system, home, conditionsAbout('UserApiKey', key.id));
      expect(keyEntry).toMatchObject({ action: 'Delete', afterState: null });
      expect(JSON.parse(keyEntry!.beforeState!)).toMatchObject({
        id: key.id,
        hint: key.hint,
        description: 'doomed key',
        userId: robot.id,
      });
      expect(keyEntry!.beforeState).not.toContain(key.apiKey);
    });
  });
});

describe('spec 6 / decisions "Row locks": deleting an organization locks what it removes before recording it, so a concurrent change is neither lost nor recorded stale', () => {
  it('a key minted and an account renamed while the organization is deleted: each is refused (404), or recorded by the delete as it ended up', async () => {
    for (let round = 0; round < 8; round++) {
      const doomed = (await create({ name: `Raced delete ${randomUUID()}` })).body;
      const robot = await createUser(system, doomed.id, { name: 'Raced Robot', serviceAccount: true });
      const admin = await system.token({ organizationId: doomed.id, permissions: ORGANIZATION_PERMISSIONS });
      const [mint, rename, removal] = await Promise.all([
        account.post<ApiKeyCreatedView>(`/users/${robot.id}/apikeys`, {
          token: admin,
          body: { description: `raced ${round}` },
        }),
        account.put<UserView>(`/users/${robot.id}`, { token: admin, body: { name: `Renamed ${round}` } }),
        account.delete(`/organizations/${doomed.id}`, { token: globalAdmin }),
      ]);
      expect([round, removal.status]).toEqual([round, 200]);
      expect([201, 404]).toContain(mint.status);
      expect([200, 404]).toContain(rename.status);
      await eventually(async () => {
        if (mint.status === 201) {
          const keyEntries = await auditEntries(system, home, conditionsAbout('UserApiKey', mint.body.id));
          expect(keyEntries.map((entry) => entry.action)).toEqual(['Delete']);
        }
        const [userEntry] = await auditEntries(system, home, conditionsAbout('User', robot.id, 'Delete'));
        expect(JSON.parse(userEntry!.beforeState!)).toMatchObject(
          rename.status === 200
            ? { name: `Renamed ${round}`, version: rename.body.version }
            : { name: 'Raced Robot', version: robot.version },
        );
      });
    }
  });
});

describe('decisions "Organization bodies and responses": the sign-in details never serve a logo of a type no longer allowed', () => {
  it('an SVG logo stored before SVG was refused is left out (logo and logoContentType null); the global read still shows it, to be replaced', async () => {
    const created = (
      await create({
        name: `Old Svg ${randomUUID()}`,
        logo: Buffer.from('png-bytes').toString('base64'),
        logoContentType: 'image/png',
      })
    ).body;
    const svg = Buffer.from('<svg onload="alert(1)"/>').toString('base64');
    await onDatabase(
      system,
      `update "account"."organization" set logo = $1, logo_content_type = 'image/svg+xml' where id = $2`,
      [svg, created.id],
    );
    const response = await account.get<SignInView>(`/organizations/${created.id}/signin`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: created.id, logo: null, logoContentType: null });
    expect(response.text).not.toContain(svg);
    expect(await read(created.id)).toMatchObject({ logo: svg, logoContentType: 'image/svg+xml' });
  });
});

describe('spec 3: a disabled organization stops answering sign-in details', () => {
  it('GET /organizations/{id}/signin is 404 once a PUT sets active false, and 200 again once it sets it true', async () => {
    const created = (await create({ name: `Switched ${randomUUID()}` })).body;
    expect((await account.get(`/organizations/${created.id}/signin`)).status).toBe(200);
    await expectStatus(put(created.id, { active: false }), 200);
    expect((await account.get(`/organizations/${created.id}/signin`)).status).toBe(404);
    await expectStatus(put(created.id, { active: true }), 200);
    expect((await account.get(`/organizations/${created.id}/signin`)).status).toBe(200);
  });
});
