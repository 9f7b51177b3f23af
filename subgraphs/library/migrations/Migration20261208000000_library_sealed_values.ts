import { Migration } from '@mikro-orm/migrations';

/**
 * Secrets at rest (issue 12 item 4): each organization's data key, kept only wrapped, and a
 * sensitive value's sealed form beside its plain columns. Values stored plain before this are
 * sealed when the service starts (secrets/plain-secrets.ts): that needs the master key, which a
 * migration does not hold.
 */
export class Migration20261208000000_library_sealed_values extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "library"."data_key" (
      "organization_id" uuid not null primary key, "generation" int not null,
      "wrapped_key" bytea not null, "certificate_id" int null);`);
    this.addSql(
      `alter table "library"."data_key" add constraint "data_key_certificate_id_foreign" foreign key ("certificate_id") references "library"."certificate" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(`alter table "library"."variable_value" add column "sealed_value" bytea null;`);
  }
}
