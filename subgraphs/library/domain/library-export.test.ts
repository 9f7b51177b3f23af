import { compareNames, exportFile, writtenValue, type ExportedLibrary } from './library-export.js';
import type { StoredValue } from './variable-types.js';

const text = (value: string): StoredValue => ({ value, numberValue: null, booleanValue: null });
const number = (numberValue: number): StoredValue => ({ value: null, numberValue, booleanValue: null });

describe('spec 4.1 "Export": what a value writes for each secretExportOption (decisions "Export")', () => {
  const secret = { stored: text('hunter2'), hint: '*******', hash: 'ab'.repeat(32) };
  const secretNumber = { stored: number(42.5), hint: '****', hash: 'cd'.repeat(32) };

  it.each([
    ['Value', 'hunter2', 42.5],
    ['Hint', '*******', '****'],
    ['Hash', 'ab'.repeat(32), 'cd'.repeat(32)],
    ['Blank', '', ''],
  ] as const)('%s: a sensitive String writes %j, a sensitive Number %j', (option, string, numberValue) => {
    expect(writtenValue({ type: 'String', sensitive: true }, secret, option)).toBe(string);
    expect(writtenValue({ type: 'Number', sensitive: true }, secretNumber, option)).toBe(numberValue);
  });

  it('a value that is not sensitive is written itself whatever the option, in its type', () => {
    for (const option of ['Value', 'Hint', 'Hash', 'Blank'] as const) {
      expect(
        writtenValue({ type: 'String', sensitive: false }, { ...secret, hint: null, hash: null }, option),
      ).toBe('hunter2');
      expect(
        writtenValue(
          { type: 'Number', sensitive: false },
          { ...secretNumber, hint: null, hash: null },
          option,
        ),
      ).toBe(42.5);
      expect(
        writtenValue(
          { type: 'Boolean', sensitive: false },
          { stored: { value: null, numberValue: null, booleanValue: false }, hint: null, hash: null },
          option,
        ),
      ).toBe(false);
    }
  });
});

describe('spec 4.1 "Export" rule 1: the file of the groups and sets asked for (decisions "Export")', () => {
  const library: ExportedLibrary = {
    tagGroups: [
      { name: 'region', tags: ['US', 'EU'] },
      { name: 'Environment', tags: ['prod', 'Prod', 'Dev'] },
    ],
    sets: [
      { id: 3, name: 'Web', slug: 'web', description: 'front', parentId: 1 },
      { id: 1, name: 'base', slug: 'base', description: '', parentId: null },
      { id: 4, name: 'Orphan', slug: 'orphan', description: '', parentId: 99 },
    ],
    variables: [
      { id: 10, setId: 3, name: 'Url', type: 'String', sensitive: false },
      { id: 11, setId: 3, name: 'apiKey', type: 'String', sensitive: true },
      { id: 12, setId: 1, name: 'Config', type: 'Json', sensitive: false },
      { id: 13, setId: 1, name: 'Banner', type: 'Multiline', sensitive: false },
      { id: 14, setId: 1, name: 'Notes', type: 'Multiline', sensitive: false },
      { id: 15, setId: 4, name: 'Port', type: 'Number', sensitive: true },
      { id: 16, setId: 4, name: 'On', type: 'Boolean', sensitive: false },
    ],
    values: [
      { variableId: 10, stored: text('https://@[Host]/'), hint: null, hash: null, scopes: [] },
      {
        variableId: 10,
        stored: text('https://eu'),
        hint: null,
        hash: null,
        scopes: ['region/EU', 'Environment/Prod'],
      },
      { variableId: 11, stored: text('s3cret'), hint: '******', hash: 'h', scopes: [] },
      { variableId: 12, stored: text('{"a":1}'), hint: null, hash: null, scopes: [] },
      { variableId: 13, stored: text('one line'), hint: null, hash: null, scopes: [] },
      { variableId: 14, stored: text('two\nlines'), hint: null, hash: null, scopes: [] },
      { variableId: 15, stored: number(8080), hint: '****', hash: 'p', scopes: [] },
      {
        variableId: 16,
        stored: { value: null, numberValue: null, booleanValue: true },
        hint: null,
        hash: null,
        scopes: [],
      },
    ],
  };

  it('sorts every name, writes values as stored in their order and their scopes sorted', () => {
    const file = exportFile(library, 'Hint');
    expect(Object.keys(file.tagGroups)).toEqual(['Environment', 'region']);
    expect(file.tagGroups.Environment).toEqual(['Dev', 'Prod', 'prod']);
    expect(Object.keys(file.librarySets)).toEqual(['base', 'Orphan', 'Web']);
    expect(Object.keys(file.librarySets.base!.variables)).toEqual(['Banner', 'Config', 'Notes']);
    expect(file.librarySets.Web!.variables).toEqual({
      apiKey: [{ value: '******', sensitive: true, scopes: [] }],
      Url: [
        { value: 'https://@[Host]/', sensitive: false, scopes: [] },
        { value: 'https://eu', sensitive: false, scopes: ['Environment/Prod', 'region/EU'] },
      ],
    });
  });

  it('writes a parent only when it is in the file, by its slug', () => {
    const file = exportFile(library, 'Blank');
    expect(file.librarySets.Web).toMatchObject({ slug: 'web', description: 'front', parent: 'base' });
    expect(file.librarySets.Orphan).not.toHaveProperty('parent');
    expect(file.librarySets.base).not.toHaveProperty('parent');
  });

  it('writes type on the values of a variable exactly when they would not say it', () => {
    const typeOf = (option: 'Value' | 'Blank', set: string, variable: string) =>
      exportFile(library, option).librarySets[set]!.variables[variable]!.map((value) => value.type);
    expect(typeOf('Blank', 'base', 'Config')).toEqual(['Json']);
    expect(typeOf('Blank', 'base', 'Banner')).toEqual(['Multiline']);
    expect(typeOf('Blank', 'base', 'Notes')).toEqual([undefined]);
    expect(typeOf('Blank', 'Orphan', 'Port')).toEqual(['Number']);
    expect(typeOf('Value', 'Orphan', 'Port')).toEqual([undefined]);
    expect(typeOf('Blank', 'Orphan', 'On')).toEqual([undefined]);
    expect(typeOf('Blank', 'Web', 'Url')).toEqual([undefined, undefined]);
  });

  it('compares names without regard to case first', () => {
    expect(['Web', 'api', 'b', 'B'].sort(compareNames)).toEqual(['api', 'B', 'b', 'Web']);
  });
});
