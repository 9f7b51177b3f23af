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
    /** `bigint`s (subgraphs/audit/domain/audit-versions.ts), read as numbers. */
    id: p.bigint('number').primary(),
    version: p.bigint('number').primary(),
    loggedAt: p.datetime(),
    loggedBy: p.uuid(),
    entryType: p.string().length(100),
    action: p.string().length(100),
    /** Up to 500: writers put e-mail addresses (up to 320 characters) here. */
    entityName: p.string().length(500),
    entityId: p.string().length(500),
    beforeState: p.text().nullable(),
    afterState: p.text().nullable(),
    /** The queue message this version came from; unique, so a redelivery is stored once. */
    sourceMessageId: p.string().length(100).nullable().unique('audit_entry_source_message_id_unique'),
  },
  indexes: [
    { properties: ['organizationId', 'loggedAt'], name: 'audit_entry_organization_id_logged_at_index' },
    /**
     * Finds the id an entity's entries share (spec 9.2). Entity name is left out, to be
     * compared on the few rows found: with both 500-character columns a key could outgrow
     * a B-tree entry (2704 bytes) in multi-byte text.
     */
    {
      properties: ['organizationId', 'entryType', 'entityId', 'id'],
      name: 'audit_entry_entity_index',
    },
  ],
});
export type AuditEntry = InferEntity<typeof AuditEntry>;
