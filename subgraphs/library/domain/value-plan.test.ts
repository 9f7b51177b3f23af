import { hashOf } from './sensitive-values.js';
import { planStoredValues, planWrittenValues, type CurrentValue } from './value-plan.js';

const ORG = '3f7a0a4e-0000-4000-8000-000000000001';
const known = [
  { id: 1, name: 'Prod', groupName: 'Environment' },
  { id: 2, name: 'EU', groupName: 'Region' },
];
const stored = (id: number, value: string, tagIds: number[]): CurrentValue => ({
  id,
  stored: { value, numberValue: null, booleanValue: null },
  tagIds,
});

describe("spec 2 Variable rules 1 and 4: a write's values, typed, tagged and each combination once", () => {
  it('types each value, finds its tags, and keeps the id of the stored value with the same tags', () => {
    const plan = planWrittenValues(
      ORG,
      { type: 'String', sensitive: false },
      [
        { value: 'a', tags: ['Region/EU', 'environment/Prod'] },
        { value: 'b', tags: [] },
      ],
      known,
      [stored(7, 'old', [1, 2]), stored(8, 'gone', [2])],
    );
    expect(plan).toEqual({
      ok: true,
      values: [
        {
          keepId: 7,
          stored: { value: 'a', numberValue: null, booleanValue: null },
          tagIds: [2, 1],
          marks: null,
        },
        {
          keepId: undefined,
          stored: { value: 'b', numberValue: null, booleanValue: null },
          tagIds: [],
          marks: null,
        },
      ],
    });
  });

  it("names every value not of its type, and an id that is not the variable's", () => {
    const plan = planWrittenValues(
      ORG,
      { type: 'Number', sensitive: false },
      [
        { value: '1', tags: [] },
        { id: 99, numberValue: 2, tags: [] },
      ],
      known,
      [],
    );
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.problems.map((p) => p.kind === 'invalid' && `${p.index}.${p.field}`)).toEqual([
      '0.value',
      '1.id',
    ]);
  });

  it('reports a repeated combination once the values are all typed', () => {
    const plan = planWrittenValues(
      ORG,
      { type: 'String', sensitive: false },
      [
        { value: 'a', tags: [1] },
        { value: 'b', tags: ['Environment/Prod'] },
      ],
      known,
      [],
    );
    expect(plan).toEqual({ ok: false, problems: [{ kind: 'repeated', index: 1, first: 0 }] });
  });

  it('spec 2 "Sensitive values": derives hint and hash for a sensitive variable\'s values, and neither otherwise', () => {
    const sensitive = planWrittenValues(
      ORG,
      { type: 'String', sensitive: true },
      [{ value: 'short', tags: [] }],
      known,
      [],
    );
    expect(sensitive.ok && sensitive.values[0]!.marks).toEqual({ hint: '*****', hash: hashOf(ORG, 'short') });
  });
});

describe('spec 3 "Variable type": the stored values again, for a change of type or sensitivity', () => {
  it('converts them, keeps their ids and tags, and derives hints and hashes from the new text', () => {
    const plan = planStoredValues(ORG, 'String', { type: 'Number', sensitive: true }, [
      stored(3, '1e3', [1]),
    ]);
    expect(plan).toEqual({
      ok: true,
      values: [
        {
          keepId: 3,
          stored: { value: null, numberValue: 1000, booleanValue: null },
          tagIds: [1],
          marks: { hint: '****', hash: hashOf(ORG, '1000') },
        },
      ],
    });
  });

  it('names each stored value that cannot be converted', () => {
    const plan = planStoredValues(ORG, 'String', { type: 'Number', sensitive: false }, [
      stored(1, '5', []),
      stored(2, 'five', [1]),
    ]);
    expect(plan).toEqual({
      ok: false,
      problems: [{ kind: 'invalid', index: 1, field: 'value', message: 'is not a number' }],
    });
  });
});
