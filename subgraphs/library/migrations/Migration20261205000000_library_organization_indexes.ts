import { Migration } from '@mikro-orm/migrations';

/**
 * An organization's rows found by index, not by scanning every organization's: the read path loads
 * a whole library by organization (its tags, variables, values and their tags), in id order.
 */
export class Migration20261205000000_library_organization_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "tag_organization_index" on "library"."tag" ("organization_id", "id");`);
    this.addSql(
      `create index "variable_organization_index" on "library"."variable" ("organization_id", "id");`,
    );
    this.addSql(
      `create index "variable_value_organization_index" on "library"."variable_value" ("organization_id", "id");`,
    );
    this.addSql(
      `create index "value_tag_organization_index" on "library"."value_tag" ("organization_id", "value_id");`,
    );
  }
}
