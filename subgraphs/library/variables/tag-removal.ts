import type { AuditAuthor } from '../../../platform/audit-log/audit-log.js';
import type { AuditedWrites } from '../../../platform/db/audited-writes.js';
import { findForVersionCheck } from '../../../platform/db/row-locks.js';
import type { Transaction } from '../../../platform/outbox/transaction-runner.js';
import { ValueTag } from './value-tag.entity.js';
import { VariableValue } from './variable-value.entity.js';
import { Variable } from './variable.entity.js';
import { VARIABLES } from './variable.views.js';

/**
 * Deleting tags takes them off every value they tag (spec 2 Variable rule 5: the links cascade
 * from either side), which changes those values' variables: each is locked and read as it was
 * before, and once the tags are gone it is stamped a new version with its Update entry. A value
 * left with no tags is its variable's untagged default; should that make two, both stay
 * (decisions "Tags removed from values"). Answers what records the change, to call after the delete.
 */
export async function variablesLosingTags(
  writes: AuditedWrites,
  tx: Transaction,
  writer: AuditAuthor,
  tagIds: readonly number[],
): Promise<() => Promise<void>> {
  const links = tagIds.length === 0 ? [] : await tx.em.find(ValueTag, { tagId: { $in: [...tagIds] } });
  const values =
    links.length === 0
      ? []
      : await tx.em.find(VariableValue, { id: { $in: [...new Set(links.map((l) => l.valueId))] } });
  const variableIds = [...new Set(values.map((value) => value.variableId))].sort((a, b) => a - b);
  const touched: { row: Variable; before: Awaited<ReturnType<typeof VARIABLES.views>>[number] }[] = [];
  for (const id of variableIds) {
    const row = await findForVersionCheck(tx.em, Variable, id);
    if (!row) continue;
    const [before] = await VARIABLES.views(tx.em, [row]);
    touched.push({ row, before: before! });
  }
  return async () => {
    for (const { row, before } of touched) await writes.changed(tx, writer, VARIABLES, row, before);
  };
}
