import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { SettingsSource, readSettingsFile } from './settings-source.js';

let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'settings-source-test-'));
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

function fileWith(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

/** The same letters, each upper- or lower-cased as the mask says. */
function recased(text: string, mask: boolean[]): string {
  return [...text].map((ch, i) => (mask[i % mask.length] ? ch.toUpperCase() : ch.toLowerCase())).join('');
}

describe('CONTRACT 1 Settings: keys match without regard to case', () => {
  it('finds an environment value under any casing of its spec name', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
        (envMask, keyMask) => {
          const source = SettingsSource.from({
            env: { [recased('Jwt__Issuer', envMask)]: 'https://issuer' },
          });
          expect(source.get(recased('Jwt:Issuer', keyMask))).toBe('https://issuer');
        },
      ),
    );
  });

  it('finds a settings-file value under any casing of its spec name', () => {
    const source = SettingsSource.from({ env: {}, file: { JWT: { ISSUER: 'from-file' } } });
    expect(source.get('Jwt:Issuer')).toBe('from-file');
    expect(source.get('jwt:issuer')).toBe('from-file');
  });

  it('lower-cases the keys of an object value, whichever source sets it first', () => {
    const objectFirst = SettingsSource.from({
      env: {},
      overrides: { 'Credits:Bands': { Pro: 5000 }, 'Credits:Bands:Gold': 9000 },
    });
    const flatFirst = SettingsSource.from({
      env: { Credits__Bands__Gold: '9000' },
      overrides: { 'Credits:Bands': { Pro: 5000 } },
    });
    expect(objectFirst.get('Credits:Bands')).toEqual({ pro: 5000, gold: 9000 });
    expect(flatFirst.get('Credits:Bands')).toEqual({ pro: 5000, gold: '9000' });
  });

  it('answers undefined for a key nobody set, and for a path through a plain value', () => {
    const source = SettingsSource.from({ env: { Jwt__Issuer: 'x' } });
    expect(source.get('Jwt:Audience')).toBeUndefined();
    expect(source.get('Jwt:Issuer:Deeper')).toBeUndefined();
    expect(source.get('Nothing:Here')).toBeUndefined();
  });
});

describe('CONTRACT 1 Settings: `__` in an environment name stands for `:`', () => {
  it('reads Jwt__Issuer as Jwt:Issuer and CreditCosts__VariablePreviewCost as CreditCosts:VariablePreviewCost', () => {
    const source = SettingsSource.from({
      env: { Jwt__Issuer: 'https://issuer', CreditCosts__VariablePreviewCost: '5' },
    });
    expect(source.get('Jwt:Issuer')).toBe('https://issuer');
    expect(source.get('CreditCosts:VariablePreviewCost')).toBe('5');
  });

  it('does not read a single underscore as a separator', () => {
    const source = SettingsSource.from({ env: { AUDIT_PORT: '1234' } });
    expect(source.get('AUDIT_PORT')).toBe('1234');
    expect(source.get('AUDIT:PORT')).toBeUndefined();
  });
});

describe('CONTRACT 1 Settings: a settings file takes nested or flat `A:B` keys', () => {
  it('reads a nested object and a flat "Jwt:Issuer" key alike', () => {
    const nested = SettingsSource.from({ env: {}, file: { Jwt: { Issuer: 'nested' } } });
    const flat = SettingsSource.from({ env: {}, file: { 'Jwt:Issuer': 'flat' } });
    expect(nested.get('Jwt:Issuer')).toBe('nested');
    expect(flat.get('Jwt:Issuer')).toBe('flat');
  });

  it('merges flat and nested keys of one section, whichever comes first', () => {
    const flatFirst = SettingsSource.from({
      env: {},
      file: { 'Jwt:Issuer': 'i', Jwt: { Audience: 'a' } },
    });
    const nestedFirst = SettingsSource.from({
      env: {},
      file: { Jwt: { Audience: 'a' }, 'Jwt:Issuer': 'i' },
    });
    for (const source of [flatFirst, nestedFirst]) {
      expect(source.get('Jwt:Issuer')).toBe('i');
      expect(source.get('Jwt:Audience')).toBe('a');
    }
  });
});

describe('CONTRACT 1 Settings: later sources win (file, then environment, then overrides)', () => {
  it('lets the environment win over the file, and overrides win over both', () => {
    const file = { Jwt: { Issuer: 'file', Audience: 'file', Subject: 'file' } };
    const env = { Jwt__Issuer: 'env', Jwt__Audience: 'env' };
    const source = SettingsSource.from({ env, file, overrides: { 'Jwt:Audience': 'override' } });
    expect(source.get('Jwt:Subject')).toBe('file');
    expect(source.get('Jwt:Issuer')).toBe('env');
    expect(source.get('Jwt:Audience')).toBe('override');
  });

  it('keeps the file value of a key when the environment sets only a sibling', () => {
    const source = SettingsSource.from({
      env: { CreditCosts__VariableGetCost: '3' },
      file: { CreditCosts: { VariableGetCost: 1, VariablePreviewCost: 12 } },
    });
    expect(source.get('CreditCosts:VariableGetCost')).toBe('3');
    expect(source.get('CreditCosts:VariablePreviewCost')).toBe(12);
  });

  it('ignores an override whose value is undefined', () => {
    const source = SettingsSource.from({
      env: { Jwt__Issuer: 'env' },
      overrides: { 'Jwt:Issuer': undefined },
    });
    expect(source.get('Jwt:Issuer')).toBe('env');
  });
});

describe('CONTRACT 1 Settings: arrays from JSON arrays and indexed keys', () => {
  it('reads a JSON array from the file', () => {
    const source = SettingsSource.from({ env: {}, file: { Audit: { AuthNotRequired: ['A', 'B'] } } });
    expect(source.get('Audit:AuthNotRequired')).toEqual(['A', 'B']);
  });

  it('reads indexed environment keys as an array in index order, not text order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 15 }).chain((count) => {
          const indexes = Array.from({ length: count }, (_, i) => i);
          return fc.shuffledSubarray(indexes, { minLength: count, maxLength: count });
        }),
        (shuffled) => {
          // The variables are inserted in a shuffled order: the array must still follow the indexes.
          const indexes = [...shuffled].sort((a, b) => a - b);
          const env: Record<string, string> = {};
          for (const i of shuffled) env[`Audit__AuthNotRequired__${i}`] = `Type${i}`;
          const source = SettingsSource.from({ env });
          expect(source.get('Audit:AuthNotRequired')).toEqual(indexes.map((i) => `Type${i}`));
        },
      ),
    );
  });

  it('lets indexed environment keys replace an array from the file', () => {
    const source = SettingsSource.from({
      env: { Audit__AuthNotRequired__0: 'FromEnv' },
      file: { Audit: { AuthNotRequired: ['A', 'B', 'C'] } },
    });
    expect(source.get('Audit:AuthNotRequired')).toEqual(['FromEnv']);
  });

  it('keeps a comma-separated environment value as the raw text (split later by the schema)', () => {
    const source = SettingsSource.from({ env: { Audit__AuthNotRequired: 'A,B' } });
    expect(source.get('Audit:AuthNotRequired')).toBe('A,B');
  });
});

describe('CONTRACT 1 Settings: readSettingsFile names the file it cannot use', () => {
  it('reads a JSON object', () => {
    const path = fileWith('good.json', JSON.stringify({ Jwt: { Issuer: 'x' } }));
    expect(readSettingsFile(path)).toEqual({ Jwt: { Issuer: 'x' } });
  });

  it('names the path of a file that does not exist', () => {
    const path = join(folder, 'missing.json');
    expect(() => readSettingsFile(path)).toThrow(path);
  });

  it('names the path of a folder given as the file', () => {
    expect(() => readSettingsFile(folder)).toThrow(folder);
  });

  it('names the path of malformed JSON', () => {
    const path = fileWith('malformed.json', '{ "Jwt": ');
    expect(() => readSettingsFile(path)).toThrow(path);
  });

  it.each([
    ['an array', '[1, 2]'],
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"text"'],
  ])('names the path when the top level is %s, not an object', (_what, text) => {
    const path = fileWith(`top-level-${text.length}-${_what.replace(/\W/g, '')}.json`, text);
    expect(() => readSettingsFile(path)).toThrow(path);
  });
});
