import { z } from 'zod';
import { ServiceUnavailableError } from '../errors/domain-errors.js';
import { peerError, ServiceClient } from './service-client.js';

/** An account with what a session token carries for it (the account service's SessionAccount). */
const sessionAccount = z.object({
  user: z.object({
    id: z.uuid(),
    organizationId: z.uuid(),
    name: z.string(),
    email: z.string(),
    serviceAccount: z.boolean(),
  }),
  permissions: z.array(z.string()),
  variableSets: z.record(z.string(), z.array(z.number().int())),
});
export type SessionAccount = z.output<typeof sessionAccount>;

const accountPermissions = z.object({
  userId: z.uuid(),
  organizationId: z.uuid(),
  // An account service older than this identity service does not say; renew as before the field
  // existed (as for a person) rather than fail every renewal with 503 until it is upgraded too.
  serviceAccount: z.boolean().default(false),
  permissions: z.array(z.string()),
  variableSets: z.record(z.string(), z.array(z.number().int())),
});
export type AccountPermissions = z.output<typeof accountPermissions>;

const names = z.array(z.object({ id: z.uuid(), name: z.string() }));

const organization = z.object({ id: z.uuid(), name: z.string() });
export type OrganizationName = z.output<typeof organization>;

const creditBalance = z.object({ usedCredits: z.number().int(), totalCredits: z.number().int() });
export type CreditBalance = z.output<typeof creditBalance>;

export interface ProvisionRequest {
  provider: string;
  providerUserId: string;
  email: string;
  name: string;
  organizationId: string;
  profileImage?: string | null;
}

/**
 * The account service as its peers call it (spec 1.5: the identity service calls the
 * account service; the library service asks it for names and balances with the caller's token). Answers are checked against the contract; one that does not fit is
 * the peer's fault (503), never silently used.
 */
export class AccountClient {
  private readonly http: ServiceClient;

  constructor(baseUrl: () => string | undefined) {
    this.http = new ServiceClient('account', baseUrl);
  }

  /** POST /users/provision: 403 when nobody may be signed in, 404 for an unknown or disabled organization. */
  async provision(request: ProvisionRequest): Promise<SessionAccount> {
    const response = await this.http.send('POST', '/users/provision', { body: request });
    if (response.status !== 200) throw peerError(response);
    return parse(sessionAccount, response.body);
  }

  /** POST /apikeys/lookup; null for an unknown, revoked or expired key. */
  async lookupApiKey(sha: string): Promise<SessionAccount | null> {
    const response = await this.http.send('POST', '/apikeys/lookup', { body: { sha } });
    if (response.status === 404) return null;
    if (response.status !== 200) throw peerError(response);
    return parse(sessionAccount, response.body);
  }

  /** POST /users/names/lookup with the caller's token: the names of the accounts of its organization among these ids. */
  async lookupNames(token: string, userIds: string[]): Promise<{ id: string; name: string }[]> {
    const response = await this.http.send('POST', '/users/names/lookup', { token, body: { userIds } });
    if (response.status !== 200) throw peerError(response);
    return parse(names, response.body);
  }

  /** GET /organizations/me/credits with the caller's token: its organization's balance. */
  async credits(token: string): Promise<CreditBalance> {
    const response = await this.http.send('GET', '/organizations/me/credits', { token });
    if (response.status !== 200) throw peerError(response);
    return parse(creditBalance, response.body);
  }

  /**
   * GET /organizations/{id} with the caller's token (which needs GlobalOrganizationRead): the
   * organization's id and name, or null when there is no such organization.
   */
  async organization(token: string, id: string): Promise<OrganizationName | null> {
    const response = await this.http.send('GET', `/organizations/${encodeURIComponent(id)}`, { token });
    if (response.status === 404) return null;
    if (response.status !== 200) throw peerError(response);
    return parse(organization, response.body);
  }

  /** GET /users/{id}/permissions; null when the account is not in that organization any more. */
  async permissionsOf(userId: string, organizationId: string): Promise<AccountPermissions | null> {
    const response = await this.http.send(
      'GET',
      `/users/${encodeURIComponent(userId)}/permissions?organizationId=${encodeURIComponent(organizationId)}`,
    );
    if (response.status === 404) return null;
    if (response.status !== 200) throw peerError(response);
    return parse(accountPermissions, response.body);
  }
}

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success)
    throw new ServiceUnavailableError('The account service answered in an unexpected shape.');
  return result.data;
}
