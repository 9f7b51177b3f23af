import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BadRequestError } from '../errors/domain-errors.js';
import { AccountClient } from './account-client.js';

/**
 * A real HTTP peer standing in for an account service of another version: it answers every
 * request with this status and JSON body.
 */
async function peerAnswering(status: number, body: unknown): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(status, {
      'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
    });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let server: Server | undefined;
afterEach(async () => {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

/** A provisioning request the peer under test answers as it was told to. */
const provisionRequest = () => ({
  provider: 'Google',
  providerUserId: 'p',
  email: 'p@example.com',
  name: 'P',
  organizationId: randomUUID(),
});

describe('decisions "Renewal": an account service older than identity, whose permissions answer has no serviceAccount, still renews', () => {
  it.each([
    [
      'reads the missing serviceAccount as false (a person: renewed as before the field existed), not as a 503',
      {},
      false,
    ],
    ['keeps a serviceAccount the answer gives', { serviceAccount: true }, true],
  ])('%s', async (_title, serviceAccountField, serviceAccount) => {
    const userId = randomUUID();
    const organizationId = randomUUID();
    const peer = await peerAnswering(200, {
      userId,
      organizationId,
      ...serviceAccountField,
      permissions: ['TagList'],
      variableSets: {},
    });
    server = peer.server;
    const permissions = await new AccountClient(() => peer.url).permissionsOf(userId, organizationId);
    expect(permissions).toEqual({
      userId,
      organizationId,
      serviceAccount,
      permissions: ['TagList'],
      variableSets: {},
    });
  });
});

describe('CONTRACT 7 / spec 7: a 400 the account service answers is relayed with its errors[] field list', () => {
  it('provision refused as a bad request throws a BadRequestError keeping the detail and every named field', async () => {
    const errors = [{ field: 'body.email', message: 'Invalid email address' }];
    const peer = await peerAnswering(400, {
      type: 'about:blank',
      title: 'Bad request',
      status: 400,
      detail: 'Invalid request. body.email: Invalid email address',
      errors,
    });
    server = peer.server;
    const refused = new AccountClient(() => peer.url).provision(provisionRequest());
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    await expect(refused).rejects.toMatchObject({
      message: 'Invalid request. body.email: Invalid email address',
      errors,
      extensions: { errors },
    });
  });

  it('a 400 without a field list is relayed with none', async () => {
    const peer = await peerAnswering(400, { status: 400, detail: 'No.' });
    server = peer.server;
    const refused = new AccountClient(() => peer.url).provision(provisionRequest());
    await expect(refused).rejects.toMatchObject({ message: 'No.', errors: [], extensions: {} });
  });
});
