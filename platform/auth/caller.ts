import type { PermissionName } from '../permissions/catalogue.js';

/** Who is asking: read from a verified session token, passed explicitly to every service call. */
export interface Caller {
  readonly accountId: string;
  readonly organizationId: string;
  readonly permissions: ReadonlySet<PermissionName>;
  /** Library sets a Variable* permission is restricted to; a permission absent here is unrestricted. */
  readonly variableSets: ReadonlyMap<PermissionName, ReadonlySet<number>>;
  /** The token itself, forwarded when this service asks a peer on the caller's behalf. */
  readonly token: string;
  readonly issuedAt: Date;
  readonly expiresAt: Date;
}
