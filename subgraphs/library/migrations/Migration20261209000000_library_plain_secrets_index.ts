import { Migration } from '@mikro-orm/migrations';

/**
 * The sensitive values still stored plain, found at every start (secrets/plain-secrets.ts) without
 * reading every value: a sensitive value is the one with a hint, and once sealed it leaves this
 * index, which is empty but for values written before secrets were sealed.
 */
export class Migration20261209000000_library_plain_secrets_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "variable_value_plain_secret_index" on "library"."variable_value" ("organization_id") where "hint" is not null and "sealed_value" is null;`,
    );
  }
}
