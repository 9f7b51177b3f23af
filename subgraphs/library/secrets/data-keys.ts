import {
  constants,
  createHash,
  createPrivateKey,
  createSecretKey,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  X509Certificate,
} from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import type { MasterKey } from '../../../platform/encryption/master-key.js';
import type { StoredValue } from '../domain/variable-types.js';
import { dataKeyContext, privateKeyContext } from './contexts.js';
import { DataKey } from './data-key.entity.js';
import { writeSealedValues } from './sealed-rows.js';
import { generationOf, OtherGenerationError, ValueCipher } from './value-cipher.js';

const DATA_KEY_BYTES = 32;

/** The certificate a data key is wrapped by: the organization's primary. */
export interface WrappingCertificate {
  id: number;
  /** PEM. */
  certificate: string;
}

interface KeyRow {
  generation: number;
  wrapped_key: Buffer;
  certificate_id: number | null;
}

const KEY_COLUMNS = 'generation, wrapped_key, certificate_id';

/**
 * Organizations' data keys (decisions "Secrets at rest"). Each organization's sensitive values are
 * sealed under one random AES-256 key, kept only wrapped: by the organization's primary
 * certificate when it has one, else by the master key. Unwrapped keys are kept in memory, by the
 * wrapped bytes they came from, so the read path unwraps a key once, not per snapshot; a key
 * another transaction made and rolled back is never mistaken for one committed.
 */
export class DataKeys {
  /** By organization: the ciphers of its latest keys met, by their wrapped bytes' digest. */
  private readonly unwrapped = new Map<string, Map<string, ValueCipher>>();

  constructor(private readonly masterKey: MasterKey) {}

  /**
   * The organization's key as `rows` read it: the one its sealed values of that moment are
   * under, when `rows` read them in the same repeatable-read transaction. Undefined when the
   * organization has no key (it never had a sensitive value).
   */
  async current(rows: OrganizationRows): Promise<ValueCipher | undefined> {
    const [row] = await rows.query<KeyRow>(
      `select ${KEY_COLUMNS} from "library"."data_key" where organization_id = ?`,
    );
    return row && this.cipherOf(rows, row);
  }

  /**
   * The key the rows' sealed values were read under (in the same repeatable-read transaction), or
   * undefined when none of them is sealed: nothing to open, so the key is not read.
   */
  async forSealed(
    rows: OrganizationRows,
    read: readonly { sealed_value: Uint8Array | null }[],
  ): Promise<ValueCipher | undefined> {
    return read.some((row) => row.sealed_value) ? this.current(rows) : undefined;
  }

  /**
   * For a write of sensitive values, in its transaction: the organization's key, locked for share
   * until the transaction ends, so a rekey waits for the write and a write waits for a rekey
   * (take it before writing any value row, so the two never hold what the other waits for). An
   * organization's first key is made here, wrapped by its primary certificate if it has one
   * (taking turns with certificate writes, so the primary cannot change meanwhile).
   */
  async forWriting(em: EntityManager): Promise<ValueCipher> {
    const rows = OrganizationRows.of(em);
    const locked = await lockedForShare(rows);
    if (locked) return this.cipherOf(rows, locked);
    await rows.takeTurns('certificates');
    const primary = await primaryCertificate(rows);
    const key = randomBytes(DATA_KEY_BYTES);
    await rows.query(
      `insert into "library"."data_key" (organization_id, generation, wrapped_key, certificate_id)
       values (?, 1, ?, ?) on conflict (organization_id) do nothing`,
      [this.wrap(rows.organizationId, 1, key, primary), primary?.id ?? null],
    );
    // Ours, or the one another writer made first.
    return this.cipherOf(rows, (await lockedForShare(rows))!);
  }

  /**
   * Sealed values read outside one moment (a variable's values, then its organization's key):
   * opened, or OtherGenerationError when a rekey committed between reading them and the key; the
   * caller reads them again.
   */
  async openAll(
    em: EntityManager,
    organizationId: string,
    values: readonly { variableId: number; sealed: Uint8Array }[],
  ): Promise<StoredValue[]> {
    if (values.length === 0) return [];
    const cipher = await this.current(new OrganizationRows(em, organizationId));
    return values.map((value) => {
      if (!cipher) throw new OtherGenerationError(organizationId, generationOf(value.sealed));
      return cipher.open(value.variableId, value.sealed);
    });
  }

  /**
   * The organization's primary certificate is now `primary` (or none), in the transaction of
   * that change, before a certificate that wraps the key is deleted: a new data key, wrapped by
   * the new primary (or the master key), and every sealed value of the organization opened with
   * the old key and sealed again under the new one (spec 3 "Certificate slots"). Afterwards no
   * value needs the old key, nor the certificate that wrapped it. Nothing to do for an
   * organization without a key.
   */
  async rekey(em: EntityManager, primary: WrappingCertificate | null): Promise<void> {
    const rows = OrganizationRows.of(em);
    const [row] = await rows.query<KeyRow>(
      `select ${KEY_COLUMNS} from "library"."data_key" where organization_id = ? for update`,
    );
    if (!row) return;
    const old = await this.cipherOf(rows, row);
    const generation = row.generation + 1;
    const key = randomBytes(DATA_KEY_BYTES);
    const next = new ValueCipher(rows.organizationId, generation, createSecretKey(key));
    const sealed = await rows.query<{ id: number; variable_id: number; sealed_value: Buffer }>(
      `select id, variable_id, sealed_value from "library"."variable_value"
       where organization_id = ? and sealed_value is not null order by id for update`,
    );
    await writeSealedValues(
      rows,
      sealed.map((value) => ({
        id: value.id,
        sealed: next.seal(value.variable_id, old.open(value.variable_id, value.sealed_value)),
      })),
    );
    await em.nativeUpdate(
      DataKey,
      { organizationId: rows.organizationId },
      {
        generation,
        wrappedKey: this.wrap(rows.organizationId, generation, key, primary),
        certificateId: primary?.id ?? null,
      },
    );
  }

  /** A data key wrapped by a certificate's public key (RSA-OAEP, SHA-256, labelled), or by the master key. */
  private wrap(
    organizationId: string,
    generation: number,
    key: Buffer,
    certificate: WrappingCertificate | null,
  ): Buffer {
    const context = dataKeyContext(organizationId, generation);
    if (!certificate) return this.masterKey.seal(key, context);
    return publicEncrypt(
      {
        key: new X509Certificate(certificate.certificate).publicKey,
        padding: constants.RSA_PKCS1_OAEP_PADDING,
        oaepHash: 'sha256',
        oaepLabel: Buffer.from(context, 'utf8'),
      },
      key,
    );
  }

  /** The cipher of a key row: kept from before, or unwrapped (by its certificate's private key, itself sealed under the master key). */
  private async cipherOf(rows: OrganizationRows, row: KeyRow): Promise<ValueCipher> {
    const organizationId = rows.organizationId;
    const digest = createHash('sha256').update(row.wrapped_key).digest('hex');
    const known = this.unwrapped.get(organizationId)?.get(digest);
    if (known) return known;
    const context = dataKeyContext(organizationId, row.generation);
    let key: Buffer;
    if (row.certificate_id === null) {
      key = this.masterKey.open(row.wrapped_key, context);
    } else {
      const [certificate] = await rows.query<{ thumbprint: string; sealed_private_key: Buffer }>(
        `select thumbprint, sealed_private_key from "library"."certificate" where organization_id = ? and id = ?`,
        [row.certificate_id],
      );
      const privateKey = createPrivateKey({
        key: this.masterKey.open(
          certificate!.sealed_private_key,
          privateKeyContext(organizationId, certificate!.thumbprint),
        ),
        format: 'der',
        type: 'pkcs8',
      });
      key = privateDecrypt(
        {
          key: privateKey,
          padding: constants.RSA_PKCS1_OAEP_PADDING,
          oaepHash: 'sha256',
          oaepLabel: Buffer.from(context, 'utf8'),
        },
        row.wrapped_key,
      );
    }
    const cipher = new ValueCipher(organizationId, row.generation, createSecretKey(key));
    this.remember(organizationId, digest, cipher);
    return cipher;
  }

  /** Keeps an organization's two latest keys: one being replaced by a rekey can still open what was read before it. */
  private remember(organizationId: string, digest: string, cipher: ValueCipher): void {
    const kept = this.unwrapped.get(organizationId) ?? new Map<string, ValueCipher>();
    kept.set(digest, cipher);
    const newest = [...kept].sort(([, a], [, b]) => b.generation - a.generation).slice(0, 2);
    this.unwrapped.set(organizationId, new Map(newest));
  }
}

async function lockedForShare(rows: OrganizationRows): Promise<KeyRow | undefined> {
  const [row] = await rows.query<KeyRow>(
    `select ${KEY_COLUMNS} from "library"."data_key" where organization_id = ? for share`,
  );
  return row;
}

async function primaryCertificate(rows: OrganizationRows): Promise<WrappingCertificate | null> {
  const [row] = await rows.query<WrappingCertificate>(
    `select id, certificate from "library"."certificate" where organization_id = ? and slot = 'Primary'`,
  );
  return row ?? null;
}
