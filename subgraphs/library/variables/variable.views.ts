import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditedKind } from '../../../platform/db/audited-writes.js';
import type { StoredValue } from '../domain/variable-types.js';
import type { DataKeys } from '../secrets/data-keys.js';
import { OtherGenerationError } from '../secrets/value-cipher.js';
import { stampView, type StampView } from '../library-views.js';
import { Tag } from '../tag-groups/tag.entity.js';
import { tagView } from '../tag-groups/tag-group.views.js';
import { storedOf } from './value-store.js';
import { ValueTag } from './value-tag.entity.js';
import type { ValueView, VariableView } from './variable.schemas.js';
import { VariableValue } from './variable-value.entity.js';
import { Variable } from './variable.entity.js';

export type VariableRecord = Omit<VariableView, 'createdBy' | 'updatedBy'> & StampView;

/** How a view shows sensitive values: withheld (hint and hash only), or, where `reveal` says, opened. */
export type SecretsShown = 'withheld' | { reveal: (variable: Variable) => boolean; secrets: DataKeys };

/** How many times values are read again when a rekey committed between reading them and their key. */
const READS_AROUND_A_REKEY = 3;

/**
 * Variables as the API answers them (without author names), each with its values ordered by id
 * and their tags. A sensitive value is shown itself only where `shown.reveal` says (opened with
 * its organization's data key); otherwise its value is empty beside its hint and hash (spec 2
 * "Who is shown what").
 */
export async function variableViews(
  em: EntityManager,
  variables: Variable[],
  shown: SecretsShown,
): Promise<VariableRecord[]> {
  const revealed = (variable: Variable) =>
    variable.sensitive && shown !== 'withheld' && shown.reveal(variable);
  const ids = variables.map((variable) => variable.id);
  const { values, opened } = await readValues(em, ids, variables.filter(revealed), shown);
  const links =
    values.length === 0 ? [] : await em.find(ValueTag, { valueId: { $in: values.map((value) => value.id) } });
  const tags =
    links.length === 0
      ? []
      : await em.find(
          Tag,
          { id: { $in: [...new Set(links.map((link) => link.tagId))] } },
          { orderBy: { id: 'asc' } },
        );
  const tagsOf = (valueId: number) => {
    const linked = new Set(links.filter((link) => link.valueId === valueId).map((link) => link.tagId));
    return tags.filter((tag) => linked.has(tag.id)).map(tagView);
  };
  return variables.map((variable) => ({
    id: variable.id,
    name: variable.name,
    variableSetId: variable.variableSetId,
    type: variable.type,
    sensitive: variable.sensitive,
    values: values
      .filter((value) => value.variableId === variable.id)
      .map((value) =>
        valueView(
          value,
          variable,
          !variable.sensitive || revealed(variable),
          opened.get(value.id),
          tagsOf(value.id),
        ),
      ),
    ...stampView(variable),
  }));
}

/**
 * The variables' values, and those of `revealing` opened (by value id). Values are read before
 * their key: one sealed under a key a rekey replaced in between is read again.
 */
async function readValues(
  em: EntityManager,
  ids: number[],
  revealing: Variable[],
  shown: SecretsShown,
): Promise<{ values: VariableValue[]; opened: Map<number, StoredValue> }> {
  for (let attempt = 1; ; attempt += 1) {
    const values =
      ids.length === 0
        ? []
        : await em.find(
            VariableValue,
            { variableId: { $in: ids } },
            { orderBy: { id: 'asc' }, refresh: true },
          );
    const revealingIds = new Set(revealing.map((variable) => variable.id));
    const sealed = values.filter((value) => revealingIds.has(value.variableId) && value.sealedValue);
    if (sealed.length === 0 || shown === 'withheld') return { values, opened: new Map() };
    try {
      const stored = await shown.secrets.openAll(
        em,
        sealed[0]!.organizationId,
        sealed.map((value) => ({ variableId: value.variableId, sealed: value.sealedValue! })),
      );
      return { values, opened: new Map(sealed.map((value, index) => [value.id, stored[index]!])) };
    } catch (error) {
      if (!(error instanceof OtherGenerationError) || attempt >= READS_AROUND_A_REKEY) throw error;
    }
  }
}

function valueView(
  value: VariableValue,
  variable: Variable,
  shown: boolean,
  opened: StoredValue | undefined,
  tags: ValueView['tags'],
): ValueView {
  // A withheld value is never opened; one shown is opened already, or was stored plain.
  const stored = shown ? (opened ?? storedOf(variable.id, value, undefined)) : undefined;
  return {
    id: value.id,
    value: stored ? stored.value : '',
    numberValue: stored ? stored.numberValue : null,
    booleanValue: value.booleanValue ?? null,
    sensitive: variable.sensitive,
    hint: variable.sensitive ? (value.hint ?? null) : null,
    hash: variable.sensitive ? (value.hash ?? null) : null,
    tags,
  };
}

/** Variables as versioned, audited records: their states never hold a secret, only its hint and hash. */
export const VARIABLES: AuditedKind<Variable, VariableRecord> = {
  entity: Variable,
  entryType: 'Variable',
  label: 'Variable',
  views: (em, variables) => variableViews(em, variables, 'withheld'),
};
