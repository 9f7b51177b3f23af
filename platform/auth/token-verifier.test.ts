import { SignJWT, base64url } from 'jose';
import { loadSettings, type Settings } from '../config/settings.js';
import { UnauthorizedError } from '../errors/domain-errors.js';
import { createLogger } from '../logging/logger.js';
import type { Clock } from '../time/clock.js';
import { rsaKeyPair } from '../../test/support/rsa-keys.js';
import type { SessionClaims } from './session-claims.js';
import { loadSigningKeys, type SigningKeys } from './signing-keys.js';
import { TokenSigner } from './token-signer.js';
import { TokenVerifier } from './token-verifier.js';

const logger = createLogger('silent');
const ACCOUNT = '3f2c1a8e-2b7d-4c1e-9f3a-5d6e7f8a9b0c';
const ORGANIZATION = '8a7b6c5d-4e3f-4a1b-8c2d-1e0f9a8b7c6d';
const ISSUED = new Date('2025-03-01T12:00:00Z');
const MINUTE = 60_000;

let settings: Settings;
let keys: SigningKeys;
let otherKeys: SigningKeys;
let publicPem: string;
let now: Date;
const clock: Clock = { now: () => now };

beforeAll(async () => {
  const pair = rsaKeyPair();
  publicPem = pair.publicKey;
  settings = loadSettings({ env: {}, overrides: { 'Jwt:PrivateKey': pair.privateKey } });
  keys = await loadSigningKeys(settings, logger);
  const other = loadSettings({ env: {}, overrides: { 'Jwt:PrivateKey': rsaKeyPair().privateKey } });
  otherKeys = await loadSigningKeys(other, logger);
});

beforeEach(() => {
  now = new Date(ISSUED);
});

const claims = (extra: Partial<SessionClaims> = {}): SessionClaims => ({
  sub: ACCOUNT,
  org: ORGANIZATION,
  permissions: ['TagList', 'VariableRead'],
  ...extra,
});

function sign(extra: Partial<SessionClaims> = {}, jwt: Partial<Settings['jwt']> = {}, signingKeys = keys) {
  return new TokenSigner(signingKeys, { ...settings.jwt, ...jwt }).sign(claims(extra), ISSUED);
}

function verifier(): TokenVerifier {
  return new TokenVerifier(keys, settings.jwt, clock);
}

/** A token with the standard claims of the settings, signed by the configured key, without `exp`. */
function withoutExpiry(): Promise<string> {
  return new SignJWT({ ...claims() })
    .setProtectedHeader({ alg: 'RS256', kid: keys.keyId })
    .setIssuer(settings.jwt.issuer)
    .setAudience(settings.jwt.audience)
    .setIssuedAt(ISSUED.getTime() / 1000)
    .sign(keys.privateKey!);
}

function unsecured(payload: Record<string, unknown>): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload)}.`;
}

/** A token with valid claims, signed with HS256 and this secret (which verification must refuse). */
function hs256Token(secret: string): Promise<string> {
  return new SignJWT({ ...claims() })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(settings.jwt.issuer)
    .setAudience(settings.jwt.audience)
    .setIssuedAt(ISSUED.getTime() / 1000)
    .setExpirationTime(ISSUED.getTime() / 1000 + 3600)
    .sign(new TextEncoder().encode(secret));
}

describe('spec 5.5: a signed session token verifies into the caller it names', () => {
  it('reads accountId from sub, organizationId from org, the permissions and the times', async () => {
    const token = await sign();
    const caller = await verifier().verify(token);
    expect(caller.accountId).toBe(ACCOUNT);
    expect(caller.organizationId).toBe(ORGANIZATION);
    expect([...caller.permissions].sort()).toEqual(['TagList', 'VariableRead']);
    expect(caller.variableSets.size).toBe(0);
    expect(caller.token).toBe(token);
    expect(caller.issuedAt).toEqual(ISSUED);
    expect(caller.expiresAt).toEqual(new Date(ISSUED.getTime() + settings.jwt.durationInMinutes * MINUTE));
  });

  it('drops permission names that are not in the catalogue', async () => {
    const caller = await verifier().verify(
      await sign({ permissions: ['AuditList', 'MakeCoffee', 'auditread'] }),
    );
    expect([...caller.permissions]).toEqual(['AuditList']);
  });

  it('CONTRACT 5: reads the library sets each Variable* permission is restricted to', async () => {
    const token = await sign({
      permissions: ['VariableRead', 'VariableUpdate'],
      variableSets: { VariableRead: [1, 2], VariableUpdate: [3], Unknown: [9] },
    });
    const caller = await verifier().verify(token);
    expect(new Map([...caller.variableSets].map(([name, sets]) => [name, [...sets].sort()]))).toEqual(
      new Map([
        ['VariableRead', [1, 2]],
        ['VariableUpdate', [3]],
      ]),
    );
  });

  it('reads a token without permissions as holding none', async () => {
    const token = await new SignJWT({ sub: ACCOUNT, org: ORGANIZATION })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(settings.jwt.issuer)
      .setAudience(settings.jwt.audience)
      .setIssuedAt(ISSUED.getTime() / 1000)
      .setExpirationTime(ISSUED.getTime() / 1000 + 600)
      .sign(keys.privateKey!);
    expect((await verifier().verify(token)).permissions.size).toBe(0);
  });

  it('spec 5.6: stays valid until it expires, by the clock given', async () => {
    const token = await sign();
    now = new Date(ISSUED.getTime() + settings.jwt.durationInMinutes * MINUTE - 1_000);
    await expect(verifier().verify(token)).resolves.toMatchObject({ accountId: ACCOUNT });
  });

  it('issue 11 item 5: remembers a verified token until it expires, and not a moment longer', async () => {
    const remembering = verifier();
    const token = await sign();
    const first = await remembering.verify(token);
    expect(await remembering.verify(token)).toBe(first);
    now = new Date(ISSUED.getTime() + settings.jwt.durationInMinutes * MINUTE);
    await expect(remembering.verify(token)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('issue 11 item 5: forgets the oldest token once it remembers its limit, and verifies that one again', async () => {
    const small = new TokenVerifier(keys, settings.jwt, clock, 2);
    const tokens = await Promise.all([sign(), sign({ name: 'b' }), sign({ name: 'c' })]);
    const callers = [];
    for (const token of tokens) callers.push(await small.verify(token));
    expect(await small.verify(tokens[2])).toBe(callers[2]);
    const again = await small.verify(tokens[0]);
    expect(again).not.toBe(callers[0]);
    expect(again).toEqual(callers[0]);
  });

  it('verifies with a verify-only Jwt:PublicKey', async () => {
    const verifyOnly = await loadSigningKeys(
      loadSettings({ env: {}, overrides: { 'Jwt:PublicKey': publicPem } }),
      logger,
    );
    const caller = await new TokenVerifier(verifyOnly, settings.jwt, clock).verify(await sign());
    expect(caller.organizationId).toBe(ORGANIZATION);
  });
});

describe('spec 5 / 7: a token that is not valid is refused with UnauthorizedError (401)', () => {
  const refused = async (token: string | Promise<string>): Promise<void> => {
    const error = await verifier()
      .verify(await token)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401 });
  };

  it('refuses an expired token', async () => {
    const token = await sign();
    now = new Date(ISSUED.getTime() + settings.jwt.durationInMinutes * MINUTE + 1_000);
    await refused(token);
  });

  it('refuses a token at the very second it expires', async () => {
    const token = await sign();
    now = new Date(ISSUED.getTime() + settings.jwt.durationInMinutes * MINUTE);
    await refused(token);
  });

  it('refuses a token of another issuer', async () => {
    await refused(sign({}, { issuer: 'https://someone-else.example' }));
  });

  it('refuses a token for another audience', async () => {
    await refused(sign({}, { audience: 'https://another-api.example' }));
  });

  it('refuses a token signed by another RSA key', async () => {
    await refused(sign({}, {}, otherKeys));
  });

  it('refuses an alg none token', async () => {
    await refused(
      unsecured({
        ...claims(),
        iss: settings.jwt.issuer,
        aud: settings.jwt.audience,
        iat: ISSUED.getTime() / 1000,
        exp: ISSUED.getTime() / 1000 + 3600,
      }),
    );
  });

  it('refuses an HS256 token signed with a shared secret', async () => {
    await refused(await hs256Token('a-shared-secret-of-thirty-two-bytes!'));
  });

  it('refuses an HS256 token whose secret is the public key (algorithm confusion)', async () => {
    await refused(await hs256Token(publicPem));
  });

  it('refuses a token without exp', async () => {
    await refused(withoutExpiry());
  });

  it('refuses a token whose org is not a UUID', async () => {
    await refused(sign({ org: 'not-a-uuid' }));
  });

  it('refuses a token whose sub is not a UUID', async () => {
    await refused(sign({ sub: 'alice@example.com' }));
  });

  it('refuses a token whose permissions are not a list of names', async () => {
    await refused(sign({ permissions: 'AuditList' as unknown as string[] }));
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, , signature] = (await sign()).split('.');
    const payload = base64url.encode(
      JSON.stringify({
        ...claims({ permissions: ['PermissionsAllGlobal'] }),
        iss: settings.jwt.issuer,
        aud: settings.jwt.audience,
        iat: ISSUED.getTime() / 1000,
        exp: ISSUED.getTime() / 1000 + 3600,
      }),
    );
    await refused(`${header}.${payload}.${signature}`);
  });

  it.each(['', 'not-a-token', 'a.b.c'])('refuses the text %j', async (text) => {
    await refused(text);
  });

  it('does not say why the token was refused', async () => {
    const messageOf = (token: string) =>
      verifier()
        .verify(token)
        .then(
          () => 'accepted',
          (e: unknown) => (e as Error).message,
        );
    const wrongKey = await messageOf(await sign({}, {}, otherKeys));
    const badOrg = await messageOf(await sign({ org: 'x' }));
    const expiredToken = await sign();
    now = new Date(ISSUED.getTime() + 24 * 60 * MINUTE);
    const expired = await messageOf(expiredToken);
    expect(wrongKey).not.toBe('accepted');
    expect(badOrg).toBe(wrongKey);
    expect(expired).toBe(wrongKey);
    expect(wrongKey).not.toMatch(/expire|signature|org|issuer|audience/i);
  });
});
