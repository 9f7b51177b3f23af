import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditedKind } from '../../../platform/db/audited-writes.js';
import { stampView, type StampView } from '../library-views.js';
import { Tag } from '../tag-groups/tag.entity.js';
import { tagView } from '../tag-groups/tag-group.views.js';
import { ValueTag } from './value-tag.entity.js';
import type { ValueView, VariableView } from './variable.schemas.js';
import { VariableValue } from './variable-value.entity.js';
import { Variable } from './variable.entity.js';

export type VariableRecord = Omit<VariableView, 'createdBy' | 'updatedBy'> & StampView;

/**
 * Variables as the API answers them (without author names), each with its values ordered by id
 * and their tags. A sensitive value is shown itself only where `reveal` says; otherwise its value
 * is empty beside its hint and hash (spec 2 "Who is shown what").
 */
export async function variableViews(
  em: EntityManager,
  variables: Variable[],
  reveal: (variable: Variable) => boolean,
): Promise<VariableRecord[]> {
  const ids = variables.map((variable) => variable.id);
  const values =
    ids.length === 0
      ? []
      : await em.find(VariableValue, { variableId: { $in: ids } }, { orderBy: { id: 'asc' }, refresh: true });
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
  return variables.map((variable) => {
    const shown = !variable.sensitive || reveal(variable);
    return {
      id: variable.id,
      name: variable.name,
      variableSetId: variable.variableSetId,
      type: variable.type,
      sensitive: variable.sensitive,
      values: values
        .filter((value) => value.variableId === variable.id)
        .map((value) => valueView(value, variable.sensitive, shown, tagsOf(value.id))),
      ...stampView(variable),
    };
  });
}

function valueView(
  value: VariableValue,
  sensitive: boolean,
  shown: boolean,
  tags: ValueView['tags'],
): ValueView {
  return {
    id: value.id,
    value: shown ? (value.value ?? null) : '',
    numberValue: shown ? (value.numberValue ?? null) : null,
    booleanValue: value.booleanValue ?? null,
    sensitive,
    hint: sensitive ? (value.hint ?? null) : null,
    hash: sensitive ? (value.hash ?? null) : null,
    tags,
  };
}

/** Variables as versioned, audited records: their states never hold a secret, only its hint and hash. */
export const VARIABLES: AuditedKind<Variable, VariableRecord> = {
  entity: Variable,
  entryType: 'Variable',
  label: 'Variable',
  views: (em, variables) => variableViews(em, variables, () => false),
};
