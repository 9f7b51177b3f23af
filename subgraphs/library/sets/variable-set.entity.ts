import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { stampedColumns } from '../../../platform/db/stamped-columns.js';
import { tenantFilter } from '../../../platform/db/tenancy.js';

/**
 * A library set (a variable set in the API): variables fetched together, inheriting those of
 * its parent. A parent cannot be deleted while it has children (409 before the database's own
 * refusal); deleting a set cascades to its variables and their values.
 */
export const VariableSet = defineEntity({
  name: 'VariableSet',
  tableName: 'variable_set',
  properties: {
    id: p.integer().primary().autoincrement(),
    organizationId: p.uuid(),
    /** Unique within the organization without regard to case: an import file names sets by name. */
    name: p.string().length(200),
    /** How an import file names this set as a parent; unique in the organization without regard to case, set once. */
    slug: p.string().length(200),
    description: p.text(),
    parentVariableSetId: p.integer().nullable(),
    ...stampedColumns(),
  },
  indexes: [
    {
      name: 'variable_set_organization_name_unique',
      expression:
        'create unique index "variable_set_organization_name_unique" on "library"."variable_set" ("organization_id", lower("name"))',
    },
    {
      name: 'variable_set_organization_slug_unique',
      expression:
        'create unique index "variable_set_organization_slug_unique" on "library"."variable_set" ("organization_id", lower("slug"))',
    },
    { name: 'variable_set_parent_index', properties: ['parentVariableSetId'] },
  ],
  filters: { tenant: tenantFilter },
});
export type VariableSet = InferEntity<typeof VariableSet>;
