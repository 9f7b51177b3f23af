import { createCipheriv, createDecipheriv, randomBytes, type KeyObject } from 'node:crypto';

/** The first byte of every sealed box: how the rest is laid out. */
const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

/** A sealed box that cannot be opened: another key sealed it, it was sealed for another context, or it was changed. */
export class SealBrokenError extends Error {
  constructor(context: string, cause?: unknown) {
    super(
      `a sealed box for ${context} cannot be opened with this key (another key sealed it, or it was changed)`,
      {
        cause,
      },
    );
  }
}

/**
 * AES-256-GCM under a 32-byte key: a fresh 96-bit IV per box, the 128-bit tag kept, and `context`
 * as additional authenticated data, so a box opens only for what it was sealed for (a box moved
 * to another row, organization or certificate fails to open). Laid out as
 * format (1 byte) | IV (12) | tag (16) | ciphertext.
 */
export function seal(key: KeyObject, plaintext: Uint8Array, context: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.of(FORMAT), iv, cipher.getAuthTag(), ciphertext]);
}

/** What `seal` sealed, when the key and context are the same and the box is unchanged; SealBrokenError otherwise. */
export function open(key: KeyObject, box: Uint8Array, context: string): Buffer {
  const sealed = Buffer.from(box.buffer, box.byteOffset, box.byteLength);
  if (sealed.length < HEADER_BYTES || sealed[0] !== FORMAT) throw new SealBrokenError(context);
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const tag = sealed.subarray(1 + IV_BYTES, HEADER_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed.subarray(HEADER_BYTES)), decipher.final()]);
  } catch (error) {
    throw new SealBrokenError(context, error);
  }
}
