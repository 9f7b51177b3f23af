import { RE2JS } from 're2js';

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

/**
 * Patterns run on addresses from an anonymous endpoint, so they are matched by RE2 (re2js), whose
 * time is linear in the input: a backtracking engine lets a pattern such as `(a+)+$` stall the
 * process for seconds on one address. JavaScript spellings RE2 also has (`\u00e9`, `(?<name>`) are
 * translated; what RE2 cannot run in linear time (backreferences, lookaround) does not compile.
 * Throws for a pattern that does not compile.
 */
export function compileAccountPattern(pattern: string): RE2JS {
  return RE2JS.compile(RE2JS.translateRegExp(pattern), RE2JS.CASE_INSENSITIVE);
}

/** Why a pattern does not compile, for the 400 that refuses saving it; null when it compiles. */
export function accountPatternProblem(pattern: string): string | null {
  try {
    compileAccountPattern(pattern);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Whether the address matches one of the patterns. Saving refuses a pattern that does not
 * compile, but one saved before that rule can still be stored: it is reported and skipped.
 */
export function matchesAccountPattern(
  email: string,
  patterns: readonly string[],
  onInvalidPattern: InvalidPatternHandler,
): boolean {
  return patterns.some((pattern) => {
    let compiled: RE2JS;
    try {
      compiled = compileAccountPattern(pattern);
    } catch (error) {
      onInvalidPattern(pattern, error instanceof Error ? error : new Error(String(error)));
      return false;
    }
    return compiled.test(email);
  });
}
