import type { Database } from '../../../platform/db/database.js';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import type { Logger } from '../../../platform/logging/logger.js';
import type { Transactions } from '../../../platform/outbox/transaction-runner.js';
import type { DataKeys } from './data-keys.js';
import { writeSealedValues } from './sealed-rows.js';

interface PlainRow {
  id: number;
  variable_id: number;
  value: string | null;
  number_value: number | null;
}

/**
 * Seals every sensitive value still stored plain (written before values were sealed, issue 12),
 * when the service starts and before it serves: a migration cannot, as it does not hold the master
 * key. An organization at a time, each in one transaction under its data key (made if it has
 * none). Replicas starting together lock the same rows: the second finds them sealed. Reads open
 * either form meanwhile. Answers how many values were sealed.
 */
export async function sealPlainSecrets(
  orm: Database,
  transactions: Transactions,
  secrets: DataKeys,
  logger: Logger,
): Promise<number> {
  // Across organizations on purpose: which organizations have anything left to seal. A sensitive
  // value is the one with a hint; the partial index of exactly these rows makes this free when
  // nothing is left, as at every start but the first after the upgrade.
  const organizations = await orm.em.fork().execute<{ organization_id: string }[]>(
    `select distinct organization_id from "library"."variable_value"
     where hint is not null and sealed_value is null`,
  );
  let sealed = 0;
  for (const { organization_id: organizationId } of organizations) {
    sealed += await transactions.run(async (tx) => {
      const cipher = await secrets.forWriting(tx.em);
      const rows = OrganizationRows.of(tx.em);
      const plain = await rows.query<PlainRow>(
        `select id, variable_id, value, number_value from "library"."variable_value"
         where organization_id = ? and hint is not null and sealed_value is null
         order by id for update`,
      );
      await writeSealedValues(
        rows,
        plain.map((row) => ({
          id: row.id,
          sealed: cipher.seal(row.variable_id, {
            value: row.value,
            numberValue: row.number_value,
            booleanValue: null,
          }),
        })),
      );
      return plain.length;
    }, organizationId);
  }
  if (sealed > 0) {
    logger.info(
      { values: sealed, organizations: organizations.length },
      'sealed sensitive values stored plain',
    );
  }
  return sealed;
}
