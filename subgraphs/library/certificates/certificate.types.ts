import { pageType } from '../../../platform/graphql/page-type.js';
import {
  Field,
  ID,
  InputType,
  Int,
  ObjectType,
  registerEnumType,
} from '../../../platform/graphql/type-graphql.js';
import { StampedType } from '../library.types.js';
import {
  CERTIFICATE_ORIGINS,
  CERTIFICATE_SLOTS,
  type CertificateOrigin,
  type CertificateSlot,
} from './certificate.entity.js';

export const CertificateSlotEnum = Object.fromEntries(CERTIFICATE_SLOTS.map((slot) => [slot, slot]));
registerEnumType(CertificateSlotEnum, {
  name: 'CertificateSlot',
  description: 'Primary (the one in use) or Replacement (the next one, until a rotation swaps them).',
});

export const CertificateOriginEnum = Object.fromEntries(
  CERTIFICATE_ORIGINS.map((origin) => [origin, origin]),
);
registerEnumType(CertificateOriginEnum, { name: 'CertificateOrigin' });

@ObjectType('Certificate', {
  description: "One of an organization's client certificates, in its slot; never its private key.",
})
export class CertificateType extends StampedType {
  @Field(() => Int)
  id!: number;

  @Field(() => ID)
  organizationId!: string;

  @Field(() => CertificateSlotEnum)
  slot!: CertificateSlot;

  @Field(() => String, { description: 'PEM.' })
  certificate!: string;

  @Field(() => String, { description: 'SHA-256 of the DER encoding, 64 lowercase hex digits.' })
  thumbprint!: string;

  @Field(() => String)
  subject!: string;

  @Field(() => String)
  notBefore!: string;

  @Field(() => String)
  notAfter!: string;

  @Field(() => CertificateOriginEnum)
  origin!: CertificateOrigin;
}

@ObjectType('CertificatePage')
export class CertificatePageType extends pageType(() => CertificateType) {}

@InputType('CertificateUploadInput')
export class CertificateUploadInput {
  @Field(() => CertificateSlotEnum)
  slot!: CertificateSlot;

  @Field(() => String, {
    description: 'One PEM X.509 certificate, valid now, of an RSA key of at least 2048 bits.',
  })
  certificate!: string;

  @Field(() => String, {
    description:
      "The certificate's private key in PEM, without a passphrase; kept only encrypted, never answered.",
  })
  privateKey!: string;
}
