import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The highest audit entry id each organization has taken, an id a writer gave included. A
 * write locks its organization's row first and holds it to the end of its transaction, so
 * writers of one organization take turns and never pick the same id or version; it moves
 * `lastId` up when it takes a higher id.
 */
export const AuditSequence = defineEntity({
  name: 'AuditSequence',
  tableName: 'audit_sequence',
  properties: {
    organizationId: p.uuid().primary(),
    lastId: p.bigint('number'),
  },
});
export type AuditSequence = InferEntity<typeof AuditSequence>;
