import { hashOf } from './sensitive-values.js';
import { planImport, tagKey, type ExistingLibrary, type ImportFile, type ImportPlan } from './import-plan.js';

const ORGANIZATION = '6f1c2b3a-0000-4000-8000-000000000001';
const EMPTY: ExistingLibrary = { groups: [], tags: [], sets: [], variableNames: new Map() };

function planned(file: ImportFile, existing: ExistingLibrary = EMPTY): ImportPlan {
  const outcome = planImport(ORGANIZATION, file, existing);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome.plan;
}

function problems(file: ImportFile, existing: ExistingLibrary = EMPTY) {
  const outcome = planImport(ORGANIZATION, file, existing);
  if (outcome.ok) throw new Error('the file was planned');
  return outcome.problems;
}

const value = (v: string | number | boolean, scopes: string[] = [], more = {}) => ({
  value: v,
  sensitive: false,
  scopes,
  ...more,
});

describe('spec 4.1 "Import": a file planned against the library as it is', () => {
  it('orders created sets parents first, wherever the file lists them, and points at existing parents by slug', () => {
    const plan = planned(
      {
        tagGroups: {},
        librarySets: {
          Grandchild: { parent: 'child', variables: {} },
          Child: { parent: 'root', variables: {} },
          Root: { parent: 'existing', variables: {} },
        },
      },
      { ...EMPTY, sets: [{ id: 7, name: 'Existing', slug: 'existing' }] },
    );
    expect(plan.sets.map((set) => [set.name, set.parent])).toEqual([
      ['Root', { existing: 7 }],
      ['Child', { created: 0 }],
      ['Grandchild', { created: 1 }],
    ]);
  });

  it('keeps each variable with its own set when sets are reordered parents first', () => {
    const plan = planned({
      tagGroups: {},
      librarySets: {
        Child: { parent: 'parent', variables: { OfChild: [value('c')] } },
        Parent: { variables: { OfParent: [value('p')] } },
      },
    });
    expect(plan.sets.map((set) => set.name)).toEqual(['Parent', 'Child']);
    expect(
      plan.variables.map((v) => [v.name, plan.sets[(v.set as { created: number }).created]!.name]),
    ).toEqual([
      ['OfChild', 'Child'],
      ['OfParent', 'Parent'],
    ]);
  });

  it('decisions "Set slugs": a slug the file names is kept before a derived one is numbered around it', () => {
    const plan = planned(
      {
        tagGroups: {},
        librarySets: { Web: { variables: {} }, Other: { slug: 'web', variables: {} } },
      },
      { ...EMPTY, sets: [{ id: 1, name: 'Old', slug: 'WEB-2' }] },
    );
    expect(plan.sets.map((set) => [set.name, set.slug])).toEqual([
      ['Web', 'web-3'],
      ['Other', 'web'],
    ]);
  });

  it('spec 2 "Sensitive values": hint and hash come from the one derivation, a Number from its plain decimal', () => {
    const plan = planned({
      tagGroups: {},
      librarySets: {
        S: {
          variables: {
            Key: [value('correct horse battery staple', [], { sensitive: true })],
            Pin: [value(1e21, [], { sensitive: true })],
          },
        },
      },
    });
    expect(plan.variables.map((v) => [v.name, v.sensitive, v.values[0]!.marks])).toEqual([
      ['Key', true, { hint: 'corr', hash: hashOf(ORGANIZATION, 'correct horse battery staple') }],
      ['Pin', true, { hint: '1000', hash: hashOf(ORGANIZATION, '1000000000000000000000') }],
    ]);
  });

  it('matches scopes by group without regard to case and tag with it, each tag once', () => {
    const plan = planned({
      tagGroups: { Env: ['Prod', 'prod'] },
      librarySets: {
        S: { variables: { X: [value('a', ['env/Prod', 'ENV/Prod']), value('b', ['Env/prod'])] } },
      },
    });
    expect(plan.variables[0]!.values.map((v) => v.scopes)).toEqual([
      [tagKey('Env', 'Prod')],
      [tagKey('Env', 'prod')],
    ]);
    expect(plan.counts.tagsCreated).toBe(2);
  });

  it('names every problem of a file at once, each at its path', () => {
    expect(
      problems({
        tagGroups: { Env: ['Prod', 'Prod'], env: [] },
        librarySets: {
          S: {
            variables: {
              Mixed: [value(1), value('1', ['Env/Prod'])],
              Typed: [value('a', [], { type: 'String' }), value('b', ['Env/Prod'], { type: 'Multiline' })],
            },
          },
        },
      }),
    ).toEqual([
      { path: ['tagGroups', 'Env', 1], message: 'repeats tag 0' },
      {
        path: ['tagGroups', 'env'],
        message: 'names the same tag group as "Env" (group names are compared without regard to case)',
      },
      {
        path: ['librarySets', 'S', 'variables', 'Mixed'],
        message: 'has values of different kinds (texts, numbers, true or false): name its type with "type"',
      },
      {
        path: ['librarySets', 'S', 'variables', 'Typed', 1, 'type'],
        message: 'differs from the type of value 0: a variable has one type',
      },
    ]);
  });

  it("never puts a value's text in a problem: it may be a secret", () => {
    const found = problems({
      tagGroups: {},
      librarySets: {
        S: { variables: { Secret: [value('has\nbreak', [], { sensitive: true, type: 'String' })] } },
      },
    });
    expect(found).toHaveLength(1);
    expect(JSON.stringify(found)).not.toContain('has\\nbreak');
  });
});
