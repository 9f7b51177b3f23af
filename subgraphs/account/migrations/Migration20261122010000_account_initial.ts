import { Migration } from '@mikro-orm/migrations';
import { outboxTableSql } from '../../../platform/outbox/outbox-table.js';

export class Migration20261122010000_account_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create schema if not exists "account";`);
    this.addSql(`create table "account"."organization" (
      "id" uuid not null, "name" varchar(200) not null, "active" boolean not null,
      "account_patterns" jsonb not null, "admin_emails" jsonb not null,
      "additional_credits" int not null, "used_credits" int not null, "pricing_band" varchar(50) null,
      "providers" jsonb not null, "logo" text null, "logo_content_type" varchar(100) null, "custom_css" text null,
      "version" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "created_by_id" uuid null, "updated_by_id" uuid null,
      constraint "organization_pkey" primary key ("id"));`);
    this.addSql(
      `create unique index "organization_name_unique" on "account"."organization" (lower("name"));`,
    );

    this.addSql(`create table "account"."user_account" (
      "id" uuid not null, "organization_id" uuid not null, "name" varchar(200) not null, "email" varchar(320) not null,
      "service_account" boolean not null, "profile_image" text null,
      "version" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "created_by_id" uuid null, "updated_by_id" uuid null,
      constraint "user_account_pkey" primary key ("id"));`);
    this.addSql(
      `create unique index "user_account_organization_email_unique" on "account"."user_account" ("organization_id", lower("email"));`,
    );

    this.addSql(`create table "account"."user_identity" (
      "id" serial primary key, "user_id" uuid not null, "organization_id" uuid not null,
      "provider" varchar(50) not null, "provider_user_id" varchar(200) not null, "linked_at" timestamptz not null);`);
    this.addSql(
      `alter table "account"."user_identity" add constraint "user_identity_provider_user_unique" unique ("organization_id", "provider", "provider_user_id");`,
    );

    this.addSql(`create table "account"."user_group" (
      "id" serial primary key, "organization_id" uuid not null, "name" varchar(200) not null, "description" text not null,
      "permissions" jsonb not null, "variable_set_ids" jsonb not null,
      "version" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "created_by_id" uuid null, "updated_by_id" uuid null);`);
    this.addSql(
      `create unique index "user_group_organization_name_unique" on "account"."user_group" ("organization_id", lower("name"));`,
    );

    this.addSql(`create table "account"."group_member" (
      "group_id" int not null, "user_id" uuid not null, "organization_id" uuid not null,
      constraint "group_member_pkey" primary key ("group_id", "user_id"));`);

    this.addSql(`create table "account"."user_api_key" (
      "id" serial primary key, "user_id" uuid not null, "organization_id" uuid not null,
      "key_hash" varchar(64) not null, "hint" varchar(4) not null, "description" varchar(500) not null,
      "created_at" timestamptz not null, "expires_at" timestamptz null, "bootstrap" boolean not null);`);
    this.addSql(
      `alter table "account"."user_api_key" add constraint "user_api_key_key_hash_unique" unique ("key_hash");`,
    );
    this.addSql(
      `create index "user_api_key_user_id_created_at_index" on "account"."user_api_key" ("user_id", "created_at");`,
    );

    this.addSql(`create table "account"."credit_spend" (
      "message_id" varchar(100) not null, "organization_id" uuid not null, "amount" int not null,
      "recorded_at" timestamptz not null, constraint "credit_spend_pkey" primary key ("message_id"));`);

    this.addSql(`create table "account"."payment_event" (
      "event_id" varchar(200) not null, "event_type" varchar(100) not null, "organization_id" uuid null,
      "outcome" varchar(50) not null, "received_at" timestamptz not null,
      constraint "payment_event_pkey" primary key ("event_id"));`);

    for (const sql of outboxTableSql('account')) this.addSql(sql);

    const cascade = (table: string, column: string, target: string, name: string): string =>
      `alter table "account"."${table}" add constraint "${name}" foreign key ("${column}") references "account"."${target}" ("id") on update cascade on delete cascade;`;
    this.addSql(
      cascade('user_group', 'organization_id', 'organization', 'user_group_organization_id_foreign'),
    );
    this.addSql(
      cascade('credit_spend', 'organization_id', 'organization', 'credit_spend_organization_id_foreign'),
    );
    this.addSql(
      cascade('user_account', 'organization_id', 'organization', 'user_account_organization_id_foreign'),
    );
    this.addSql(cascade('group_member', 'group_id', 'user_group', 'group_member_group_id_foreign'));
    this.addSql(cascade('group_member', 'user_id', 'user_account', 'group_member_user_id_foreign'));
    this.addSql(cascade('user_api_key', 'user_id', 'user_account', 'user_api_key_user_id_foreign'));
    this.addSql(cascade('user_identity', 'user_id', 'user_account', 'user_identity_user_id_foreign'));
  }
}
