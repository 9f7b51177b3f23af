import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../config/settings.js';
import type { Logger } from '../logging/logger.js';
import { open, seal } from './sealed-box.js';

export const MASTER_KEY_BYTES = 32;

/** Whether a setting's text is a master key: 32 bytes written in base64 (44 characters). */
export function isMasterKeyText(text: string): boolean {
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === MASTER_KEY_BYTES && bytes.toString('base64') === text;
}

/**
 * The key everything the library keeps encrypted is sealed under, at the root: the private keys
 * of organizations' certificates, and the data key of an organization without a primary
 * certificate (decisions "Secrets at rest"). It never leaves the process.
 */
export class MasterKey {
  private constructor(private readonly key: KeyObject) {}

  static fromText(text: string): MasterKey {
    return new MasterKey(createSecretKey(Buffer.from(text, 'base64')));
  }

  /** AES-256-GCM, bound to `context` (what it is and whose). */
  seal(plaintext: Uint8Array, context: string): Buffer {
    return seal(this.key, plaintext, context);
  }

  open(box: Uint8Array, context: string): Buffer {
    return open(this.key, box, context);
  }
}

/**
 * `Encryption:MasterKey`, as the signing key is read (platform/auth/signing-keys.ts): when it is
 * not set, outside production, a key is generated once and kept under DATA_DIR (so what it sealed
 * opens after a restart), with a warning; in production it is required.
 */
export function loadMasterKey(settings: Settings, logger: Logger): MasterKey {
  const configured = settings.encryption.masterKey;
  if (configured) return MasterKey.fromText(configured);
  if (settings.production) {
    throw new Error(
      'Encryption:MasterKey: required when NODE_ENV=production (a generated key is for development only)',
    );
  }
  const path = join(settings.dataDir, 'encryption-master-key');
  if (!existsSync(path)) {
    mkdirSync(settings.dataDir, { recursive: true });
    writeFileSync(path, `${randomBytes(MASTER_KEY_BYTES).toString('base64')}\n`, { mode: 0o600 });
  }
  logger.warn({ path }, 'Encryption:MasterKey is not set: encrypting with a generated development key');
  const text = readFileSync(path, 'utf8').trim();
  if (!isMasterKeyText(text)) {
    throw new Error(
      `the generated master key at ${path} is not 32 bytes in base64: restore it (what it sealed opens only with it), or set Encryption:MasterKey`,
    );
  }
  return MasterKey.fromText(text);
}
