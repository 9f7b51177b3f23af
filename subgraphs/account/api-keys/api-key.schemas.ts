import { z } from 'zod';
import { integerIdInput } from '../../../platform/http/query-schemas.js';
import { API_KEY_EXPIRIES } from '../domain/api-keys.js';

export const apiKeyCreateBody = z.object({
  description: z.string().max(500).default(''),
  expiry: z.enum(API_KEY_EXPIRIES).default('OneHour').describe('The expiry date is computed by the service.'),
});
export type ApiKeyCreateBody = z.output<typeof apiKeyCreateBody>;

export const apiKeyCreatedView = z
  .object({
    id: z.number().int(),
    apiKey: z.string().describe('Shown only in this response; only its hash is stored.'),
    hint: z.string(),
    description: z.string(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ApiKeyCreated' });
export type ApiKeyCreatedView = z.output<typeof apiKeyCreatedView>;

export const apiKeyView = z
  .object({
    id: z.number().int(),
    hint: z.string(),
    description: z.string(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable(),
    expired: z.boolean(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyView = z.output<typeof apiKeyView>;

/** POST /apikeys/lookup: the SHA-256 of a key, never the key. */
export const apiKeyLookupBody = z.object({
  sha: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be the hex SHA-256 of the key'),
});

export const apiKeyIdParams = z.object({
  id: integerIdInput(),
});
export const accountApiKeyParams = z.object({
  id: z.uuid(),
  apiKeyId: integerIdInput(),
});
