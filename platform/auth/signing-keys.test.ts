import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { loadSettings } from '../config/settings.js';
import { createLogger } from '../logging/logger.js';
import { SIGNING_ALGORITHM, loadSigningKeys } from './signing-keys.js';
import { rsaKeyPair } from '../../test/support/rsa-keys.js';

const logger = createLogger('silent');
let privatePem: string;
let publicPem: string;
let folder: string;

beforeAll(() => {
  const pair = rsaKeyPair();
  privatePem = pair.privateKey;
  publicPem = pair.publicKey;
  folder = mkdtempSync(join(tmpdir(), 'signing-keys-test-'));
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('spec 5.6: signing is RS256 with a configured PEM private key', () => {
  it('signs with RS256', () => {
    expect(SIGNING_ALGORITHM).toBe('RS256');
  });

  it('loads Jwt:PrivateKey and derives its public key', async () => {
    const keys = await loadSigningKeys(
      loadSettings({ env: {}, overrides: { 'Jwt:PrivateKey': privatePem } }),
      logger,
    );
    expect(keys.privateKey?.asymmetricKeyType).toBe('rsa');
    expect(keys.publicKey.export({ type: 'spki', format: 'pem' })).toBe(publicPem);
  });

  it('names the key by its RFC 7638 thumbprint', async () => {
    const keys = await loadSigningKeys(
      loadSettings({ env: {}, overrides: { 'Jwt:PrivateKey': privatePem } }),
      logger,
    );
    expect(keys.keyId).toBe(await calculateJwkThumbprint(await exportJWK(createPublicKey(publicPem))));
  });

  it('loads a verify-only Jwt:PublicKey without a private key, under the same key id', async () => {
    const signing = await loadSigningKeys(
      loadSettings({ env: {}, overrides: { 'Jwt:PrivateKey': privatePem } }),
      logger,
    );
    const verifying = await loadSigningKeys(
      loadSettings({ env: {}, overrides: { 'Jwt:PublicKey': publicPem } }),
      logger,
    );
    expect(verifying.privateKey).toBeUndefined();
    expect(verifying.keyId).toBe(signing.keyId);
  });

  it('refuses a key that is not RSA, naming Jwt:PrivateKey', async () => {
    const ec = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const settings = loadSettings({ env: {}, overrides: { 'Jwt:PrivateKey': ec.privateKey } });
    await expect(loadSigningKeys(settings, logger)).rejects.toThrow('Jwt:PrivateKey');
  });

  it('refuses a verify-only public key that is not RSA, naming Jwt:PublicKey (not Jwt:PrivateKey)', async () => {
    const ec = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const settings = loadSettings({ env: {}, overrides: { 'Jwt:PublicKey': ec.publicKey } });
    const failure = loadSigningKeys(settings, logger);
    await expect(failure).rejects.toThrow('Jwt:PublicKey: must be an RSA key');
    await expect(failure).rejects.not.toThrow('Jwt:PrivateKey');
  });

  it('refuses a PEM it cannot read, naming the setting', async () => {
    const garbage = '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----';
    const settings = loadSettings({ env: {}, overrides: { 'Jwt:PrivateKey': garbage } });
    await expect(loadSigningKeys(settings, logger)).rejects.toThrow('Jwt:PrivateKey');
    const publicGarbage = '-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----';
    const publicSettings = loadSettings({ env: {}, overrides: { 'Jwt:PublicKey': publicGarbage } });
    await expect(loadSigningKeys(publicSettings, logger)).rejects.toThrow('Jwt:PublicKey');
  });
});

describe('CONTRACT 1 Signing key: unset, a key is generated once and kept under DATA_DIR', () => {
  it('generates an RSA key under DATA_DIR and loads the same key again', async () => {
    const dataDir = join(folder, 'data');
    const settings = loadSettings({ env: {}, overrides: { DATA_DIR: dataDir } });
    const first = await loadSigningKeys(settings, logger);
    expect(existsSync(join(dataDir, 'jwt-private-key.pem'))).toBe(true);
    expect(first.privateKey?.asymmetricKeyType).toBe('rsa');
    const second = await loadSigningKeys(settings, logger);
    expect(second.keyId).toBe(first.keyId);
  });
});

describe('CONTRACT 1 Signing key: NODE_ENV=production without Jwt__PrivateKey refuses to start', () => {
  it('refuses to load keys in production without Jwt:PrivateKey or Jwt:PublicKey, naming Jwt:PrivateKey', async () => {
    const dataDir = join(folder, 'production-data');
    const settings = loadSettings({ env: { NODE_ENV: 'production' }, overrides: { DATA_DIR: dataDir } });
    await expect(loadSigningKeys(settings, logger)).rejects.toThrow('Jwt:PrivateKey');
    expect(existsSync(join(dataDir, 'jwt-private-key.pem'))).toBe(false);
  });

  it('loads the configured key in production', async () => {
    const settings = loadSettings({ env: { NODE_ENV: 'production', Jwt__PrivateKey: privatePem } });
    const keys = await loadSigningKeys(settings, logger);
    expect(keys.privateKey?.asymmetricKeyType).toBe('rsa');
  });
});
