import type { PermissionName } from '../../platform/permissions/catalogue.js';
import type { ImportResultView } from '../../subgraphs/library/import-export/import.schemas.js';
import type {
  VariableSetDetailView,
  VariableSetView,
} from '../../subgraphs/library/sets/variable-set.schemas.js';
import type { TagGroupView } from '../../subgraphs/library/tag-groups/tag-group.schemas.js';
import type { VariableView } from '../../subgraphs/library/variables/variable.schemas.js';
import { auditEntries, conditionsAbout } from '../support/audit-log.js';
import { eventually } from '../support/eventually.js';
import { graphql, graphqlData } from '../support/graphql.js';
import { createOrganization, expectStatus } from '../support/factories.js';
import type { HttpClient } from '../support/http-client.js';
import {
  createSet,
  createTagGroup,
  createVariable,
  IMPORTER,
  LIBRARY_PERMISSIONS,
  librarianToken,
} from '../support/library-factories.js';
import type { Problem } from '../support/problem.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;
let library: HttpClient;

const REPLACER: PermissionName[] = [...IMPORTER, 'TagGroupDelete', 'TagDelete', 'VariableDelete'];

beforeAll(async () => {
  system = await startTestSystem();
  library = system.client('library');
});

afterAll(() => system.stop());

/** A fresh organization with an importer's and a librarian's token. */
async function organization(name: string) {
  const id = (await createOrganization(system, name)).id;
  return {
    id,
    importer: await system.token({ organizationId: id, permissions: REPLACER }),
    librarian: await librarianToken(system, id),
  };
}

function importFile(token: string, body: unknown, replaceExisting?: boolean) {
  return library.post<ImportResultView & Problem>(
    `/import${replaceExisting === undefined ? '' : `?replaceExisting=${replaceExisting}`}`,
    { token, body },
  );
}

/** The flat values of a set for some tags, as a program reads them. */
async function resolved(token: string, setId: number, tags: string[] = []): Promise<Record<string, string>> {
  const query = [`set=${setId}`, ...tags.map((tag) => `tag=${encodeURIComponent(tag)}`)].join('&');
  return (
    await expectStatus(
      library.get<{ items: Record<string, string> }>(`/variablevalues?${query}`, { token }),
      200,
    )
  ).items;
}

async function setsByName(token: string): Promise<Map<string, VariableSetView>> {
  const page = await expectStatus(library.get<{ items: VariableSetView[] }>('/variablesets', { token }), 200);
  return new Map(page.items.map((set) => [set.name, set]));
}

async function variablesOf(token: string, setId: number): Promise<VariableView[]> {
  return (await expectStatus(library.get<VariableSetDetailView>(`/variablesets/${setId}`, { token }), 200))
    .variables;
}

const FILE = {
  tagGroups: { Environment: ['Dev', 'Prod'], Region: ['EU', 'US'] },
  librarySets: {
    Base: {
      slug: 'base',
      description: 'Shared',
      variables: {
        Host: [
          { value: 'example.com', scopes: [] },
          { value: 'prod.example.com', scopes: ['Environment/Prod'] },
        ],
        Port: [{ value: 8080, scopes: [] }],
        Debug: [
          { value: true, scopes: [] },
          { value: false, scopes: ['environment/Prod'] },
        ],
        Settings: [{ value: '{"a":1}', type: 'Json', scopes: [] }],
        ApiKey: [{ value: 'sk-live-0123456789abcdef', sensitive: true, scopes: [] }],
      },
    },
    'Web API': {
      parent: 'base',
      variables: {
        Url: [
          { value: 'https://@[Host]:@[Port]', scopes: [] },
          { value: 'https://eu.@[Host]', scopes: ['Region/EU', 'Environment/Prod'] },
        ],
        Notes: [{ value: 'line one\nline two', scopes: [] }],
      },
    },
  },
};

describe('spec 4.1 "Import": POST /import needs BatchProcessingImport and what it depends on', () => {
  it('401 without a session, 403 without the permission or one of its dependencies, or restricted to chosen sets; a replace also needs the Delete permissions', async () => {
    const { id } = await organization('Import permissions');
    const token = (
      permissions: PermissionName[],
      variableSets?: Parameters<TestSystem['token']>[0]['variableSets'],
    ) => system.token({ organizationId: id, permissions, variableSets });
    const empty = { tagGroups: {}, librarySets: {} };
    expect((await library.post('/import', { body: empty })).status).toBe(401);
    expect((await importFile(await token(LIBRARY_PERMISSIONS), empty)).status).toBe(403);
    expect(
      (await importFile(await token(IMPORTER.filter((p) => p !== 'VariableCreate')), empty)).status,
    ).toBe(403);
    expect(
      (await importFile(await token(IMPORTER, { VariableCreate: [1], VariableList: [1] }), empty)).status,
    ).toBe(403);
    expect((await importFile(await token(IMPORTER), empty, true)).status).toBe(403);
    expect((await importFile(await token(IMPORTER), empty)).status).toBe(200);
    expect((await importFile(await token(REPLACER), empty, true)).status).toBe(200);
  });
});

describe('spec 4.1 "Import": a file merged into an empty library creates every group, tag, set, variable and value it names', () => {
  let org: Awaited<ReturnType<typeof organization>>;
  let result: ImportResultView;

  beforeAll(async () => {
    org = await organization('Import merge');
    result = await expectStatus(importFile(org.importer, FILE), 200);
  });

  it('answers every counter of the spec, and no notes', () => {
    expect(result).toEqual({
      replaced: false,
      tagGroupsCreated: 2,
      tagGroupsSkipped: 0,
      tagsCreated: 4,
      tagsSkipped: 0,
      librarySetsCreated: 2,
      librarySetsSkipped: 0,
      variablesCreated: 7,
      variablesSkipped: 0,
      valuesCreated: 10,
      tagGroupsDeleted: 0,
      tagsDeleted: 0,
      librarySetsDeleted: 0,
      variablesDeleted: 0,
      valuesDeleted: 0,
      notes: [],
    });
  });

  it('makes sets with their slug, description and parent named by slug (decisions "Set slugs"), and variables of the types their values say', async () => {
    const sets = await setsByName(org.librarian);
    const base = sets.get('Base')!;
    const web = sets.get('Web API')!;
    expect(base).toMatchObject({ slug: 'base', description: 'Shared', parentVariableSetId: null });
    expect(web).toMatchObject({ slug: 'web-api', description: '', parentVariableSetId: base.id });
    const types = Object.fromEntries(
      [...(await variablesOf(org.librarian, base.id)), ...(await variablesOf(org.librarian, web.id))].map(
        (v) => [v.name, [v.type, v.sensitive]],
      ),
    );
    expect(types).toEqual({
      Host: ['String', false],
      Port: ['Number', false],
      Debug: ['Boolean', false],
      Settings: ['Json', false],
      ApiKey: ['String', true],
      Url: ['String', false],
      Notes: ['Multiline', false],
    });
  });

  it('resolves as the file says: scopes by Group/Tag, inheritance from the parent, references substituted', async () => {
    const web = (await setsByName(org.librarian)).get('Web API')!;
    expect(await resolved(org.librarian, web.id)).toEqual({
      Host: 'example.com',
      Port: '8080',
      Debug: 'true',
      Settings: '{"a":1}',
      ApiKey: 'sk-live-0123456789abcdef',
      Url: 'https://example.com:8080',
      Notes: 'line one\nline two',
    });
    expect(await resolved(org.librarian, web.id, ['Environment/Prod', 'Region/EU'])).toMatchObject({
      Host: 'prod.example.com',
      Debug: 'false',
      Url: 'https://eu.prod.example.com',
    });
  });

  it('spec 2 "Sensitive values": needs no secret permission, and a sensitive value gets the hint and hash a write through the API gives it', async () => {
    const base = (await setsByName(org.librarian)).get('Base')!;
    const imported = (await variablesOf(org.librarian, base.id)).find((v) => v.name === 'ApiKey')!;
    const other = await createSet(system, org.librarian, { name: 'Compare' });
    const written = await createVariable(system, org.librarian, {
      name: 'ApiKey',
      variableSetId: other.id,
      sensitive: true,
      values: [{ value: 'sk-live-0123456789abcdef' }],
    });
    expect(imported.values[0]).toMatchObject({
      hint: 'sk-l',
      hash: written.values[0]!.hash,
      sensitive: true,
    });
    expect(IMPORTER).not.toContain('VariableReadSecrets');
  });

  it('spec 6: writes exactly one LibraryImport entry, Merge, the organization as the entity, the counts as afterState without notes', async () => {
    const entries = await eventually(async () => {
      const found = await auditEntries(system, org.id, conditionsAbout('LibraryImport', org.id));
      expect(found).toHaveLength(1);
      return found;
    });
    expect(entries[0]).toMatchObject({ action: 'Merge', entityName: 'Organization', entityId: org.id });
    const { notes, ...counts } = result;
    expect(notes).toEqual([]);
    expect(JSON.parse(entries[0]!.afterState!)).toEqual(counts);
    expect(await auditEntries(system, org.id, [{ field: 'EntryType', value: 'TagGroup' }])).toEqual([]);
    expect(await auditEntries(system, org.id, [{ field: 'EntryType', value: 'Variable' }])).toHaveLength(1);
  });
});

describe('spec 4.1 "Import": names are the identity; what exists is left alone with one note each', () => {
  it('a matched group gains the tags it lacks, a matched set only the variables it lacks, and each one left alone has its note', async () => {
    const org = await organization('Import again');
    const group = await createTagGroup(system, org.librarian, 'environment', ['Prod']);
    const parent = await createSet(system, org.librarian, { name: 'Elsewhere' });
    const set = await createSet(system, org.librarian, { name: 'base', description: 'Mine' });
    await createVariable(system, org.librarian, {
      name: 'HOST',
      variableSetId: set.id,
      values: [{ value: 'kept' }],
    });
    const result = await expectStatus(
      importFile(org.importer, {
        tagGroups: { Environment: ['Dev', 'Prod'] },
        librarySets: {
          Base: {
            description: 'Ignored',
            parent: 'elsewhere',
            variables: { Host: [{ value: 'replaced?' }], Port: [{ value: 1 }] },
          },
        },
      }),
      200,
    );
    expect(result).toMatchObject({
      tagGroupsCreated: 0,
      tagGroupsSkipped: 1,
      tagsCreated: 1,
      tagsSkipped: 1,
      librarySetsCreated: 0,
      librarySetsSkipped: 1,
      variablesCreated: 1,
      variablesSkipped: 1,
      valuesCreated: 1,
    });
    expect(result.notes).toEqual([
      'Tag group "environment" exists; left alone, only the tags it lacks were added.',
      'Tag "environment/Prod" exists; left alone.',
      'Library set "base" exists; left alone, only the variables it lacks were added.',
      'Variable "Host" of library set "Base" exists; left alone.',
    ]);
    const tags = (
      await expectStatus(library.get<TagGroupView>(`/taggroups/${group.id}`, { token: org.librarian }), 200)
    ).tags;
    expect(tags.map((tag) => tag.name).sort()).toEqual(['Dev', 'Prod']);
    const reread = (await setsByName(org.librarian)).get('base')!;
    expect(reread).toMatchObject({ description: 'Mine', parentVariableSetId: null });
    expect(parent.id).not.toBe(reread.parentVariableSetId);
    expect(await resolved(org.librarian, set.id)).toEqual({ HOST: 'kept', Port: '1' });
  });

  it('a parent may be a set the organization has, by its slug', async () => {
    const org = await organization('Import parent');
    const parent = await createSet(system, org.librarian, { name: 'Platform Defaults' });
    await createVariable(system, org.librarian, {
      name: 'Inherited',
      variableSetId: parent.id,
      values: [{ value: 'yes' }],
    });
    await expectStatus(
      importFile(org.importer, { librarySets: { Child: { parent: 'platform-defaults', variables: {} } } }),
      200,
    );
    const child = (await setsByName(org.librarian)).get('Child')!;
    expect(child.parentVariableSetId).toBe(parent.id);
    expect(await resolved(org.librarian, child.id)).toEqual({ Inherited: 'yes' });
  });
});

describe('spec 4.1 "Import": replaceExisting=true empties the library first', () => {
  it('removes every group, tag, set, variable and value, counts them, and writes a Replace entry', async () => {
    const org = await organization('Import replace');
    await createTagGroup(system, org.librarian, 'Old', ['A', 'B']);
    const old = await createSet(system, org.librarian, { name: 'Old set' });
    const child = await createSet(system, org.librarian, { name: 'Old child', parentVariableSetId: old.id });
    await createVariable(system, org.librarian, {
      name: 'X',
      variableSetId: child.id,
      values: [{ value: '1' }, { value: '2', tags: ['Old/A'] }],
    });
    const result = await expectStatus(importFile(org.importer, FILE, true), 200);
    expect(result).toMatchObject({
      replaced: true,
      tagGroupsDeleted: 1,
      tagsDeleted: 2,
      librarySetsDeleted: 2,
      variablesDeleted: 1,
      valuesDeleted: 2,
      tagGroupsCreated: 2,
      librarySetsCreated: 2,
    });
    expect([...(await setsByName(org.librarian)).keys()].sort()).toEqual(['Base', 'Web API']);
    expect((await library.get(`/variablesets/${old.id}`, { token: org.librarian })).status).toBe(404);
    await eventually(async () =>
      expect(
        await auditEntries(system, org.id, conditionsAbout('LibraryImport', org.id, 'Replace')),
      ).toHaveLength(1),
    );
  });
});

describe('spec 4.1 "Import" / CONTRACT 6: a file breaking a rule the API would refuse is 400 saying where, and nothing is written', () => {
  let org: Awaited<ReturnType<typeof organization>>;
  let keptSet: number;

  beforeAll(async () => {
    org = await organization('Import refusals');
    keptSet = (await createSet(system, org.librarian, { name: 'Kept' })).id;
    await createVariable(system, org.librarian, {
      name: 'Still',
      variableSetId: keptSet,
      values: [{ value: 'here' }],
    });
  });

  const base = (variables: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
    tagGroups: { Env: ['Prod', 'Dev'] },
    librarySets: { Refused: { variables, ...more } },
  });

  it.each([
    [
      'two values of one variable with the same scopes',
      base({
        X: [
          { value: 'a', scopes: ['Env/Prod'] },
          { value: 'b', scopes: ['env/Prod'] },
        ],
      }),
      'body.librarySets.Refused.variables.X[1].scopes',
    ],
    ['a parent that names nothing', base({}, { parent: 'nowhere' }), 'body.librarySets.Refused.parent'],
    [
      'a sensitive Boolean',
      base({ Flag: [{ value: true, sensitive: true }] }),
      'body.librarySets.Refused.variables.Flag[0].sensitive',
    ],
    [
      'a value of the wrong type',
      base({ Port: [{ value: 1 }, { value: 'two', scopes: ['Env/Dev'] }] }),
      'body.librarySets.Refused.variables.Port',
    ],
    [
      'a value not of its named type',
      base({ Doc: [{ value: '{not json', type: 'Json' }] }),
      'body.librarySets.Refused.variables.Doc[0].value',
    ],
    [
      'a malformed scope',
      base({ X: [{ value: 'a', scopes: ['NoSlash'] }] }),
      'body.librarySets.Refused.variables.X[0].scopes[0]',
    ],
    [
      'a scope naming no tag of the file or the organization',
      base({ X: [{ value: 'a', scopes: ['Env/Staging'] }] }),
      'body.librarySets.Refused.variables.X[0].scopes[0]',
    ],
    [
      'a field the file shape does not have',
      base({ X: [{ value: 'a', scope: ['Env/Prod'] }] }),
      'body.librarySets.Refused.variables.X[0]',
    ],
    [
      'a reference cycle',
      base({ A: [{ value: '@[B]' }], B: [{ value: 'x @[a]' }] }),
      'body.librarySets.Refused.variables.A',
    ],
    [
      'two variables named alike without regard to case',
      base({ Name: [{ value: 'a' }], NAME: [{ value: 'b' }] }),
      'body.librarySets.Refused.variables.NAME',
    ],
    [
      'a set name with a space, blamed by a quoted JSON path',
      { librarySets: { 'Web API': { variables: { X: [{ value: 1, type: 'Boolean' }] } } } },
      'body.librarySets["Web API"].variables.X[0].value',
    ],
  ])('%s', async (_rule, file, field) => {
    for (const replace of [false, true]) {
      const refused = await importFile(org.importer, file, replace);
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.map((error) => error.field)).toContain(field);
    }
    expect([...(await setsByName(org.librarian)).keys()]).toEqual(['Kept']);
    expect(await resolved(org.librarian, keptSet)).toEqual({ Still: 'here' });
  });

  it('spec 2 "Library set" rule 1: parents among the file\'s sets that make a cycle, naming it', async () => {
    const refused = await importFile(org.importer, {
      librarySets: { A: { parent: 'c' }, B: { parent: 'a' }, C: { parent: 'b' } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'body.librarySets.A.parent', message: 'makes a set its own ancestor: "A" → "C" → "B" → "A"' },
    ]);
    expect([...(await setsByName(org.librarian)).keys()]).toEqual(['Kept']);
  });

  it('decisions "Import": a reference cycle closed with a variable the organization has is refused too', async () => {
    await createVariable(system, org.librarian, {
      name: 'Loop',
      variableSetId: keptSet,
      values: [{ value: '@[Back]' }],
    });
    const refused = await importFile(org.importer, {
      librarySets: { Kept: { variables: { Back: [{ value: '@[Loop]' }] } } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('would close a reference cycle');
    expect(refused.body.errors?.[0]?.field).toBe('body.librarySets.Kept.variables.Back');
  });
});

describe('spec 4.1 "Import" through the gateway: importLibrary(file, replaceExisting) with the same rules', () => {
  const IMPORT = `mutation ($file: JSONObject!, $replace: Boolean!) {
    importLibrary(file: $file, replaceExisting: $replace) { replaced librarySetsCreated variablesCreated valuesCreated notes }
  }`;

  it('imports the file as POST /import does, refuses a bad one naming its path under args.file, and needs the permission', async () => {
    const org = await organization('Import GraphQL');
    const gateway = system.client('gateway');
    const imported = await graphqlData<{ importLibrary: Partial<ImportResultView> }>(
      gateway,
      org.importer,
      IMPORT,
      {
        file: FILE,
        replace: false,
      },
    );
    expect(imported.importLibrary).toEqual({
      replaced: false,
      librarySetsCreated: 2,
      variablesCreated: 7,
      valuesCreated: 10,
      notes: [],
    });
    const web = (await setsByName(org.librarian)).get('Web API')!;
    expect((await resolved(org.librarian, web.id)).Url).toBe('https://example.com:8080');

    const refused = await graphql(gateway, org.importer, IMPORT, {
      file: { librarySets: { Bad: { variables: { Flag: [{ value: true, sensitive: true }] } } } },
      replace: true,
    });
    expect(refused.body.errors?.[0]?.extensions.code).toBe('BAD_REQUEST');
    expect(refused.body.errors?.[0]?.message).toContain(
      'args.file.librarySets.Bad.variables.Flag[0].sensitive',
    );
    expect((await setsByName(org.librarian)).has('Web API')).toBe(true);

    const reader = await system.token({ organizationId: org.id, permissions: LIBRARY_PERMISSIONS });
    const forbidden = await graphql(gateway, reader, IMPORT, { file: FILE, replace: false });
    expect(forbidden.body.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
  });
});
