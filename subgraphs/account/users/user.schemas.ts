import { z } from 'zod';
import { isProfileImage, PROFILE_IMAGE_RULE } from '../domain/profile-image.js';

const name = z.string().trim().min(1).max(200);
const email = z.email().max(320);

/** A profile photo as domain/profile-image.ts allows it. */
const profileImage = z.string().refine(isProfileImage, PROFILE_IMAGE_RULE).nullable().optional();

/** POST /users (CONTRACT section 5). */
export const userCreateBody = z.object({
  name,
  email,
  serviceAccount: z.boolean().default(false),
});
export type UserCreateBody = z.output<typeof userCreateBody>;

/**
 * PUT /users/{id}: a field left out keeps its stored value, a field sent replaces it (null clears
 * the profile image). Whether an account is a service account is fixed when it is created.
 */
export const userUpdateBody = z.object({
  name: name.optional(),
  email: email.optional(),
  serviceAccount: z.boolean().optional().describe('Cannot change; when given it must match.'),
  profileImage: profileImage.describe(`The photo: ${PROFILE_IMAGE_RULE}. Null clears it.`),
  version: z
    .number()
    .int()
    .optional()
    .describe('The version read; a different stored version is 409 and changes nothing.'),
});
export type UserUpdateBody = z.output<typeof userUpdateBody>;

export const userGroupsBody = z.object({ groupIds: z.array(z.number().int().positive()).max(1000) });

export const namesLookupBody = z.object({ userIds: z.array(z.uuid()).max(1000) });

export const userIdParams = z.object({ id: z.uuid() });

export const userPermissionsQuery = z.object({ organizationId: z.uuid() });

/**
 * What a provider's photo may weigh on the way in: beyond what is stored (domain/profile-image.ts),
 * since one that is not stored is dropped rather than refused; below the request size limit.
 */
export const MAX_PROVIDER_PROFILE_IMAGE = 2_000_000;

/** POST /users/provision: the first call of every login. */
export const provisionBody = z.object({
  provider: z.string().trim().min(1).max(50),
  providerUserId: z.string().trim().min(1).max(200),
  email,
  name: z.string().trim().max(200).default(''),
  organizationId: z.uuid(),
  profileImage: z
    .string()
    .max(MAX_PROVIDER_PROFILE_IMAGE)
    .nullable()
    .optional()
    .describe(
      `Stored when it is a profile image PUT /users/{id} accepts (${PROFILE_IMAGE_RULE}); anything else keeps the stored photo (logged), and the login goes on. Null clears it.`,
    ),
});
export type ProvisionBody = z.output<typeof provisionBody>;

const groupReference = z.object({ id: z.number().int(), name: z.string() });

const userRecord = z.object({
  id: z.uuid(),
  organizationId: z.uuid(),
  name: z.string(),
  email: z.string(),
  serviceAccount: z.boolean(),
  profileImage: z.string().nullable(),
  identities: z.array(
    z.object({ provider: z.string(), providerUserId: z.string(), linkedAt: z.iso.datetime() }),
  ),
  groups: z.array(groupReference),
  version: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type UserView = z.output<typeof userRecord>;

/** An account as answered: its identities, groups and photo only with UserRead, or to the account itself. */
export const userView = userRecord.partial({ identities: true, groups: true, profileImage: true }).meta({
  id: 'User',
  description:
    "Identities, groups and profileImage are left out without UserRead, unless it is the caller's own account.",
});

export const userNameView = z
  .object({ id: z.uuid(), name: z.string(), email: z.string() })
  .meta({ id: 'UserName' });

export const userPermissionsView = z
  .object({
    userId: z.uuid(),
    organizationId: z.uuid(),
    serviceAccount: z.boolean(),
    permissions: z.array(z.string()),
    variableSets: z.record(z.string(), z.array(z.number().int())),
  })
  .meta({ id: 'UserPermissions' });
export type UserPermissionsView = z.output<typeof userPermissionsView>;

/** What a login or key exchange needs to mint a token. */
export const sessionAccountView = z
  .object({
    user: z.object({
      id: z.uuid(),
      organizationId: z.uuid(),
      name: z.string(),
      email: z.string(),
      serviceAccount: z.boolean(),
    }),
    permissions: z.array(z.string()),
    variableSets: z.record(z.string(), z.array(z.number().int())),
  })
  .meta({ id: 'SessionAccount' });
export type SessionAccountView = z.output<typeof sessionAccountView>;
