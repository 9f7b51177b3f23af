import type { PermissionName } from '../../platform/permissions/catalogue.js';
import type { LibraryFile } from '../../subgraphs/library/import-export/library-file.schemas.js';
import type { VariableSetView } from '../../subgraphs/library/sets/variable-set.schemas.js';
import type { TagGroupView } from '../../subgraphs/library/tag-groups/tag-group.schemas.js';
import { createOrganization, expectStatus } from '../support/factories.js';
import { graphqlData } from '../support/graphql.js';
import type { HttpClient } from '../support/http-client.js';
import { LIBRARY_PERMISSIONS } from '../support/library-factories.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

/**
 * Issue 12's journey: a library imported into one organization, exported with each secret
 * option, and the Value export imported into a second organization, which then answers every
 * question exactly as the first does; through REST and through the gateway.
 */
let system: TestSystem;
let library: HttpClient;

const TRANSFER: PermissionName[] = [...LIBRARY_PERMISSIONS, 'BatchProcessingImport', 'BatchProcessingExport'];

const SECRET = 'pa55word-that-is-long-enough';

const FILE = {
  tagGroups: { Environment: ['Dev', 'Prod'], Region: ['EU', 'US', 'APAC'], Tier: ['Free', 'Pro'] },
  librarySets: {
    Platform: {
      slug: 'platform',
      description: 'What every service shares',
      variables: {
        Domain: [
          { value: 'example.dev', scopes: [] },
          { value: 'example.com', scopes: ['Environment/Prod'] },
          { value: 'eu.example.com', scopes: ['Environment/Prod', 'Region/EU'] },
        ],
        DbPassword: [
          { value: SECRET, sensitive: true, scopes: [] },
          { value: 'short', sensitive: true, scopes: ['Environment/Dev'] },
        ],
        Retries: [
          { value: 3, scopes: [] },
          { value: 5, scopes: ['Tier/Pro'] },
        ],
        Pin: [{ value: 1234, sensitive: true, scopes: [] }],
        Features: [{ value: '{"beta":true}', type: 'Json', scopes: [] }],
      },
    },
    Checkout: {
      parent: 'platform',
      variables: {
        Url: [
          { value: 'https://checkout.@[Domain]', scopes: [] },
          { value: 'https://pay.@[domain]/apac', scopes: ['Region/APAC'] },
        ],
        Dsn: [{ value: 'postgres://app:@[DbPassword]@db.@[Domain]/checkout', scopes: [] }],
        Enabled: [
          { value: true, scopes: [] },
          { value: false, scopes: ['Environment/Dev', 'Tier/Free'] },
        ],
        Banner: [{ value: 'Line one\nLine two', scopes: [] }],
        Label: [{ value: 'plain', type: 'Multiline', scopes: [] }],
      },
    },
    Standalone: {
      variables: { Literal: [{ value: '@[Unknown] stays', scopes: [] }] },
    },
  },
};

beforeAll(async () => {
  system = await startTestSystem();
  library = system.client('library');
});

afterAll(() => system.stop());

async function organization(name: string) {
  const id = (await createOrganization(system, name)).id;
  return { id, token: await system.token({ organizationId: id, permissions: TRANSFER }) };
}

async function ids(token: string): Promise<{ groups: TagGroupView[]; sets: VariableSetView[] }> {
  const groups = await expectStatus(library.get<{ items: TagGroupView[] }>('/taggroups', { token }), 200);
  const sets = await expectStatus(library.get<{ items: VariableSetView[] }>('/variablesets', { token }), 200);
  return { groups: groups.items, sets: sets.items };
}

function exportPath(groups: TagGroupView[], sets: VariableSetView[], option: string): string {
  const query = [
    ...groups.map((group) => `tagGroupId=${group.id}`),
    ...sets.map((set) => `variableSetId=${set.id}`),
    `secretExportOption=${option}`,
  ];
  return `/export?${query.join('&')}`;
}

/** Every combination of one tag per group: the questions both organizations must answer alike. */
function everyTagCombination(): string[][] {
  return Object.entries(FILE.tagGroups).reduce<string[][]>(
    (combinations, [group, tags]) =>
      combinations.flatMap((combination) => tags.map((tag) => [...combination, `${group}/${tag}`])),
    [[]],
  );
}

/** What the organization answers for each set and each combination, keyed by set name. */
async function answers(token: string): Promise<Record<string, unknown>> {
  const { sets } = await ids(token);
  const all: Record<string, unknown> = {};
  for (const set of sets) {
    for (const tags of everyTagCombination()) {
      const query = [`set=${set.id}`, ...tags.map((tag) => `tag=${tag}`)].join('&');
      const answer = await expectStatus(
        library.get<{ items: unknown }>(`/variablevalues?${query}`, { token }),
        200,
      );
      all[`${set.name} ${tags.join(' ')}`] = answer.items;
    }
  }
  return all;
}

describe('issue 12 journey: import, export with each secret option, import the Value export elsewhere, same answers (REST)', () => {
  it('round-trips a library through export and import with every answer unchanged', async () => {
    const source = await organization('Round trip source');
    await expectStatus(library.post('/import', { token: source.token, body: FILE }), 200);
    const { groups, sets } = await ids(source.token);
    expect(sets).toHaveLength(3);

    const exported: Record<string, LibraryFile> = {};
    for (const option of ['Value', 'Hint', 'Hash', 'Blank']) {
      exported[option] = await expectStatus(
        library.get<LibraryFile>(exportPath(groups, sets, option), { token: source.token }),
        200,
      );
    }
    const secretOf = (file: LibraryFile) => file.librarySets.Platform!.variables.DbPassword![0]!.value;
    expect(secretOf(exported.Value!)).toBe(SECRET);
    expect(secretOf(exported.Hint!)).toBe('pa55');
    expect(secretOf(exported.Hash!)).toMatch(/^[0-9a-f]{64}$/);
    expect(secretOf(exported.Blank!)).toBe('');
    expect(exported.Value!.librarySets.Checkout!.variables.Dsn![0]!.value).toBe(
      'postgres://app:@[DbPassword]@db.@[Domain]/checkout',
    );
    expect(exported.Value!.librarySets.Checkout!.parent).toBe('platform');

    const target = await organization('Round trip target');
    await expectStatus(library.post('/import', { token: target.token, body: exported.Value }), 200);
    expect(await answers(target.token)).toEqual(await answers(source.token));
    const again = await ids(target.token);
    const reexported = await expectStatus(
      library.get<LibraryFile>(exportPath(again.groups, again.sets, 'Value'), { token: target.token }),
      200,
    );
    expect(reexported).toEqual(exported.Value);
  });
});

describe('issue 12 journey through the gateway: exportLibrary and importLibrary give the same round trip', () => {
  it('exports with the Value option and imports into a third organization with every answer unchanged', async () => {
    const gateway = system.client('gateway');
    const source = await organization('Gateway round trip source');
    await graphqlData(
      gateway,
      source.token,
      'mutation ($file: JSONObject!) { importLibrary(file: $file) { valuesCreated } }',
      { file: FILE },
    );
    const { groups, sets } = await ids(source.token);
    const { exportLibrary } = await graphqlData<{ exportLibrary: LibraryFile }>(
      gateway,
      source.token,
      `query ($groups: [Int!], $sets: [Int!]) {
        exportLibrary(tagGroupIds: $groups, variableSetIds: $sets, secretExportOption: Value)
      }`,
      { groups: groups.map((group) => group.id), sets: sets.map((set) => set.id) },
    );
    const target = await organization('Gateway round trip target');
    await graphqlData(
      gateway,
      target.token,
      'mutation ($file: JSONObject!) { importLibrary(file: $file) { valuesCreated } }',
      { file: exportLibrary },
    );
    expect(await answers(target.token)).toEqual(await answers(source.token));
  });
});
