import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The highest audit entry id of each organization. Updating its row both assigns the next
 * id and serialises writes of one organization, so two writers never pick the same
 * id or version.
 */
export const AuditSequence = defineEntity({
  name: 'AuditSequence',
  tableName: 'audit_sequence',
  properties: {
    organizationId: p.uuid().primary(),
    lastId: p.integer(),
  },
});
export type AuditSequence = InferEntity<typeof AuditSequence>;
