/**
 * The claims of a session token, beyond the registered `iss`, `aud`, `exp` and `iat`.
 * A token minted from an API key carries exactly the same claims as one from a login.
 */
export interface SessionClaims {
  /** The service's account id. */
  sub: string;
  /** The organization the session is in. */
  org: string;
  /** Permission names the account holds through its groups. */
  permissions: string[];
  /**
   * For each Variable* permission held only through groups restricted to chosen library
   * sets, the ids of those sets. A permission absent here is unrestricted.
   */
  variableSets?: Record<string, number[]>;
  name?: string;
  email?: string;
  /**
   * When the session began (seconds): a refresh keeps it, and the refresh window counts
   * from it. The signer sets it to the signing time when absent (a new session).
   */
  auth_time?: number;
}
