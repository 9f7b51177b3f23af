import type { AuditedKind } from '../../../platform/db/audited-writes.js';
import { stampView, type StampView } from '../library-views.js';
import type { VariableSetView } from './variable-set.schemas.js';
import { VariableSet } from './variable-set.entity.js';

export type VariableSetRecord = Omit<VariableSetView, 'createdBy' | 'updatedBy'> & StampView;

export function variableSetView(set: VariableSet): VariableSetRecord {
  return {
    id: set.id,
    name: set.name,
    slug: set.slug,
    description: set.description,
    parentVariableSetId: set.parentVariableSetId ?? null,
    ...stampView(set),
  };
}

/** Sets as versioned, audited records: their own fields (their variables have entries of their own). */
export const VARIABLE_SETS: AuditedKind<VariableSet, VariableSetRecord> = {
  entity: VariableSet,
  entryType: 'VariableSet',
  label: 'Library set',
  views: (_em, sets) => Promise.resolve(sets.map(variableSetView)),
};
