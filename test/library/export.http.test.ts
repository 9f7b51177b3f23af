import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { projectPath } from '../../platform/project-path.js';
import type { PermissionName } from '../../platform/permissions/catalogue.js';
import type { LibraryFile } from '../../subgraphs/library/import-export/library-file.schemas.js';
import type { VariableSetDetailView } from '../../subgraphs/library/sets/variable-set.schemas.js';
import { eventually } from '../support/eventually.js';
import { createOrganization, expectStatus } from '../support/factories.js';
import { graphql } from '../support/graphql.js';
import type { HttpClient } from '../support/http-client.js';
import { createSet, createTagGroup, createVariable, librarianToken } from '../support/library-factories.js';
import type { Problem } from '../support/problem.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

/** VariableGetCost in this file: 2, so a charge of sets × cost cannot pass for one of sets. */
const GET_COST = 2;
const TINY_CREDITS = 5;
const EXPORTER: PermissionName[] = ['BatchProcessingExport', 'TagGroupRead', 'VariableRead'];
const SECRET = 'hunter2-is-a-long-secret';
const PORT = 8443;

let system: TestSystem;
let library: HttpClient;
let orgA: string;
let librarian: string;
let exporter: string;
let ids: {
  environment: number;
  region: number;
  tier: number;
  base: number;
  web: number;
  other: number;
  otherOrgSet: number;
  otherOrgGroup: number;
};

beforeAll(async () => {
  system = await startTestSystem({
    overrides: { 'CreditCosts:VariableGetCost': GET_COST, 'Credits:Bands': { Tiny: TINY_CREDITS } },
  });
  library = system.client('library');
  orgA = (await createOrganization(system, 'Exporting')).id;
  librarian = await librarianToken(system, orgA);
  exporter = await system.token({ organizationId: orgA, permissions: EXPORTER });
  const environment = await createTagGroup(system, librarian, 'Environment', ['Prod', 'Dev']);
  const region = await createTagGroup(system, librarian, 'Region', ['EU', 'US']);
  const tier = await createTagGroup(system, librarian, 'Tier', ['Gold']);
  const base = await createSet(system, librarian, { name: 'Base', description: 'Shared by every tier' });
  const web = await createSet(system, librarian, {
    name: 'Web',
    slug: 'web-tier',
    description: 'The web tier',
    parentVariableSetId: base.id,
  });
  const other = await createSet(system, librarian, { name: 'Other' });
  const variable = (variableSetId: number, name: string, body: Record<string, unknown>) =>
    createVariable(system, librarian, { name, variableSetId, ...body });
  await variable(base.id, 'Host', { values: [{ value: 'base.example' }] });
  await variable(base.id, 'Banner', { type: 'Multiline', values: [{ value: 'one line only' }] });
  await variable(base.id, 'Config', { type: 'Json', values: [{ value: '{"pool":5}' }] });
  await variable(base.id, 'Cert', {
    type: 'Certificate',
    values: [
      {
        value: readFileSync(
          projectPath('test', 'support', 'fixtures', 'self-signed-certificate.pem'),
          'utf8',
        ),
      },
    ],
  });
  await variable(web.id, 'Url', {
    values: [
      { value: 'https://@[Host]/api' },
      { value: 'https://eu.@[Host]/', tags: ['Region/EU', 'Environment/Prod'] },
    ],
  });
  await variable(web.id, 'ApiKey', { sensitive: true, values: [{ value: SECRET }] });
  await variable(web.id, 'Port', { type: 'Number', sensitive: true, values: [{ numberValue: PORT }] });
  await variable(web.id, 'Enabled', { type: 'Boolean', values: [{ booleanValue: true }] });
  await variable(web.id, 'Notes', { type: 'Multiline', values: [{ value: 'two\nlines' }] });
  await variable(other.id, 'Lonely', { values: [{ value: 'x', tags: ['Tier/Gold'] }] });
  const orgB = (await createOrganization(system, 'Exporting elsewhere')).id;
  const librarianB = await librarianToken(system, orgB);
  ids = {
    environment: environment.id,
    region: region.id,
    tier: tier.id,
    base: base.id,
    web: web.id,
    other: other.id,
    otherOrgSet: (await createSet(system, librarianB, { name: 'Theirs' })).id,
    otherOrgGroup: (await createTagGroup(system, librarianB, 'Theirs')).id,
  };
});

afterAll(() => system.stop());

/** GET /export with a query string made of these pairs. */
function exportOf<T = LibraryFile>(token: string | undefined, query: [string, string | number][]) {
  const search = new URLSearchParams(query.map(([key, value]): [string, string] => [key, String(value)]));
  return library.get<T>(`/export?${search.toString()}`, token ? { token } : {});
}

const sets = (...setIds: number[]): [string, number][] => setIds.map((id) => ['variableSetId', id]);
const groups = (...groupIds: number[]): [string, number][] => groupIds.map((id) => ['tagGroupId', id]);
const option = (value: string): [string, string][] => [['secretExportOption', value]];

async function credits(token: string): Promise<number> {
  const balance = await expectStatus(
    system.client('account').get<{ usedCredits: number }>('/organizations/me/credits', { token }),
    200,
  );
  return balance.usedCredits;
}

describe('spec 4.1 "Export": GET /export needs BatchProcessingExport and what it depends on (TagGroupRead, VariableRead)', () => {
  it('is 401 without a session, 403 without BatchProcessingExport or either dependency, 200 with the three', async () => {
    const query = [...groups(ids.environment), ...sets(ids.base)];
    const status = async (permissions?: PermissionName[]) =>
      (await exportOf(permissions && (await system.token({ organizationId: orgA, permissions })), query))
        .status;
    expect(await status()).toBe(401);
    expect(
      await status(['TagGroupRead', 'VariableRead', 'VariableReadSecrets', 'BatchProcessingImport']),
    ).toBe(403);
    expect(await status(['BatchProcessingExport', 'TagGroupRead'])).toBe(403);
    expect(await status(['BatchProcessingExport', 'VariableRead'])).toBe(403);
    expect(await status(EXPORTER)).toBe(200);
  });

  it('GET /permissions says what it depends on', async () => {
    const catalogue = await expectStatus(
      system.client('account').get<{ permissions: { name: string; dependsOn: string[] }[] }>('/permissions', {
        token: exporter,
      }),
      200,
    );
    expect(catalogue.permissions.find((p) => p.name === 'BatchProcessingExport')?.dependsOn).toEqual([
      'TagGroupRead',
      'VariableRead',
    ]);
  });
});

describe('spec 4.1 "Export" rule 2: neither tagGroupId nor variableSetId is 400; an id not in the organization is 404', () => {
  it('is 400 with neither, naming the parameter', async () => {
    for (const query of [[], option('Hint')]) {
      const response = await exportOf<Problem>(exporter, query);
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([
        { field: 'query.variableSetId', message: 'at least one tagGroupId or variableSetId is needed' },
      ]);
    }
  });

  it('is 400 for an option that is not Value, Hint, Hash or Blank', async () => {
    const response = await exportOf<Problem>(exporter, [...sets(ids.base), ...option('Secret')]);
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.field).toBe('query.secretExportOption');
  });

  it.each([
    [
      'a set that does not exist',
      () => [...groups(ids.environment), ...sets(ids.base, 999_999)],
      () => 'Library set 999999',
    ],
    ['a set of another organization', () => sets(ids.otherOrgSet), () => `Library set ${ids.otherOrgSet}`],
    [
      'a tag group that does not exist',
      () => [...groups(999_999), ...sets(ids.base)],
      () => 'Tag group 999999',
    ],
    [
      'a tag group of another organization',
      () => groups(ids.otherOrgGroup),
      () => `Tag group ${ids.otherOrgGroup}`,
    ],
  ])('is 404 for %s, the whole request', async (_, query, named) => {
    const response = await exportOf<Problem>(exporter, query());
    expect(response.status).toBe(404);
    expect(response.body.detail).toBe(`${named()} was not found.`);
  });
});

describe('spec 4.1 "Export" rule 3: Value needs VariableReadSecrets (403 otherwise, never downgraded); the other options need nothing more', () => {
  it('is 403 for Value without VariableReadSecrets, and 200 for Hint, Hash and Blank', async () => {
    expect((await exportOf(exporter, [...sets(ids.web), ...option('Value')])).status).toBe(403);
    for (const other of ['Hint', 'Hash', 'Blank'])
      expect((await exportOf(exporter, [...sets(ids.web), ...option(other)])).status).toBe(200);
  });

  it('is 403 for Value when VariableReadSecrets is restricted to other sets than one exported', async () => {
    const token = await system.token({
      organizationId: orgA,
      permissions: [...EXPORTER, 'VariableReadSecrets'],
      variableSets: { VariableReadSecrets: [ids.base] },
    });
    expect((await exportOf(token, [...sets(ids.base, ids.web), ...option('Value')])).status).toBe(403);
    expect((await exportOf(token, [...sets(ids.base), ...option('Value')])).status).toBe(200);
  });
});

describe("CONTRACT 6: a set outside the caller's VariableRead scope is 403; one of another organization stays 404", () => {
  it('exports the sets of its scope only', async () => {
    const token = await system.token({
      organizationId: orgA,
      permissions: EXPORTER,
      variableSets: { VariableRead: [ids.base] },
    });
    expect((await exportOf(token, sets(ids.base))).status).toBe(200);
    expect((await exportOf(token, sets(ids.base, ids.web))).status).toBe(403);
    expect((await exportOf(token, sets(ids.otherOrgSet))).status).toBe(404);
    expect((await exportOf(token, groups(ids.environment))).status).toBe(200);
  });
});

describe('spec 4.1 "Export" rule 1: exactly the groups and sets asked for, in the import shape (CONTRACT 6)', () => {
  it('writes the groups named with all their tags, and the sets named with their variables, names sorted', async () => {
    const file = await expectStatus(
      exportOf(exporter, [...groups(ids.region, ids.environment), ...sets(ids.web)]),
      200,
    );
    expect(file.tagGroups).toEqual({ Environment: ['Dev', 'Prod'], Region: ['EU', 'US'] });
    expect(Object.keys(file.tagGroups)).toEqual(['Environment', 'Region']);
    expect(Object.keys(file.librarySets)).toEqual(['Web']);
    expect(file.librarySets.Web).toEqual({
      slug: 'web-tier',
      description: 'The web tier',
      variables: {
        ApiKey: [{ value: '', sensitive: true, scopes: [] }],
        Enabled: [{ value: true, sensitive: false, scopes: [] }],
        Notes: [{ value: 'two\nlines', sensitive: false, scopes: [] }],
        Port: [{ value: '', sensitive: true, scopes: [], type: 'Number' }],
        Url: [
          { value: 'https://@[Host]/api', sensitive: false, scopes: [] },
          { value: 'https://eu.@[Host]/', sensitive: false, scopes: ['Environment/Prod', 'Region/EU'] },
        ],
      },
    });
  });

  it('writes tag groups alone, free of sets, and sets alone, without groups', async () => {
    const onlyGroups = await expectStatus(exportOf(exporter, groups(ids.tier)), 200);
    expect(onlyGroups).toEqual({ tagGroups: { Tier: ['Gold'] }, librarySets: {} });
    const onlySets = await expectStatus(exportOf(exporter, sets(ids.other)), 200);
    expect(onlySets).toEqual({
      tagGroups: {},
      librarySets: {
        Other: {
          slug: 'other',
          description: '',
          variables: { Lonely: [{ value: 'x', sensitive: false, scopes: ['Tier/Gold'] }] },
        },
      },
    });
  });

  it('is the same bytes when asked again, whatever the order of the ids', async () => {
    const first = await exportOf(exporter, [
      ...sets(ids.web, ids.base, ids.other),
      ...groups(ids.tier, ids.region),
    ]);
    const second = await exportOf(exporter, [
      ...groups(ids.region, ids.tier),
      ...sets(ids.other, ids.web, ids.base),
    ]);
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(Object.keys(first.body.librarySets)).toEqual(['Base', 'Other', 'Web']);
  });
});

describe('spec 4.1 "Export" / CONTRACT 6: a child set without its parent unless the parent is named; values as stored, not substituted', () => {
  it('leaves parent out when the parent is not in the file, and names it by its slug when it is', async () => {
    const alone = await expectStatus(exportOf(exporter, sets(ids.web)), 200);
    expect(Object.keys(alone.librarySets)).toEqual(['Web']);
    expect(alone.librarySets.Web).not.toHaveProperty('parent');
    const both = await expectStatus(exportOf(exporter, sets(ids.web, ids.base)), 200);
    expect(both.librarySets.Web?.parent).toBe('base');
    expect(both.librarySets.Base).not.toHaveProperty('parent');
  });

  it('writes @[Name] references literally, where a read of the values replaces them', async () => {
    const file = await expectStatus(exportOf(exporter, sets(ids.web)), 200);
    expect(file.librarySets.Web?.variables.Url?.[0]?.value).toBe('https://@[Host]/api');
    const resolved = await expectStatus(
      library.get<{ items: Record<string, string> }>(`/variablevalues?set=${ids.web}`, { token: librarian }),
      200,
    );
    expect(resolved.items.Url).toBe('https://base.example/api');
  });
});

describe('decisions "Export": what each secretExportOption writes in a sensitive value\'s `value`, for a String and a Number', () => {
  let stored: Map<string, { hint: string | null; hash: string | null }>;

  beforeAll(async () => {
    const web = await expectStatus(
      library.get<VariableSetDetailView>(`/variablesets/${ids.web}`, { token: librarian }),
      200,
    );
    stored = new Map(
      web.variables.map((v) => [v.name, { hint: v.values[0]!.hint, hash: v.values[0]!.hash }]),
    );
  });

  const hmac = (text: string) => createHmac('sha256', orgA).update(text).digest('hex');

  it.each([
    ['Value', () => [SECRET, PORT, undefined]],
    ['Hint', () => ['hunt', '****', 'Number']],
    ['Hash', () => [hmac(SECRET), hmac(String(PORT)), 'Number']],
    ['Blank', () => ['', '', 'Number']],
  ] as const)('%s', async (secretOption, expected) => {
    const token = await system.token({
      organizationId: orgA,
      permissions: [...EXPORTER, 'VariableReadSecrets'],
    });
    const file = await expectStatus(exportOf(token, [...sets(ids.web), ...option(secretOption)]), 200);
    const [apiKey, port, portType] = expected();
    const variables = file.librarySets.Web!.variables;
    expect(variables.ApiKey).toEqual([{ value: apiKey, sensitive: true, scopes: [] }]);
    expect(variables.Port).toEqual([
      { value: port, sensitive: true, scopes: [], ...(portType ? { type: portType } : {}) },
    ]);
    if (secretOption === 'Hint')
      expect([apiKey, port]).toEqual([stored.get('ApiKey')!.hint, stored.get('Port')!.hint]);
    if (secretOption === 'Hash')
      expect([apiKey, port]).toEqual([stored.get('ApiKey')!.hash, stored.get('Port')!.hash]);
    expect(variables.Url?.[0]?.value).toBe('https://@[Host]/api');
  });

  it('writes Blank when no option is given', async () => {
    const file = await expectStatus(exportOf(exporter, sets(ids.web)), 200);
    expect(file.librarySets.Web!.variables.ApiKey?.[0]?.value).toBe('');
  });
});

describe('decisions "Export": a value carries `type` exactly when the written values would not say their variable\'s type', () => {
  it('writes type for Json, Certificate, a Multiline without line breaks and a withheld Number; not otherwise', async () => {
    const token = await system.token({
      organizationId: orgA,
      permissions: [...EXPORTER, 'VariableReadSecrets'],
    });
    const typesOf = async (secretOption: string) => {
      const file = await expectStatus(
        exportOf(token, [...sets(ids.base, ids.web), ...option(secretOption)]),
        200,
      );
      return Object.fromEntries(
        Object.values(file.librarySets).flatMap((set) =>
          Object.entries(set.variables).map(([name, values]) => [name, values[0]?.type ?? null]),
        ),
      );
    };
    expect(await typesOf('Blank')).toEqual({
      Banner: 'Multiline',
      Cert: 'Certificate',
      Config: 'Json',
      Host: null,
      ApiKey: null,
      Enabled: null,
      Notes: null,
      Port: 'Number',
      Url: null,
    });
    expect((await typesOf('Value')).Port).toBeNull();
  });
});

describe('spec 8: an export costs VariableGetCost per set, none for tag groups, and a failing export costs nothing', () => {
  it('charges sets × VariableGetCost once it succeeds; 400, 403, 404 and a groups-only export cost nothing', async () => {
    const organizationId = (await createOrganization(system, 'Export credits')).id;
    const token = await librarianToken(system, organizationId);
    const meter = await system.token({ organizationId, permissions: EXPORTER });
    const [one, two, three] = [
      await createSet(system, token, { name: 'One' }),
      await createSet(system, token, { name: 'Two' }),
      await createSet(system, token, { name: 'Three' }),
    ];
    const group = await createTagGroup(system, token, 'Environment', ['Prod']);
    const before = await credits(token);
    expect((await exportOf(meter, [])).status).toBe(400);
    expect((await exportOf(meter, sets(one.id, 999_999))).status).toBe(404);
    expect((await exportOf(meter, [...sets(one.id), ...option('Value')])).status).toBe(403);
    const scoped = await system.token({
      organizationId,
      permissions: EXPORTER,
      variableSets: { VariableRead: [one.id] },
    });
    expect((await exportOf(scoped, sets(one.id, two.id))).status).toBe(403);
    await expectStatus(exportOf(meter, groups(group.id)), 200);
    // One id named twice is one set exported.
    await expectStatus(
      exportOf(meter, [...sets(one.id, two.id, three.id, one.id), ...groups(group.id)]),
      200,
    );
    await eventually(async () => expect(await credits(token)).toBe(before + 3 * GET_COST));
    // Spend is published within a second; waiting longer shows nothing else was.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await credits(token)).toBe(before + 3 * GET_COST);
  });

  it("is 429 with the spec's text, the required amount being every set named × VariableGetCost, and charges nothing", async () => {
    const organizationId = (await createOrganization(system, { name: 'Tiny exporter', pricingBand: 'Tiny' }))
      .id;
    const token = await librarianToken(system, organizationId);
    const meter = await system.token({ organizationId, permissions: EXPORTER });
    const named = [
      await createSet(system, token, { name: 'A' }),
      await createSet(system, token, { name: 'B' }),
      await createSet(system, token, { name: 'C' }),
    ].map((set) => set.id);
    // Two sets would fit in 5 credits, three do not: the whole request is refused, nothing written.
    const refused = await exportOf(meter, sets(...named));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(refused.text).toBe(`Insufficient credits: ${TINY_CREDITS} available, ${3 * GET_COST} required.`);
    // 404 and 403 are answered before the balance is asked, as for any billable call.
    expect((await exportOf(meter, sets(named[0]!, 999_999))).status).toBe(404);
    await expectStatus(exportOf(meter, sets(named[0]!, named[1]!)), 200);
    const again = await exportOf(meter, sets(...named));
    expect(again.text).toBe(
      `Insufficient credits: ${TINY_CREDITS - 2 * GET_COST} available, ${3 * GET_COST} required.`,
    );
    await eventually(async () => expect(await credits(token)).toBe(2 * GET_COST));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await credits(token)).toBe(2 * GET_COST);
  });
});

describe("issue 12.5: exportLibrary through the gateway, with GET /export's rules", () => {
  const EXPORT = `query ($groups: [Int!], $sets: [Int!], $option: SecretExportOption) {
    exportLibrary(tagGroupIds: $groups, variableSetIds: $sets, secretExportOption: $option)
  }`;
  const ask = (token: string, variables: Record<string, unknown>) =>
    graphql<{ exportLibrary: LibraryFile }>(system.client('gateway'), token, EXPORT, variables);

  it('answers the file GET /export answers', async () => {
    const query = [...groups(ids.environment), ...sets(ids.web, ids.base), ...option('Hint')];
    const rest = await expectStatus(exportOf(exporter, query), 200);
    const answer = await ask(exporter, {
      groups: [ids.environment],
      sets: [ids.web, ids.base],
      option: 'Hint',
    });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.exportLibrary).toEqual(rest);
    expect(JSON.stringify(answer.body.data?.exportLibrary)).toBe(JSON.stringify(rest));
  });

  it.each([
    ['neither id', () => ({}), 'BAD_REQUEST'],
    ['Value without VariableReadSecrets', () => ({ sets: [ids.web], option: 'Value' }), 'FORBIDDEN'],
    ['a set of another organization', () => ({ sets: [ids.otherOrgSet] }), 'NOT_FOUND'],
  ])('refuses %s as REST does', async (_, variables, code) => {
    const answer = await ask(exporter, variables());
    expect(answer.body.errors?.map((error) => error.extensions.code)).toEqual([code]);
  });
});
