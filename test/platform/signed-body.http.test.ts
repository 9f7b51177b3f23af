import { WEBHOOK_SIGNATURE_HEADER, webhookSignature } from '../account/account-test-helpers.js';
import type { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

const SECRET = 'signed-body-test-webhook-secret';

let system: TestSystem;
let account: HttpClient;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account'], overrides: { 'Payments:WebhookSecret': SECRET } });
  account = system.client('account');
});

afterAll(() => system.stop());

const event = JSON.stringify({ id: 'WH-signed-body', event_type: 'PAYMENT.SALE.REFUNDED', resource: {} });

describe('decisions "The payment webhook": unsigned is 401 whatever the body, its media type included (a route with a signed body checks the signature first)', () => {
  it.each([
    ['text/plain', event],
    ['application/x-www-form-urlencoded', 'id=WH-1&event_type=PAYMENT.SALE.COMPLETED'],
    ['application/octet-stream', '\u0000\u0001'],
  ])('an unsigned %s body is 401, not 415', async (contentType, body) => {
    const response = await account.post<{ status: number }>('/webhooks/payments', {
      body,
      headers: { 'content-type': contentType },
    });
    expect(response.status).toBe(401);
    expect(response.text).not.toContain('application/json');
  });

  it('a wrongly signed text/plain body is 401', async () => {
    const response = await account.post('/webhooks/payments', {
      body: event,
      headers: {
        'content-type': 'text/plain',
        [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(`${event} `, SECRET),
      },
    });
    expect(response.status).toBe(401);
  });

  it('a correctly signed text/plain body is then 415 naming application/json (the media type is judged after the signature)', async () => {
    const response = await account.post<{ status: number; detail: string }>('/webhooks/payments', {
      body: event,
      headers: { 'content-type': 'text/plain', [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(event, SECRET) },
    });
    expect(response.status).toBe(415);
    expect(response.body.detail).toContain('application/json');
    expect(response.body.detail).toContain('text/plain');
  });

  it('the same bytes signed as application/json are read', async () => {
    const response = await account.post<{ eventId: string; outcome: string }>('/webhooks/payments', {
      body: event,
      headers: {
        'content-type': 'application/json',
        [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(event, SECRET),
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ eventId: 'WH-signed-body', outcome: 'ignored' });
  });
});
