import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../platform/auth/caller.js';
import { ForbiddenError, NotFoundError } from '../../../platform/errors/domain-errors.js';
import type { ListQuery, Page } from '../../../platform/http/query-schemas.js';
import { requirePermission } from '../../../platform/permissions/authorize.js';
import type { PermissionName } from '../../../platform/permissions/catalogue.js';
import { decideGrant } from '../domain/grant-check.js';
import { GroupMember } from './group-member.entity.js';
import { Group } from './group.entity.js';
import { User } from '../users/user.entity.js';
import { ACCOUNTS_NAMED, replaceMemberships, unknownMembers } from './memberships.js';
import { readerFor, type AccountDependencies } from '../account-dependencies.js';
import { GROUPS, groupViews } from './group.views.js';
import type { GroupBody, GroupUpdateBody, GroupView } from './group.schemas.js';

const duplicateName = 'Another group of this organization has this name.';

/** Groups of the caller's organization (spec 4.2 Groups), managed with the User* permissions. */
export class GroupService {
  constructor(private readonly deps: AccountDependencies) {}

  async list(caller: Caller | undefined, query: ListQuery): Promise<Page<GroupView>> {
    const known = requirePermission(caller, 'UserList');
    const em = readerFor(this.deps, known);
    const [groups, total] = await em.findAndCount(
      Group,
      {},
      { orderBy: { name: 'asc', id: 'asc' }, limit: query.take, offset: query.skip },
    );
    return { total, items: await groupViews(em, groups) };
  }

  async get(caller: Caller | undefined, id: number): Promise<GroupView> {
    const known = requirePermission(caller, 'UserRead');
    const em = readerFor(this.deps, known);
    return (await groupViews(em, [await findGroup(em, id)]))[0]!;
  }

  /** POST /groups: UserCreate plus the grant check. */
  async create(caller: Caller | undefined, body: GroupBody): Promise<GroupView> {
    const known = requirePermission(caller, 'UserCreate');
    const decision = decideGrant(known, null, body);
    if (decision.rejected.length > 0) throw ForbiddenError.grantRefused(decision.rejected);
    return this.deps.transactions.run(async (tx) => {
      const fields = {
        organizationId: known.organizationId,
        name: body.name,
        description: body.description,
        permissions: decision.permissions,
        variableSetIds: uniqueSorted(body.variableSetIds),
      };
      const created = await this.deps.writes.create(tx, known, GROUPS, fields, {
        constraints: {
          unique: duplicateName,
          // The organization was deleted meanwhile (its delete locks it before it reads what goes).
          foreignKey: () => NotFoundError.entity('Organization', known.organizationId),
        },
      });
      return created.view;
    }, known.organizationId);
  }

  /**
   * PUT /groups/{id}: UserUpdate plus the grant check; what the caller could not grant stays.
   * A field left out keeps its stored value (so leaving out variableSetIds never widens a
   * restricted group to every set). The group is locked for its version check (row-locks.ts):
   * of two PUTs sent with the same version, the second waits for the first, finds the version
   * moved and is 409.
   */
  async update(caller: Caller | undefined, id: number, body: GroupUpdateBody): Promise<GroupView> {
    const known = requirePermission(caller, 'UserUpdate');
    return this.deps.transactions.run(async (tx) => {
      const updated = await this.deps.writes.update(tx, known, GROUPS, id, {
        expectedVersion: body.version,
        constraints: { unique: duplicateName },
        change: (group) => {
          const stored = {
            permissions: group.permissions as PermissionName[],
            variableSetIds: group.variableSetIds,
          };
          const variableSetIds =
            body.variableSetIds === undefined ? stored.variableSetIds : uniqueSorted(body.variableSetIds);
          const decision = decideGrant(known, stored, {
            permissions: body.permissions ?? stored.permissions,
            variableSetIds,
          });
          if (decision.rejected.length > 0) throw ForbiddenError.grantRefused(decision.rejected);
          return {
            name: body.name ?? group.name,
            description: body.description ?? group.description,
            permissions: decision.permissions,
            variableSetIds,
          };
        },
      });
      return updated.view;
    }, known.organizationId);
  }

  async remove(caller: Caller | undefined, id: number): Promise<GroupView> {
    const known = requirePermission(caller, 'UserDelete');
    return this.deps.transactions.run(
      (tx) => this.deps.writes.remove(tx, known, GROUPS, id),
      known.organizationId,
    );
  }

  /**
   * PUT /groups/{id}/members: the whole membership; UserUpdate, no grant check (spec 4.2).
   * A new version of the group, locked like a PUT of its fields. A member added at the same
   * time from the account's side (PUT /users/{id}/groups) is no conflict: both answer 200.
   */
  async setMembers(caller: Caller | undefined, id: number, userIds: string[]): Promise<GroupView> {
    const known = requirePermission(caller, 'UserUpdate');
    return this.deps.transactions.run(async (tx) => {
      const updated = await this.deps.writes.update(tx, known, GROUPS, id, {
        change: async () => {
          const { em } = tx;
          const wanted = [...new Set(userIds)];
          const users =
            wanted.length === 0 ? [] : await em.find(User, { id: { $in: wanted } }, { fields: ['id'] });
          const missing = wanted.filter((userId) => !users.some((user) => user.id === userId));
          if (missing.length > 0) throw unknownMembers(ACCOUNTS_NAMED, missing);
          const current = await em.find(GroupMember, { groupId: id });
          await replaceMemberships(
            em,
            ACCOUNTS_NAMED,
            current,
            wanted.map((userId) => ({ groupId: id, userId, organizationId: known.organizationId })),
          );
          return {};
        },
      });
      return updated.view;
    }, known.organizationId);
  }
}

/**
 * The group with this id in `em`'s organization, or 404 (also for another organization's
 * id); with a lock mode, locked for the rest of the transaction.
 */
export async function findGroup(em: EntityManager, id: number, lockMode?: LockMode): Promise<Group> {
  const group = await em.findOne(Group, { id }, lockMode === undefined ? {} : { lockMode });
  if (!group) throw NotFoundError.entity('Group', id);
  return group;
}

function uniqueSorted(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}
