import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter } from '../../../platform/db/tenancy.js';
import { User } from '../users/user.entity.js';

/**
 * An API key of an account. Only the SHA-256 of the key is kept (keys are long random
 * strings, so an unsalted hash is safe); it is unique across every organization. A lookup
 * finds rows by the hash's first hex digits and compares the whole hash in constant time.
 * Expiry is a state: past `expiresAt` the key no longer resolves.
 */
export const UserApiKey = defineEntity({
  name: 'UserApiKey',
  tableName: 'user_api_key',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.manyToOne(User).mapToPk().fieldName('user_id').deleteRule('cascade'),
    organizationId: p.uuid(),
    keyHash: p.string().length(64).unique('user_api_key_key_hash_unique'),
    /** The first 16 hex digits of keyHash: what a lookup searches by. */
    keyHashPrefix: p.string().length(16).index('user_api_key_key_hash_prefix_index'),
    hint: p.string().length(4),
    description: p.string().length(500),
    createdAt: p.datetime(),
    /** null: never expires. */
    expiresAt: p.datetime().nullable(),
    /** The key of SVC_BOOTSTRAP_API_KEY, replaced when that setting changes. */
    bootstrap: p.boolean(),
  },
  indexes: [{ name: 'user_api_key_user_id_created_at_index', properties: ['userId', 'createdAt'] }],
  filters: { tenant: tenantFilter },
});
export type UserApiKey = InferEntity<typeof UserApiKey>;
