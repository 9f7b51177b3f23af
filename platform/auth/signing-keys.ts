import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import type { Settings } from '../config/settings.js';
import type { Logger } from '../logging/logger.js';

export const SIGNING_ALGORITHM = 'RS256';

export interface SigningKeys {
  /** Absent where only verification is configured (Jwt:PublicKey without Jwt:PrivateKey). */
  readonly privateKey: KeyObject | undefined;
  readonly publicKey: KeyObject;
  /** The RFC 7638 thumbprint of the public key, written as the token's `kid`. */
  readonly keyId: string;
}

/**
 * The RS256 key pair from `Jwt:PrivateKey` (or a verify-only `Jwt:PublicKey`). When neither
 * is set, outside production, a key is generated once and kept under DATA_DIR, so tokens
 * survive a restart (CONTRACT section 1).
 */
export async function loadSigningKeys(settings: Settings, logger: Logger): Promise<SigningKeys> {
  const { privateKey: privatePem, publicKey: publicPem } = settings.jwt;
  let privateKey: KeyObject | undefined;
  let publicKey: KeyObject;
  /** The setting the key came from, named when it is not usable. */
  let source = 'Jwt:PrivateKey';
  if (privatePem) {
    privateKey = readKey(() => createPrivateKey(privatePem), source);
    publicKey = createPublicKey(privateKey);
  } else if (publicPem) {
    source = 'Jwt:PublicKey';
    publicKey = readKey(() => createPublicKey(publicPem), source);
  } else if (settings.production) {
    throw new Error(
      'Jwt:PrivateKey: required when NODE_ENV=production (a generated key is for development only)',
    );
  } else {
    privateKey = generatedKey(settings.dataDir, logger);
    publicKey = createPublicKey(privateKey);
  }
  if (publicKey.asymmetricKeyType !== 'rsa') {
    throw new Error(`${source}: must be an RSA key (tokens are signed with RS256)`);
  }
  if (settings.jwt.subject) {
    logger.warn("Jwt:Subject is set but has no effect: a token's sub is always the account id (spec 5.5)");
  }
  const keyId = await calculateJwkThumbprint(await exportJWK(publicKey));
  return { privateKey, publicKey, keyId };
}

function readKey(read: () => KeyObject, setting: string): KeyObject {
  try {
    return read();
  } catch (error) {
    throw new Error(`${setting}: not a readable PEM key (${(error as Error).message})`);
  }
}

function generatedKey(dataDir: string, logger: Logger): KeyObject {
  const path = join(dataDir, 'jwt-private-key.pem');
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  }
  logger.warn({ path }, 'Jwt:PrivateKey is not set: signing with a generated development key');
  return readKey(() => createPrivateKey(readFileSync(path, 'utf8')), `the generated key at ${path}`);
}
