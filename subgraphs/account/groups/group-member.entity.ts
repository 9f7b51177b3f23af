import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter } from '../../../platform/db/tenancy.js';
import { Group } from './group.entity.js';
import { User } from '../users/user.entity.js';

/** A user's membership of a group; both belong to the same organization. */
export const GroupMember = defineEntity({
  name: 'GroupMember',
  tableName: 'group_member',
  properties: {
    groupId: p.manyToOne(Group).mapToPk().fieldName('group_id').deleteRule('cascade').primary(),
    userId: p.manyToOne(User).mapToPk().fieldName('user_id').deleteRule('cascade').primary(),
    organizationId: p.uuid(),
  },
  filters: { tenant: tenantFilter },
});
export type GroupMember = InferEntity<typeof GroupMember>;
