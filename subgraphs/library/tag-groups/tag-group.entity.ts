import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { stampedColumns } from '../../../platform/db/stamped-columns.js';
import { tenantFilter } from '../../../platform/db/tenancy.js';

/** A dimension configuration varies along (Environment, Region). */
export const TagGroup = defineEntity({
  name: 'TagGroup',
  tableName: 'tag_group',
  properties: {
    id: p.integer().primary().autoincrement(),
    organizationId: p.uuid(),
    /** Unique within the organization, matched without regard to case. */
    name: p.string().length(200),
    description: p.text(),
    ...stampedColumns(),
  },
  indexes: [
    {
      name: 'tag_group_organization_name_unique',
      expression:
        'create unique index "tag_group_organization_name_unique" on "library"."tag_group" ("organization_id", lower("name"))',
    },
  ],
  filters: { tenant: tenantFilter },
});
export type TagGroup = InferEntity<typeof TagGroup>;
