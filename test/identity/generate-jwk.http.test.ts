import { createPrivateKey, createPublicKey, randomUUID, sign, verify } from 'node:crypto';
import type { HttpClient } from '../support/http-client.js';
import type { Problem } from '../support/problem.js';
import { eventually } from '../support/eventually.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { GLOBAL_ORGANIZATION, auditEntries } from '../support/audit-log.js';

interface GeneratedKey {
  kid: string;
  publicKeyPem: string;
  privateKeyPem: string;
  jwk: Record<string, unknown>;
}

let system: TestSystem;
let identity: HttpClient;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'identity', 'audit'] });
  identity = system.client('identity');
});

afterAll(() => system.stop());

describe('spec 4.3: GET /generatejwk/{key} answers a new key pair: public PEM, private PEM and JWK', () => {
  it('answers a public and a private PEM that belong together: what the private key signs, the public key verifies', async () => {
    const response = await identity.get<GeneratedKey>('/generatejwk/signing-2026.a_b');
    expect(response.status).toBe(200);
    const { publicKeyPem, privateKeyPem } = response.body;
    expect(publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const privateKey = createPrivateKey(privateKeyPem);
    const publicKey = createPublicKey(publicKeyPem);
    expect(privateKey.asymmetricKeyType).toBe('rsa');
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBeGreaterThanOrEqual(2048);
    const data = Buffer.from('a token to sign');
    const signature = sign('sha256', data, privateKey);
    expect(verify('sha256', data, publicKey, signature)).toBe(true);
    expect(verify('sha256', Buffer.from('another text'), publicKey, signature)).toBe(false);
  });

  it('answers a JWK of the same public key, with kid = the key name, alg RS256 and no private parts', async () => {
    const response = await identity.get<GeneratedKey>('/generatejwk/my-key');
    expect(response.status).toBe(200);
    const { jwk, kid, publicKeyPem, privateKeyPem } = response.body;
    expect(kid).toBe('my-key');
    expect(jwk).toMatchObject({ kty: 'RSA', kid: 'my-key', alg: 'RS256' });
    for (const privatePart of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(jwk).not.toHaveProperty(privatePart);
    const fromJwk = createPublicKey({ key: jwk as never, format: 'jwk' });
    expect(fromJwk.export({ type: 'spki', format: 'pem' })).toBe(publicKeyPem);
    const signature = sign('sha256', Buffer.from('x'), createPrivateKey(privateKeyPem));
    expect(verify('sha256', Buffer.from('x'), fromJwk, signature)).toBe(true);
  });

  it('answers a new key pair on every call', async () => {
    const first = await identity.get<GeneratedKey>('/generatejwk/same-name');
    const second = await identity.get<GeneratedKey>('/generatejwk/same-name');
    expect(first.body.publicKeyPem).not.toBe(second.body.publicKeyPem);
  });

  it.each(['bad%20key', 'semi%3Bcolon', 'slash%2Fpart', 'x'.repeat(101)])(
    'a bad key name (%s) is 400 naming path.key',
    async (key) => {
      const response = await identity.get(`/generatejwk/${key}`);
      expect(response.status).toBe(400);
      expect(response.text).toContain('path.key');
    },
  );
});

describe('spec 6: key generation writes a global JWK entry', () => {
  it('writes JWK / Create as a global entry naming the key, without any key material', async () => {
    const kid = `audited-${randomUUID().slice(0, 8)}`;
    const generated = await identity.get<GeneratedKey>(`/generatejwk/${kid}`);
    expect(generated.status).toBe(200);
    await eventually(async () => {
      const entries = await auditEntries(system, randomUUID(), [
        { field: 'EntryType', value: 'JWK' },
        { field: 'EntityId', value: kid },
      ]);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        action: 'Create',
        organizationId: GLOBAL_ORGANIZATION,
        loggedBy: GLOBAL_ORGANIZATION,
        stateWithheld: false,
      });
      const text = JSON.stringify(entries[0]);
      expect(text).not.toContain('PRIVATE KEY');
      expect(text).not.toContain(String(generated.body.jwk.n));
    });
  });
});

describe('issue 8.3 / decisions "Key generation": an anonymous caller cannot freeze the process', () => {
  it('generates off the event loop: other requests are answered while a key is being made', async () => {
    let pending = true;
    const generation = identity
      .get<GeneratedKey>('/generatejwk/off-the-loop')
      .finally(() => (pending = false));
    let answeredMeanwhile = 0;
    while (pending) {
      const health = await identity.get('/healthz/startup');
      expect(health.status).toBe(200);
      if (pending) answeredMeanwhile++;
    }
    expect((await generation).status).toBe(200);
    // Made on the event loop, the key blocks every request that arrives after it until it is done.
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(2);
  });

  it('makes one key at a time: a caller beyond that is 503 with Retry-After, and each key made keeps its audit entry', async () => {
    const kid = `bounded-${randomUUID().slice(0, 8)}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => identity.get<Problem>(`/generatejwk/${kid}`)),
    );
    const made = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(made.length + refused.length).toBe(answers.length);
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const answer of refused) {
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.body.detail).toContain('try again');
    }
    await eventually(async () => {
      const entries = await auditEntries(system, randomUUID(), [
        { field: 'EntryType', value: 'JWK' },
        { field: 'EntityId', value: kid },
      ]);
      expect(entries).toHaveLength(made.length);
    });
  });
});
