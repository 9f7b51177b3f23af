import type { TagGroupView } from '../../subgraphs/library/tag-groups/tag-group.schemas.js';
import { eventually } from '../support/eventually.js';
import { createOrganization, expectStatus } from '../support/factories.js';
import { createSet, createTagGroup, createVariable, librarianToken } from '../support/library-factories.js';
import type { Problem } from '../support/problem.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

/** The balance the account service answers the organization. */
async function credits(
  system: TestSystem,
  token: string,
): Promise<{ usedCredits: number; totalCredits: number }> {
  return expectStatus(system.client('account').get('/organizations/me/credits', { token }), 200);
}

describe('spec 8 "Credit rules": GET /variables/{id} and GET /variablesets/{id} cost VariableGetCost; only a 2xx is charged', () => {
  let system: TestSystem;
  let organizationId: string;
  let token: string;

  beforeAll(async () => {
    system = await startTestSystem({
      processes: ['account', 'audit', 'library'],
      overrides: { 'Credits:IncludedCredits': 5 },
    });
    organizationId = (await createOrganization(system, 'Metered')).id;
    token = await librarianToken(system, organizationId);
  });

  afterAll(() => system.stop());

  it('charges 1 per read, none for lists, writes, 404 or 403, and answers 429 with the exact text once the organization cannot afford it', async () => {
    const library = system.client('library');
    const set = await createSet(system, token, { name: 'Metered set' });
    const variable = await createVariable(system, token, {
      name: 'Metered',
      variableSetId: set.id,
      values: [{ value: 'x' }],
    });
    await expectStatus(library.get('/variablesets', { token }), 200);
    await expectStatus(library.get('/variables', { token }), 200);
    expect((await library.get('/variables/999999', { token })).status).toBe(404);
    const forbidden = await system.token({ organizationId, permissions: [] });
    expect((await library.get(`/variables/${variable.id}`, { token: forbidden })).status).toBe(403);
    await expectStatus(library.get(`/variables/${variable.id}`, { token }), 200);
    await expectStatus(library.get(`/variablesets/${set.id}`, { token }), 200);
    await expectStatus(library.get(`/variables/${variable.id}`, { token }), 200);
    await expectStatus(library.get(`/variablesets/${set.id}`, { token }), 200);
    await expectStatus(library.get(`/variables/${variable.id}`, { token }), 200);
    const refused = await library.get(`/variables/${variable.id}`, { token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(refused.text).toBe('Insufficient credits: 0 available, 1 required.');
    await eventually(async () =>
      expect(await credits(system, token)).toEqual({ usedCredits: 5, totalCredits: 5 }),
    );
    expect((await library.get(`/variablesets/${set.id}`, { token })).text).toBe(
      'Insufficient credits: 0 available, 1 required.',
    );
  });
});

describe('spec 8: the credit costs are read on every request; 0 makes a call free', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await startTestSystem({
      processes: ['account', 'audit', 'library'],
      overrides: { 'CreditCosts:VariableGetCost': 0 },
    });
  });

  afterAll(() => system.stop());

  it('reads cost nothing with VariableGetCost 0', async () => {
    const token = await librarianToken(system, (await createOrganization(system, 'Free')).id);
    const set = await createSet(system, token, { name: 'Free set' });
    for (let read = 0; read < 3; read++)
      await expectStatus(system.client('library').get(`/variablesets/${set.id}`, { token }), 200);
    // Spend is published within a second; waiting longer shows none was.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await credits(system, token)).usedCredits).toBe(0);
  });
});

describe('spec 7 / spec 8.5: without the account service, a billable read is 500 and names are left out', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await startTestSystem({ processes: ['audit', 'library'] });
  });

  afterAll(() => system.stop());

  it('a balance that cannot be read is 500; everything else answers, without author names', async () => {
    const accountId = '7a4f1f6e-6a3e-4f21-9c55-0a1e2c3d4e5f';
    const token = await system.token({
      accountId,
      permissions: ['TagGroupCreate', 'TagGroupRead', 'VariableCreate', 'VariableRead'],
    });
    const group = await createTagGroup(system, token, 'Unnamed');
    expect(group.createdById).toBe(accountId);
    expect(group).not.toHaveProperty('createdBy');
    const read = await expectStatus(
      system.client('library').get<TagGroupView>(`/taggroups/${group.id}`, { token }),
      200,
    );
    expect(read).not.toHaveProperty('updatedBy');
    const set = await createSet(system, token, { name: 'Unbillable' });
    const billable = await system.client('library').get<Problem>(`/variablesets/${set.id}`, { token });
    expect(billable.status).toBe(500);
    expect(billable.body.detail).not.toMatch(/account|127\.0\.0\.1/);
  });
});
