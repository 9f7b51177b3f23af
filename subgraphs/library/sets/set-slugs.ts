import type { EntityManager } from '@mikro-orm/postgresql';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import { ConflictError } from '../../../platform/errors/domain-errors.js';
import { freeSlug, slugKey, slugOf } from '../domain/set-slugs.js';
import { VariableSet } from './variable-set.entity.js';

/**
 * The slugs of `em`'s organization's sets, by the key they are compared by. Writers that make
 * sets take turns first, so a slug found free stays free until their transaction ends.
 */
export async function takenSlugs(em: EntityManager): Promise<Set<string>> {
  await OrganizationRows.of(em).takeTurns('variable-set-slugs');
  const sets = await em.find(VariableSet, {}, { fields: ['slug'], disableIdentityMap: true });
  return new Set(sets.map((set) => slugKey(set.slug)));
}

/** A new set's slug: the one asked for (409 when another set has it), else its name's, numbered if taken. */
export function newSlug(taken: Set<string>, name: string, wanted: string | undefined): string {
  if (wanted !== undefined && taken.has(slugKey(wanted))) {
    throw new ConflictError(
      `Another library set of this organization has the slug "${wanted}" (slugs are compared without regard to case).`,
    );
  }
  const slug = wanted ?? freeSlug(slugOf(name), taken);
  taken.add(slugKey(slug));
  return slug;
}
