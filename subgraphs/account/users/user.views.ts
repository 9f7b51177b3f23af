import type { Group } from '../groups/group.entity.js';
import type { UserIdentity } from './user-identity.entity.js';
import type { User } from './user.entity.js';
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
