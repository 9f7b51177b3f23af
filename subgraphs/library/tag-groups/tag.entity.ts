import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter } from '../../../platform/db/tenancy.js';
import { TagGroup } from './tag-group.entity.js';

/** One value of a dimension, written `Group/Tag`. Tags carry no version (spec 2 "Tag"). */
export const Tag = defineEntity({
  name: 'Tag',
  tableName: 'tag',
  properties: {
    id: p.integer().primary().autoincrement(),
    organizationId: p.uuid(),
    tagGroupId: p.manyToOne(TagGroup).mapToPk().fieldName('tag_group_id').deleteRule('cascade'),
    /** Unique within its group, matched with regard to case. */
    name: p.string().length(200),
  },
  uniques: [{ name: 'tag_group_name_unique', properties: ['tagGroupId', 'name'] }],
  indexes: [{ name: 'tag_organization_index', properties: ['organizationId', 'id'] }],
  filters: { tenant: tenantFilter },
});
export type Tag = InferEntity<typeof Tag>;
