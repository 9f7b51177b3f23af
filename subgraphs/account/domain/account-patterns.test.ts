import { isAdministratorAddress, matchesAccountPattern, mayCreateAccount } from './account-patterns.js';

/** Collects the patterns reported as not compiling. */
function reported(): { skipped: string[]; handler: (pattern: string, error: Error) => void } {
  const skipped: string[] = [];
  return { skipped, handler: (pattern) => skipped.push(pattern) };
}

describe('spec 2 account patterns: regular expressions matched against the address, without regard to case', () => {
  it('matches an address by a pattern, whatever the case of either', () => {
    const { skipped, handler } = reported();
    expect(matchesAccountPattern('Ann@Contoso.COM', ['@contoso\\.com$'], handler)).toBe(true);
    expect(matchesAccountPattern('ann@contoso.com', ['@CONTOSO\\.COM$'], handler)).toBe(true);
    expect(matchesAccountPattern('ann@contoso.com.evil', ['@contoso\\.com$'], handler)).toBe(false);
    expect(skipped).toEqual([]);
  });

  it('reads JavaScript spellings RE2 also has: \\u escapes and named groups', () => {
    const { skipped, handler } = reported();
    expect(matchesAccountPattern('josé@example.com', ['^jos\\u00e9@'], handler)).toBe(true);
    expect(matchesAccountPattern('a@b.example', ['^[^@]+@(?<domain>b)\\.example$'], handler)).toBe(true);
    expect(skipped).toEqual([]);
  });

  it('an administrator address is allowed without a pattern and says so', () => {
    const organization = { accountPatterns: [], adminEmails: [' Boss@Contoso.com '] };
    expect(mayCreateAccount('boss@contoso.com', organization, () => undefined)).toEqual({
      allowed: true,
      asAdministrator: true,
    });
    expect(isAdministratorAddress('other@contoso.com', organization.adminEmails)).toBe(false);
  });
});

describe('spec 2 account patterns: "a pattern that cannot be compiled is logged and skipped"', () => {
  it.each([
    ['a syntax error', '['],
    ['a backreference (RE2 has none: it cannot be matched in linear time)', '^(a)\\1@'],
    ['a lookahead', '^(?=a)a@'],
    ['a lookbehind', '(?<!x)@contoso\\.com$'],
  ])('%s is reported and skipped, and the next pattern still decides', (_case, pattern) => {
    const { skipped, handler } = reported();
    expect(matchesAccountPattern('aa@contoso.com', [pattern, '@contoso\\.com$'], handler)).toBe(true);
    expect(skipped).toEqual([pattern]);
  });
});

describe('decisions "Account patterns": a pattern cannot stall the process on an address from the anonymous provisioning endpoint (ReDoS)', () => {
  // With JavaScript's backtracking RegExp, `(a+)+$` on 27 a's and "@x.com" takes about 8 seconds,
  // and every further a doubles it; RE2 answers in time linear in the address.
  it.each(['(a+)+$', '^(a|a)*$', '(a*)*b'])("%s against a run of a's answers at once", (pattern) => {
    const started = performance.now();
    const matched = matchesAccountPattern(`${'a'.repeat(28)}@x.com`, [pattern], () => undefined);
    expect(matched).toBe(false);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
