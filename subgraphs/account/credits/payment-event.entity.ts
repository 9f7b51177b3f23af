import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A payment provider's webhook event already applied, kept so a redelivery applies once. */
export const PaymentEvent = defineEntity({
  name: 'PaymentEvent',
  tableName: 'payment_event',
  properties: {
    eventId: p.string().length(200).primary(),
    eventType: p.string().length(100),
    organizationId: p.uuid().nullable(),
    outcome: p.string().length(50),
    receivedAt: p.datetime(),
  },
});
export type PaymentEvent = InferEntity<typeof PaymentEvent>;
