import { createHash, createHmac } from 'node:crypto';
import type { HttpClient } from '../support/http-client.js';
import { queryDatabase } from '../support/test-database.js';
import type { TestSystem } from '../support/test-system.js';
import { expectStatus } from '../support/factories.js';

/** The hex SHA-256 of an API key: what POST /apikeys/lookup takes. */
export function sha256Hex(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The header the payment webhook reads the provider's signature from. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-svc-webhook-signature';

/** A payment webhook body's signature as the provider sends it: the HMAC-SHA256 of the exact bytes under the shared secret. */
export function webhookSignature(raw: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

/** The permissions an account holds, as session renewal reads them (anonymous). */
export async function permissionsOf(
  account: HttpClient,
  organizationId: string,
  userId: string,
): Promise<{ permissions: string[]; variableSets: Record<string, number[]> }> {
  return expectStatus(
    account.get<{ permissions: string[]; variableSets: Record<string, number[]> }>(
      `/users/${userId}/permissions?organizationId=${organizationId}`,
    ),
    200,
  );
}

/**
 * Runs one SQL statement straight on the test system's database (the account service's tables
 * are in schema `account`): to store what the API refuses today but an older version saved.
 */
export function onDatabase<Row extends object = Record<string, unknown>>(
  system: TestSystem,
  sql: string,
  params: unknown[] = [],
): Promise<Row[]> {
  return queryDatabase<Row>(system.databaseUrl, sql, params);
}

/**
 * Stores an organization's account patterns straight in the database, as a version that did not
 * yet refuse patterns RE2 cannot compile would have saved them (saving them now is 400).
 */
export async function storeAccountPatterns(
  system: TestSystem,
  organizationId: string,
  patterns: string[],
): Promise<void> {
  await onDatabase(system, `update "account"."organization" set account_patterns = $1 where id = $2`, [
    JSON.stringify(patterns),
    organizationId,
  ]);
}
