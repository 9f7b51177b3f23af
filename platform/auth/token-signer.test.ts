import { decodeJwt, decodeProtectedHeader } from 'jose';
import { loadSettings, type Settings } from '../config/settings.js';
import { InternalError } from '../errors/domain-errors.js';
import { createLogger } from '../logging/logger.js';
import { loadSigningKeys, type SigningKeys } from './signing-keys.js';
import { rsaKeyPair } from '../../test/support/rsa-keys.js';
import { TokenSigner } from './token-signer.js';

const logger = createLogger('silent');
const ACCOUNT = '3f2c1a8e-2b7d-4c1e-9f3a-5d6e7f8a9b0c';
const ORGANIZATION = '8a7b6c5d-4e3f-4a1b-8c2d-1e0f9a8b7c6d';
const NOW = new Date('2025-03-01T12:00:00Z');

let settings: Settings;
let keys: SigningKeys;
let publicPem: string;

beforeAll(async () => {
  const pair = rsaKeyPair();
  publicPem = pair.publicKey;
  settings = loadSettings({
    env: {},
    overrides: { 'Jwt:PrivateKey': pair.privateKey, 'Jwt:DurationInMinutes': 45 },
  });
  keys = await loadSigningKeys(settings, logger);
});

describe('spec 5.5 / 5.6: a session token carries sub, org, iss, aud and permissions, signed RS256', () => {
  it('writes the claims, the issuer and the audience of the settings', async () => {
    const token = await new TokenSigner(keys, settings.jwt).sign(
      { sub: ACCOUNT, org: ORGANIZATION, permissions: ['TagList'], variableSets: { VariableRead: [4] } },
      NOW,
    );
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: ACCOUNT,
      org: ORGANIZATION,
      permissions: ['TagList'],
      variableSets: { VariableRead: [4] },
      iss: settings.jwt.issuer,
      aud: settings.jwt.audience,
    });
  });

  it('spec 8: lives Jwt:DurationInMinutes from the given time', async () => {
    const token = await new TokenSigner(keys, settings.jwt).sign(
      { sub: ACCOUNT, org: ORGANIZATION, permissions: [] },
      NOW,
    );
    const claims = decodeJwt(token);
    expect(claims.iat).toBe(NOW.getTime() / 1000);
    expect(claims.exp).toBe(NOW.getTime() / 1000 + 45 * 60);
  });

  it('writes alg RS256 and the key id into the header', async () => {
    const token = await new TokenSigner(keys, settings.jwt).sign(
      { sub: ACCOUNT, org: ORGANIZATION, permissions: [] },
      NOW,
    );
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', kid: keys.keyId, typ: 'JWT' });
  });

  it('spec 5.12 / 7: a signer with no private key fails as an InternalError (500), not a 401', async () => {
    const verifyOnly = await loadSigningKeys(
      loadSettings({ env: {}, overrides: { 'Jwt:PublicKey': publicPem } }),
      logger,
    );
    await expect(
      new TokenSigner(verifyOnly, settings.jwt).sign(
        { sub: ACCOUNT, org: ORGANIZATION, permissions: [] },
        NOW,
      ),
    ).rejects.toBeInstanceOf(InternalError);
  });
});
