import { z } from 'zod';

/** POST /generatejwt (spec 4.3). */
export const generateJwtBody = z.object({
  userId: z
    .uuid()
    .nullable()
    .optional()
    .describe(
      'Accepted for compatibility; the account is found from the provider identity, never from this.',
    ),
  provider: z.string().trim().min(1).max(50),
  providerUserId: z.string().trim().min(1).max(200),
  name: z.string().trim().max(200).default(''),
  email: z.email().max(320),
  orgId: z.uuid(),
  profileImage: z
    .string()
    .max(2_000_000)
    .nullable()
    .optional()
    .describe(
      "The provider's photo, passed to the account service, which stores it only when it is an image it accepts (an https: address, or a PNG, JPEG, GIF or WebP image as a data URL or base64) and otherwise keeps the account's photo: an odd photo never fails a login.",
    ),
});
export type GenerateJwtBody = z.output<typeof generateJwtBody>;

/** POST /refreshjwt: the session to renew, which must be the one the presented token is for. */
export const refreshJwtBody = z.object({ userId: z.uuid(), orgId: z.uuid() });
export type RefreshJwtBody = z.output<typeof refreshJwtBody>;

export const keyNameParams = z.object({
  key: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, dot, underscore and hyphen, up to 100'),
});

export const generatedKeyView = z
  .object({
    kid: z.string(),
    publicKeyPem: z.string(),
    privateKeyPem: z.string(),
    jwk: z.record(z.string(), z.unknown()).describe('The public key as a JWK (RS256, use sig).'),
  })
  .meta({ id: 'GeneratedSigningKey' });
export type GeneratedKeyView = z.output<typeof generatedKeyView>;

export const apiKeyTokenView = z
  .object({ expiresAt: z.iso.datetime() })
  .meta({ id: 'ApiKeyTokenIssued', description: 'The token itself is in the x-svc-auth response header.' });
