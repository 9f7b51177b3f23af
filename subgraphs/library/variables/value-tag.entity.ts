import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter } from '../../../platform/db/tenancy.js';
import { Tag } from '../tag-groups/tag.entity.js';
import { VariableValue } from './variable-value.entity.js';

/** A tag of a value; removed with either (spec 2 Variable rule 5: links cascade from either side). */
export const ValueTag = defineEntity({
  name: 'ValueTag',
  tableName: 'value_tag',
  properties: {
    valueId: p.manyToOne(VariableValue).mapToPk().fieldName('value_id').deleteRule('cascade').primary(),
    tagId: p.manyToOne(Tag).mapToPk().fieldName('tag_id').deleteRule('cascade').primary().index(),
    organizationId: p.uuid(),
  },
  indexes: [{ name: 'value_tag_organization_index', properties: ['organizationId', 'valueId'] }],
  filters: { tenant: tenantFilter },
});
export type ValueTag = InferEntity<typeof ValueTag>;
