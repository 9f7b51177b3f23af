import { Migration } from '@mikro-orm/migrations';

/**
 * Ids and versions become `bigint`, so no sequence of writes can exhaust them; messages that
 * cannot be stored are parked instead of dropped.
 */
export class Migration20261202000000_audit_bigint_ids_parked extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "audit"."audit_entry" alter column "id" type bigint, alter column "version" type bigint;`,
    );
    this.addSql(`alter table "audit"."audit_sequence" alter column "last_id" type bigint;`);
    this.addSql(`create table "audit"."parked_message" (
      "message_id" varchar(100) not null,
      "data" text not null,
      "reason" text not null,
      "parked_at" timestamptz not null,
      "attempts" int not null,
      "last_attempt_at" timestamptz not null,
      constraint "parked_message_pkey" primary key ("message_id"));`);
  }
}
