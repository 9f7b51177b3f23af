import { createHash, createPrivateKey, randomUUID, X509Certificate } from 'node:crypto';
import { MasterKey } from '../../platform/encryption/master-key.js';
import type { PermissionName } from '../../platform/permissions/catalogue.js';
import type { CertificateView } from '../../subgraphs/library/certificates/certificate.schemas.js';
import { auditEntries } from '../support/audit-log.js';
import { DAY, makeCertificate, type CertificatePair } from '../support/certificates.js';
import { eventually } from '../support/eventually.js';
import { administratorToken, createOrganization, expectStatus } from '../support/factories.js';
import type { HttpClient } from '../support/http-client.js';
import type { Problem } from '../support/problem.js';
import { queryDatabase } from '../support/test-database.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;
let library: HttpClient;
/** The organization the global administrator signs in to: its audit entries land there. */
const adminOrganization = randomUUID();
let manager: string;
let reader: string;

const MANAGE: PermissionName[] = ['GlobalOrganizationRead', 'GlobalOrganizationCertificateManage'];

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit', 'library'] });
  library = system.client('library');
  manager = await system.token({ organizationId: adminOrganization, permissions: MANAGE });
  reader = await system.token({ organizationId: adminOrganization, permissions: ['GlobalOrganizationRead'] });
});

afterAll(() => system.stop());

interface Page {
  total: number;
  items: CertificateView[];
}

const newOrganization = async (label: string) =>
  (await createOrganization(system, `${label} ${randomUUID()}`)).id;
const path = (organizationId: string, rest = '') => `/organizations/${organizationId}/certificates${rest}`;
const list = (organizationId: string) =>
  expectStatus(library.get<Page>(path(organizationId), { token: reader }), 200);
const generate = (organizationId: string, slot: string, token = manager) =>
  library.post<CertificateView>(path(organizationId, '/generate'), { token, body: { slot } });
const upload = (organizationId: string, slot: string, pair: CertificatePair, token = manager) =>
  library.post<CertificateView>(path(organizationId, '/upload'), { token, body: { slot, ...pair } });
const thumbprintOf = (pem: string) => createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');

/** The fields a certificate answer carries: never anything of its key. */
const VIEW_FIELDS = [
  'certificate',
  'createdAt',
  'createdById',
  'id',
  'notAfter',
  'notBefore',
  'organizationId',
  'origin',
  'slot',
  'subject',
  'thumbprint',
  'updatedAt',
  'updatedById',
  'version',
];

describe('spec 4.1 "Certificates": each path needs its permission (global: for any organization)', () => {
  let organizationId: string;

  beforeAll(async () => {
    organizationId = await newOrganization('Permissions');
  });

  it('GET needs GlobalOrganizationRead: 401 without a session, 403 with every permission of an organization', async () => {
    expect((await library.get(path(organizationId))).status).toBe(401);
    const administrator = await administratorToken(system, organizationId);
    expect((await library.get<Problem>(path(organizationId), { token: administrator })).status).toBe(403);
    expect((await library.get(path(organizationId), { token: reader })).status).toBe(200);
  });

  it.each([
    ['POST', '/generate', { slot: 'Primary' }],
    ['POST', '/upload', { slot: 'Primary', certificate: 'x', privateKey: 'y' }],
    ['POST', '/rotate', undefined],
    ['DELETE', '/Primary', undefined],
  ] as const)(
    '%s %s needs GlobalOrganizationCertificateManage: 403 with GlobalOrganizationRead alone, or with it but without its dependency GlobalOrganizationRead',
    async (method, rest, body) => {
      const send = async (token: string | undefined) =>
        (await library.request<Problem>(method, path(organizationId, rest), { token, body })).status;
      expect(await send(undefined)).toBe(401);
      expect(await send(reader)).toBe(403);
      expect(
        await send(
          await system.token({
            organizationId: adminOrganization,
            permissions: ['GlobalOrganizationCertificateManage'],
          }),
        ),
      ).toBe(403);
      expect(await send(await administratorToken(system, organizationId))).toBe(403);
    },
  );
});

describe('decisions "Certificates": the organization in the path must exist', () => {
  it.each([
    ['GET', '', undefined],
    ['POST', '/generate', { slot: 'Primary' }],
    ['POST', '/rotate', undefined],
    ['DELETE', '/Primary', undefined],
  ] as const)('%s %s for an organization that does not exist is 404', async (method, rest, body) => {
    const response = await library.request<Problem>(method, path(randomUUID(), rest), {
      token: manager,
      body,
    });
    expect(response.status).toBe(404);
    expect(response.body.detail).toMatch(/^Organization .* was not found\.$/);
  });

  it('an organization id that is not a GUID is 400 naming path.id', async () => {
    const response = await library.get<Problem>('/organizations/me/certificates', { token: reader });
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.field).toBe('path.id');
  });
});

describe('spec 4.1 "Certificates" generate: self-signed, one year, in the slot the body names', () => {
  let organizationId: string;
  let generated: CertificateView;

  beforeAll(async () => {
    organizationId = await newOrganization('Generate');
    generated = await expectStatus(generate(organizationId, 'Replacement'), 200);
  });

  it('answers the slot, the PEM certificate, its SHA-256 thumbprint, its validity window and that it was generated; never key material', () => {
    expect(Object.keys(generated).sort()).toEqual(VIEW_FIELDS);
    expect(generated.slot).toBe('Replacement');
    expect(generated.origin).toBe('Generated');
    expect(generated.organizationId).toBe(organizationId);
    expect(generated.certificate).toMatch(
      /^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n?$/,
    );
    expect(generated.thumbprint).toBe(thumbprintOf(generated.certificate));
    expect(JSON.stringify(generated)).not.toMatch(/PRIVATE KEY/);
  });

  it('is valid from now for one year, and self-signed', () => {
    const now = system.clock.now();
    const notBefore = new Date(generated.notBefore);
    const notAfter = new Date(generated.notAfter);
    expect(Math.abs(notBefore.getTime() - now.getTime())).toBeLessThan(5_000);
    const yearOn = new Date(notBefore);
    yearOn.setUTCFullYear(yearOn.getUTCFullYear() + 1);
    expect(notAfter.toISOString()).toBe(yearOn.toISOString());
    const parsed = new X509Certificate(generated.certificate);
    expect(parsed.issuer).toBe(parsed.subject);
    expect(parsed.verify(parsed.publicKey)).toBe(true);
    expect(generated.subject).toBe(`CN=${organizationId}`);
  });

  it('a filled slot is 409 and keeps its certificate (delete it first, or rotate)', async () => {
    const response = await generate(organizationId, 'Replacement');
    expect(response.status).toBe(409);
    expect((response.body as unknown as Problem).detail).toContain('already has a Replacement certificate');
    expect((await list(organizationId)).items.map((item) => item.thumbprint)).toEqual([generated.thumbprint]);
  });

  it.each([
    [{}, 'body.slot'],
    [{ slot: 'Secondary' }, 'body.slot'],
    [{ slot: 'primary' }, 'body.slot'],
  ])('a body %j is 400 naming %s', async (body, field) => {
    const response = await library.post<Problem>(path(organizationId, '/generate'), { token: manager, body });
    expect(response.status).toBe(400);
    expect(response.body.errors?.map((error) => error.field)).toEqual([field]);
  });
});

describe('spec 4.1 "Certificates" upload: a PEM certificate and its private key', () => {
  let organizationId: string;

  beforeAll(async () => {
    organizationId = await newOrganization('Upload');
  });

  it('stores a valid pair, answering it as uploaded, with its thumbprint and validity window', async () => {
    const pair = await makeCertificate({ name: 'uploaded' });
    const stored = await expectStatus(upload(organizationId, 'Primary', pair), 200);
    expect(Object.keys(stored).sort()).toEqual(VIEW_FIELDS);
    expect(stored).toMatchObject({ slot: 'Primary', origin: 'Uploaded', subject: 'CN=uploaded' });
    expect(stored.thumbprint).toBe(thumbprintOf(pair.certificate));
    const parsed = new X509Certificate(pair.certificate);
    expect(new Date(stored.notBefore).getTime()).toBe(new Date(parsed.validFrom).getTime());
    expect(new Date(stored.notAfter).getTime()).toBe(new Date(parsed.validTo).getTime());
    expect(new X509Certificate(stored.certificate).raw.equals(parsed.raw)).toBe(true);
    expect(JSON.stringify(stored)).not.toMatch(/PRIVATE KEY/);
  });

  const refused = async (pair: CertificatePair): Promise<Problem> => {
    const before = await list(organizationId);
    const response = await upload(organizationId, 'Replacement', pair);
    expect(response.status).toBe(400);
    expect(await list(organizationId)).toEqual(before);
    return response.body as unknown as Problem;
  };

  it('a key that does not match the certificate is 400 saying so, and nothing is stored', async () => {
    const [a, b] = await Promise.all([makeCertificate(), makeCertificate()]);
    const problem = await refused({ certificate: a.certificate, privateKey: b.privateKey });
    expect(problem.errors).toEqual([
      { field: 'body.privateKey', message: "does not match the certificate's public key" },
    ]);
  });

  it('an expired certificate is 400 saying it has expired, and nothing is stored', async () => {
    const now = system.clock.now().getTime();
    const problem = await refused(
      await makeCertificate({ notBefore: new Date(now - 400 * DAY), notAfter: new Date(now - DAY) }),
    );
    expect(problem.errors).toHaveLength(1);
    expect(problem.errors![0]!.field).toBe('body.certificate');
    expect(problem.errors![0]!.message).toMatch(/^has expired: valid until \d{4}-/);
  });

  it('a certificate not yet valid is 400 saying so, and nothing is stored', async () => {
    const now = system.clock.now().getTime();
    const problem = await refused(
      await makeCertificate({ notBefore: new Date(now + DAY), notAfter: new Date(now + 400 * DAY) }),
    );
    expect(problem.errors).toHaveLength(1);
    expect(problem.errors![0]!.message).toMatch(/^is not yet valid: valid from \d{4}-/);
  });

  it('validity is judged by the service clock: a certificate valid now is expired once its time has passed', async () => {
    const now = system.clock.now().getTime();
    const pair = await makeCertificate({ notBefore: new Date(now - DAY), notAfter: new Date(now + 2 * DAY) });
    system.clock.advance(3 * DAY);
    try {
      // Tokens minted at the new time: those of before have expired.
      const token = await system.token({ organizationId: adminOrganization, permissions: MANAGE });
      const response = await upload(organizationId, 'Replacement', pair, token);
      expect(response.status).toBe(400);
      expect((response.body as unknown as Problem).errors![0]!.message).toMatch(/^has expired/);
    } finally {
      system.clock.advance(-3 * DAY);
    }
  });

  it('a malformed certificate is 400 saying it is malformed, and nothing is stored', async () => {
    const pair = await makeCertificate();
    const problem = await refused({
      certificate: '-----BEGIN CERTIFICATE-----\nTUlJQm9nSUJBQUpC\n-----END CERTIFICATE-----',
      privateKey: pair.privateKey,
    });
    expect(problem.errors).toEqual([
      { field: 'body.certificate', message: 'is malformed: not a readable X.509 certificate' },
    ]);
  });

  it('text that is not a PEM certificate, and a key that is not PEM, are 400 naming both', async () => {
    const problem = await refused({ certificate: 'hello', privateKey: 'world' });
    expect(problem.errors?.map((error) => error.field)).toEqual(['body.certificate', 'body.privateKey']);
    expect(problem.detail).not.toContain('world');
  });

  it('a certificate of a key that is not RSA is 400 (the primary wraps the data key with RSA-OAEP)', async () => {
    const problem = await refused(await makeCertificate({ key: 'ec' }));
    expect(problem.errors).toEqual([
      { field: 'body.certificate', message: 'must hold an RSA key of at least 2048 bits (it holds ec)' },
    ]);
  });

  it('a filled slot is 409', async () => {
    const response = await upload(organizationId, 'Primary', await makeCertificate());
    expect(response.status).toBe(409);
  });

  it('the private key is stored only encrypted under the master key: the row holds no form of it', async () => {
    const fresh = await newOrganization('Sealed');
    const pair = await makeCertificate();
    const stored = await expectStatus(upload(fresh, 'Primary', pair), 200);
    const [row] = await queryDatabase<{ sealed_private_key: Buffer; row: string }>(
      system.databaseUrl,
      'select sealed_private_key, row_to_json(c)::text as row from library.certificate c where id = $1',
      [stored.id],
    );
    const der = createPrivateKey(pair.privateKey).export({ type: 'pkcs8', format: 'der' });
    expect(row!.sealed_private_key.includes(der.subarray(26, 90))).toBe(false);
    expect(row!.row).not.toContain('PRIVATE KEY');
    const opened = MasterKey.fromText(process.env.TEST_ENCRYPTION_MASTER_KEY!).open(
      row!.sealed_private_key,
      `certificate-private-key/${fresh}/${stored.thumbprint}`,
    );
    expect(opened.equals(der)).toBe(true);
  });
});

describe('spec 4.1 "Certificates" list', () => {
  it('answers { total, items }, Primary first; an empty slot is absent', async () => {
    const organizationId = await newOrganization('List');
    expect(await list(organizationId)).toEqual({ total: 0, items: [] });
    const replacement = await expectStatus(generate(organizationId, 'Replacement'), 200);
    const primary = await expectStatus(upload(organizationId, 'Primary', await makeCertificate()), 200);
    expect(await list(organizationId)).toEqual({ total: 2, items: [primary, replacement] });
  });

  it("one organization's certificates are not another's", async () => {
    const [a, b] = [await newOrganization('Own A'), await newOrganization('Own B')];
    await expectStatus(generate(a, 'Primary'), 200);
    expect((await list(a)).total).toBe(1);
    expect(await list(b)).toEqual({ total: 0, items: [] });
  });
});

describe('spec 3 "Certificate slots": rotate needs both slots filled, and swaps them', () => {
  it('with both slots filled the slots swap; the certificates themselves are unchanged', async () => {
    const organizationId = await newOrganization('Rotate');
    const primary = await expectStatus(generate(organizationId, 'Primary'), 200);
    const replacement = await expectStatus(
      upload(organizationId, 'Replacement', await makeCertificate()),
      200,
    );
    const rotated = await expectStatus(
      library.post<Page>(path(organizationId, '/rotate'), { token: manager }),
      200,
    );
    expect(rotated.items.map((item) => [item.slot, item.id, item.thumbprint, item.version])).toEqual([
      ['Primary', replacement.id, replacement.thumbprint, 2],
      ['Replacement', primary.id, primary.thumbprint, 2],
    ]);
    expect(rotated.items[0]!.certificate).toBe(replacement.certificate);
    expect(await list(organizationId)).toEqual(rotated);
  });

  it.each([
    [['Primary'], 'Replacement is empty'],
    [['Replacement'], 'Primary is empty'],
    [[], 'Primary and Replacement are empty'],
  ])('with only %j filled it is 409 (%s), and nothing changes', async (filled, why) => {
    const organizationId = await newOrganization('Rotate refused');
    for (const slot of filled) await expectStatus(generate(organizationId, slot), 200);
    const before = await list(organizationId);
    const response = await library.post<Problem>(path(organizationId, '/rotate'), { token: manager });
    expect(response.status).toBe(409);
    expect(response.body.detail).toContain(why);
    expect(await list(organizationId)).toEqual(before);
  });
});

describe('spec 4.1 "Certificates" delete a slot', () => {
  it('removes that slot only and answers the removed certificate; the slot can then be filled again', async () => {
    const organizationId = await newOrganization('Delete');
    const primary = await expectStatus(generate(organizationId, 'Primary'), 200);
    const replacement = await expectStatus(generate(organizationId, 'Replacement'), 200);
    const removed = await expectStatus(
      library.delete<CertificateView>(path(organizationId, '/Primary'), { token: manager }),
      200,
    );
    expect(removed).toEqual(primary);
    expect(await list(organizationId)).toEqual({ total: 1, items: [replacement] });
    await expectStatus(generate(organizationId, 'Primary'), 200);
  });

  it('an empty slot is 404', async () => {
    const organizationId = await newOrganization('Delete empty');
    const response = await library.delete<Problem>(path(organizationId, '/Replacement'), { token: manager });
    expect(response.status).toBe(404);
    expect(response.body.detail).toBe(`Organization ${organizationId} has no Replacement certificate.`);
  });

  it('a slot that is neither Primary nor Replacement is 400 naming path.slot', async () => {
    const organizationId = await newOrganization('Delete bad slot');
    const response = await library.delete<Problem>(path(organizationId, '/Tertiary'), { token: manager });
    expect(response.status).toBe(400);
    expect(response.body.errors?.map((error) => error.field)).toEqual(['path.slot']);
  });
});

describe('spec 6 and decisions "Certificates": every certificate write is audited (entry type Certificate, in the caller\'s organization), with no key material', () => {
  it('generate and upload write Create, rotate an Update of each, delete a Delete; states are the answers', async () => {
    const organizationId = await newOrganization('Audited');
    const pair = await makeCertificate();
    const primary = await expectStatus(upload(organizationId, 'Primary', pair), 200);
    const replacement = await expectStatus(generate(organizationId, 'Replacement'), 200);
    const rotated = await expectStatus(
      library.post<Page>(path(organizationId, '/rotate'), { token: manager }),
      200,
    );
    const removed = await expectStatus(
      library.delete<CertificateView>(path(organizationId, '/Replacement'), { token: manager }),
      200,
    );
    const entriesOf = (id: number) =>
      auditEntries(system, adminOrganization, [
        { field: 'EntryType', value: 'Certificate' },
        { field: 'EntityId', value: String(id) },
      ]);
    const actionsOf = async (id: number) => (await entriesOf(id)).map((entry) => entry.action).sort();
    await eventually(async () => {
      expect(await actionsOf(primary.id)).toEqual(['Create', 'Delete', 'Update']);
      expect(await actionsOf(replacement.id)).toEqual(['Create', 'Update']);
    });
    const first = await entriesOf(primary.id);
    const second = await entriesOf(replacement.id);
    for (const entry of [...first, ...second]) {
      expect(entry.organizationId).toBe(adminOrganization);
      expect(entry.entityName).toBe('Certificate');
      expect(`${entry.beforeState ?? ''}${entry.afterState ?? ''}`).not.toMatch(/PRIVATE KEY/);
    }
    const stateOf = (entries: typeof first, action: string, state: 'beforeState' | 'afterState'): unknown =>
      JSON.parse(entries.find((entry) => entry.action === action)![state]!);
    expect(stateOf(first, 'Create', 'afterState')).toEqual(primary);
    expect(stateOf(first, 'Update', 'beforeState')).toEqual(primary);
    expect(stateOf(first, 'Update', 'afterState')).toEqual(rotated.items[1]);
    expect(stateOf(first, 'Delete', 'beforeState')).toEqual(removed);
    expect(stateOf(second, 'Create', 'afterState')).toEqual(replacement);
    expect(stateOf(second, 'Update', 'afterState')).toEqual(rotated.items[0]);
  });
});
