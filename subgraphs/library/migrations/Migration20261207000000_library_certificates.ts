import { Migration } from '@mikro-orm/migrations';

/**
 * Organizations' client certificates (spec 4.1 "Certificates"): one per slot, checked at commit
 * so a rotation can swap the two slots; private keys only sealed.
 */
export class Migration20261207000000_library_certificates extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "library"."certificate" (
      "id" serial primary key, "organization_id" uuid not null, "slot" varchar(20) not null,
      "certificate" text not null, "thumbprint" varchar(64) not null, "subject" text not null,
      "not_before" timestamptz not null, "not_after" timestamptz not null, "origin" varchar(20) not null,
      "sealed_private_key" bytea not null,
      "version" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "created_by_id" uuid null, "updated_by_id" uuid null);`);
    this.addSql(
      `alter table "library"."certificate" add constraint "certificate_organization_slot_unique" unique ("organization_id", "slot") deferrable initially deferred;`,
    );
  }
}
