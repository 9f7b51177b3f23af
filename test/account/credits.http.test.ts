import { randomUUID } from 'node:crypto';
import { openDatabase, type Database } from '../../platform/db/database.js';
import { createLogger } from '../../platform/logging/logger.js';
import { PermanentMessageError, TOPICS, type QueueMessage } from '../../platform/queue/queue.js';
import { ACCOUNT_SCHEMA } from '../../launcher/services/account.js';
import { ACCOUNT_ENTITIES } from '../../subgraphs/account/account-entities.js';
import { ACCOUNT_MIGRATIONS } from '../../subgraphs/account/migrations/index.js';
import { CreditSpendService } from '../../subgraphs/account/credits/credit-spend.service.js';
import type { OrganizationView } from '../../subgraphs/account/organizations/organization.schemas.js';
import type { AuditEntryView } from '../../subgraphs/audit/audit.schemas.js';
import type { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { eventually } from '../support/eventually.js';
import { WEBHOOK_SIGNATURE_HEADER, webhookSignature } from './account-test-helpers.js';

const WEBHOOK_SECRET = 'payments-webhook-secret-for-tests';
const INCLUDED_CREDITS = 1000;
const PRO_CREDITS = 5000;
const GOLD_CREDITS = 7000;

let system: TestSystem;
let account: HttpClient;
let globalAdmin: string;
/** The account service's database, opened a second time to use the consumer directly. */
let orm: Database;
let consumer: CreditSpendService;

beforeAll(async () => {
  system = await startTestSystem({
    processes: ['account', 'audit'],
    overrides: {
      'Payments:WebhookSecret': WEBHOOK_SECRET,
      'Credits:IncludedCredits': INCLUDED_CREDITS,
      // Bands written two ways: as an object of bands, and one band by its flat key.
      'Credits:Bands': { Pro: PRO_CREDITS },
      'Credits:Bands:Gold': GOLD_CREDITS,
    },
  });
  account = system.client('account');
  globalAdmin = await system.token({
    permissions: ['GlobalOrganizationCreate', 'GlobalOrganizationRead', 'GlobalOrganizationUpdate'],
  });
  orm = await openDatabase({
    url: system.databaseUrl,
    schema: ACCOUNT_SCHEMA,
    entities: ACCOUNT_ENTITIES,
    migrations: ACCOUNT_MIGRATIONS,
    logger: createLogger('silent'),
  });
  consumer = new CreditSpendService({ orm, clock: system.clock });
});

afterAll(async () => {
  await orm.close();
  await system.stop();
});

async function organization(body: Record<string, unknown> = {}): Promise<OrganizationView> {
  const response = await account.post<OrganizationView>('/organizations', {
    token: globalAdmin,
    body: { name: `Credits ${randomUUID().slice(0, 8)}`, ...body },
  });
  expect(response.status).toBe(200);
  return response.body;
}

async function credits(organizationId: string): Promise<{ usedCredits: number; totalCredits: number }> {
  const token = await system.token({ organizationId, permissions: [] });
  const response = await account.get<{ usedCredits: number; totalCredits: number }>(
    '/organizations/me/credits',
    { token },
  );
  expect(response.status).toBe(200);
  return response.body;
}

const usedCredits = async (organizationId: string) => (await credits(organizationId)).usedCredits;

/** Publishes a credits-spent message on the system's real queue, as the library service does. */
const spend = (data: unknown, messageId = randomUUID()) =>
  system.system.platform!.queue.publish(TOPICS.creditsSpent, data, messageId);

const message = (data: unknown, id = randomUUID()): QueueMessage => ({ id, data, deliveryCount: 1 });

describe('spec 6 / 3: the credits-spent consumer adds each Amount to the organization’s used credits', () => {
  it('adds the Amount of each message, as GET /organizations/me/credits shows', async () => {
    const org = await organization();
    await spend({ OrganizationId: org.id, Amount: 3 });
    await spend({ OrganizationId: org.id, Amount: 4 });
    await eventually(async () =>
      expect(await credits(org.id)).toEqual({ usedCredits: 7, totalCredits: 1000 }),
    );
  });

  it('a message published twice with the same id counts once', async () => {
    const org = await organization();
    const id = randomUUID();
    await spend({ OrganizationId: org.id, Amount: 5 }, id);
    await spend({ OrganizationId: org.id, Amount: 5 }, id);
    // A later message: once it counts, the earlier ones have all been handled.
    await spend({ OrganizationId: org.id, Amount: 1 });
    await eventually(async () => expect(await usedCredits(org.id)).toBe(6));
  });

  it('a malformed message is dropped for good, and later messages still count', async () => {
    const org = await organization();
    await spend({ OrganizationId: org.id, Amount: 'lots' });
    await spend({ OrganizationId: org.id });
    await spend('not even an object');
    await spend({ OrganizationId: org.id, Amount: 2 });
    await eventually(async () => expect(await usedCredits(org.id)).toBe(2));
  });

  it('a message for an unknown organization is dropped for good, and later messages still count', async () => {
    const org = await organization();
    await spend({ OrganizationId: randomUUID(), Amount: 50 });
    await spend({ OrganizationId: org.id, Amount: 9 });
    await eventually(async () => expect(await usedCredits(org.id)).toBe(9));
  });
});

describe('spec 6 "Credits-spent message": a message delivered again counts once, the consumer itself being idempotent by message id', () => {
  // The queue drops a republished id only within its duplicate window; past it, and on a
  // redelivery after a lost acknowledgement, it is the consumer that must count once.

  it('the same message id published again on a fresh queue, to a new system on the same database, adds nothing', async () => {
    // A new system on the same database, with a fresh queue prefix: its streams have no
    // duplicate-window history of the message id, so only the consumer's own record can stop it.
    const org = await organization();
    const id = randomUUID();
    await spend({ OrganizationId: org.id, Amount: 21 }, id);
    await eventually(async () => expect(await usedCredits(org.id)).toBe(21));

    const restarted = await startTestSystem({ processes: ['account'], databaseUrl: system.databaseUrl });
    try {
      expect(restarted.settings.queue.prefix).not.toBe(system.settings.queue.prefix);
      const queue = restarted.system.platform!.queue;
      await queue.publish(TOPICS.creditsSpent, { OrganizationId: org.id, Amount: 21 }, id);
      // A later message on the same queue: once it counts, the redelivered one has been handled.
      await queue.publish(TOPICS.creditsSpent, { OrganizationId: org.id, Amount: 1 }, randomUUID());
      await eventually(async () => expect(await usedCredits(org.id)).toBe(22));
    } finally {
      await restarted.stop();
    }
  });

  it('the same message recorded twice counts once', async () => {
    const org = await organization();
    const delivered = message({ OrganizationId: org.id, Amount: 11 });
    await consumer.record(delivered);
    await consumer.record({ ...delivered, deliveryCount: 2 });
    expect(await usedCredits(org.id)).toBe(11);
  });

  it('the same message recorded concurrently counts once', async () => {
    const org = await organization();
    const delivered = message({ OrganizationId: org.id, Amount: 13 });
    await Promise.all([
      consumer.record(delivered),
      consumer.record({ ...delivered, deliveryCount: 2 }),
      consumer.record({ ...delivered, deliveryCount: 3 }),
    ]);
    expect(await usedCredits(org.id)).toBe(13);
  });

  it('different messages of the same content both count', async () => {
    const org = await organization();
    await consumer.record(message({ OrganizationId: org.id, Amount: 2 }));
    await consumer.record(message({ OrganizationId: org.id, Amount: 2 }));
    expect(await usedCredits(org.id)).toBe(4);
  });

  it.each([
    [{ Amount: 5 }],
    [{ OrganizationId: 'not-a-guid', Amount: 5 }],
    [{ OrganizationId: 'ORG', Amount: '5' }],
    [{ OrganizationId: 'ORG', Amount: 0 }],
    [{ OrganizationId: 'ORG', Amount: -3 }],
    [{ OrganizationId: 'ORG', Amount: 1.5 }],
    [null],
    ['text'],
  ])(
    'a malformed message %j is refused for good (PermanentMessageError) and counts nothing',
    async (shape) => {
      const org = await organization();
      const data: unknown = JSON.parse(JSON.stringify(shape).replace('"ORG"', JSON.stringify(org.id)));
      await expect(consumer.record(message(data))).rejects.toBeInstanceOf(PermanentMessageError);
      expect(await usedCredits(org.id)).toBe(0);
    },
  );

  it('a message for an unknown organization is refused for good (PermanentMessageError)', async () => {
    await expect(
      consumer.record(message({ OrganizationId: randomUUID(), Amount: 5 })),
    ).rejects.toBeInstanceOf(PermanentMessageError);
  });
});

/** Delivers an event as the payment provider would: the exact bytes, signed (unless told otherwise). */
function deliver(
  event: unknown,
  options: { raw?: string; signature?: string | null; client?: HttpClient } = {},
) {
  const raw = options.raw ?? JSON.stringify(event);
  const headers: Record<string, string> =
    options.signature === null
      ? {}
      : { [WEBHOOK_SIGNATURE_HEADER]: options.signature ?? webhookSignature(raw, WEBHOOK_SECRET) };
  return (options.client ?? account).post<{ eventId: string; outcome: string }>('/webhooks/payments', {
    body: raw,
    headers,
  });
}

const renewal = (organizationId: string, id = `WH-${randomUUID()}`) => ({
  id,
  event_type: 'PAYMENT.SALE.COMPLETED',
  resource: { custom: organizationId, amount: { total: '10.00', currency: 'USD' } },
});

/** Spends through the queue and waits until the balance shows it. */
async function spent(organizationId: string, amount: number): Promise<number> {
  const before = await usedCredits(organizationId);
  await spend({ OrganizationId: organizationId, Amount: amount });
  await eventually(async () => expect(await usedCredits(organizationId)).toBe(before + amount));
  return before + amount;
}

const readOrganization = async (id: string) =>
  (await account.get<OrganizationView>(`/organizations/${id}`, { token: globalAdmin })).body;

describe('spec 6 / 3: the payment webhook (POST /webhooks/payments)', () => {
  it('PAYMENT.SALE.COMPLETED for resource.custom = the organization resets used credits to 0', async () => {
    const org = await organization({ additionalCredits: 20 });
    await spent(org.id, 40);
    const event = renewal(org.id);
    const response = await deliver(event);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ eventId: event.id, outcome: 'applied' });
    expect(await credits(org.id)).toEqual({ usedCredits: 0, totalCredits: 1020 });
  });

  it('spec 6: the reset is recorded as an Organization Update entry with the organization before and after', async () => {
    const org = await organization();
    await spent(org.id, 8);
    const event = renewal(org.id);
    expect((await deliver(event)).body.outcome).toBe('applied');
    const auditor = await system.token({ organizationId: org.id, permissions: ['AuditList', 'AuditRead'] });
    await eventually(async () => {
      const entries = await system.client('audit').post<{ items: AuditEntryView[] }>('/filter?take=100', {
        token: auditor,
        body: [
          { field: 'EntryType', operatorType: 'eq', value: 'Organization' },
          { field: 'Action', operatorType: 'eq', value: 'Update' },
        ],
      });
      expect(entries.body.items).toHaveLength(1);
      expect(entries.body.items[0]).toMatchObject({ entityId: org.id, version: 2 });
      expect(JSON.parse(entries.body.items[0]!.beforeState!)).toMatchObject({
        id: org.id,
        usedCredits: 8,
        version: 1,
      });
      expect(JSON.parse(entries.body.items[0]!.afterState!)).toMatchObject({
        id: org.id,
        usedCredits: 0,
        version: 2,
      });
    });
  });

  it('the same event id again answers duplicate and changes nothing: credits spent since stay used', async () => {
    const org = await organization();
    await spent(org.id, 15);
    const event = renewal(org.id);
    expect((await deliver(event)).body.outcome).toBe('applied');
    await spent(org.id, 25);
    const before = await readOrganization(org.id);
    const again = await deliver(event);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ eventId: event.id, outcome: 'duplicate' });
    expect(await readOrganization(org.id)).toEqual(before);
    expect(before.usedCredits).toBe(25);
  });

  it('CONTRACT 3: a band configured as Credits:Bands { Pro: 5000 } is set by its name, and totalCredits is its credits plus the additional', async () => {
    const org = await organization({ additionalCredits: 100 });
    const upgraded = await account.put<OrganizationView>(`/organizations/${org.id}`, {
      token: globalAdmin,
      body: { name: org.name, additionalCredits: 100, pricingBand: 'Pro' },
    });
    // The whole answer, so a refusal shows its detail.
    expect({ status: upgraded.status, body: upgraded.body }).toMatchObject({
      status: 200,
      body: { pricingBand: 'Pro', totalCredits: PRO_CREDITS + 100 },
    });
  });

  it.each([
    'BILLING.SUBSCRIPTION.EXPIRED',
    'BILLING.SUBSCRIPTION.CANCELLED',
    'BILLING.SUBSCRIPTION.SUSPENDED',
  ])(
    '%s puts the organization back on the default band without resetting used credits',
    async (eventType) => {
      const org = await organization({ additionalCredits: 100 });
      const upgraded = await account.put<OrganizationView>(`/organizations/${org.id}`, {
        token: globalAdmin,
        body: { name: org.name, additionalCredits: 100, pricingBand: 'Gold' },
      });
      expect(upgraded.status).toBe(200);
      expect(upgraded.body).toMatchObject({ pricingBand: 'Gold', totalCredits: GOLD_CREDITS + 100 });
      await spent(org.id, 30);
      const event = { id: `WH-${randomUUID()}`, event_type: eventType, resource: { custom_id: org.id } };
      expect((await deliver(event)).body).toEqual({ eventId: event.id, outcome: 'applied' });
      expect(await readOrganization(org.id)).toMatchObject({
        pricingBand: null,
        totalCredits: INCLUDED_CREDITS + 100,
        usedCredits: 30,
        additionalCredits: 100,
      });
      expect(await credits(org.id)).toEqual({ usedCredits: 30, totalCredits: INCLUDED_CREDITS + 100 });
    },
  );

  describe('a bad or missing signature is 401 and changes nothing', () => {
    let org: OrganizationView;
    let event: ReturnType<typeof renewal>;

    beforeAll(async () => {
      org = await organization();
      await spent(org.id, 10);
      event = renewal(org.id);
    });

    it.each([
      ['missing', null],
      ['signed with another secret', webhookSignature(JSON.stringify({}), 'another-secret-0123456789')],
      ['not hex', 'sha256=not-a-signature'],
      ['empty', ''],
    ])('%s: 401', async (_case, presented) => {
      const response = await deliver(event, {
        signature: presented === null ? null : presented,
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(await usedCredits(org.id)).toBe(10);
    });

    it('signed with another secret over the same body: 401', async () => {
      const raw = JSON.stringify(event);
      const response = await deliver(event, {
        signature: webhookSignature(raw, 'another-secret-0123456789'),
      });
      expect(response.status).toBe(401);
      expect(await usedCredits(org.id)).toBe(10);
    });

    it('a signature of other bytes than those sent (the same event, formatted otherwise): 401', async () => {
      const compact = JSON.stringify(event);
      const pretty = JSON.stringify(event, null, 2);
      expect(
        (await deliver(event, { raw: pretty, signature: webhookSignature(compact, WEBHOOK_SECRET) })).status,
      ).toBe(401);
      const otherOrganization = renewal(randomUUID(), event.id);
      expect(
        (
          await deliver(event, {
            signature: webhookSignature(JSON.stringify(otherOrganization), WEBHOOK_SECRET),
          })
        ).status,
      ).toBe(401);
      expect(await usedCredits(org.id)).toBe(10);
    });

    it('the event refused for its signature was not recorded: signed properly (over the exact bytes sent) it applies', async () => {
      const pretty = JSON.stringify(event, null, 2);
      const response = await deliver(event, {
        raw: pretty,
        signature: webhookSignature(pretty, WEBHOOK_SECRET),
      });
      expect(response.body).toEqual({ eventId: event.id, outcome: 'applied' });
      expect(await usedCredits(org.id)).toBe(0);
    });
  });

  describe('decisions "The payment webhook": the signature is checked before the body is read', () => {
    const malformed = { nope: true, event_type: 42 };

    it.each([
      ['unsigned', null],
      ['wrongly signed', webhookSignature(JSON.stringify(malformed), 'another-secret-0123456789')],
    ])(
      '%s, a body that is not an event: 401, and nothing about what the body should be',
      async (_case, presented) => {
        const response = await deliver(malformed, { signature: presented });
        expect(response.status).toBe(401);
        expect(response.text).not.toMatch(/event_type|body\.id|errors/);
      },
    );

    it('signed, a body that is not an event: 400 naming the fields', async () => {
      const response = await deliver(malformed);
      expect(response.status).toBe(400);
      const problem = response.body as unknown as { errors: { field: string }[] };
      expect(problem.errors.map((error) => error.field).sort()).toEqual(['body.event_type', 'body.id']);
    });
  });

  it('an unknown event type answers ignored and changes nothing', async () => {
    const org = await organization();
    await spent(org.id, 12);
    const before = await readOrganization(org.id);
    const event = {
      id: `WH-${randomUUID()}`,
      event_type: 'PAYMENT.SALE.REFUNDED',
      resource: { custom: org.id },
    };
    expect((await deliver(event)).body).toEqual({ eventId: event.id, outcome: 'ignored' });
    expect(await readOrganization(org.id)).toEqual(before);
  });

  it.each([
    ['an unknown organization', { custom: '00000000-0000-4000-8000-000000000001' }],
    ['a custom id that is not an organization id', { custom: 'order-1234' }],
    ['no custom id', {}],
  ])('%s answers ignored', async (_case, resource) => {
    const event = { id: `WH-${randomUUID()}`, event_type: 'PAYMENT.SALE.COMPLETED', resource };
    const response = await deliver(event);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ eventId: event.id, outcome: 'ignored' });
  });

  it('without Payments:WebhookSecret configured, the webhook is 503', async () => {
    const unconfigured = await startTestSystem({ processes: ['account'] });
    try {
      const event = renewal(randomUUID());
      const response = await deliver(event, { client: unconfigured.client('account') });
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect((await deliver(event, { client: unconfigured.client('account'), signature: null })).status).toBe(
        503,
      );
    } finally {
      await unconfigured.stop();
    }
  });
});
