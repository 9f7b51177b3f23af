import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { stampedColumns } from '../../../platform/db/stamped-columns.js';
import { tenantFilter } from '../../../platform/db/tenancy.js';
import type { VariableType } from '../domain/variable-types.js';
import { VariableSet } from '../sets/variable-set.entity.js';

/** A named configuration variable of a set; its values and their tags are part of it (one version). */
export const Variable = defineEntity({
  name: 'Variable',
  tableName: 'variable',
  properties: {
    id: p.integer().primary().autoincrement(),
    organizationId: p.uuid(),
    variableSetId: p.manyToOne(VariableSet).mapToPk().fieldName('variable_set_id').deleteRule('cascade'),
    /** Unique within its set without regard to case. */
    name: p.string().length(200),
    type: p.string().length(20).$type<VariableType>(),
    /** Of the variable, not of one value; it only ever goes from false to true. */
    sensitive: p.boolean(),
    ...stampedColumns(),
  },
  indexes: [
    { name: 'variable_organization_index', properties: ['organizationId', 'id'] },
    {
      name: 'variable_set_name_unique',
      expression:
        'create unique index "variable_set_name_unique" on "library"."variable" ("variable_set_id", lower("name"))',
    },
  ],
  filters: { tenant: tenantFilter },
});
export type Variable = InferEntity<typeof Variable>;
