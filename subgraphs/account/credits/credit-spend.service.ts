import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { z } from 'zod';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import { PermanentMessageError, type QueueMessage } from '../../../platform/queue/queue.js';
import type { AccountDependencies } from '../account-dependencies.js';

/** A message of the `credits-spent` queue (spec section 6): who spent, and how much. */
const creditsSpentMessage = z.object({
  OrganizationId: z.uuid(),
  Amount: z.number().int().positive(),
});

/**
 * The durable consumer of `credits-spent`: adds each message's Amount to the
 * organization's used credits, once. The message id is recorded in the same transaction
 * as the addition, so a redelivered message finds it and adds nothing.
 */
export class CreditSpendService {
  constructor(private readonly deps: Pick<AccountDependencies, 'orm' | 'clock'>) {}

  async record(message: QueueMessage): Promise<void> {
    const parsed = creditsSpentMessage.safeParse(message.data);
    if (!parsed.success)
      throw new PermanentMessageError(`not a credits-spent message: ${parsed.error.message}`);
    const { OrganizationId: organizationId, Amount: amount } = parsed.data;
    try {
      await this.deps.orm.em.fork().transactional(async (em) => {
        const counted = await new OrganizationRows(em, organizationId).query<{ message_id: string }>(
          `insert into "account"."credit_spend" (organization_id, message_id, amount, recorded_at)
           values (?, ?, ?, ?) on conflict (message_id) do nothing returning message_id`,
          [message.id, amount, this.deps.clock.now()],
        );
        if (counted.length === 0) return;
        await em.execute(`update "account"."organization" set used_credits = used_credits + ? where id = ?`, [
          amount,
          organizationId,
        ]);
      });
    } catch (error) {
      if (error instanceof ForeignKeyConstraintViolationException) {
        throw new PermanentMessageError(`organization ${organizationId} does not exist`);
      }
      throw error;
    }
  }
}
