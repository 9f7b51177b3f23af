import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * One version of an audit entry. Entries of one id share it and differ by version; the
 * key is (organization, id, version). Global entries, written before a session exists,
 * belong to the nil organization id.
 */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entry',
  properties: {
    organizationId: p.uuid().primary(),
    id: p.integer().primary(),
    version: p.integer().primary(),
    loggedAt: p.datetime(),
    loggedBy: p.uuid(),
    entryType: p.string().length(100),
    action: p.string().length(100),
    entityName: p.string().length(200),
    entityId: p.string().length(200),
    beforeState: p.text().nullable(),
    afterState: p.text().nullable(),
    /** The queue message this version came from; unique, so a redelivery is stored once. */
    sourceMessageId: p.string().length(100).nullable().unique('audit_entry_source_message_id_unique'),
  },
  indexes: [
    { properties: ['organizationId', 'loggedAt'], name: 'audit_entry_organization_id_logged_at_index' },
  ],
});
export type AuditEntry = InferEntity<typeof AuditEntry>;
