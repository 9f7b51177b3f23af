import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditedKind } from '../../../platform/db/audited-writes.js';
import { User } from '../users/user.entity.js';
import { GroupMember } from './group-member.entity.js';
import { Group } from './group.entity.js';
import type { GroupView } from './group.schemas.js';

export function groupView(group: Group, members: Pick<User, 'id' | 'name' | 'email'>[]): GroupView {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    permissions: group.permissions,
    variableSetIds: group.variableSetIds,
    members: members.map((member) => ({ id: member.id, name: member.name, email: member.email })),
    version: group.version,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}

/** Groups as the API answers them, with their members (id, name, address) by name. */
export async function groupViews(em: EntityManager, groups: Group[]): Promise<GroupView[]> {
  const ids = groups.map((g) => g.id);
  const memberships = ids.length === 0 ? [] : await em.find(GroupMember, { groupId: { $in: ids } });
  const userIds = [...new Set(memberships.map((m) => m.userId))];
  const users =
    userIds.length === 0
      ? []
      : await em.find(
          User,
          { id: { $in: userIds } },
          { fields: ['id', 'name', 'email'], orderBy: { name: 'asc' } },
        );
  return groups.map((group) => {
    const members = new Set(memberships.filter((m) => m.groupId === group.id).map((m) => m.userId));
    return groupView(
      group,
      users.filter((user) => members.has(user.id)),
    );
  });
}

/** Groups as versioned, audited records. */
export const GROUPS: AuditedKind<Group, GroupView> = {
  entity: Group,
  entryType: 'Group',
  label: 'Group',
  views: groupViews,
};
