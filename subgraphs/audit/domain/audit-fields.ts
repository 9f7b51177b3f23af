/**
 * The fields an audit list can be filtered and sorted by. The spec names LoggedAt,
 * EntryType and EntityName; the rest are the entry's other scalar fields. The states are
 * left out on purpose: filtering on text the caller may not read would reveal it.
 */
export const AUDIT_FIELDS = [
  'Id',
  'Version',
  'OrganizationId',
  'LoggedAt',
  'LoggedBy',
  'EntryType',
  'Action',
  'EntityName',
  'EntityId',
] as const;
export type AuditField = (typeof AUDIT_FIELDS)[number];

export const AUDIT_OPERATORS = ['eq', 'contains'] as const;
export type AuditOperator = (typeof AUDIT_OPERATORS)[number];

/** A filter condition after validation: a known field, a known operator, a value as text. */
export interface AuditCondition {
  field: AuditField;
  operator: AuditOperator;
  value: string;
}

/** The field with this name, matched without regard to case (`entryType` is `EntryType`). */
export function auditFieldNamed(name: string): AuditField | undefined {
  const lower = name.toLowerCase();
  return AUDIT_FIELDS.find((field) => field.toLowerCase() === lower);
}

export function auditOperatorNamed(name: string): AuditOperator | undefined {
  const lower = name.toLowerCase();
  return AUDIT_OPERATORS.find((operator) => operator === lower);
}

/**
 * The value of a condition as the text it is compared with, or undefined when it has none
 * (absent, null or empty): such a condition narrows nothing.
 */
export function conditionText(value: string | number | boolean | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const text = String(value);
  return text === '' ? undefined : text;
}
