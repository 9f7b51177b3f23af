import { createOrganization, createUser } from '../support/factories.js';
import { graphql, graphqlData } from '../support/graphql.js';
import type { HttpClient } from '../support/http-client.js';
import { LIBRARY_PERMISSIONS } from '../support/library-factories.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;
let gateway: HttpClient;
let organizationId: string;
let librarian: string;
let authorId: string;

beforeAll(async () => {
  system = await startTestSystem();
  gateway = system.client('gateway');
  organizationId = (await createOrganization(system, 'GraphQL library')).id;
  authorId = (await createUser(system, organizationId, { name: 'Gail Grapher' })).id;
  librarian = await system.token({
    organizationId,
    accountId: authorId,
    permissions: [...LIBRARY_PERMISSIONS, 'UserRead'],
  });
});

afterAll(() => system.stop());

interface SetAnswer {
  variableSet: {
    name: string;
    parentVariableSetId: number | null;
    createdBy: { id: string; name: string } | null;
    variables: {
      name: string;
      type: string;
      values: { value: string | null; hint: string | null; tags: { name: string }[] }[];
    }[];
  };
}

const READ_SET = `query ($id: Int!) {
  variableSet(id: $id) {
    name parentVariableSetId createdBy { id name }
    variables { name type values { value hint tags { name } } }
  }
}`;

describe('issue 10.8 / spec 4.1 through the gateway: a small library made and read through GraphQL', () => {
  let setId: number;

  beforeAll(async () => {
    const { createTagGroup: group } = await graphqlData<{ createTagGroup: { id: number } }>(
      gateway,
      librarian,
      'mutation { createTagGroup(input: { name: "Environment" }) { id } }',
    );
    for (const name of ['Prod', 'Dev']) {
      await graphqlData(
        gateway,
        librarian,
        'mutation ($input: TagInput!) { createTag(input: $input) { id } }',
        {
          input: { name, tagGroupId: group.id },
        },
      );
    }
    const { createVariableSet: parent } = await graphqlData<{ createVariableSet: { id: number } }>(
      gateway,
      librarian,
      'mutation { createVariableSet(input: { name: "Base" }) { id } }',
    );
    const { createVariableSet: set } = await graphqlData<{ createVariableSet: { id: number } }>(
      gateway,
      librarian,
      'mutation ($input: VariableSetInput!) { createVariableSet(input: $input) { id } }',
      { input: { name: 'Web', parentVariableSetId: parent.id } },
    );
    setId = set.id;
    await graphqlData(
      gateway,
      librarian,
      'mutation ($input: VariableInput!) { createVariable(input: $input) { id } }',
      {
        input: {
          name: 'DbPassword',
          variableSetId: setId,
          sensitive: true,
          values: [
            { value: 'correct horse battery staple', tags: ['Environment/Prod'] },
            { value: 'devpass', tags: ['environment/Dev'] },
          ],
        },
      },
    );
    await graphqlData(
      gateway,
      librarian,
      'mutation ($input: VariableInput!) { createVariable(input: $input) { id } }',
      {
        input: { name: 'Port', variableSetId: setId, type: 'Number', values: [{ numberValue: 8080 }] },
      },
    );
  });

  it('reads it back with VariableReadSecrets: the values themselves, tags, and the author as a User of the account subgraph', async () => {
    const { variableSet } = await graphqlData<SetAnswer>(gateway, librarian, READ_SET, { id: setId });
    expect(variableSet.createdBy).toEqual({ id: authorId, name: 'Gail Grapher' });
    expect(
      variableSet.variables.map((v) => [
        v.name,
        v.type,
        v.values.map((value) => [value.value, value.tags.map((t) => t.name)]),
      ]),
    ).toEqual([
      [
        'DbPassword',
        'String',
        [
          ['correct horse battery staple', ['Prod']],
          ['devpass', ['Dev']],
        ],
      ],
      ['Port', 'Number', [[null, []]]],
    ]);
  });

  it('reads it back without VariableReadSecrets: secrets empty beside their hint, as REST withholds them', async () => {
    const reader = await system.token({ organizationId, permissions: ['VariableRead', 'UserRead'] });
    const { variableSet } = await graphqlData<SetAnswer>(gateway, reader, READ_SET, { id: setId });
    expect(variableSet.variables[0]!.values.map((value) => [value.value, value.hint])).toEqual([
      ['', 'corr'],
      ['', '*******'],
    ]);
  });

  it('refuses as REST does: without the permission FORBIDDEN, a set of another organization NOT_FOUND, a cycle BAD_REQUEST', async () => {
    const nobody = await system.token({ organizationId, permissions: [] });
    const refused = await graphql(gateway, nobody, READ_SET, { id: setId });
    expect(refused.body.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    const stranger = await system.token({ permissions: LIBRARY_PERMISSIONS });
    const foreign = await graphql(gateway, stranger, READ_SET, { id: setId });
    expect(foreign.body.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    const cycle = await graphql(
      gateway,
      librarian,
      'mutation ($id: Int!, $input: VariableSetUpdateInput!) { updateVariableSet(id: $id, input: $input) { id } }',
      { id: setId, input: { parentVariableSetId: setId } },
    );
    expect(cycle.body.errors?.[0]?.extensions.code).toBe('BAD_REQUEST');
  });
});
