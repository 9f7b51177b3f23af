import fc from 'fast-check';
import { AUDIT_FIELDS, auditFieldNamed, auditOperatorNamed, conditionText } from './audit-fields.js';

/** The same letters, each upper- or lower-cased as the mask says. */
function recased(text: string, mask: boolean[]): string {
  return [...text].map((ch, i) => (mask[i % mask.length] ? ch.toUpperCase() : ch.toLowerCase())).join('');
}

describe('spec 4.4: audit lists filter and sort by LoggedAt, EntryType, EntityName and the other scalar fields', () => {
  it.each(['LoggedAt', 'EntryType', 'EntityName'])('knows %s, named by the spec', (name) => {
    expect(auditFieldNamed(name)).toBe(name);
  });

  it('matches a field name without regard to case', () => {
    expect(auditFieldNamed('entryType')).toBe('EntryType');
    expect(auditFieldNamed('ENTITYNAME')).toBe('EntityName');
    fc.assert(
      fc.property(
        fc.constantFrom(...AUDIT_FIELDS),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 14 }),
        (field, mask) => {
          expect(auditFieldNamed(recased(field, mask))).toBe(field);
        },
      ),
    );
  });

  it.each(['Unknown', 'Logged', 'LoggedAtX', '', ' EntryType'])(
    'answers undefined for the unknown field %j',
    (name) => {
      expect(auditFieldNamed(name)).toBeUndefined();
    },
  );

  it.each(['BeforeState', 'AfterState', 'beforestate', 'AFTERSTATE'])(
    'does not filter or sort by the state %s, which the caller may not be allowed to read',
    (name) => {
      expect(auditFieldNamed(name)).toBeUndefined();
    },
  );
});

describe('spec 4.4: filter operators are eq and contains; another operator is unrecognised', () => {
  it('knows eq and contains, without regard to case', () => {
    expect(auditOperatorNamed('eq')).toBe('eq');
    expect(auditOperatorNamed('EQ')).toBe('eq');
    expect(auditOperatorNamed('Contains')).toBe('contains');
  });

  it.each(['gt', 'like', 'equals', ''])('answers undefined for the operator %j', (name) => {
    expect(auditOperatorNamed(name)).toBeUndefined();
  });
});

describe('spec 4.4: values are compared as text, and a condition with no value narrows nothing', () => {
  it.each([null, undefined, ''])('reads %j as no value', (value) => {
    expect(conditionText(value)).toBeUndefined();
  });

  it('turns numbers and booleans into text', () => {
    expect(conditionText(3)).toBe('3');
    expect(conditionText(0)).toBe('0');
    expect(conditionText(3.5)).toBe('3.5');
    expect(conditionText(true)).toBe('true');
    expect(conditionText(false)).toBe('false');
  });

  it('keeps a non-empty text as it is', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        expect(conditionText(text)).toBe(text);
      }),
    );
  });
});
