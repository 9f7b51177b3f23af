import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Organization } from '../organizations/organization.entity.js';

/** A credits-spent message already counted, kept so a redelivery never counts twice. */
export const CreditSpend = defineEntity({
  name: 'CreditSpend',
  tableName: 'credit_spend',
  properties: {
    messageId: p.string().length(100).primary(),
    organizationId: p.manyToOne(Organization).mapToPk().fieldName('organization_id').deleteRule('cascade'),
    amount: p.integer(),
    recordedAt: p.datetime(),
  },
});
export type CreditSpend = InferEntity<typeof CreditSpend>;
