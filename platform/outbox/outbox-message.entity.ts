import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A message waiting to be published, written in the same transaction as the change that
 * caused it. Its id (a random UUID, unique across restores and databases) is the queue
 * message id, so consumers deduplicate by it. Every service schema has this table.
 */
export const OutboxMessage = defineEntity({
  name: 'OutboxMessage',
  tableName: 'outbox_message',
  properties: {
    id: p.uuid().primary(),
    topic: p.string().length(100),
    payload: p.json<unknown>(),
    createdAt: p.datetime().index('outbox_message_created_at_index'),
  },
});
export type OutboxMessage = InferEntity<typeof OutboxMessage>;
