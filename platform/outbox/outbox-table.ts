/**
 * The outbox table's DDL, for the initial migration of every service that publishes.
 * It matches OutboxMessage, so the schema check finds nothing to change.
 */
export function outboxTableSql(schema: string): string[] {
  return [
    `create table "${schema}"."outbox_message" ("id" uuid not null, "topic" varchar(100) not null, "payload" jsonb not null, "created_at" timestamptz not null, constraint "outbox_message_pkey" primary key ("id"));`,
    `create index "outbox_message_created_at_index" on "${schema}"."outbox_message" ("created_at");`,
  ];
}
