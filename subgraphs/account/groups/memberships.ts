import type { EntityManager } from '@mikro-orm/postgresql';
import { withConstraintErrors } from '../../../platform/db/database-errors.js';
import { BadRequestError } from '../../../platform/errors/domain-errors.js';
import { effectivePermissions, type EffectivePermissions } from '../domain/effective-permissions.js';
import { GroupMember } from './group-member.entity.js';
import { Group } from './group.entity.js';

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
 * The side a membership request names, for its 400s: PUT /groups/{id}/members names accounts
 * in `userIds`, PUT /users/{id}/groups names groups in `groupIds`.
 */
export interface MembershipSide {
  field: 'body.userIds' | 'body.groupIds';
  /** What one id names. */
  noun: 'account' | 'group';
}

export const ACCOUNTS_NAMED: MembershipSide = { field: 'body.userIds', noun: 'account' };
export const GROUPS_NAMED: MembershipSide = { field: 'body.groupIds', noun: 'group' };

/** A 400 for ids of the named side that are not in the caller's organization. */
export function unknownMembers(side: MembershipSide, ids: readonly (string | number)[]): BadRequestError {
  const named =
    ids.length === 1
      ? `There is no ${side.noun} with id ${ids[0]}`
      : `There are no ${side.noun}s with ids ${ids.join(', ')}`;
  return new BadRequestError(`${named} in this organization.`, [
    { field: side.field, message: `unknown ids: ${ids.join(', ')}` },
  ]);
}

/**
 * Makes `current` memberships become `wanted`: deletes those no longer wanted and inserts the
 * new ones, leaving the rest untouched. The insert is `on conflict do nothing`: the same
 * membership added at once from the group's side and the account's side (which lock different
 * rows) is added once, and both requests succeed. Straight to the database, past the unit of
 * work, so the identity map holds no stale copy to write back.
 */
export async function replaceMemberships(
  em: EntityManager,
  side: MembershipSide,
  current: GroupMember[],
  wanted: { groupId: number; userId: string; organizationId: string }[],
): Promise<void> {
  const key = (m: { groupId: number; userId: string }): string => `${m.groupId}/${m.userId}`;
  const wantedKeys = new Set(wanted.map(key));
  const currentKeys = new Set(current.map(key));
  const removed = current.filter((membership) => !wantedKeys.has(key(membership)));
  const added = wanted.filter((membership) => !currentKeys.has(key(membership)));
  if (removed.length > 0) {
    await em.nativeDelete(GroupMember, {
      $or: removed.map(({ groupId, userId }) => ({ groupId, userId })),
    });
  }
  if (added.length > 0) {
    // One of the named side deleted since it was read fails the membership's foreign key.
    await withConstraintErrors(
      () =>
        em.createQueryBuilder(GroupMember).insert(added).onConflict(['groupId', 'userId']).ignore().execute(),
      {
        foreignKey: () =>
          new BadRequestError(`One of the ${side.noun}s in ${side.field} was deleted meanwhile.`, [
            { field: side.field, message: `one of these ${side.noun}s was deleted meanwhile` },
          ]),
      },
    );
  }
}
