import type { EntityManager } from '@mikro-orm/postgresql';
import { effectivePermissions, type EffectivePermissions } from '../domain/effective-permissions.js';
import { GroupMember } from '../entities/group-member.entity.js';
import { Group } from '../entities/group.entity.js';

/** The permissions an account holds through its groups, read with `em`'s organization scope. */
export async function permissionsOf(em: EntityManager, userId: string): Promise<EffectivePermissions> {
  const memberships = await em.find(GroupMember, { userId });
  if (memberships.length === 0) return { permissions: [], variableSets: {} };
  const groups = await em.find(Group, { id: { $in: memberships.map((m) => m.groupId) } });
  return effectivePermissions(groups);
}

/** The groups of each of these accounts, by account id. */
export async function groupsOf(em: EntityManager, userIds: string[]): Promise<Map<string, Group[]>> {
  const memberships = userIds.length === 0 ? [] : await em.find(GroupMember, { userId: { $in: userIds } });
  const groups =
    memberships.length === 0
      ? []
      : await em.find(
          Group,
          { id: { $in: [...new Set(memberships.map((m) => m.groupId))] } },
          { orderBy: { name: 'asc' } },
        );
  const byId = new Map(groups.map((group) => [group.id, group]));
  const result = new Map<string, Group[]>(userIds.map((id) => [id, []]));
  for (const membership of memberships) {
    const group = byId.get(membership.groupId);
    if (group) result.get(membership.userId)?.push(group);
  }
  return result;
}

/**
 * Makes `current` memberships become `wanted`: removes those no longer wanted and adds the
 * new ones, leaving the rest untouched, through the unit of work (a bulk delete followed by
 * re-creating the same rows would be undone by the identity map).
 */
export async function replaceMemberships(
  em: EntityManager,
  current: GroupMember[],
  wanted: { groupId: number; userId: string; organizationId: string }[],
): Promise<void> {
  const key = (m: { groupId: number; userId: string }): string => `${m.groupId}/${m.userId}`;
  const wantedKeys = new Set(wanted.map(key));
  const currentKeys = new Set(current.map(key));
  for (const membership of current) if (!wantedKeys.has(key(membership))) em.remove(membership);
  for (const membership of wanted) if (!currentKeys.has(key(membership))) em.create(GroupMember, membership);
  await em.flush();
}
