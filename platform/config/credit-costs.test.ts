import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '../logging/logger.js';
import { CreditCostReader } from './credit-costs.js';
import { TempFolder } from '../../test/support/temp-folder.js';

const logger = createLogger('silent');
let folder: TempFolder;

beforeAll(() => {
  folder = TempFolder.create('credit-costs-test');
});

afterAll(() => folder.remove());

const newFile = (content: unknown): string => folder.write(content);

/**
 * Rewrites the file and moves its modification time on, so the change is seen even on a
 * file system with a coarse clock.
 */
let stampSeconds = Math.floor(Date.now() / 1000) + 100;
function rewrite(path: string, content: unknown): void {
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  stampSeconds += 10;
  utimesSync(path, stampSeconds, stampSeconds);
}

describe('spec 8 Credit costs: defaults VariableGetCost 1 and VariablePreviewCost 10', () => {
  it('answers the defaults without a settings file', () => {
    const reader = new CreditCostReader({}, logger);
    expect(reader.current()).toEqual({ variableGetCost: 1, variablePreviewCost: 10 });
  });

  it('answers the defaults when the settings file has no CreditCosts section', () => {
    const reader = new CreditCostReader({ SETTINGS_FILE: newFile({ Jwt: { Issuer: 'x' } }) }, logger);
    expect(reader.current()).toEqual({ variableGetCost: 1, variablePreviewCost: 10 });
  });

  it('fills the cost the file leaves out with its default', () => {
    const reader = new CreditCostReader(
      { SETTINGS_FILE: newFile({ CreditCosts: { VariablePreviewCost: 4 } }) },
      logger,
    );
    expect(reader.current()).toEqual({ variableGetCost: 1, variablePreviewCost: 4 });
  });
});

describe('spec 8 Credit costs: values come from the settings file and the environment', () => {
  it('reads nested CreditCosts keys from the file', () => {
    const path = newFile({ CreditCosts: { VariableGetCost: 2, VariablePreviewCost: 20 } });
    expect(new CreditCostReader({ SETTINGS_FILE: path }, logger).current()).toEqual({
      variableGetCost: 2,
      variablePreviewCost: 20,
    });
  });

  it('reads flat "CreditCosts:VariableGetCost" keys of any casing from the file', () => {
    const path = newFile({ 'creditcosts:variablegetcost': 3, 'CREDITCOSTS:VARIABLEPREVIEWCOST': '30' });
    expect(new CreditCostReader({ SETTINGS_FILE: path }, logger).current()).toEqual({
      variableGetCost: 3,
      variablePreviewCost: 30,
    });
  });

  it('CONTRACT 1: reads CreditCosts__VariablePreviewCost=5 from the environment, over the file', () => {
    const path = newFile({ CreditCosts: { VariableGetCost: 2, VariablePreviewCost: 20 } });
    const reader = new CreditCostReader(
      { SETTINGS_FILE: path, CreditCosts__VariablePreviewCost: '5' },
      logger,
    );
    expect(reader.current()).toEqual({ variableGetCost: 2, variablePreviewCost: 5 });
  });

  it('lets overrides win over the environment', () => {
    const reader = new CreditCostReader({ CreditCosts__VariableGetCost: '5' }, logger, {
      'CreditCosts:VariableGetCost': 6,
    });
    expect(reader.current().variableGetCost).toBe(6);
  });

  it('spec 8: accepts 0, which makes a call free', () => {
    const path = newFile({ CreditCosts: { VariableGetCost: 0, VariablePreviewCost: 0 } });
    expect(new CreditCostReader({ SETTINGS_FILE: path }, logger).current()).toEqual({
      variableGetCost: 0,
      variablePreviewCost: 0,
    });
  });
});

describe('spec 8 / CONTRACT 1: credit costs are re-read from the file, no restart needed', () => {
  it('answers the new values after the file changes, with the same reader', () => {
    const path = newFile({ CreditCosts: { VariableGetCost: 2, VariablePreviewCost: 20 } });
    const reader = new CreditCostReader({ SETTINGS_FILE: path }, logger);
    expect(reader.current()).toEqual({ variableGetCost: 2, variablePreviewCost: 20 });

    rewrite(path, { CreditCosts: { VariableGetCost: 3, VariablePreviewCost: 300 } });
    expect(reader.current()).toEqual({ variableGetCost: 3, variablePreviewCost: 300 });

    rewrite(path, { CreditCosts: { VariableGetCost: 0 } });
    expect(reader.current()).toEqual({ variableGetCost: 0, variablePreviewCost: 10 });
  });

  it('answers the same values while the file is unchanged', () => {
    const path = newFile({ CreditCosts: { VariableGetCost: 7 } });
    const reader = new CreditCostReader({ SETTINGS_FILE: path }, logger);
    const first = reader.current();
    expect(reader.current()).toEqual(first);
    expect(first.variableGetCost).toBe(7);
  });

  it('keeps the environment over a changed file', () => {
    const path = newFile({ CreditCosts: { VariableGetCost: 2 } });
    const reader = new CreditCostReader({ SETTINGS_FILE: path, CreditCosts__VariableGetCost: '9' }, logger);
    rewrite(path, { CreditCosts: { VariableGetCost: 4, VariablePreviewCost: 40 } });
    expect(reader.current()).toEqual({ variableGetCost: 9, variablePreviewCost: 40 });
  });
});

describe('spec 8 Credit costs: an invalid edit keeps the last good values', () => {
  it.each([
    ['a negative cost', { CreditCosts: { VariableGetCost: -1 } }],
    ['a fractional cost', { CreditCosts: { VariablePreviewCost: 2.5 } }],
    ['text that is not a number', { CreditCosts: { VariableGetCost: 'cheap' } }],
    ['malformed JSON', '{ "CreditCosts": { '],
    ['a top level that is not an object', '[]'],
  ])('keeps the last good values after %s, and takes the next good edit', (_what, badContent) => {
    const path = newFile({ CreditCosts: { VariableGetCost: 2, VariablePreviewCost: 20 } });
    const reader = new CreditCostReader({ SETTINGS_FILE: path }, logger);
    expect(reader.current()).toEqual({ variableGetCost: 2, variablePreviewCost: 20 });

    rewrite(path, badContent);
    expect(reader.current()).toEqual({ variableGetCost: 2, variablePreviewCost: 20 });
    expect(reader.current()).toEqual({ variableGetCost: 2, variablePreviewCost: 20 });

    rewrite(path, { CreditCosts: { VariableGetCost: 5, VariablePreviewCost: 50 } });
    expect(reader.current()).toEqual({ variableGetCost: 5, variablePreviewCost: 50 });
  });

  it('keeps the last good values when the file disappears', () => {
    const path = newFile({ CreditCosts: { VariableGetCost: 2, VariablePreviewCost: 20 } });
    const reader = new CreditCostReader({ SETTINGS_FILE: path }, logger);
    expect(reader.current()).toEqual({ variableGetCost: 2, variablePreviewCost: 20 });
    rmSync(path);
    expect(reader.current()).toEqual({ variableGetCost: 2, variablePreviewCost: 20 });
  });

  it('keeps the values of the last good edit, not those of the start', () => {
    const path = newFile({ CreditCosts: { VariableGetCost: 2 } });
    const reader = new CreditCostReader({ SETTINGS_FILE: path }, logger);
    rewrite(path, { CreditCosts: { VariableGetCost: 8 } });
    expect(reader.current().variableGetCost).toBe(8);
    rewrite(path, { CreditCosts: { VariableGetCost: -8 } });
    expect(reader.current().variableGetCost).toBe(8);
  });
});

describe('spec 8 Credit costs: an invalid value at construction stops the start', () => {
  it.each([
    ['a negative cost in the file', { CreditCosts: { VariableGetCost: -1 } }, 'CreditCosts:VariableGetCost'],
    [
      'a fractional cost in the file',
      { CreditCosts: { VariablePreviewCost: 0.5 } },
      'CreditCosts:VariablePreviewCost',
    ],
    ['text in the file', { CreditCosts: { VariablePreviewCost: 'ten' } }, 'CreditCosts:VariablePreviewCost'],
  ])('throws for %s, naming the setting', (_what, content, setting) => {
    const path = newFile(content);
    expect(() => new CreditCostReader({ SETTINGS_FILE: path }, logger)).toThrow(setting);
  });

  it('throws for a bad environment value, naming the setting', () => {
    expect(() => new CreditCostReader({ CreditCosts__VariableGetCost: 'abc' }, logger)).toThrow(
      'CreditCosts:VariableGetCost',
    );
  });

  it('throws for a settings file that cannot be read, naming its path', () => {
    const path = join(folder.path, 'missing-at-start.json');
    expect(() => new CreditCostReader({ SETTINGS_FILE: path }, logger)).toThrow(path);
  });

  // z.coerce.number() reads Number(value): true becomes 1 and null becomes 0 (every call free).
  it('throws for a JSON true, which is not a number of credits', () => {
    const path = newFile({ CreditCosts: { VariableGetCost: true } });
    expect(() => new CreditCostReader({ SETTINGS_FILE: path }, logger)).toThrow(
      'CreditCosts:VariableGetCost',
    );
  });

  it('does not read a JSON null cost as 0 (free): null is no value, like an empty one', () => {
    const path = newFile({ CreditCosts: { VariableGetCost: null, VariablePreviewCost: null } });
    expect(new CreditCostReader({ SETTINGS_FILE: path }, logger).current()).toEqual({
      variableGetCost: 1,
      variablePreviewCost: 10,
    });
  });
});
