import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter } from '../../../platform/db/tenancy.js';
import { Variable } from './variable.entity.js';

/**
 * One value of a variable, in the storage field of its type, or sealed when its variable is
 * sensitive. A sensitive variable's values keep the hint and hash derived from them
 * (domain/sensitive-values.ts); the others keep neither.
 */
export const VariableValue = defineEntity({
  name: 'VariableValue',
  tableName: 'variable_value',
  properties: {
    id: p.integer().primary().autoincrement(),
    organizationId: p.uuid(),
    variableId: p.manyToOne(Variable).mapToPk().fieldName('variable_id').deleteRule('cascade').index(),
    value: p.text().nullable(),
    // A JavaScript number: the values are JSON numbers, written and read as such.
    numberValue: p.double().runtimeType('number').$type<number>().nullable(),
    booleanValue: p.boolean().nullable(),
    /**
     * A sensitive value's text or number, sealed under its organization's data key
     * (secrets/value-cipher.ts); `value` and `numberValue` are then null.
     */
    sealedValue: p.blob().nullable(),
    hint: p.string().length(20).nullable(),
    hash: p.string().length(64).nullable(),
  },
  indexes: [
    { name: 'variable_value_organization_index', properties: ['organizationId', 'id'] },
    // The sensitive values still stored plain, which every start seals (secrets/plain-secrets.ts).
    {
      name: 'variable_value_plain_secret_index',
      expression:
        'create index "variable_value_plain_secret_index" on "library"."variable_value" ("organization_id") where "hint" is not null and "sealed_value" is null',
    },
  ],
  filters: { tenant: tenantFilter },
});
export type VariableValue = InferEntity<typeof VariableValue>;
