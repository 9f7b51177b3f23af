// @peculiar/x509 needs the Reflect metadata API before it loads.
import 'reflect-metadata';
import { KeyObject, webcrypto } from 'node:crypto';
import { X509CertificateGenerator } from '@peculiar/x509';

/** A PEM certificate and PEM (PKCS#8) private key, as an operator would upload them. */
export interface CertificatePair {
  certificate: string;
  privateKey: string;
}

const DAY = 24 * 60 * 60 * 1000;

const ALGORITHMS = {
  rsa: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]) },
  ec: { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' },
} as const;

/**
 * A self-signed certificate made here, not by the service: valid from `notBefore` to `notAfter`
 * (by default a day ago to a year on), of an RSA key of `bits` (2048 by default) or an EC key.
 */
export async function makeCertificate(
  options: { notBefore?: Date; notAfter?: Date; key?: 'rsa' | 'ec'; bits?: number; name?: string } = {},
): Promise<CertificatePair> {
  const now = Date.now();
  const algorithm =
    options.key === 'ec' ? ALGORITHMS.ec : { ...ALGORITHMS.rsa, modulusLength: options.bits ?? 2048 };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await X509CertificateGenerator.createSelfSigned({
    name: `CN=${options.name ?? 'uploaded-by-test'}`,
    notBefore: options.notBefore ?? new Date(now - DAY),
    notAfter: options.notAfter ?? new Date(now + 365 * DAY),
    signingAlgorithm: algorithm,
    keys,
  });
  return {
    certificate: certificate.toString('pem'),
    privateKey: KeyObject.from(keys.privateKey).export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export { DAY };
