import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../platform/auth/caller.js';
import type { AuditedKind } from '../../../platform/db/audited-writes.js';
import { withholdUnless, type WithholdingFields } from '../../../platform/permissions/withheld.js';
import { maySeeAccountDetails } from '../domain/visibility.js';
import type { Group } from '../groups/group.entity.js';
import { groupsOf } from '../groups/memberships.js';
import { UserIdentity } from './user-identity.entity.js';
import { User } from './user.entity.js';
import type { UserView } from './user.schemas.js';

export function userView(
  user: User,
  identities: UserIdentity[],
  groups: Pick<Group, 'id' | 'name'>[],
): UserView {
  return {
    id: user.id,
    organizationId: user.organizationId,
    name: user.name,
    email: user.email,
    serviceAccount: user.serviceAccount,
    profileImage: user.profileImage ?? null,
    identities: identities.map((identity) => ({
      provider: identity.provider,
      providerUserId: identity.providerUserId,
      linkedAt: identity.linkedAt.toISOString(),
    })),
    groups: groups.map((group) => ({ id: group.id, name: group.name })),
    version: user.version,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/** Accounts as the API answers them: with their linked identities and groups, read with `em`'s scope. */
export async function userViews(em: EntityManager, users: User[]): Promise<UserView[]> {
  const ids = users.map((u) => u.id);
  const identities =
    ids.length === 0
      ? []
      : await em.find(UserIdentity, { userId: { $in: ids } }, { orderBy: { linkedAt: 'asc', id: 'asc' } });
  const groups = await groupsOf(em, ids);
  return users.map((user) =>
    userView(
      user,
      identities.filter((identity) => identity.userId === user.id),
      groups.get(user.id) ?? [],
    ),
  );
}

/** Accounts as versioned, audited records. */
export const USERS: AuditedKind<User, UserView> = {
  entity: User,
  entryType: 'User',
  label: 'User',
  views: userViews,
};

const ACCOUNT_DETAILS = ['identities', 'groups', 'profileImage'] as const;

/** An account as this caller is shown it: its details withheld unless the caller may see them. */
export type ShownUserView = WithholdingFields<UserView, (typeof ACCOUNT_DETAILS)[number]>;

export function shownUser(caller: Caller, view: UserView): ShownUserView {
  return withholdUnless(maySeeAccountDetails(caller, view.id), view, ACCOUNT_DETAILS);
}
