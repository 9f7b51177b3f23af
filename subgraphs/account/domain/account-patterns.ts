/** Why a pattern was skipped, for the log. */
export type InvalidPatternHandler = (pattern: string, error: Error) => void;

/**
 * Whether an address may have an account made for it at first login (spec 2 "Account
 * patterns"): it is one of the organization's administrator addresses (CONTRACT
 * section 4), or it matches one of its patterns. Patterns are regular expressions
 * matched without regard to case; one that does not compile is reported and skipped.
 */
export function mayCreateAccount(
  email: string,
  organization: { accountPatterns: readonly string[]; adminEmails: readonly string[] },
  onInvalidPattern: InvalidPatternHandler,
): { allowed: boolean; asAdministrator: boolean } {
  const asAdministrator = isAdministratorAddress(email, organization.adminEmails);
  if (asAdministrator) return { allowed: true, asAdministrator };
  return {
    allowed: matchesAccountPattern(email, organization.accountPatterns, onInvalidPattern),
    asAdministrator,
  };
}

export function isAdministratorAddress(email: string, adminEmails: readonly string[]): boolean {
  const wanted = email.trim().toLowerCase();
  return adminEmails.some((address) => address.trim().toLowerCase() === wanted);
}

export function matchesAccountPattern(
  email: string,
  patterns: readonly string[],
  onInvalidPattern: InvalidPatternHandler,
): boolean {
  return patterns.some((pattern) => {
    let compiled: RegExp;
    try {
      compiled = new RegExp(pattern, 'i');
    } catch (error) {
      onInvalidPattern(pattern, error as Error);
      return false;
    }
    return compiled.test(email);
  });
}
