import type { AuditRecord } from '../../../platform/audit-log/audit-log.js';
import { isExpired } from '../domain/api-keys.js';
import type { ApiKeyView } from './api-key.schemas.js';
import type { UserApiKey } from './user-api-key.entity.js';

/** A key as lists show it: never the key, never its hash. */
export function apiKeyView(key: UserApiKey, now: Date): ApiKeyView {
  return {
    id: key.id,
    hint: key.hint,
    description: key.description,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    expired: isExpired(key.expiresAt, now),
  };
}

/** A key as its audit entries keep it: as lists show it, with its owner. */
export function apiKeyRecord(key: UserApiKey, now: Date): ApiKeyView & { userId: string } {
  return { ...apiKeyView(key, now), userId: key.userId };
}

/**
 * The audit record of a key's removal, whether revoked or removed with its account or
 * organization: the entry keeps the record (spec 3).
 */
export function apiKeyDeletion(key: UserApiKey, now: Date): AuditRecord {
  return {
    entryType: 'UserApiKey',
    entityName: 'UserApiKey',
    entityId: key.id,
    change: { action: 'Delete', before: apiKeyRecord(key, now) },
  };
}
