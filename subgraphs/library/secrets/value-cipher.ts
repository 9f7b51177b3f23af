import type { KeyObject } from 'node:crypto';
import { open, seal } from '../../../platform/encryption/sealed-box.js';
import type { StoredValue } from '../domain/variable-types.js';
import { valueContext } from './contexts.js';

/** A sealed value's first bytes: the generation of the organization's data key that sealed it. */
const GENERATION_BYTES = 4;

/** A sealed value of a data key generation this cipher does not hold (a rekey came between its reading and now). */
export class OtherGenerationError extends Error {
  constructor(
    readonly organizationId: string,
    readonly generation: number,
  ) {
    super(`a value of organization ${organizationId} is sealed under data key generation ${generation}`);
  }
}

/** The generation a sealed value names. */
export function generationOf(sealed: Uint8Array): number {
  return Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength).readUInt32BE(0);
}

/**
 * Sensitive values under one organization's data key, of one generation: each value's text (or
 * number) sealed with AES-256-GCM, bound to its organization, variable and the key's generation,
 * which the sealed bytes start with (decisions "Secrets at rest").
 */
export class ValueCipher {
  constructor(
    readonly organizationId: string,
    readonly generation: number,
    private readonly key: KeyObject,
  ) {}

  /** A sensitive value as its row keeps it: the stored fields (its text or number), sealed. */
  seal(variableId: number, stored: StoredValue): Buffer {
    const plain = Buffer.from(
      JSON.stringify({ value: stored.value, numberValue: stored.numberValue }),
      'utf8',
    );
    const prefix = Buffer.alloc(GENERATION_BYTES);
    prefix.writeUInt32BE(this.generation);
    return Buffer.concat([prefix, seal(this.key, plain, this.context(variableId))]);
  }

  /** What `seal` sealed; OtherGenerationError when another generation of the key sealed it. */
  open(variableId: number, sealed: Uint8Array): StoredValue {
    const generation = generationOf(sealed);
    if (generation !== this.generation) throw new OtherGenerationError(this.organizationId, generation);
    const plain = open(this.key, sealed.subarray(GENERATION_BYTES), this.context(variableId));
    const { value, numberValue } = JSON.parse(plain.toString('utf8')) as Pick<
      StoredValue,
      'value' | 'numberValue'
    >;
    // Booleans are never sensitive (spec 2 rule 2), so a sealed value holds none.
    return { value, numberValue, booleanValue: null };
  }

  private context(variableId: number): string {
    return valueContext(this.organizationId, variableId, this.generation);
  }
}
