import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type Server } from 'node:net';
import type { HostResolver } from '../../platform/http/public-address.js';
import type { PermissionName } from '../../platform/permissions/catalogue.js';
import type { OrganizationView } from '../../subgraphs/account/organizations/organization.schemas.js';
import type { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import type { Problem } from '../support/problem.js';

const ENTRA_HOST = 'login.microsoftonline.com';
const GOOGLE_HOST = 'oauth2.googleapis.com';
const SECRET = 'Zq8~very-secret&value=with+odd/chars';
const PATH = '/organizations/identityproviders/check';

/** What the system's resolver answers for every host name, and the names it was asked for. */
let answers: string[] = ['127.0.0.1'];
const asked: string[] = [];
const resolver: HostResolver = async (hostname) => {
  asked.push(hostname);
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

let system: TestSystem;
let account: HttpClient;
let checker: string;

/**
 * TCP servers on port 443 of the loopback addresses, where a check would connect if it trusted
 * the resolver. Each records the connections it gets; an address it cannot listen on (no
 * privilege, no IPv6) is left out, and the diagnostics channel below still sees any request.
 */
const traps: { server: Server; connections: string[] }[] = [];

async function trap(host: string): Promise<void> {
  const connections: string[] = [];
  const server = createServer((socket) => {
    connections.push(`${host}:443`);
    socket.destroy();
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(443, host, () => resolve(true));
  });
  if (listening) traps.push({ server, connections });
}

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit'], resolver });
  account = system.client('account');
  checker = await system.token({ permissions: ['GlobalOrganizationRead', 'GlobalOrganizationUpdate'] });
  await trap('127.0.0.1');
  await trap('::1');
});

afterAll(async () => {
  for (const { server } of traps) await new Promise((resolve) => server.close(resolve));
  await system.stop();
});

beforeEach(() => {
  asked.length = 0;
  answers = ['127.0.0.1'];
});

const entra = {
  provider: 'Entra',
  clientId: '11111111-2222-3333-4444-555555555555',
  tenantId: 'contoso.onmicrosoft.com',
  clientSecret: SECRET,
};
const google = { provider: 'Google', clientId: '1234-abc.apps.googleusercontent.com', clientSecret: SECRET };

/** Checks, recording every outgoing HTTP(S) request the process starts meanwhile. */
async function check(body: unknown, token = checker) {
  const requests: unknown[] = [];
  const onRequest = (message: unknown): void => void requests.push(message);
  subscribe('http.client.request.start', onRequest);
  try {
    const response = await account.post<{ valid: boolean; detail: string }>(PATH, { token, body });
    return { response, requests };
  } finally {
    unsubscribe('http.client.request.start', onRequest);
  }
}

const connections = () => traps.flatMap((t) => t.connections);

describe('spec 4.2: POST /organizations/identityproviders/check needs GlobalOrganizationRead and (GlobalOrganizationUpdate or GlobalOrganizationCreate)', () => {
  const cases: [PermissionName[], number][] = [
    [[], 403],
    [['GlobalOrganizationRead'], 403],
    [['GlobalOrganizationUpdate'], 403],
    [['GlobalOrganizationCreate'], 403],
    [['GlobalOrganizationUpdate', 'GlobalOrganizationCreate'], 403],
    [['GlobalOrganizationList', 'GlobalOrganizationDelete', 'PermissionsAllGlobal'], 403],
    [['GlobalOrganizationRead', 'GlobalOrganizationUpdate'], 200],
    [['GlobalOrganizationRead', 'GlobalOrganizationCreate'], 200],
    [['GlobalOrganizationRead', 'GlobalOrganizationUpdate', 'GlobalOrganizationCreate'], 200],
  ];

  it.each(cases)('%j: %i', async (permissions, status) => {
    const token = await system.token({ permissions });
    const { response } = await check(entra, token);
    expect(response.status).toBe(status);
    if (status === 403) {
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
      // Refused before anything is looked up.
      expect(asked).toEqual([]);
    } else {
      expect(asked).toEqual([ENTRA_HOST]);
    }
  });

  it('without a token: 401', async () => {
    expect((await account.post(PATH, { body: entra })).status).toBe(401);
    expect(asked).toEqual([]);
  });
});

describe('spec 4.2 / 8: a provider host that resolves to an address that is not public is never contacted', () => {
  const addresses = [
    ['127.0.0.1'],
    ['10.0.0.1'],
    ['169.254.169.254'],
    ['::1'],
    ['127.0.0.1', '10.0.0.1', '169.254.169.254', '::1'],
  ];
  const cases = addresses.flatMap((answer) => [
    ['Entra', answer, entra, ENTRA_HOST] as const,
    ['Google', answer, google, GOOGLE_HOST] as const,
  ]);

  it.each(cases)(
    '%s resolving to %j: valid false saying the address is not public, and no connection',
    async (_provider, answer, body, host) => {
      answers = [...answer];
      const before = connections().length;
      const { response, requests } = await check(body);
      expect(response.status).toBe(200);
      expect(response.body.valid).toBe(false);
      expect(response.body.detail).toMatch(/not public/);
      expect(response.body.detail).toContain(host);
      for (const address of answer) expect(response.body.detail).not.toContain(address);
      expect(asked).toEqual([host]);
      expect(requests).toEqual([]);
      expect(connections().length).toBe(before);
    },
  );
});

describe('spec 4.2: the check stores nothing and never hands the client secret back', () => {
  it('the answer never contains the client secret, raw or encoded, checked or refused', async () => {
    const answered = [
      [(await check(entra)).response, 200],
      [(await check(google)).response, 200],
      [(await check({ ...entra, tenantId: 'evil.com/x' })).response, 400],
      [(await check({ ...entra, clientId: 'not-a-guid' })).response, 400],
      [(await check({ ...entra, clientSecret: `${SECRET}\n` })).response, 400],
    ] as const;
    for (const [response, status] of answered) {
      expect(response.status).toBe(status);
      expect(response.text).not.toContain(SECRET);
      expect(response.text).not.toContain(encodeURIComponent(SECRET));
      expect(response.text).not.toContain(new URLSearchParams({ s: SECRET }).toString().slice(2));
    }
  });

  it('nothing is stored: the organization list is the same before and after', async () => {
    const reader = await system.token({ permissions: ['GlobalOrganizationList'] });
    const list = async () =>
      (await account.get<{ total: number; items: OrganizationView[] }>('/organizations', { token: reader }))
        .body;
    const before = await list();
    await check(entra);
    await check(google);
    expect(await list()).toEqual(before);
  });
});

describe('spec 4.2: what the check is given never chooses where it connects', () => {
  it.each([
    'evil.com/x',
    'evil.com?x=1',
    'evil.com#x',
    'user@evil.com',
    '169.254.169.254',
    'evil.com:8443',
    '../x',
    'common',
  ])(
    'decisions "Identity provider check": a bad Entra tenantId (%s) is 400 naming body.tenantId, without reaching the resolver',
    async (tenantId) => {
      const { response, requests } = await check({ ...entra, tenantId });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        errors: [{ field: 'body.tenantId', message: expect.stringMatching(/tenant ID must be/) as unknown }],
      });
      expect(asked).toEqual([]);
      expect(requests).toEqual([]);
    },
  );

  it("a tenant that is a domain name only fills the path: the resolver is asked for Microsoft's host alone", async () => {
    await check({ ...entra, tenantId: 'attacker.example.com' });
    expect(asked).toEqual([ENTRA_HOST]);
  });

  it("Google ignores a tenant: the resolver is asked for Google's host alone", async () => {
    await check({ ...google, tenantId: 'attacker.example.com' });
    expect(asked).toEqual([GOOGLE_HOST]);
  });
});

describe('spec 7 / decisions "Identity provider check": a bad check body is 400 naming the field; 200 with valid false is for what the provider says', () => {
  it.each([
    [{ ...entra, tenantId: undefined }, 'body.tenantId'],
    [{ ...entra, tenantId: null }, 'body.tenantId'],
    [{ ...entra, tenantId: '' }, 'body.tenantId'],
    [{ ...entra, clientId: 'my-app' }, 'body.clientId'],
    [{ ...google, clientId: 'line\nbreak' }, 'body.clientId'],
    [{ ...google, clientId: ` ${google.clientId}` }, 'body.clientId'],
    [{ ...google, clientId: `${google.clientId}\n` }, 'body.clientId'],
    [{ ...entra, clientId: `${entra.clientId} ` }, 'body.clientId'],
    [{ ...entra, tenantId: ` ${entra.tenantId}` }, 'body.tenantId'],
    [{ ...google, clientSecret: 'line\nbreak' }, 'body.clientSecret'],
    [{ provider: 'Entra', clientId: entra.clientId, tenantId: entra.tenantId }, 'body.clientSecret'],
    [{ ...entra, clientSecret: '' }, 'body.clientSecret'],
    [{ ...entra, provider: 'Okta' }, 'body.provider'],
    [{ provider: 'Google', clientSecret: SECRET }, 'body.clientId'],
  ])('%j is 400 naming %s', async (body, field) => {
    const { response, requests } = await check(body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((response.body as unknown as Problem).errors?.map((error) => error.field)).toContain(field);
    expect(asked).toEqual([]);
    expect(requests).toEqual([]);
  });
});
