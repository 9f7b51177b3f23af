import { createOrganization, expectStatus } from '../support/factories.js';
import type { HttpClient } from '../support/http-client.js';
import { createSet, createVariable, librarianToken } from '../support/library-factories.js';
import type { Problem } from '../support/problem.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;
let library: HttpClient;
let organizations = 0;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit', 'library'] });
  library = system.client('library');
});

afterAll(() => system.stop());

/** A fresh organization with a librarian, so each test's names are its own. */
async function librarian(): Promise<string> {
  return librarianToken(system, (await createOrganization(system, `Cycles ${++organizations}`)).id);
}

const variablesOf = async (token: string, setId: number) =>
  (
    await expectStatus(
      library.get<{ items: { name: string }[] }>(`/variables?variableSetId=${setId}`, { token }),
      200,
    )
  ).items.map((variable) => variable.name);

describe('spec 4.1 Substitution rule 6: a reference cycle is rejected at save time with 400', () => {
  it('refuses a new variable that closes a cycle in its own set, naming the chain, and stores nothing', async () => {
    const token = await librarian();
    const set = (await createSet(system, token, { name: 'App' })).id;
    await createVariable(system, token, { name: 'A', variableSetId: set, values: [{ value: 'a-@[b]' }] });
    const refused = await expectStatus(
      library.post<Problem>('/variables', {
        token,
        body: { name: 'B', variableSetId: set, values: [{ value: 'x @[A]' }] },
      }),
      400,
    );
    expect(refused.errors).toEqual([
      { field: 'body.values', message: 'would close a reference cycle: @[B] → @[A] → @[B]' },
    ]);
    expect(await variablesOf(token, set)).toEqual(['A']);
  });

  it('refuses a variable referring to itself', async () => {
    const token = await librarian();
    const set = (await createSet(system, token, { name: 'App' })).id;
    const refused = await expectStatus(
      library.post<Problem>('/variables', {
        token,
        body: { name: 'Loop', variableSetId: set, values: [{ value: 'again @[loop]' }] },
      }),
      400,
    );
    expect(refused.detail).toContain('@[Loop] → @[Loop]');
  });

  it('checks through the set and its ancestors: a cycle with a parent set variable is refused on update, the stored values kept', async () => {
    const token = await librarian();
    const parent = (await createSet(system, token, { name: 'Parent' })).id;
    const child = (await createSet(system, token, { name: 'Child', parentVariableSetId: parent })).id;
    await createVariable(system, token, {
      name: 'Url',
      variableSetId: parent,
      values: [{ value: '@[Host]/x' }],
    });
    const host = await createVariable(system, token, {
      name: 'Host',
      variableSetId: child,
      values: [{ value: 'example.org' }],
    });
    const refused = await expectStatus(
      library.put<Problem>(`/variables/${host.id}`, {
        token,
        body: { version: host.version, values: [{ value: 'www.@[URL]' }] },
      }),
      400,
    );
    expect(refused.errors?.[0]?.message).toBe('would close a reference cycle: @[Host] → @[Url] → @[Host]');
    const stored = await expectStatus(
      library.get<{ version: number; values: { value: string }[] }>(`/variables/${host.id}`, { token }),
      200,
    );
    expect(stored).toMatchObject({ version: host.version, values: [{ value: 'example.org' }] });
  });

  it('looks only at the own set and its ancestors: a parent value naming a variable of a child set is saved, and left literal where it would loop', async () => {
    const token = await librarian();
    const parent = (await createSet(system, token, { name: 'Parent' })).id;
    const child = (await createSet(system, token, { name: 'Child', parentVariableSetId: parent })).id;
    await createVariable(system, token, {
      name: 'Inner',
      variableSetId: child,
      values: [{ value: 'in @[Outer]' }],
    });
    await createVariable(system, token, {
      name: 'Outer',
      variableSetId: parent,
      values: [{ value: '<@[Inner]>' }],
    });
    const values = await expectStatus(
      library.get<{ items: Record<string, string> }>(`/variablevalues?set=${child}`, { token }),
      200,
    );
    // Substituted in walk order: Outer (in the root) first, so Inner's reference back to it stays literal.
    expect(values.items).toEqual({ Inner: 'in @[Outer]', Outer: '<in @[Outer]>' });
  });

  it('a rename that closes a cycle is blamed on the name; a sensitive value is never scanned, so it closes none', async () => {
    const token = await librarian();
    const set = (await createSet(system, token, { name: 'App' })).id;
    await createVariable(system, token, { name: 'A', variableSetId: set, values: [{ value: '@[B]' }] });
    const other = await createVariable(system, token, {
      name: 'C',
      variableSetId: set,
      values: [{ value: '@[A]' }],
    });
    const refused = await expectStatus(
      library.put<Problem>(`/variables/${other.id}`, { token, body: { version: other.version, name: 'B' } }),
      400,
    );
    expect(refused.errors).toEqual([
      { field: 'body.name', message: 'would close a reference cycle: @[B] → @[A] → @[B]' },
    ]);
    await createVariable(system, token, {
      name: 'B',
      variableSetId: set,
      sensitive: true,
      values: [{ value: 'secret @[A]' }],
    });
  });

  it('a set given a parent whose variables close a cycle with its own is refused, its parent unchanged', async () => {
    const token = await librarian();
    const left = (await createSet(system, token, { name: 'Left' })).id;
    const right = await createSet(system, token, { name: 'Right' });
    const leaf = (await createSet(system, token, { name: 'Leaf', parentVariableSetId: right.id })).id;
    await createVariable(system, token, { name: 'P', variableSetId: left, values: [{ value: '@[Q]' }] });
    await createVariable(system, token, { name: 'Q', variableSetId: leaf, values: [{ value: '@[P]' }] });
    const refused = await expectStatus(
      library.put<Problem>(`/variablesets/${right.id}`, {
        token,
        body: { version: right.version, parentVariableSetId: left },
      }),
      400,
    );
    expect(refused.errors).toEqual([
      { field: 'body.parentVariableSetId', message: 'would close a reference cycle: @[Q] → @[P] → @[Q]' },
    ]);
    const stored = await expectStatus(
      library.get<{ parentVariableSetId: number | null }>(`/variablesets/${right.id}`, { token }),
      200,
    );
    expect(stored.parentVariableSetId).toBeNull();
  });

  it('two writers each closing half of a cycle at once: one of them is refused', async () => {
    const token = await librarian();
    const set = (await createSet(system, token, { name: 'App' })).id;
    const statuses = await Promise.all(
      [
        { name: 'X', values: [{ value: '@[Y]' }] },
        { name: 'Y', values: [{ value: '@[X]' }] },
      ].map(
        async (body) =>
          (await library.post('/variables', { token, body: { ...body, variableSetId: set } })).status,
      ),
    );
    expect(statuses.sort()).toEqual([200, 400]);
  });
});
