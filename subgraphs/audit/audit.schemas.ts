import { z } from 'zod';
import { booleanInput, integerInput, MAX_TAKE, pageSchema } from '../../platform/http/query-schemas.js';
import {
  AUDIT_FIELDS,
  AUDIT_OPERATORS,
  auditFieldNamed,
  auditOperatorNamed,
  conditionText,
  type AuditCondition,
} from './domain/audit-fields.js';
import { MAX_AUDIT_NUMBER, MAX_WRITER_NUMBER } from './domain/audit-versions.js';

const fieldName = z.string().transform((name, ctx) => {
  const field = auditFieldNamed(name);
  if (field) return field;
  ctx.addIssue({
    code: 'custom',
    message: `unknown field "${name}"; known fields: ${AUDIT_FIELDS.join(', ')}`,
  });
  return z.NEVER;
});

/** Paging and sorting of the audit lists (spec section 8: take 10, skip 0, LoggedAt ascending). */
export const auditListQuery = z.object({
  take: integerInput(0, MAX_TAKE).default(10).describe(`How many entries to return, at most ${MAX_TAKE}.`),
  skip: integerInput(0, Number.MAX_SAFE_INTEGER).default(0).describe('How many entries to pass over.'),
  sortField: fieldName.default('LoggedAt').describe(`One of ${AUDIT_FIELDS.join(', ')}.`),
  sortDescending: booleanInput.default(false),
});
export type AuditListQuery = z.output<typeof auditListQuery>;

const conditionSchema = z
  .object({
    field: fieldName.describe(`One of ${AUDIT_FIELDS.join(', ')}, without regard to case.`),
    operatorType: z
      .string()
      .transform((name, ctx) => {
        const operator = auditOperatorNamed(name);
        if (operator) return operator;
        ctx.addIssue({
          code: 'custom',
          message: `unknown operator "${name}"; known operators: ${AUDIT_OPERATORS.join(', ')}`,
        });
        return z.NEVER;
      })
      .describe('`eq` (exact) or `contains` (substring, without regard to case).'),
    value: z
      .union([z.string(), z.number(), z.boolean(), z.null()])
      .optional()
      .describe('Compared as text. A condition without a value narrows nothing.'),
  })
  .meta({ id: 'AuditCondition' });

/** The body of POST /filter: conditions AND-ed; those without a value are dropped. No body is no conditions. */
export const auditConditions = z
  .array(conditionSchema)
  .default([])
  .transform((conditions) =>
    conditions.flatMap((condition): AuditCondition[] => {
      const value = conditionText(condition.value);
      return value === undefined ? [] : [{ field: condition.field, operator: condition.operatorType, value }];
    }),
  );

/** Longest entity name and entity id: writers put e-mail addresses (up to 320 characters) there. */
export const AUDIT_TEXT_MAX = 500;

/**
 * Longest state an HTTP writer may store, as JSON text. The services' own entries, delivered
 * from their outboxes, are not bounded: a group's state lists every member.
 */
export const AUDIT_STATE_MAX = 100_000;

const stateText = z
  .unknown()
  .optional()
  .transform((state) =>
    state === undefined || state === null ? null : typeof state === 'string' ? state : JSON.stringify(state),
  )
  .pipe(
    z.string().max(AUDIT_STATE_MAX, `must be at most ${AUDIT_STATE_MAX} characters of JSON text`).nullable(),
  )
  .describe(
    `JSON text of the state; a JSON value is accepted and stored as its text. At most ${AUDIT_STATE_MAX} characters as text.`,
  );

/** The body of POST / (spec section 4.4). */
export const auditWriteBody = z.object({
  id: z
    .number()
    .int()
    .min(1)
    .max(MAX_AUDIT_NUMBER)
    .optional()
    .describe(
      "Adds a version to this entry. Any id up to 2147483647; beyond it, only an id the organization has taken or its next id (400 otherwise). The organization's next id when omitted.",
    ),
  entryType: z.string().trim().min(1).max(100),
  action: z.string().trim().min(1).max(100),
  entityName: z.string().max(AUDIT_TEXT_MAX).default(''),
  entityId: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(z.string().max(AUDIT_TEXT_MAX))
    .default(''),
  version: z
    .number()
    .int()
    .min(0)
    .max(MAX_WRITER_NUMBER)
    .optional()
    .describe(
      "The entity's version; kept when above the versions stored for this id, else the next one is used.",
    ),
  beforeState: stateText,
  afterState: stateText,
});
export type AuditWriteBody = z.output<typeof auditWriteBody>;

export const auditEntryView = z
  .object({
    id: z.number().int(),
    version: z.number().int(),
    organizationId: z.uuid().describe('The nil UUID for a global entry.'),
    loggedAt: z.iso.datetime(),
    loggedBy: z.uuid().describe('The nil UUID when written without a session.'),
    entryType: z.string(),
    action: z.string(),
    entityName: z.string(),
    entityId: z.string(),
    beforeState: z.string().nullable(),
    afterState: z.string().nullable(),
    stateWithheld: z.boolean().describe('True when the states exist but the caller may not read them.'),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntryView = z.output<typeof auditEntryView>;

export const auditEntryPage = pageSchema(auditEntryView, 'AuditEntryPage');

export const auditIdParams = z.object({ id: integerInput(1, MAX_AUDIT_NUMBER) });
export const auditGetQuery = z.object({
  version: integerInput(0, MAX_AUDIT_NUMBER)
    .optional()
    .describe('A version of the entry; the latest when omitted.'),
});
