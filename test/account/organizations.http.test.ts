import { randomUUID } from 'node:crypto';
import type { OrganizationView, SignInView } from '../../subgraphs/account/services/organization.schemas.js';
import type { GroupView } from '../../subgraphs/account/services/group.schemas.js';
import { ORGANIZATION_ADMINISTRATOR_PERMISSIONS } from '../../subgraphs/account/services/organization.service.js';
import type { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { eventually } from '../support/eventually.js';

let system: TestSystem;
let account: HttpClient;
let globalAdmin: string;
const home = randomUUID();

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit'] });
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
          clientId: 'app-1',
          tenantId: 'contoso.onmicrosoft.com',
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
        { provider: 'Entra', clientId: 'app-1', tenantId: 'contoso.onmicrosoft.com', hasClientSecret: true },
      ],
    });
    expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.text).not.toContain('s3cr3t-value');
  });

  it('creates the Administrators group holding every permission that is not global', async () => {
    const organization = (await create({ name: 'Fabrikam' })).body;
    const admin = await system.token({ organizationId: organization.id, permissions: ['UserList'] });
    const groups = await account.get<{ items: GroupView[] }>('/groups', { token: admin });
    expect(groups.body.items.map((g) => g.name)).toEqual(['Administrators']);
    expect(groups.body.items[0]!.permissions).toEqual(ORGANIZATION_ADMINISTRATOR_PERMISSIONS);
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
    [{ name: 'X', logo: 'not base64!' }, 'body.logo'],
    [{ name: 'X', pricingBand: 'Gold' }, 'body.pricingBand'],
  ])('a bad body %j is 400 naming %s', async (body, field) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.text).toContain(field);
  });

  it("spec 6: writes an Organization Create and a Group Create audit entry in the caller's organization", async () => {
    const organization = (await create({ name: 'Audited Org' })).body;
    await eventually(async () => {
      const entries = await system.client('audit').post<{
        items: {
          entryType: string;
          action: string;
          afterState: string | null;
          beforeState: string | null;
        }[];
      }>('/filter?take=100', {
        token: globalAdmin,
        body: [
          { field: 'EntryType', operatorType: 'eq', value: 'Organization' },
          { field: 'EntityId', operatorType: 'eq', value: organization.id },
        ],
      });
      expect(entries.body.items).toHaveLength(1);
      expect(entries.body.items[0]).toMatchObject({ action: 'Create', beforeState: null });
      expect(JSON.parse(entries.body.items[0]!.afterState!)).toMatchObject({ name: 'Audited Org' });
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
        providers: [{ provider: 'Entra', clientId: 'c', tenantId: 't', clientSecret: 'hidden-secret' }],
      })
    ).body;
    const response = await account.get<SignInView>(`/organizations/${created.id}/signin`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: created.id,
      name: 'Signin Corp',
      logo: Buffer.from('png-bytes').toString('base64'),
      logoContentType: 'image/png',
      providers: [{ provider: 'Entra', clientId: 'c', tenantId: 't' }],
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
