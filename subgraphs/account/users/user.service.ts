import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../platform/auth/caller.js';
import { scopeToOrganization } from '../../../platform/db/tenancy.js';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
} from '../../../platform/errors/domain-errors.js';
import type { ListQuery, Page } from '../../../platform/http/query-schemas.js';
import { holds, requireCaller, requirePermission } from '../../../platform/permissions/authorize.js';
import { GroupMember } from '../groups/group-member.entity.js';
import { Group } from '../groups/group.entity.js';
import { Organization } from '../organizations/organization.entity.js';
import { UserApiKey } from '../api-keys/user-api-key.entity.js';
import { User } from './user.entity.js';
import { GROUPS_NAMED, permissionsOf, replaceMemberships, unknownMembers } from '../groups/memberships.js';
import { readerFor, recordAudit, type AccountDependencies } from '../account-dependencies.js';
import { apiKeyDeletion } from '../api-keys/api-key.views.js';
import { shownUser, USERS, userViews, type ShownUserView } from './user.views.js';
import type { UserCreateBody, UserPermissionsView, UserUpdateBody, UserView } from './user.schemas.js';

const duplicateEmail = 'Another account of this organization has this email address.';

/** Accounts of the caller's organization (spec 4.2 Users). */
export class UserService {
  constructor(private readonly deps: AccountDependencies) {}

  async list(caller: Caller | undefined, query: ListQuery): Promise<Page<ShownUserView>> {
    const known = requirePermission(caller, 'UserList');
    const em = readerFor(this.deps, known);
    const [users, total] = await em.findAndCount(
      User,
      {},
      { orderBy: { name: 'asc', id: 'asc' }, limit: query.take, offset: query.skip },
    );
    return { total, items: (await userViews(em, users)).map((view) => shownUser(known, view)) };
  }

  /** GET /users/names: AuditList; names and addresses only, to put names to audit entries. */
  async names(
    caller: Caller | undefined,
    query: ListQuery,
  ): Promise<Page<{ id: string; name: string; email: string }>> {
    const known = requirePermission(caller, 'AuditList');
    const [users, total] = await readerFor(this.deps, known).findAndCount(
      User,
      {},
      {
        fields: ['id', 'name', 'email'],
        orderBy: { name: 'asc', id: 'asc' },
        limit: query.take,
        offset: query.skip,
      },
    );
    return { total, items: users.map((u) => ({ id: u.id, name: u.name, email: u.email })) };
  }

  /** POST /users/names/lookup: any session; only the ids asked about, only the caller's organization. */
  async lookupNames(caller: Caller | undefined, userIds: string[]): Promise<{ id: string; name: string }[]> {
    const known = requireCaller(caller);
    if (userIds.length === 0) return [];
    const users = await readerFor(this.deps, known).find(
      User,
      { id: { $in: [...new Set(userIds)] } },
      { fields: ['id', 'name'] },
    );
    return users.map((u) => ({ id: u.id, name: u.name }));
  }

  /**
   * Accounts referenced from other subgraphs (who wrote an audit entry, who changed a
   * variable), in one query. Needs UserRead, or AuditList (which may put names to audit
   * entries); only the caller's organization; ids not found are absent.
   */
  async referenced(caller: Caller | undefined, ids: string[]): Promise<Map<string, ShownUserView>> {
    const known = requireCaller(caller);
    if (!holds(known, 'UserRead') && !holds(known, 'AuditList')) throw new ForbiddenError();
    const em = readerFor(this.deps, known);
    const users = ids.length === 0 ? [] : await em.find(User, { id: { $in: ids } });
    return new Map((await userViews(em, users)).map((view) => [view.id, shownUser(known, view)]));
  }

  async get(caller: Caller | undefined, id: string): Promise<ShownUserView> {
    const known = requirePermission(caller, 'UserRead');
    const em = readerFor(this.deps, known);
    return shownUser(known, await this.view(em, await findUser(em, id)));
  }

  /** GET /users/me: the caller's own account, with its linked identities and profile image. */
  async me(caller: Caller | undefined): Promise<ShownUserView> {
    const known = requireCaller(caller);
    const em = readerFor(this.deps, known);
    return shownUser(known, await this.view(em, await findUser(em, known.accountId)));
  }

  async create(caller: Caller | undefined, body: UserCreateBody): Promise<ShownUserView> {
    const known = requirePermission(caller, 'UserCreate');
    return this.deps.transactions.run(async (tx) => {
      const fields = {
        id: randomUUID(),
        organizationId: known.organizationId,
        name: body.name,
        email: body.email,
        serviceAccount: body.serviceAccount,
        profileImage: null,
      };
      const created = await this.deps.writes.create(tx, known, USERS, fields, {
        constraints: {
          unique: duplicateEmail,
          // The organization was deleted meanwhile (its delete locks it before it reads what goes).
          foreignKey: () => NotFoundError.entity('Organization', known.organizationId),
        },
      });
      return shownUser(known, created.view);
    }, known.organizationId);
  }

  /**
   * PUT /users/{id}: a field left out keeps its stored value, a field sent replaces it (null
   * clears the profile image). The row is locked while the version is compared and bumped
   * (row-locks.ts), so of two updates sent with the same version one wins and the other is 409.
   */
  async update(caller: Caller | undefined, id: string, body: UserUpdateBody): Promise<ShownUserView> {
    const known = requirePermission(caller, 'UserUpdate');
    return this.deps.transactions.run(async (tx) => {
      const updated = await this.deps.writes.update(tx, known, USERS, id, {
        expectedVersion: body.version,
        constraints: { unique: duplicateEmail },
        change: (user) => {
          if (body.serviceAccount !== undefined && body.serviceAccount !== user.serviceAccount) {
            throw new BadRequestError(
              'Whether an account is a service account cannot change after it is created.',
              [{ field: 'body.serviceAccount', message: 'cannot change' }],
            );
          }
          return {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.email !== undefined ? { email: body.email } : {}),
            ...(body.profileImage !== undefined ? { profileImage: body.profileImage } : {}),
          };
        },
      });
      return shownUser(known, updated.view);
    }, known.organizationId);
  }

  /**
   * Deletes an account with its keys and memberships (the database cascades); answers the
   * removed record. Each removed key gets its own Delete entry in the same transaction, so the
   * audit log keeps its record (spec 3 and 6). The account is locked first, so no key can be
   * minted for it meanwhile, then its keys, so one revoked meanwhile is not recorded twice.
   */
  async remove(caller: Caller | undefined, id: string): Promise<ShownUserView> {
    const known = requirePermission(caller, 'UserDelete');
    if (id === known.accountId) throw new ConflictError('You cannot delete your own account.');
    const removed = await this.deps.transactions.run(
      (tx) =>
        this.deps.writes.remove(tx, known, USERS, id, {
          beforeDelete: async () => {
            const keys = await tx.em.find(
              UserApiKey,
              { userId: id },
              { orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE },
            );
            const now = this.deps.clock.now();
            for (const key of keys) recordAudit(this.deps, tx.outbox, known, apiKeyDeletion(key, now));
          },
        }),
      known.organizationId,
    );
    return shownUser(known, removed);
  }

  /**
   * PUT /users/{id}/groups: the account's whole membership, set from the account's side. A new
   * version of the account, locked like a PUT of its fields; a group adding the account at the
   * same time (PUT /groups/{id}/members) is no conflict: both answer 200.
   */
  async setGroups(caller: Caller | undefined, id: string, groupIds: number[]): Promise<ShownUserView> {
    const known = requirePermission(caller, 'UserUpdate');
    return this.deps.transactions.run(async (tx) => {
      const updated = await this.deps.writes.update(tx, known, USERS, id, {
        change: async () => {
          const { em } = tx;
          const wanted = [...new Set(groupIds)];
          const groups = wanted.length === 0 ? [] : await em.find(Group, { id: { $in: wanted } });
          const missing = wanted.filter((groupId) => !groups.some((group) => group.id === groupId));
          if (missing.length > 0) throw unknownMembers(GROUPS_NAMED, missing);
          const current = await em.find(GroupMember, { userId: id });
          await replaceMemberships(
            em,
            GROUPS_NAMED,
            current,
            wanted.map((groupId) => ({ groupId, userId: id, organizationId: known.organizationId })),
          );
          return {};
        },
      });
      return shownUser(known, updated.view);
    }, known.organizationId);
  }

  /**
   * GET /users/{id}/permissions: anonymous, for session renewal. The organization is named
   * by the caller, and an account of another organization is 404.
   */
  async permissions(userId: string, organizationId: string): Promise<UserPermissionsView> {
    const em = scopeToOrganization(this.deps.orm.em.fork(), organizationId);
    // A disabled organization answers nothing, so its sessions are not renewed (as it cannot sign in).
    if (!(await em.findOne(Organization, { id: organizationId, active: true }))) {
      throw NotFoundError.entity('Organization', organizationId);
    }
    const user = await findUser(em, userId);
    const { permissions, variableSets } = await permissionsOf(em, userId);
    return { userId, organizationId, serviceAccount: user.serviceAccount, permissions, variableSets };
  }

  private async view(em: EntityManager, user: User): Promise<UserView> {
    return (await userViews(em, [user]))[0]!;
  }
}

/**
 * The account with this id in `em`'s organization, or 404 (also for another organization's id).
 * With a lock mode, the row stays locked until `em`'s transaction ends.
 */
export async function findUser(em: EntityManager, id: string, lockMode?: LockMode): Promise<User> {
  const user = await em.findOne(User, { id }, lockMode === undefined ? {} : { lockMode });
  if (!user) throw NotFoundError.entity('User', id);
  return user;
}
