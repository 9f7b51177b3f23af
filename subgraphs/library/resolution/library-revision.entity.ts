import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * How many times an organization's library has changed: raised in the transaction of every
 * library write, so a replica that holds a compiled snapshot of it knows, with one small query,
 * whether the snapshot is still the library (decisions "The read path").
 */
export const LibraryRevision = defineEntity({
  name: 'LibraryRevision',
  tableName: 'library_revision',
  properties: {
    organizationId: p.uuid().primary(),
    revision: p.bigint('number'),
  },
});
export type LibraryRevision = InferEntity<typeof LibraryRevision>;
