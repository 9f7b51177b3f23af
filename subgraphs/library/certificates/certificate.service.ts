import type { KeyObject } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../platform/auth/caller.js';
import type { AuditedWrites } from '../../../platform/db/audited-writes.js';
import type { Database } from '../../../platform/db/database.js';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import { scopeToOrganization } from '../../../platform/db/tenancy.js';
import type { MasterKey } from '../../../platform/encryption/master-key.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../../platform/errors/domain-errors.js';
import type { Page } from '../../../platform/http/query-schemas.js';
import type { Transaction, Transactions } from '../../../platform/outbox/transaction-runner.js';
import { requirePermission } from '../../../platform/permissions/authorize.js';
import type { Clock } from '../../../platform/time/clock.js';
import { privateKeyContext } from '../secrets/contexts.js';
import type { DataKeys } from '../secrets/data-keys.js';
import { checkUpload, generateSelfSigned, type CertificateFacts } from './certificate-files.js';
import {
  Certificate,
  CERTIFICATE_SLOTS,
  type CertificateOrigin,
  type CertificateSlot,
} from './certificate.entity.js';
import type {
  CertificateView,
  GenerateCertificateBody,
  UploadCertificateBody,
} from './certificate.schemas.js';
import { CERTIFICATES, certificateView } from './certificate.views.js';

/** Whether an organization exists, asked of the account service with the caller's token. */
export interface OrganizationDirectory {
  exists(caller: Caller, organizationId: string): Promise<boolean>;
}

export interface CertificateDependencies {
  orm: Database;
  /** Certificate writes change no library data, so they raise no library revision. */
  transactions: Transactions;
  writes: AuditedWrites;
  clock: Clock;
  masterKey: MasterKey;
  /** The organization's data key follows its primary certificate (decisions "Secrets at rest"). */
  secrets: DataKeys;
  organizations: OrganizationDirectory;
}

/**
 * An organization's client certificates (spec 4.1 "Certificates"): global permissions, so for any
 * organization the path names, which must exist (404 otherwise). An organization's certificate
 * writes take turns (a transaction lock), so two writes to one slot cannot both find it empty.
 */
export class CertificateService {
  constructor(private readonly deps: CertificateDependencies) {}

  /** GET: GlobalOrganizationRead; Primary first. */
  async list(caller: Caller | undefined, organizationId: string): Promise<Page<CertificateView>> {
    const known = requirePermission(caller, 'GlobalOrganizationRead');
    await this.requireOrganization(known, organizationId);
    const em = scopeToOrganization(this.deps.orm.em.fork(), organizationId);
    return pageOf(await em.find(Certificate, {}));
  }

  /** POST generate: GlobalOrganizationCertificateManage; a self-signed certificate valid for one year, into an empty slot (409 when filled). */
  async generate(
    caller: Caller | undefined,
    organizationId: string,
    body: GenerateCertificateBody,
  ): Promise<CertificateView> {
    const known = requirePermission(caller, 'GlobalOrganizationCertificateManage');
    await this.requireOrganization(known, organizationId);
    // Made before the transaction: a new key takes a while, and needs no lock.
    const { facts, privateKey } = await generateSelfSigned(organizationId, this.deps.clock.now());
    return this.store(known, organizationId, body.slot, 'Generated', facts, privateKey);
  }

  /**
   * POST upload: GlobalOrganizationCertificateManage; a certificate and its private key, into an
   * empty slot (409 when filled). A malformed, expired or not yet valid certificate, or a key that
   * is not its own, is 400 saying which, naming the field where the adapter took it from (`location`).
   */
  async upload(
    caller: Caller | undefined,
    organizationId: string,
    body: UploadCertificateBody,
    location = 'body',
  ): Promise<CertificateView> {
    const known = requirePermission(caller, 'GlobalOrganizationCertificateManage');
    await this.requireOrganization(known, organizationId);
    const checked = checkUpload(body, this.deps.clock.now(), {
      certificate: `${location}.certificate`,
      privateKey: `${location}.privateKey`,
    });
    if (!checked.ok) throw BadRequestError.invalidFields(checked.problems);
    return this.store(known, organizationId, body.slot, 'Uploaded', checked.facts, checked.privateKey);
  }

  /** POST rotate: GlobalOrganizationCertificateManage; both slots filled (409 otherwise), they swap. */
  async rotate(caller: Caller | undefined, organizationId: string): Promise<Page<CertificateView>> {
    const known = requirePermission(caller, 'GlobalOrganizationCertificateManage');
    await this.requireOrganization(known, organizationId);
    return this.inTurn(organizationId, async (tx) => {
      const bySlot = await certificatesBySlot(tx.em);
      const empty = CERTIFICATE_SLOTS.filter((slot) => !bySlot.has(slot));
      if (empty.length > 0) {
        throw new ConflictError(
          `A rotation needs both slots filled; ${empty.join(' and ')} ${empty.length === 1 ? 'is' : 'are'} empty.`,
        );
      }
      const rotated: Certificate[] = [];
      for (const [slot, certificate] of bySlot) {
        const { row } = await this.deps.writes.update(tx, known, CERTIFICATES, certificate.id, {
          change: () => ({ slot: otherSlot(slot) }),
        });
        rotated.push(row);
      }
      // The Replacement is the Primary now: every secret is sealed anew under a key it wraps.
      await this.deps.secrets.rekey(tx.em, bySlot.get('Replacement')!);
      return pageOf(rotated);
    });
  }

  /** DELETE a slot: GlobalOrganizationCertificateManage; 404 when the slot is empty. Answers the removed certificate. */
  async remove(
    caller: Caller | undefined,
    organizationId: string,
    slot: CertificateSlot,
  ): Promise<CertificateView> {
    const known = requirePermission(caller, 'GlobalOrganizationCertificateManage');
    await this.requireOrganization(known, organizationId);
    return this.inTurn(organizationId, async (tx) => {
      const certificate = (await certificatesBySlot(tx.em)).get(slot);
      if (!certificate) throw new NotFoundError(`Organization ${organizationId} has no ${slot} certificate.`);
      // Without a primary the master key wraps the data key: first, so nothing needs the certificate.
      if (slot === 'Primary') await this.deps.secrets.rekey(tx.em, null);
      return this.deps.writes.remove(tx, known, CERTIFICATES, certificate.id);
    });
  }

  private store(
    caller: Caller,
    organizationId: string,
    slot: CertificateSlot,
    origin: CertificateOrigin,
    facts: CertificateFacts,
    privateKey: KeyObject,
  ): Promise<CertificateView> {
    return this.inTurn(organizationId, async (tx) => {
      if ((await certificatesBySlot(tx.em)).has(slot)) {
        throw new ConflictError(
          `Organization ${organizationId} already has a ${slot} certificate: delete it first (or rotate, to make a Replacement the Primary).`,
        );
      }
      const sealedPrivateKey = this.deps.masterKey.seal(
        privateKey.export({ type: 'pkcs8', format: 'der' }),
        privateKeyContext(organizationId, facts.thumbprint),
      );
      const { row, view } = await this.deps.writes.create(tx, caller, CERTIFICATES, {
        organizationId,
        slot,
        certificate: facts.pem,
        thumbprint: facts.thumbprint,
        subject: facts.subject,
        notBefore: facts.notBefore,
        notAfter: facts.notAfter,
        origin,
        sealedPrivateKey,
      });
      // A new primary: every secret is sealed anew under a key it wraps.
      if (slot === 'Primary') await this.deps.secrets.rekey(tx.em, row);
      return view;
    });
  }

  /** A write of the organization's certificates, its rows in scope, after the writes before it. */
  private inTurn<T>(organizationId: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.deps.transactions.run(async (tx) => {
      await OrganizationRows.of(tx.em).takeTurns('certificates');
      return work(tx);
    }, organizationId);
  }

  private async requireOrganization(caller: Caller, organizationId: string): Promise<void> {
    if (!(await this.deps.organizations.exists(caller, organizationId))) {
      throw NotFoundError.entity('Organization', organizationId);
    }
  }
}

async function certificatesBySlot(em: EntityManager): Promise<Map<CertificateSlot, Certificate>> {
  const rows = await em.find(Certificate, {}, { orderBy: { id: 'asc' } });
  return new Map(rows.map((row) => [row.slot, row]));
}

function otherSlot(slot: CertificateSlot): CertificateSlot {
  return slot === 'Primary' ? 'Replacement' : 'Primary';
}

/** Primary first. */
function pageOf(rows: Certificate[]): Page<CertificateView> {
  const items = [...rows]
    .sort((a, b) => CERTIFICATE_SLOTS.indexOf(a.slot) - CERTIFICATE_SLOTS.indexOf(b.slot))
    .map(certificateView);
  return { total: items.length, items };
}
