import type { AuditedKind } from '../../../platform/db/audited-writes.js';
import { stampView } from '../library-views.js';
import { Certificate } from './certificate.entity.js';
import type { CertificateView } from './certificate.schemas.js';

export function certificateView(row: Certificate): CertificateView {
  return {
    id: row.id,
    organizationId: row.organizationId,
    slot: row.slot,
    certificate: row.certificate,
    thumbprint: row.thumbprint,
    subject: row.subject,
    notBefore: row.notBefore.toISOString(),
    notAfter: row.notAfter.toISOString(),
    origin: row.origin,
    ...stampView(row),
  };
}

/**
 * Certificates as audited records (decisions "Certificates"): entry type Certificate, written in
 * the organization of the caller (as the account service writes an organization's entries); the
 * state names the organization whose certificate it is, and holds no key material.
 */
export const CERTIFICATES: AuditedKind<Certificate, CertificateView> = {
  entity: Certificate,
  entryType: 'Certificate',
  label: 'Certificate',
  views: (_em, rows) => Promise.resolve(rows.map(certificateView)),
};
