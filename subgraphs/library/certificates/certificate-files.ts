// @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata API loaded first.
import 'reflect-metadata';
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  KeyObject,
  webcrypto,
  X509Certificate as NodeCertificate,
} from 'node:crypto';
import {
  BasicConstraintsExtension,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate,
  X509CertificateGenerator,
} from '@peculiar/x509';
import type { FieldError } from '../../../platform/errors/domain-errors.js';

/** What the service keeps of a certificate, read from the certificate itself (spec 2 "Client certificate"). */
export interface CertificateFacts {
  /** The certificate in PEM, as it is answered. */
  pem: string;
  /** SHA-256 of the DER encoding, 64 lowercase hex digits. */
  thumbprint: string;
  subject: string;
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
}

/** The smallest RSA modulus accepted from an upload, in bits; generated keys have this many. */
export const MIN_RSA_BITS = 2048;

const SIGNING = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: MIN_RSA_BITS,
} as const;

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/g;

/** The facts of one certificate in PEM; throws when it is not one. */
export function certificateFacts(pem: string): CertificateFacts {
  const parsed = new X509Certificate(pem);
  const der = Buffer.from(parsed.rawData);
  return {
    pem: parsed.toString('pem'),
    thumbprint: createHash('sha256').update(der).digest('hex'),
    subject: parsed.subject,
    notBefore: parsed.notBefore,
    notAfter: parsed.notAfter,
    publicKey: new NodeCertificate(der).publicKey,
  };
}

/**
 * A self-signed certificate for an organization (spec 8: one year): a new RSA key of 2048 bits,
 * made on libuv's thread pool (never on the event loop every service shares), valid from now (to
 * the second, as X.509 writes it) for one calendar year, for client authentication.
 */
export async function generateSelfSigned(
  commonName: string,
  now: Date,
): Promise<{ facts: CertificateFacts; privateKey: KeyObject }> {
  const keys = await webcrypto.subtle.generateKey(SIGNING, true, ['sign', 'verify']);
  const notBefore = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + 1);
  const certificate = await X509CertificateGenerator.createSelfSigned({
    name: [{ CN: [commonName] }],
    notBefore,
    notAfter,
    signingAlgorithm: SIGNING,
    keys,
    extensions: [
      new BasicConstraintsExtension(false, undefined, true),
      new KeyUsagesExtension(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment, true),
      new ExtendedKeyUsageExtension([ExtendedKeyUsage.clientAuth]),
      await SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return {
    facts: certificateFacts(certificate.toString('pem')),
    privateKey: KeyObject.from(keys.privateKey),
  };
}

/** An uploaded pair as the service keeps it, or why it is refused, each problem on its field. */
export type UploadCheck =
  { ok: true; facts: CertificateFacts; privateKey: KeyObject } | { ok: false; problems: FieldError[] };

/**
 * The rules an uploaded certificate and private key meet (spec 4.1 "Certificates"): the
 * certificate is one PEM X.509 certificate, valid now (neither expired nor not yet valid), of an
 * RSA key of at least 2048 bits (the primary certificate wraps the organization's data key with
 * RSA-OAEP); the key is a readable, unencrypted PEM private key, and the certificate's own. Each
 * refusal says which; none repeats the key.
 */
export function checkUpload(
  upload: { certificate: string; privateKey: string },
  now: Date,
  fields = { certificate: 'body.certificate', privateKey: 'body.privateKey' },
): UploadCheck {
  const problems: FieldError[] = [];
  const facts = readCertificate(upload.certificate, fields.certificate, problems);
  if (facts) {
    if (now < facts.notBefore)
      problems.push({
        field: fields.certificate,
        message: `is not yet valid: valid from ${facts.notBefore.toISOString()}`,
      });
    if (now > facts.notAfter)
      problems.push({
        field: fields.certificate,
        message: `has expired: valid until ${facts.notAfter.toISOString()}`,
      });
    const bits = facts.publicKey.asymmetricKeyDetails?.modulusLength ?? 0;
    if (facts.publicKey.asymmetricKeyType !== 'rsa' || bits < MIN_RSA_BITS)
      problems.push({
        field: fields.certificate,
        message: `must hold an RSA key of at least ${MIN_RSA_BITS} bits (it holds ${describeKey(facts.publicKey)})`,
      });
  }
  const privateKey = readPrivateKey(upload.privateKey, fields.privateKey, problems);
  if (facts && privateKey && !samePublicKey(facts.publicKey, createPublicKey(privateKey))) {
    problems.push({ field: fields.privateKey, message: "does not match the certificate's public key" });
  }
  if (problems.length > 0 || !facts || !privateKey) return { ok: false, problems };
  return { ok: true, facts, privateKey };
}

function readCertificate(pem: string, field: string, problems: FieldError[]): CertificateFacts | undefined {
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length !== 1) {
    problems.push({
      field,
      message:
        blocks.length === 0
          ? 'is not a PEM X.509 certificate (no -----BEGIN CERTIFICATE----- block)'
          : `holds ${blocks.length} certificates; upload the organization's certificate alone`,
    });
    return undefined;
  }
  try {
    return certificateFacts(blocks[0]);
  } catch {
    problems.push({ field, message: 'is malformed: not a readable X.509 certificate' });
    return undefined;
  }
}

function readPrivateKey(pem: string, field: string, problems: FieldError[]): KeyObject | undefined {
  if (!/-----BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.test(pem)) {
    problems.push({ field, message: 'is not a PEM private key (no -----BEGIN PRIVATE KEY----- block)' });
    return undefined;
  }
  if (pem.includes('ENCRYPTED')) {
    problems.push({ field, message: 'is encrypted; upload it without its passphrase' });
    return undefined;
  }
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    problems.push({ field, message: 'is malformed: not a readable private key' });
    return undefined;
  }
}

function describeKey(key: KeyObject): string {
  const bits = key.asymmetricKeyDetails?.modulusLength;
  return bits ? `${key.asymmetricKeyType} ${bits}` : String(key.asymmetricKeyType);
}

function samePublicKey(a: KeyObject, b: KeyObject): boolean {
  const der = (key: KeyObject) => key.export({ type: 'spki', format: 'der' });
  return der(a).equals(der(b));
}
