import { createHash, createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { makeCertificate, DAY } from '../../../test/support/certificates.js';
import { checkUpload, generateSelfSigned } from './certificate-files.js';

const now = new Date('2026-12-01T10:20:30.456Z');

describe('spec 2 "Client certificate" and 8: a generated certificate is self-signed and valid for one year', () => {
  it('is valid from now (to the second) for one calendar year, names the organization, and its key is its own', async () => {
    const { facts, privateKey } = await generateSelfSigned('8d1f6c5e-0000-4000-8000-000000000001', now);
    expect(facts.notBefore.toISOString()).toBe('2026-12-01T10:20:30.000Z');
    expect(facts.notAfter.toISOString()).toBe('2027-12-01T10:20:30.000Z');
    expect(facts.subject).toBe('CN=8d1f6c5e-0000-4000-8000-000000000001');
    const parsed = new X509Certificate(facts.pem);
    expect(parsed.issuer).toBe(parsed.subject);
    expect(parsed.verify(parsed.publicKey)).toBe(true);
    expect(parsed.checkPrivateKey(privateKey)).toBe(true);
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(facts.thumbprint).toBe(createHash('sha256').update(parsed.raw).digest('hex'));
  });
});

describe('spec 4.1 "Certificates": an upload is refused, saying which, when', () => {
  const nowReal = new Date();

  it('accepts a valid RSA certificate with its own key', async () => {
    const pair = await makeCertificate();
    const checked = checkUpload(pair, nowReal);
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(checked.facts.subject).toBe('CN=uploaded-by-test');
  });

  it('the key does not match the certificate', async () => {
    const [a, b] = await Promise.all([makeCertificate(), makeCertificate()]);
    expect(checkUpload({ certificate: a.certificate, privateKey: b.privateKey }, nowReal)).toEqual({
      ok: false,
      problems: [{ field: 'body.privateKey', message: "does not match the certificate's public key" }],
    });
  });

  it('the certificate has expired', async () => {
    const pair = await makeCertificate({
      notBefore: new Date(nowReal.getTime() - 30 * DAY),
      notAfter: new Date(nowReal.getTime() - DAY),
    });
    const checked = checkUpload(pair, nowReal);
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.problems).toHaveLength(1);
      expect(checked.problems[0]!.field).toBe('body.certificate');
      expect(checked.problems[0]!.message).toMatch(/^has expired: valid until /);
    }
  });

  it('the certificate is not yet valid', async () => {
    const pair = await makeCertificate({
      notBefore: new Date(nowReal.getTime() + DAY),
      notAfter: new Date(nowReal.getTime() + 30 * DAY),
    });
    const checked = checkUpload(pair, nowReal);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problems[0]!.message).toMatch(/^is not yet valid: valid from /);
  });

  it.each([
    ['not PEM at all', 'hello', 'is not a PEM X.509 certificate (no -----BEGIN CERTIFICATE----- block)'],
    [
      'a PEM block whose contents are not a certificate',
      '-----BEGIN CERTIFICATE-----\nTUlJQm9nSUJBQUpC\n-----END CERTIFICATE-----',
      'is malformed: not a readable X.509 certificate',
    ],
  ])('the certificate is malformed: %s', async (_title, certificate, message) => {
    const pair = await makeCertificate();
    expect(checkUpload({ certificate, privateKey: pair.privateKey }, nowReal)).toEqual({
      ok: false,
      problems: [{ field: 'body.certificate', message }],
    });
  });

  it('the PEM holds more than one certificate', async () => {
    const [a, b] = await Promise.all([makeCertificate(), makeCertificate()]);
    const checked = checkUpload(
      { certificate: `${a.certificate}\n${b.certificate}`, privateKey: a.privateKey },
      nowReal,
    );
    expect(checked).toEqual({
      ok: false,
      problems: [
        {
          field: 'body.certificate',
          message: "holds 2 certificates; upload the organization's certificate alone",
        },
      ],
    });
  });

  it('the certificate is not of an RSA key of 2048 bits or more', async () => {
    const ec = await makeCertificate({ key: 'ec' });
    const small = await makeCertificate({ bits: 1024 });
    for (const [pair, holds] of [
      [ec, 'ec'],
      [small, 'rsa 1024'],
    ] as const) {
      const checked = checkUpload(pair, nowReal);
      expect(checked.ok).toBe(false);
      if (!checked.ok)
        expect(checked.problems).toEqual([
          {
            field: 'body.certificate',
            message: `must hold an RSA key of at least 2048 bits (it holds ${holds})`,
          },
        ]);
    }
  });

  it('the private key is not PEM, is malformed, or is encrypted (each message says which, and holds nothing of the key)', async () => {
    const pair = await makeCertificate();
    const encrypted = createPrivateKey(pair.privateKey).export({
      type: 'pkcs8',
      format: 'pem',
      cipher: 'aes-256-cbc',
      passphrase: 'secret',
    }) as string;
    const cases: [string, string][] = [
      ['not a key', 'is not a PEM private key (no -----BEGIN PRIVATE KEY----- block)'],
      [
        '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
        'is malformed: not a readable private key',
      ],
      [encrypted, 'is encrypted; upload it without its passphrase'],
    ];
    for (const [privateKey, message] of cases) {
      expect(checkUpload({ certificate: pair.certificate, privateKey }, nowReal)).toEqual({
        ok: false,
        problems: [{ field: 'body.privateKey', message }],
      });
    }
  });

  it('a public key sent as the private key is refused as not a private key', async () => {
    const pair = await makeCertificate();
    const publicPem = createPublicKey(pair.privateKey).export({ type: 'spki', format: 'pem' }) as string;
    expect(checkUpload({ certificate: pair.certificate, privateKey: publicPem }, nowReal)).toEqual({
      ok: false,
      problems: [
        {
          field: 'body.privateKey',
          message: 'is not a PEM private key (no -----BEGIN PRIVATE KEY----- block)',
        },
      ],
    });
  });
});
