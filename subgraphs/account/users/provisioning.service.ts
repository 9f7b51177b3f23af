import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import { ForbiddenError, NotFoundError } from '../../../platform/errors/domain-errors.js';
import type { Transaction } from '../../../platform/outbox/transaction-runner.js';
import { mayCreateAccount } from '../domain/account-patterns.js';
import { isProfileImage } from '../domain/profile-image.js';
import { GroupMember } from '../groups/group-member.entity.js';
import { Group } from '../groups/group.entity.js';
import { Organization } from '../organizations/organization.entity.js';
import { UserIdentity } from './user-identity.entity.js';
import { User } from './user.entity.js';
import { permissionsOf } from '../groups/memberships.js';
import type { AccountDependencies } from '../account-dependencies.js';
import { findForVersionCheck } from '../../../platform/db/row-locks.js';
import { ADMINISTRATORS_GROUP } from '../organizations/organization.service.js';
import type { ProvisionBody, SessionAccountView } from './user.schemas.js';
import { USERS } from './user.views.js';

/**
 * POST /users/provision, the first call of every login (spec 4.2). Finds the account of a
 * provider identity (by the identity, else by address), brings it in step with what the
 * provider says, and creates it only when the address matches an account pattern or is an
 * administrator address of the organization.
 */
export class ProvisioningService {
  constructor(private readonly deps: AccountDependencies) {}

  async provision(body: ProvisionBody): Promise<SessionAccountView> {
    const organization = await this.deps.orm.em
      .fork()
      .findOne(Organization, { id: body.organizationId, active: true });
    if (!organization) throw NotFoundError.entity('Organization', body.organizationId);
    const login = { ...body, profileImage: this.storablePhoto(body) };
    let outcome: SessionAccountView | 'denied';
    try {
      outcome = await this.attempt(organization, login);
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      // A concurrent login of the same person created the account (or linked the identity)
      // first. Its transaction has committed, so looking again finds it: answer as it did.
      outcome = await this.attempt(organization, login);
    }
    if (outcome === 'denied') {
      throw new ForbiddenError(
        'There is no account for this address, and no account pattern permits creating one.',
      );
    }
    return outcome;
  }

  private attempt(organization: Organization, body: ProvisionBody): Promise<SessionAccountView | 'denied'> {
    return this.deps.transactions.run(async (tx) => {
      const { em } = tx;
      const existing = await this.findAccount(em, body);
      const user = existing ?? (await this.createAccount(tx, organization, body));
      if (!user) return 'denied' as const;
      if (existing) await this.bringInStep(tx, existing, body);
      await em.flush();
      const { permissions, variableSets } = await permissionsOf(em, user.id);
      return {
        user: {
          id: user.id,
          organizationId: user.organizationId,
          name: user.name,
          email: user.email,
          serviceAccount: user.serviceAccount,
        },
        permissions,
        variableSets,
      };
    }, organization.id);
  }

  /**
   * The provider's photo when it is one we store (domain/profile-image.ts); else undefined, so
   * the account keeps its stored photo: a photo we cannot show is no reason to refuse a login.
   */
  private storablePhoto(login: ProvisionBody): string | null | undefined {
    const photo = login.profileImage;
    if (photo === undefined || photo === null || isProfileImage(photo)) return photo;
    this.deps.logger.warn(
      { organizationId: login.organizationId, provider: login.provider, length: photo.length },
      "the provider's profile image is not one we store; the account keeps its stored photo",
    );
    return undefined;
  }

  /**
   * The account of this provider identity, else the person account with this address.
   * A service account is never matched by address: a login must not take one over. The account
   * is locked until the transaction ends, as for a PUT (row-locks.ts), so concurrent logins
   * bring it in step one at a time.
   */
  private async findAccount(em: EntityManager, body: ProvisionBody): Promise<User | null> {
    const identity = await em.findOne(UserIdentity, {
      provider: body.provider,
      providerUserId: body.providerUserId,
    });
    const found = identity
      ? await em.findOne(User, { id: identity.userId })
      : await em.findOne(User, { [raw('lower(email)')]: body.email.toLowerCase(), serviceAccount: false });
    return found && findForVersionCheck(em, User, found.id);
  }

  private async createAccount(
    tx: Transaction,
    organization: Organization,
    body: ProvisionBody,
  ): Promise<User | null> {
    const { em, outbox } = tx;
    const decision = mayCreateAccount(body.email, organization, (pattern, error) =>
      this.deps.logger.warn(
        { organizationId: organization.id, pattern, reason: error.message },
        'account pattern does not compile; skipped',
      ),
    );
    const nobody = { organizationId: organization.id, accountId: null };
    // A service account holding the address leaves nobody to issue to: a person account beside it
    // would break the one-address-per-organization rule, and the service account is never taken over.
    const heldByServiceAccount =
      decision.allowed &&
      (await em.findOne(User, { [raw('lower(email)')]: body.email.toLowerCase(), serviceAccount: true }));
    if (!decision.allowed || heldByServiceAccount) {
      this.deps.auditLog.record(outbox, nobody, {
        entryType: 'User',
        entityName: 'User',
        entityId: body.email,
        change: { action: 'ProvisionDenied', after: { email: body.email, provider: body.provider } },
      });
      return null;
    }
    const id = randomUUID();
    // Made with the account, so its Create entry shows the identity and the membership.
    em.create(UserIdentity, {
      userId: id,
      organizationId: organization.id,
      provider: body.provider,
      providerUserId: body.providerUserId,
      linkedAt: this.deps.clock.now(),
    });
    if (decision.asAdministrator) {
      const administrators = await em.findOne(Group, {
        [raw('lower(name)')]: ADMINISTRATORS_GROUP.toLowerCase(),
      });
      if (administrators) {
        em.create(GroupMember, { groupId: administrators.id, userId: id, organizationId: organization.id });
      }
    }
    const fields = {
      id,
      organizationId: organization.id,
      name: body.name || body.email,
      email: body.email,
      serviceAccount: false,
      profileImage: body.profileImage ?? null,
    };
    // Nobody signed in made it (nothing is stamped); its entry is the new account's own.
    const created = await this.deps.writes.create(tx, nobody, USERS, fields, {
      author: (user) => ({ organizationId: organization.id, accountId: user.id }),
    });
    return created.row;
  }

  /**
   * Name, address and photo follow the provider. An address another account already has is
   * left as it was (logged), rather than refusing the login. A provider identity seen for
   * the first time is linked to the account.
   */
  private async bringInStep(tx: Transaction, user: User, body: ProvisionBody): Promise<void> {
    const { em, outbox } = tx;
    const author = { organizationId: user.organizationId, accountId: user.id };
    await this.deps.writes.updateLocked(tx, author, USERS, user, {
      change: async (_user, before) => {
        if (
          !before.identities.some(
            (i) => i.provider === body.provider && i.providerUserId === body.providerUserId,
          )
        ) {
          const linked = em.create(UserIdentity, {
            userId: user.id,
            organizationId: user.organizationId,
            provider: body.provider,
            providerUserId: body.providerUserId,
            linkedAt: this.deps.clock.now(),
          });
          this.deps.auditLog.record(outbox, author, {
            entryType: 'User',
            entityName: 'User',
            entityId: user.id,
            change: {
              action: 'LinkIdentity',
              after: { provider: linked.provider, providerUserId: linked.providerUserId },
            },
          });
        }
        const changes: Partial<Pick<User, 'name' | 'email' | 'profileImage'>> = {};
        if (body.name && body.name !== user.name) changes.name = body.name;
        if (body.profileImage !== undefined && body.profileImage !== user.profileImage)
          changes.profileImage = body.profileImage;
        if (body.email !== user.email) {
          const holder = await em.findOne(User, {
            [raw('lower(email)')]: body.email.toLowerCase(),
            id: { $ne: user.id },
          });
          if (holder)
            this.deps.logger.warn(
              { userId: user.id },
              'the provider address belongs to another account; kept the old one',
            );
          else changes.email = body.email;
        }
        // The identity linked above is written with the change, so both states are as the API answers.
        return Object.keys(changes).length === 0 ? undefined : changes;
      },
    });
  }
}
