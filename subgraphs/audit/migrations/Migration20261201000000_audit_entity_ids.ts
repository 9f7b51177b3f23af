import { Migration } from '@mikro-orm/migrations';

/**
 * Entries of one entity share an id (spec 9.2): an index to find that id, and entity names
 * and ids long enough for the e-mail addresses writers put there.
 */
export class Migration20261201000000_audit_entity_ids extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "audit"."audit_entry" alter column "entity_name" type varchar(500);`);
    this.addSql(`alter table "audit"."audit_entry" alter column "entity_id" type varchar(500);`);
    this.addSql(
      `create index "audit_entry_entity_index" on "audit"."audit_entry" ("organization_id", "entry_type", "entity_id", "id");`,
    );
  }
}
