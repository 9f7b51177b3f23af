import { Migration } from '@mikro-orm/migrations';
import { freeSlug, slugKey, slugOf } from '../domain/set-slugs.js';

/**
 * Library sets get the slug an import file names a parent by (spec 4.1 "Import"): each existing
 * set its name's, numbered where two names give the same one, then unique in the organization.
 */
export class Migration20261206000000_library_set_slug extends Migration {
  override async up(): Promise<void> {
    await this.execute(`alter table "library"."variable_set" add column "slug" varchar(200) null;`);
    const sets = (await this.execute(
      `select "id", "organization_id", "name" from "library"."variable_set" order by "id"`,
    )) as { id: number; organization_id: string; name: string }[];
    const taken = new Map<string, Set<string>>();
    for (const set of sets) {
      const organization = taken.get(set.organization_id) ?? new Set<string>();
      taken.set(set.organization_id, organization);
      const slug = freeSlug(slugOf(set.name), organization);
      organization.add(slugKey(slug));
      await this.execute(`update "library"."variable_set" set "slug" = ? where "id" = ?`, [slug, set.id]);
    }
    await this.execute(`alter table "library"."variable_set" alter column "slug" set not null;`);
    await this.execute(
      `create unique index "variable_set_organization_slug_unique" on "library"."variable_set" ("organization_id", lower("slug"));`,
    );
  }
}
