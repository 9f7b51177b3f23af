import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import type { PermissionName } from '../../platform/permissions/catalogue.js';
import { makeCertificate } from '../support/certificates.js';
import { createOrganization } from '../support/factories.js';
import { graphql, graphqlData } from '../support/graphql.js';
import type { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;
let gateway: HttpClient;
let manager: string;
let reader: string;
let organizationId: string;

const MANAGE: PermissionName[] = ['GlobalOrganizationRead', 'GlobalOrganizationCertificateManage'];

beforeAll(async () => {
  system = await startTestSystem();
  gateway = system.client('gateway');
  manager = await system.token({ permissions: MANAGE });
  reader = await system.token({ permissions: ['GlobalOrganizationRead'] });
  organizationId = (await createOrganization(system, `GraphQL certificates ${randomUUID()}`)).id;
});

afterAll(() => system.stop());

interface Certificate {
  slot: string;
  certificate: string;
  thumbprint: string;
  notBefore: string;
  notAfter: string;
  origin: string;
}

const FIELDS = 'slot certificate thumbprint notBefore notAfter origin';
const LIST = `query ($id: ID!) { certificates(organizationId: $id) { total items { ${FIELDS} } } }`;
const GENERATE = `mutation ($id: ID!, $slot: CertificateSlot!) { generateCertificate(organizationId: $id, slot: $slot) { ${FIELDS} } }`;
const UPLOAD = `mutation ($id: ID!, $input: CertificateUploadInput!) { uploadCertificate(organizationId: $id, input: $input) { ${FIELDS} } }`;
const ROTATE = `mutation ($id: ID!) { rotateCertificates(organizationId: $id) { total items { ${FIELDS} } } }`;
const DELETE = `mutation ($id: ID!, $slot: CertificateSlot!) { deleteCertificate(organizationId: $id, slot: $slot) { ${FIELDS} } }`;

const codeOf = async (token: string, query: string, variables: Record<string, unknown>) =>
  (await graphql(gateway, token, query, variables)).body.errors?.[0]?.extensions.code;

describe('issue 12 item 5 / spec 4.1 "Certificates" through the gateway: the same operations with the same rules', () => {
  it('generate, upload, list, rotate and delete, answering what REST answers', async () => {
    const { generateCertificate: generated } = await graphqlData<{ generateCertificate: Certificate }>(
      gateway,
      manager,
      GENERATE,
      { id: organizationId, slot: 'Primary' },
    );
    expect(generated.origin).toBe('Generated');
    expect(generated.thumbprint).toBe(
      createHash('sha256').update(new X509Certificate(generated.certificate).raw).digest('hex'),
    );
    const pair = await makeCertificate({ name: 'graphql' });
    const { uploadCertificate: uploaded } = await graphqlData<{ uploadCertificate: Certificate }>(
      gateway,
      manager,
      UPLOAD,
      { id: organizationId, input: { slot: 'Replacement', ...pair } },
    );
    expect(uploaded).toMatchObject({ slot: 'Replacement', origin: 'Uploaded' });

    const listed = await graphqlData<{ certificates: { total: number; items: Certificate[] } }>(
      gateway,
      reader,
      LIST,
      {
        id: organizationId,
      },
    );
    expect(listed.certificates.items.map((item) => item.slot)).toEqual(['Primary', 'Replacement']);

    const { rotateCertificates: rotated } = await graphqlData<{
      rotateCertificates: { items: Certificate[] };
    }>(gateway, manager, ROTATE, { id: organizationId });
    expect(rotated.items.map((item) => [item.slot, item.thumbprint])).toEqual([
      ['Primary', uploaded.thumbprint],
      ['Replacement', generated.thumbprint],
    ]);

    const { deleteCertificate: removed } = await graphqlData<{ deleteCertificate: Certificate }>(
      gateway,
      manager,
      DELETE,
      { id: organizationId, slot: 'Replacement' },
    );
    expect(removed.thumbprint).toBe(generated.thumbprint);
  });

  it('FORBIDDEN without the permission, NOT_FOUND for an organization that does not exist or an empty slot, CONFLICT for a filled slot or a rotation without both, BAD_REQUEST for a bad upload', async () => {
    const id = (await createOrganization(system, `GraphQL certificate rules ${randomUUID()}`)).id;
    expect(await codeOf(reader, GENERATE, { id, slot: 'Primary' })).toBe('FORBIDDEN');
    expect(await codeOf(await system.token({ permissions: [] }), LIST, { id })).toBe('FORBIDDEN');
    expect(await codeOf(manager, LIST, { id: randomUUID() })).toBe('NOT_FOUND');
    expect(await codeOf(manager, DELETE, { id, slot: 'Primary' })).toBe('NOT_FOUND');
    expect(await codeOf(manager, ROTATE, { id })).toBe('CONFLICT');
    await graphqlData(gateway, manager, GENERATE, { id, slot: 'Primary' });
    expect(await codeOf(manager, GENERATE, { id, slot: 'Primary' })).toBe('CONFLICT');
    const [a, b] = await Promise.all([makeCertificate(), makeCertificate()]);
    const mismatch = await graphql(gateway, manager, UPLOAD, {
      id,
      input: { slot: 'Replacement', certificate: a.certificate, privateKey: b.privateKey },
    });
    expect(mismatch.body.errors?.[0]?.extensions.code).toBe('BAD_REQUEST');
    expect(mismatch.body.errors?.[0]?.message).toContain(
      "args.input.privateKey: does not match the certificate's public key",
    );
    expect(await codeOf(manager, LIST, { id: 'not-a-guid' })).toBe('BAD_REQUEST');
  });
});
