import { readFileSync } from 'node:fs';
import { projectPath } from '../../../platform/project-path.js';
import {
  convertedValue,
  sourceText,
  typedValue,
  VARIABLE_TYPES,
  type VariableType,
} from './variable-types.js';

describe('spec 2 Variable "Type storage": each type uses its storage field, and every value has its type', () => {
  it.each([
    ['String', { value: 'eu-west-1' }, { value: 'eu-west-1', numberValue: null, booleanValue: null }],
    ['Multiline', { value: 'a\nb' }, { value: 'a\nb', numberValue: null, booleanValue: null }],
    ['Json', { value: '{"a":1}' }, { value: '{"a":1}', numberValue: null, booleanValue: null }],
    ['Number', { numberValue: 3.5 }, { value: null, numberValue: 3.5, booleanValue: null }],
    ['Boolean', { booleanValue: false }, { value: null, numberValue: null, booleanValue: false }],
  ] as const)('%s stores %j in its field', (type, written, stored) => {
    expect(typedValue(type, written)).toEqual({ ok: true, stored });
  });

  it.each([
    ['String', { value: 'line\nbreak' }, 'line breaks'],
    ['Json', { value: '{not json' }, 'is not JSON'],
    ['Certificate', { value: 'not a certificate' }, 'PEM certificate'],
    ['Number', { value: '3' }, 'numberValue'],
    ['Number', { numberValue: Number.POSITIVE_INFINITY }, 'finite'],
    ['Boolean', { value: 'true' }, 'booleanValue'],
    ['String', { numberValue: 3 }, 'needs value'],
  ] as const)('refuses a %s value %j, saying why', (type, written, problem) => {
    const typed = typedValue(type, written);
    expect(typed.ok).toBe(false);
    expect(!typed.ok && typed.problem).toContain(problem);
  });

  it('accepts a PEM certificate as a Certificate', () => {
    expect(typedValue('Certificate', { value: selfSignedPem() }).ok).toBe(true);
  });
});

describe('spec 3 "Variable type": every type but Boolean switches to any other non-Boolean type, converting its values', () => {
  it.each([
    ['Number', 'String', { value: null, numberValue: 1e21, booleanValue: null }, '1000000000000000000000'],
    ['String', 'Number', { value: ' 42.5 ', numberValue: null, booleanValue: null }, 42.5],
    ['String', 'Multiline', { value: 'text', numberValue: null, booleanValue: null }, 'text'],
    ['Multiline', 'Json', { value: '[1,\n2]', numberValue: null, booleanValue: null }, '[1,\n2]'],
  ] as const)('%s to %s', (from, to, stored, expected) => {
    const converted = convertedValue(from, to, stored);
    expect(converted.ok).toBe(true);
    expect(converted.ok && (to === 'Number' ? converted.stored.numberValue : converted.stored.value)).toBe(
      expected,
    );
  });

  it.each([
    ['String', 'Number', 'ten', 'is not a number'],
    ['Multiline', 'String', 'two\nlines', 'line breaks'],
    ['String', 'Json', 'plain', 'is not JSON'],
  ] as const)('refuses %s to %s for %j: %s', (from, to, value, problem) => {
    const converted = convertedValue(from, to, { value, numberValue: null, booleanValue: null });
    expect(!converted.ok && converted.problem).toContain(problem);
  });

  it('never makes or unmakes a Boolean', () => {
    const others = VARIABLE_TYPES.filter(
      (type): type is Exclude<VariableType, 'Boolean'> => type !== 'Boolean',
    );
    for (const other of others) {
      expect(
        convertedValue(other, 'Boolean', { value: 'true', numberValue: null, booleanValue: null }).ok,
      ).toBe(false);
      expect(
        convertedValue('Boolean', other, { value: null, numberValue: null, booleanValue: true }).ok,
      ).toBe(false);
    }
  });
});

describe('spec 2 "Sensitive values": the source text of a hint and hash', () => {
  it('is the text, or a Number in plain decimal', () => {
    expect(sourceText('String', { value: 'abc', numberValue: null, booleanValue: null })).toBe('abc');
    expect(sourceText('Number', { value: null, numberValue: 1e-7, booleanValue: null })).toBe('0.0000001');
  });
});

/** A real self-signed certificate (made once with openssl; only its PEM form is judged here). */
function selfSignedPem(): string {
  return readFileSync(projectPath('test', 'support', 'fixtures', 'self-signed-certificate.pem'), 'utf8');
}
