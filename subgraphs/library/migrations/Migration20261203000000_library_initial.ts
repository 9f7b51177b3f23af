import { Migration } from '@mikro-orm/migrations';
import { outboxTableSql } from '../../../platform/outbox/outbox-table.js';

const STAMPS = `"version" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "created_by_id" uuid null, "updated_by_id" uuid null`;

export class Migration20261203000000_library_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create schema if not exists "library";`);
    this.addSql(`create table "library"."tag_group" (
      "id" serial primary key, "organization_id" uuid not null, "name" varchar(200) not null,
      "description" text not null, ${STAMPS});`);
    this.addSql(
      `create unique index "tag_group_organization_name_unique" on "library"."tag_group" ("organization_id", lower("name"));`,
    );
    this.addSql(`create table "library"."tag" (
      "id" serial primary key, "organization_id" uuid not null, "tag_group_id" int not null, "name" varchar(200) not null);`);
    this.addSql(
      `alter table "library"."tag" add constraint "tag_group_name_unique" unique ("tag_group_id", "name");`,
    );
    this.addSql(
      `alter table "library"."tag" add constraint "tag_tag_group_id_foreign" foreign key ("tag_group_id") references "library"."tag_group" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(`create table "library"."variable_set" (
      "id" serial primary key, "organization_id" uuid not null, "name" varchar(200) not null,
      "description" text not null, "parent_variable_set_id" int null, ${STAMPS});`);
    this.addSql(
      `create unique index "variable_set_organization_name_unique" on "library"."variable_set" ("organization_id", lower("name"));`,
    );
    this.addSql(
      `create index "variable_set_parent_index" on "library"."variable_set" ("parent_variable_set_id");`,
    );

    this.addSql(`create table "library"."variable" (
      "id" serial primary key, "organization_id" uuid not null, "variable_set_id" int not null,
      "name" varchar(200) not null, "type" varchar(20) not null, "sensitive" boolean not null, ${STAMPS});`);
    this.addSql(
      `create unique index "variable_set_name_unique" on "library"."variable" ("variable_set_id", lower("name"));`,
    );
    this.addSql(
      `alter table "library"."variable" add constraint "variable_variable_set_id_foreign" foreign key ("variable_set_id") references "library"."variable_set" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(`create table "library"."variable_value" (
      "id" serial primary key, "organization_id" uuid not null, "variable_id" int not null,
      "value" text null, "number_value" double precision null, "boolean_value" boolean null,
      "hint" varchar(20) null, "hash" varchar(64) null);`);
    this.addSql(
      `create index "variable_value_variable_id_index" on "library"."variable_value" ("variable_id");`,
    );
    this.addSql(
      `alter table "library"."variable_value" add constraint "variable_value_variable_id_foreign" foreign key ("variable_id") references "library"."variable" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(`create table "library"."value_tag" (
      "value_id" int not null, "tag_id" int not null, "organization_id" uuid not null,
      constraint "value_tag_pkey" primary key ("value_id", "tag_id"));`);
    this.addSql(`create index "value_tag_tag_id_index" on "library"."value_tag" ("tag_id");`);
    this.addSql(
      `alter table "library"."value_tag" add constraint "value_tag_value_id_foreign" foreign key ("value_id") references "library"."variable_value" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "library"."value_tag" add constraint "value_tag_tag_id_foreign" foreign key ("tag_id") references "library"."tag" ("id") on update cascade on delete cascade;`,
    );
    for (const statement of outboxTableSql('library')) this.addSql(statement);
  }
}
