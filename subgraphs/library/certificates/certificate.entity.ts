import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { stampedColumns } from '../../../platform/db/stamped-columns.js';
import { tenantFilter } from '../../../platform/db/tenancy.js';

/** The two places an organization keeps a certificate (spec 2 "Client certificate"). */
export const CERTIFICATE_SLOTS = ['Primary', 'Replacement'] as const;
export type CertificateSlot = (typeof CERTIFICATE_SLOTS)[number];

export const CERTIFICATE_ORIGINS = ['Generated', 'Uploaded'] as const;
export type CertificateOrigin = (typeof CERTIFICATE_ORIGINS)[number];

/**
 * One of an organization's client certificates, in its slot. The certificate is public; its
 * private key is kept only sealed under the master key (`sealedPrivateKey`), never answered.
 * One certificate per slot: the constraint is checked at commit, so a rotation swaps two slots
 * with two updates.
 */
export const Certificate = defineEntity({
  name: 'Certificate',
  tableName: 'certificate',
  properties: {
    id: p.integer().primary().autoincrement(),
    organizationId: p.uuid(),
    slot: p.string().length(20).$type<CertificateSlot>(),
    /** PEM. */
    certificate: p.text(),
    /** SHA-256 of the DER encoding, lowercase hex. */
    thumbprint: p.string().length(64),
    subject: p.text(),
    notBefore: p.datetime(),
    notAfter: p.datetime(),
    origin: p.string().length(20).$type<CertificateOrigin>(),
    /** The PKCS#8 private key, sealed under the master key for this organization and thumbprint. */
    sealedPrivateKey: p.blob(),
    ...stampedColumns(),
  },
  uniques: [
    {
      name: 'certificate_organization_slot_unique',
      properties: ['organizationId', 'slot'],
      deferMode: 'deferred',
    },
  ],
  filters: { tenant: tenantFilter },
});
export type Certificate = InferEntity<typeof Certificate>;
