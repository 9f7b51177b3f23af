import { generateKeyPairSync } from 'node:crypto';

/** A fresh 2048-bit RSA key pair as PEM text (PKCS#8 private, SPKI public). */
export function rsaKeyPair(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
}
