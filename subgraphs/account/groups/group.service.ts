import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../platform/auth/caller.js';
import { withConstraintErrors } from '../../../platform/db/database-errors.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../../platform/errors/domain-errors.js';
import type { ListQuery, Page } from '../../../platform/http/query-schemas.js';
import { requirePermission } from '../../../platform/permissions/authorize.js';
import type { PermissionName } from '../../../platform/permissions/catalogue.js';
import { decideGrant } from '../domain/grant-check.js';
import { GroupMember } from './group-member.entity.js';
import { Group } from './group.entity.js';
import { User } from '../users/user.entity.js';
import { ACCOUNTS_NAMED, replaceMemberships, unknownMembers } from './memberships.js';
import { findForVersionCheck } from '../../../platform/db/row-locks.js';
import { readerFor, recordAudit, type AccountDependencies } from '../account-dependencies.js';
import { groupView } from './group.views.js';
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
    const now = this.deps.clock.now();
    return this.deps.transactions.run(async ({ em, outbox }) => {
      const group = em.create(Group, {
        organizationId: known.organizationId,
        name: body.name,
        description: body.description,
        permissions: decision.permissions,
        variableSetIds: uniqueSorted(body.variableSetIds),
        version: 1,
        createdAt: now,
        updatedAt: now,
        createdById: known.accountId,
        updatedById: known.accountId,
      });
      await withConstraintErrors(() => em.flush(), {
        unique: duplicateName,
        // The organization was deleted meanwhile (its delete locks it before it reads what goes).
        foreignKey: () => NotFoundError.entity('Organization', known.organizationId),
      });
      const view = groupView(group, []);
      recordAudit(this.deps, outbox, known, {
        entryType: 'Group',
        entityName: 'Group',
        entityId: group.id,
        version: 1,
        change: { action: 'Create', after: view },
      });
      return view;
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
    return this.deps.transactions.run(async ({ em, outbox }) => {
      const group = await findGroupForVersionCheck(em, id);
      if (body.version !== undefined && body.version !== group.version) {
        throw new ConflictError(
          `Group ${id} was changed since version ${body.version}; it is at ${group.version}.`,
        );
      }
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
      const [before] = await groupViews(em, [group]);
      em.assign(group, {
        name: body.name ?? group.name,
        description: body.description ?? group.description,
        permissions: decision.permissions,
        variableSetIds,
        version: group.version + 1,
        updatedAt: this.deps.clock.now(),
        updatedById: known.accountId,
      });
      await withConstraintErrors(() => em.flush(), { unique: duplicateName });
      const [after] = await groupViews(em, [group]);
      recordAudit(this.deps, outbox, known, {
        entryType: 'Group',
        entityName: 'Group',
        entityId: id,
        version: group.version,
        change: { action: 'Update', before: before!, after: after! },
      });
      return after!;
    }, known.organizationId);
  }

  async remove(caller: Caller | undefined, id: number): Promise<GroupView> {
    const known = requirePermission(caller, 'UserDelete');
    return this.deps.transactions.run(async ({ em, outbox }) => {
      const group = await findGroup(em, id, LockMode.PESSIMISTIC_WRITE);
      const [before] = await groupViews(em, [group]);
      await em.nativeDelete(Group, { id });
      recordAudit(this.deps, outbox, known, {
        entryType: 'Group',
        entityName: 'Group',
        entityId: id,
        version: group.version,
        change: { action: 'Delete', before: before! },
      });
      return before!;
    }, known.organizationId);
  }

  /**
   * PUT /groups/{id}/members: the whole membership; UserUpdate, no grant check (spec 4.2).
   * A new version of the group, locked like a PUT of its fields. A member added at the same
   * time from the account's side (PUT /users/{id}/groups) is no conflict: both answer 200.
   */
  async setMembers(caller: Caller | undefined, id: number, userIds: string[]): Promise<GroupView> {
    const known = requirePermission(caller, 'UserUpdate');
    return this.deps.transactions.run(async ({ em, outbox }) => {
      const group = await findGroupForVersionCheck(em, id);
      const wanted = [...new Set(userIds)];
      const users =
        wanted.length === 0 ? [] : await em.find(User, { id: { $in: wanted } }, { fields: ['id'] });
      const missing = wanted.filter((userId) => !users.some((user) => user.id === userId));
      if (missing.length > 0) throw unknownMembers(ACCOUNTS_NAMED, missing);
      const [before] = await groupViews(em, [group]);
      const current = await em.find(GroupMember, { groupId: id });
      await replaceMemberships(
        em,
        ACCOUNTS_NAMED,
        current,
        wanted.map((userId) => ({ groupId: id, userId, organizationId: known.organizationId })),
      );
      em.assign(group, {
        version: group.version + 1,
        updatedAt: this.deps.clock.now(),
        updatedById: known.accountId,
      });
      await em.flush();
      const [after] = await groupViews(em, [group]);
      recordAudit(this.deps, outbox, known, {
        entryType: 'Group',
        entityName: 'Group',
        entityId: id,
        version: group.version,
        change: { action: 'Update', before: before!, after: after! },
      });
      return after!;
    }, known.organizationId);
  }
}

/** The group, locked for its version check until the transaction ends (row-locks.ts); or 404. */
async function findGroupForVersionCheck(em: EntityManager, id: number): Promise<Group> {
  const group = await findForVersionCheck(em, Group, id);
  if (!group) throw NotFoundError.entity('Group', id);
  return group;
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
