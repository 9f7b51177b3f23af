import { Migration } from '@mikro-orm/migrations';

/**
 * API keys are found by a non-secret prefix of their hash (the first 16 hex digits) and then
 * compared whole in constant time; the unique index on the whole hash stays.
 */
export class Migration20261123020000_api_key_hash_prefix extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "account"."user_api_key" add column "key_hash_prefix" varchar(16) null;`);
    this.addSql(`update "account"."user_api_key" set "key_hash_prefix" = left("key_hash", 16);`);
    this.addSql(`alter table "account"."user_api_key" alter column "key_hash_prefix" set not null;`);
    this.addSql(
      `create index "user_api_key_key_hash_prefix_index" on "account"."user_api_key" ("key_hash_prefix");`,
    );
  }
}
