import { requestHeader } from '../../platform/http/request-header.js';
import { z } from 'zod';
import { defineRoute, type Route } from '../../platform/http/route.js';
import type { RawBodyRequest } from '../../platform/http/raw-body.js';
import {
  paymentEventBody,
  SIGNATURE_HEADER,
  type PaymentWebhookService,
} from '../../subgraphs/account/credits/payment-webhook.service.js';

/**
 * The body is documented as the provider's event but read by the service only after the signature
 * over the raw bytes checks out (a signed body: the router judges neither its media type nor its
 * shape first), so an unsigned caller gets 401 whatever it sent, never a 415 or the schema's
 * complaints.
 */
const signedEventBody = z.unknown().meta({ id: 'PaymentEvent', ...jsonSchemaOf(paymentEventBody) });

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _schema, ...document } = z.toJSONSchema(schema, { io: 'input' });
  return document;
}

/** The payment provider's subscription webhook (spec section 6, decided in docs/decisions.md). */
export function webhookRoutes(payments: PaymentWebhookService): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/webhooks/payments',
      operationId: 'receivePaymentEvent',
      summary: 'Receive a payment provider event',
      description: `Anonymous, signed: header \`${SIGNATURE_HEADER}: sha256=<hex HMAC-SHA256 of the body with Payments:WebhookSecret>\`. PAYMENT.SALE.COMPLETED resets the organization's used credits to 0; BILLING.SUBSCRIPTION.EXPIRED, CANCELLED and SUSPENDED return it to the default band without a reset. The organization is resource.custom (or resource.custom_id). Each event id is applied once. The signature is checked before the body is validated: unsigned or wrongly signed is 401 whatever the body.`,
      tag: 'Webhooks',
      auth: 'none',
      signedBody: true,
      body: signedEventBody,
      response: z.object({ eventId: z.string(), outcome: z.enum(['applied', 'duplicate', 'ignored']) }),
      errors: [401, 503],
      handle: ({ request, body }) =>
        payments.receive((request as RawBodyRequest).rawBody, requestHeader(request, SIGNATURE_HEADER), body),
    }),
  ];
}
