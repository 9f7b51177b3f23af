import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A delivered audit message that could not be stored (malformed, or refused by a rule), kept
 * here instead of dropped so that no operation entry is lost: an operator finds it in this
 * table and in the error log, and the audit service tries it again on a timer (after an
 * upgrade that fixes the cause, say); stored, it leaves the table.
 */
export const ParkedMessage = defineEntity({
  name: 'ParkedMessage',
  tableName: 'parked_message',
  properties: {
    messageId: p.string().length(100).primary(),
    /** The message's data as JSON text (text, not jsonb: it holds whatever arrived). */
    data: p.text(),
    reason: p.text(),
    parkedAt: p.datetime(),
    attempts: p.integer(),
    lastAttemptAt: p.datetime(),
  },
});
export type ParkedMessage = InferEntity<typeof ParkedMessage>;
