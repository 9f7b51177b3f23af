import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { stampedColumns } from '../../../platform/db/stamped-columns.js';
import { tenantFilter } from '../../../platform/db/tenancy.js';
import { Organization } from '../organizations/organization.entity.js';

/**
 * A set of permissions given to its members. `variableSetIds` restricts the group's
 * Variable* permissions to those library sets; empty means every set.
 */
export const Group = defineEntity({
  name: 'Group',
  tableName: 'user_group',
  properties: {
    id: p.integer().primary().autoincrement(),
    organizationId: p.manyToOne(Organization).mapToPk().fieldName('organization_id').deleteRule('cascade'),
    /** Unique within the organization without regard to case. */
    name: p.string().length(200),
    description: p.text(),
    permissions: p.json<string[]>(),
    variableSetIds: p.json<number[]>(),
    ...stampedColumns(),
  },
  indexes: [
    {
      name: 'user_group_organization_name_unique',
      expression:
        'create unique index "user_group_organization_name_unique" on "account"."user_group" ("organization_id", lower("name"))',
    },
  ],
  filters: { tenant: tenantFilter },
});
export type Group = InferEntity<typeof Group>;
