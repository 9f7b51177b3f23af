import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000_audit_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create schema if not exists "audit";`);
    this.addSql(`create table "audit"."audit_entry" (
      "organization_id" uuid not null,
      "id" int not null,
      "version" int not null,
      "logged_at" timestamptz not null,
      "logged_by" uuid not null,
      "entry_type" varchar(100) not null,
      "action" varchar(100) not null,
      "entity_name" varchar(200) not null,
      "entity_id" varchar(200) not null,
      "before_state" text null,
      "after_state" text null,
      "source_message_id" varchar(100) null,
      constraint "audit_entry_pkey" primary key ("organization_id", "id", "version"));`);
    this.addSql(
      `alter table "audit"."audit_entry" add constraint "audit_entry_source_message_id_unique" unique ("source_message_id");`,
    );
    this.addSql(
      `create index "audit_entry_organization_id_logged_at_index" on "audit"."audit_entry" ("organization_id", "logged_at");`,
    );
    this.addSql(`create table "audit"."audit_sequence" (
      "organization_id" uuid not null,
      "last_id" int not null,
      constraint "audit_sequence_pkey" primary key ("organization_id"));`);
  }
}
