import { secretMarks, type SecretMarks } from './sensitive-values.js';
import { repeatedCombinations } from './tag-combination.js';
import { matchTags, type KnownTag, type TagRef } from './tag-refs.js';
import {
  convertedValue,
  sourceText,
  typedValue,
  type StoredValue,
  type VariableType,
  type WrittenValue,
} from './variable-types.js';

/** A value as it will be stored: typed, its tags found, its hint and hash derived when sensitive. */
export interface PlannedValue {
  /** The stored value it changes, kept with its id; none for a new value. */
  keepId?: number;
  stored: StoredValue;
  tagIds: number[];
  marks: SecretMarks | null;
}

/** A value as a writer sent it. */
export interface ValueWrite extends WrittenValue {
  id?: number;
  tags: readonly TagRef[];
}

/** A value as it is stored now. */
export interface CurrentValue {
  id: number;
  stored: StoredValue;
  tagIds: number[];
}

/** Why a plan cannot be stored: a value that is not of its type (400), or two values with the same tags (409). */
export type PlanProblem =
  | { kind: 'invalid'; index: number; field: string; message: string }
  | { kind: 'repeated'; index: number; first: number };

export type Plan = { ok: true; values: PlannedValue[] } | { ok: false; problems: PlanProblem[] };

/** Hint and hash for a sensitive variable's value (spec 2: derived in one place); none otherwise. */
export function marksFor(
  organizationId: string,
  type: VariableType,
  sensitive: boolean,
  stored: StoredValue,
): SecretMarks | null {
  return sensitive ? secretMarks(organizationId, sourceText(type, stored)) : null;
}

/**
 * The values a write asks for (spec 2 Variable rules 1 and 4): each of the variable's type, with
 * its tags found among the known ones (what names nothing is skipped), and no two with the same
 * tags. A value given an id changes that stored value; one without keeps the id of the stored
 * value with the same tags, if any.
 */
export function planWrittenValues(
  organizationId: string,
  variable: { type: VariableType; sensitive: boolean },
  writes: readonly ValueWrite[],
  known: readonly KnownTag[],
  current: readonly CurrentValue[],
): Plan {
  const problems: PlanProblem[] = [];
  const planned = writes.map((write, index): PlannedValue | undefined => {
    const typed = typedValue(variable.type, write);
    if (!typed.ok) problems.push({ kind: 'invalid', index, field: 'value', message: typed.problem });
    if (write.id !== undefined && !current.some((value) => value.id === write.id)) {
      problems.push({ kind: 'invalid', index, field: 'id', message: `is not a value of this variable` });
    }
    if (!typed.ok) return undefined;
    return {
      keepId: write.id,
      stored: typed.stored,
      tagIds: matchTags(write.tags, known),
      marks: marksFor(organizationId, variable.type, variable.sensitive, typed.stored),
    };
  });
  const values = planned.filter((value): value is PlannedValue => value !== undefined);
  if (problems.length === 0) {
    problems.push(
      ...repeatedCombinations(values.map((value) => value.tagIds)).map((r) => ({
        kind: 'repeated' as const,
        ...r,
      })),
    );
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, values: keepIdsByTags(values, current) };
}

/**
 * The stored values again, for a change of the variable's type or sensitivity without new values:
 * converted to the type (spec 3), hints and hashes derived again (a change to or from Number
 * changes the text they come from; sensitivity adds them).
 */
export function planStoredValues(
  organizationId: string,
  from: VariableType,
  variable: { type: VariableType; sensitive: boolean },
  current: readonly CurrentValue[],
): Plan {
  const problems: PlanProblem[] = [];
  const values = current.flatMap((value, index): PlannedValue[] => {
    const converted = convertedValue(from, variable.type, value.stored);
    if (!converted.ok) {
      problems.push({ kind: 'invalid', index, field: 'value', message: converted.problem });
      return [];
    }
    return [
      {
        keepId: value.id,
        stored: converted.stored,
        tagIds: value.tagIds,
        marks: marksFor(organizationId, variable.type, variable.sensitive, converted.stored),
      },
    ];
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, values };
}

/** A value sent without an id keeps the id of the stored value with the same tags, unless another took it. */
function keepIdsByTags(values: PlannedValue[], current: readonly CurrentValue[]): PlannedValue[] {
  const key = (tagIds: readonly number[]) => [...tagIds].sort((a, b) => a - b).join(',');
  const taken = new Set(values.flatMap((value) => (value.keepId === undefined ? [] : [value.keepId])));
  return values.map((value) => {
    if (value.keepId !== undefined) return value;
    const same = current.find((stored) => !taken.has(stored.id) && key(stored.tagIds) === key(value.tagIds));
    if (!same) return value;
    taken.add(same.id);
    return { ...value, keepId: same.id };
  });
}
