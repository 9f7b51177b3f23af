import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter } from '../../../platform/db/tenancy.js';
import { User } from './user.entity.js';

/** An identity-provider login linked to an account; one provider user is one account per organization. */
export const UserIdentity = defineEntity({
  name: 'UserIdentity',
  tableName: 'user_identity',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.manyToOne(User).mapToPk().fieldName('user_id').deleteRule('cascade'),
    organizationId: p.uuid(),
    provider: p.string().length(50),
    providerUserId: p.string().length(200),
    linkedAt: p.datetime(),
  },
  uniques: [
    {
      name: 'user_identity_provider_user_unique',
      properties: ['organizationId', 'provider', 'providerUserId'],
    },
  ],
  filters: { tenant: tenantFilter },
});
export type UserIdentity = InferEntity<typeof UserIdentity>;
