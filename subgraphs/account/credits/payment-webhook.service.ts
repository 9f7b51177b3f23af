import { createHmac, timingSafeEqual } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { z } from 'zod';
import { ServiceUnavailableError, UnauthorizedError } from '../../../platform/errors/domain-errors.js';
import { findForVersionCheck } from '../../../platform/db/row-locks.js';
import { parseInput } from '../../../platform/http/validation.js';
import { Organization } from '../organizations/organization.entity.js';
import { organizationKind } from '../organizations/organization.views.js';
import { PaymentEvent } from './payment-event.entity.js';
import type { AccountDependencies } from '../account-dependencies.js';

export const SIGNATURE_HEADER = 'x-svc-webhook-signature';

/** Subscription renewals: used credits go back to 0 (spec section 3). */
const RENEWAL = 'PAYMENT.SALE.COMPLETED';
/** The subscription ended: back to the default band, used credits kept (spec section 3). */
const LAPSES = new Set([
  'BILLING.SUBSCRIPTION.EXPIRED',
  'BILLING.SUBSCRIPTION.CANCELLED',
  'BILLING.SUBSCRIPTION.SUSPENDED',
]);

/**
 * The payment provider's webhook event (PayPal's shape). The organization is the
 * subscription's custom id, which the billing page sets to the organization id when the
 * subscription is made: `resource.custom` on a sale, `resource.custom_id` on a subscription.
 */
export const paymentEventBody = z.object({
  id: z.string().min(1).max(200),
  event_type: z.string().min(1).max(100),
  resource: z
    .object({
      custom: z.string().max(200).optional(),
      custom_id: z.string().max(200).optional(),
    })
    .loose()
    .default({}),
});
export type PaymentEventBody = z.output<typeof paymentEventBody>;

export type PaymentOutcome = 'applied' | 'duplicate' | 'ignored';

/**
 * POST /webhooks/payments. The caller proves it knows `Payments:WebhookSecret` by an
 * HMAC-SHA256 of the exact request body, sent as `x-svc-webhook-signature: sha256=<hex>`.
 * The signature is checked over the bytes received before the body is read at all, so an
 * unsigned caller learns nothing about what the body should look like. Each event id is applied
 * once; a redelivery answers `duplicate` and changes nothing.
 */
export class PaymentWebhookService {
  constructor(
    private readonly deps: AccountDependencies,
    private readonly secret: string | undefined,
  ) {}

  async receive(
    rawBody: Buffer | undefined,
    signature: string | undefined,
    body: unknown,
  ): Promise<{ eventId: string; outcome: PaymentOutcome }> {
    if (!this.secret)
      throw new ServiceUnavailableError('The payment webhook is not configured (Payments:WebhookSecret).');
    if (!rawBody || !validSignature(this.secret, rawBody, signature)) {
      throw new UnauthorizedError('The webhook signature is missing or does not match.');
    }
    const event = parseInput(paymentEventBody, body, 'body');
    const organizationId = organizationOf(event);
    const handled = event.event_type === RENEWAL || LAPSES.has(event.event_type);
    try {
      return await this.deps.transactions.run(async (tx) => {
        const organization =
          handled && organizationId ? await findForVersionCheck(tx.em, Organization, organizationId) : null;
        const outcome: PaymentOutcome = organization ? 'applied' : 'ignored';
        tx.em.create(PaymentEvent, {
          eventId: event.id,
          eventType: event.event_type,
          organizationId: organization?.id ?? null,
          outcome,
          receivedAt: this.deps.clock.now(),
        });
        if (organization) {
          // The provider writes: nobody of the organization is signed in.
          const provider = { organizationId: organization.id, accountId: null };
          await this.deps.writes.updateLocked(
            tx,
            provider,
            organizationKind(this.deps.credits),
            organization,
            {
              change: () => (event.event_type === RENEWAL ? { usedCredits: 0 } : { pricingBand: null }),
            },
          );
        } else {
          this.deps.logger.info({ eventId: event.id, eventType: event.event_type }, 'payment event ignored');
        }
        await tx.em.flush();
        return { eventId: event.id, outcome };
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException)
        return { eventId: event.id, outcome: 'duplicate' };
      throw error;
    }
  }
}

function organizationOf(event: PaymentEventBody): string | undefined {
  const candidate = event.resource.custom ?? event.resource.custom_id;
  return candidate && z.uuid().safeParse(candidate).success ? candidate : undefined;
}

/** Whether the signature header is the HMAC-SHA256 of the body, compared in constant time. */
export function validSignature(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  const presented = header?.trim().replace(/^sha256=/i, '') ?? '';
  if (!/^[0-9a-f]{64}$/i.test(presented)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(presented, 'hex'));
}
