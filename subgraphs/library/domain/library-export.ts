import { inferredType, type FileValue } from './file-value-types.js';
import type { StoredValue, VariableType } from './variable-types.js';

/** What GET /export writes in place of a sensitive value (spec 4.1 "Export" rule 3); Blank by default. */
export const SECRET_EXPORT_OPTIONS = ['Value', 'Hint', 'Hash', 'Blank'] as const;
export type SecretExportOption = (typeof SECRET_EXPORT_OPTIONS)[number];

export interface ExportedTagGroup {
  name: string;
  tags: readonly string[];
}

export interface ExportedSet {
  id: number;
  name: string;
  slug: string;
  description: string;
  parentId: number | null;
}

export interface ExportedVariable {
  id: number;
  setId: number;
  name: string;
  type: VariableType;
  sensitive: boolean;
}

export interface ExportedValue {
  variableId: number;
  stored: StoredValue;
  hint: string | null;
  hash: string | null;
  /** The value's tags as `Group/Tag`. */
  scopes: readonly string[];
}

/** What an export reads: the groups and sets asked for, and the variables and values of those sets (values in id order). */
export interface ExportedLibrary {
  tagGroups: readonly ExportedTagGroup[];
  sets: readonly ExportedSet[];
  variables: readonly ExportedVariable[];
  values: readonly ExportedValue[];
}

/** A value as the file writes it (library-file.schemas.ts `LibraryFileValue`). */
export interface FileValueEntry {
  value: FileValue;
  sensitive: boolean;
  scopes: string[];
  type?: VariableType;
}

export interface FileSetEntry {
  slug: string;
  description: string;
  parent?: string;
  variables: Record<string, FileValueEntry[]>;
}

/** The library file (spec 4.1 "Import": the body; "Export" rule 1: the answer). */
export interface ExportFile {
  tagGroups: Record<string, string[]>;
  librarySets: Record<string, FileSetEntry>;
}

/**
 * The library file of what was read (spec 4.1 "Export"; decisions "Export"): exactly the groups
 * (each with all its tags) and sets given, names sorted so an export diffs well; values as stored
 * (no `@[Name]` replaced), in id order, their tags sorted. A set's `parent` is written only when
 * the parent is in the file too, so the file names nothing it does not hold. A sensitive value
 * writes what `option` says in its `value`; a variable whose written values would not say its
 * type (inferredType) carries `type` on each of them.
 */
export function exportFile(library: ExportedLibrary, option: SecretExportOption): ExportFile {
  const valuesOf = groupBy(library.values, (value) => value.variableId);
  const variablesOf = groupBy(library.variables, (variable) => variable.setId);
  const slugOf = new Map(library.sets.map((set) => [set.id, set.slug]));
  const tagGroups: Record<string, string[]> = {};
  for (const group of [...library.tagGroups].sort(byName)) {
    tagGroups[group.name] = [...group.tags].sort(compareNames);
  }
  const librarySets: Record<string, FileSetEntry> = {};
  for (const set of [...library.sets].sort(byName)) {
    const parent = set.parentId === null ? undefined : slugOf.get(set.parentId);
    const variables: Record<string, FileValueEntry[]> = {};
    for (const variable of [...(variablesOf.get(set.id) ?? [])].sort(byName)) {
      variables[variable.name] = fileValues(variable, valuesOf.get(variable.id) ?? [], option);
    }
    librarySets[set.name] = {
      slug: set.slug,
      description: set.description,
      ...(parent === undefined ? {} : { parent }),
      variables,
    };
  }
  return { tagGroups, librarySets };
}

/** A variable's values as written, with `type` on each when the written values would not say it. */
function fileValues(
  variable: ExportedVariable,
  values: readonly ExportedValue[],
  option: SecretExportOption,
): FileValueEntry[] {
  const written = values.map((value) => writtenValue(variable, value, option));
  const type = inferredType(written) === variable.type ? {} : { type: variable.type };
  return values.map((value, index) => ({
    value: written[index]!,
    sensitive: variable.sensitive,
    scopes: [...value.scopes].sort(compareNames),
    ...type,
  }));
}

/**
 * What a value writes in the file's `value`: itself (a Number as a number, a Boolean as true or
 * false); for a sensitive variable's value, what the option says: Value the secret itself, Hint its
 * hint, Hash its hash, Blank an empty text.
 */
export function writtenValue(
  variable: Pick<ExportedVariable, 'type' | 'sensitive'>,
  value: Pick<ExportedValue, 'stored' | 'hint' | 'hash'>,
  option: SecretExportOption,
): FileValue {
  if (variable.sensitive && option !== 'Value') {
    if (option === 'Hint') return value.hint ?? '';
    if (option === 'Hash') return value.hash ?? '';
    return '';
  }
  if (variable.type === 'Number') return value.stored.numberValue ?? 0;
  if (variable.type === 'Boolean') return value.stored.booleanValue ?? false;
  return value.stored.value ?? '';
}

/** Names without regard to case first, then as written (`api` before `Web`, `Prod` before `prod`). */
export function compareNames(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

const byName = (a: { name: string }, b: { name: string }) => compareNames(a.name, b.name);

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const list = groups.get(key(item));
    if (list) list.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
