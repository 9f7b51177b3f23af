import { inferredType, type FileValue } from './file-value-types.js';
import { freeSlug, slugKey, slugOf } from './set-slugs.js';
import type { SecretMarks } from './sensitive-values.js';
import { repeatedCombinations } from './tag-combination.js';
import { tagName } from './tag-refs.js';
import { marksFor } from './value-plan.js';
import { typedValue, type StoredValue, type VariableType, type WrittenValue } from './variable-types.js';

/** A value as an import file writes it (spec 4.1 "Import"). */
export interface FileValueEntry {
  value: FileValue;
  sensitive: boolean;
  scopes: readonly string[];
  type?: VariableType;
}

/** An import file, names as identity, no ids (library-file.schemas.ts parses it). */
export interface ImportFile {
  tagGroups: Readonly<Record<string, readonly string[]>>;
  librarySets: Readonly<
    Record<
      string,
      {
        slug?: string;
        description?: string;
        parent?: string;
        variables: Readonly<Record<string, readonly FileValueEntry[]>>;
      }
    >
  >;
}

/** The organization's library as an import finds it (empty after a replacing import emptied it). */
export interface ExistingLibrary {
  groups: readonly { id: number; name: string }[];
  tags: readonly { id: number; tagGroupId: number; name: string }[];
  sets: readonly { id: number; name: string; slug: string }[];
  /** The names of each existing set's variables. */
  variableNames: ReadonlyMap<number, readonly string[]>;
}

/** A set a planned record belongs to: one the organization has, or one the plan creates (its index). */
export type SetRef = { existing: number } | { created: number };

export interface PlannedSet {
  name: string;
  slug: string;
  description: string;
  parent: SetRef | null;
}

export interface PlannedFileValue {
  stored: StoredValue;
  marks: SecretMarks | null;
  /** Its tags by `tagKey`. */
  scopes: string[];
}

export interface PlannedVariable {
  set: SetRef;
  name: string;
  type: VariableType;
  sensitive: boolean;
  values: PlannedFileValue[];
  /** Where it is in the file, to blame a reference cycle on. */
  path: PropertyKey[];
}

export interface ImportCounts {
  tagGroupsCreated: number;
  tagGroupsSkipped: number;
  tagsCreated: number;
  tagsSkipped: number;
  librarySetsCreated: number;
  librarySetsSkipped: number;
  variablesCreated: number;
  variablesSkipped: number;
  valuesCreated: number;
}

/**
 * What an import writes: new tag groups with their tags, new tags of existing groups, new sets
 * (a parent before its children), new variables with their values; and what it leaves alone.
 */
export interface ImportPlan {
  groups: { name: string; tags: string[] }[];
  tags: { tagGroupId: number; name: string }[];
  sets: PlannedSet[];
  variables: PlannedVariable[];
  counts: ImportCounts;
  /** One per tag group, tag, set and variable left alone. */
  notes: string[];
}

/** A part of the file the API would refuse, where it is and why. */
export interface ImportProblem {
  path: PropertyKey[];
  message: string;
}

export type ImportOutcome = { ok: true; plan: ImportPlan } | { ok: false; problems: ImportProblem[] };

/** How a value's scope names a tag: its group without regard to case, the tag with it (spec 4.1). */
export function tagKey(group: string, tag: string): string {
  return `${group.toLowerCase()}/${tag}`;
}

/**
 * Plans an import (spec 4.1 "Import") into the library as it is: names are the identity, compared
 * as the API compares them (groups, sets and variables without regard to case, tags with it).
 * What exists is left alone with a note; a set matched by name only gains the variables it
 * lacks, and a matched group the tags it lacks. Every rule the API would refuse is a problem
 * naming its place in the file, so a file is taken whole or not at all.
 */
export function planImport(
  organizationId: string,
  file: ImportFile,
  existing: ExistingLibrary,
): ImportOutcome {
  const problems: ImportProblem[] = [];
  const notes: string[] = [];
  const tags = planTags(file, existing, problems, notes);
  const sets = planSets(file, existing, problems, notes);
  const variables = planVariables(organizationId, file, existing, sets.refs, tags.known, problems, notes);
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    plan: {
      groups: tags.groups,
      tags: tags.tags,
      sets: sets.created,
      variables: variables.planned,
      counts: {
        tagGroupsCreated: tags.groups.length,
        tagGroupsSkipped: tags.groupsSkipped,
        tagsCreated: tags.tags.length + tags.groups.reduce((sum, group) => sum + group.tags.length, 0),
        tagsSkipped: tags.tagsSkipped,
        librarySetsCreated: sets.created.length,
        librarySetsSkipped: sets.skipped,
        variablesCreated: variables.planned.length,
        variablesSkipped: variables.skipped,
        valuesCreated: variables.planned.reduce((sum, variable) => sum + variable.values.length, 0),
      },
      notes,
    },
  };
}

/**
 * The entries whose names no earlier entry has without regard to case (how the API compares group,
 * set and variable names); each later one is a problem at its path.
 */
function* distinctWithoutCase<T>(
  entries: [string, T][],
  path: PropertyKey[],
  noun: 'tag group' | 'library set' | 'variable',
  problems: ImportProblem[],
): Generator<[string, T]> {
  // A generator, so each problem comes in file order among those found while the entries are used.
  const first = new Map<string, string>();
  for (const [name, entry] of entries) {
    const earlier = first.get(name.toLowerCase());
    if (earlier === undefined) {
      first.set(name.toLowerCase(), name);
      yield [name, entry];
    } else {
      problems.push({
        path: [...path, name],
        message: `names the same ${noun} as "${earlier}" (${noun.split(' ').at(-1)} names are compared without regard to case)`,
      });
    }
  }
}

function planTags(file: ImportFile, existing: ExistingLibrary, problems: ImportProblem[], notes: string[]) {
  const groupByName = new Map(existing.groups.map((group) => [group.name.toLowerCase(), group]));
  const known = new Set(
    existing.tags.flatMap((tag) => {
      const group = existing.groups.find((g) => g.id === tag.tagGroupId);
      return group ? [tagKey(group.name, tag.name)] : [];
    }),
  );
  const groups: { name: string; tags: string[] }[] = [];
  const newTags: { tagGroupId: number; name: string }[] = [];
  let groupsSkipped = 0;
  let tagsSkipped = 0;
  const groupEntries = distinctWithoutCase(
    Object.entries(file.tagGroups),
    ['tagGroups'],
    'tag group',
    problems,
  );
  for (const [groupName, tagNames] of groupEntries) {
    const found = groupByName.get(groupName.toLowerCase());
    if (found) {
      groupsSkipped += 1;
      notes.push(`Tag group "${found.name}" exists; left alone, only the tags it lacks were added.`);
    }
    const created: string[] = [];
    const seenTags = new Map<string, number>();
    tagNames.forEach((name, index) => {
      const repeated = seenTags.get(name);
      if (repeated !== undefined) {
        problems.push({ path: ['tagGroups', groupName, index], message: `repeats tag ${repeated}` });
        return;
      }
      seenTags.set(name, index);
      const key = tagKey(groupName, name);
      if (known.has(key)) {
        tagsSkipped += 1;
        notes.push(`Tag "${found?.name ?? groupName}/${name}" exists; left alone.`);
        return;
      }
      known.add(key);
      if (found) newTags.push({ tagGroupId: found.id, name });
      else created.push(name);
    });
    if (!found) groups.push({ name: groupName, tags: created });
  }
  return { groups, tags: newTags, known, groupsSkipped, tagsSkipped };
}

function planSets(file: ImportFile, existing: ExistingLibrary, problems: ImportProblem[], notes: string[]) {
  const setByName = new Map(existing.sets.map((set) => [set.name.toLowerCase(), set]));
  const bySlug = new Map<string, SetRef>(
    existing.sets.map((set) => [slugKey(set.slug), { existing: set.id }]),
  );
  const taken = new Set(bySlug.keys());
  const refs = new Map<string, SetRef>();
  const created: (PlannedSet & { fileName: string; parentSlug?: string })[] = [];
  let skipped = 0;
  const entries = distinctWithoutCase(
    Object.entries(file.librarySets),
    ['librarySets'],
    'library set',
    problems,
  );
  const fresh: [string, ImportFile['librarySets'][string]][] = [];
  for (const [name, set] of entries) {
    const found = setByName.get(name.toLowerCase());
    if (found) {
      skipped += 1;
      refs.set(name, { existing: found.id });
      notes.push(`Library set "${found.name}" exists; left alone, only the variables it lacks were added.`);
    } else {
      fresh.push([name, set]);
    }
  }
  // Slugs a file names are taken before any is derived, so a derived one never takes a named one.
  for (const [name, set] of fresh) {
    if (set.slug === undefined) continue;
    if (taken.has(slugKey(set.slug))) {
      problems.push({
        path: ['librarySets', name, 'slug'],
        message: `another library set of the organization or the file has the slug "${set.slug}"`,
      });
    }
    taken.add(slugKey(set.slug));
  }
  for (const [name, set] of fresh) {
    const slug = set.slug ?? freeSlug(slugOf(name), taken);
    taken.add(slugKey(slug));
    const ref: SetRef = { created: created.length };
    refs.set(name, ref);
    bySlug.set(slugKey(slug), ref);
    created.push({
      fileName: name,
      name,
      slug,
      description: set.description ?? '',
      parent: null,
      parentSlug: set.parent,
    });
  }
  for (const set of created) {
    if (set.parentSlug === undefined) continue;
    const parent = bySlug.get(slugKey(set.parentSlug));
    if (!parent) {
      problems.push({
        path: ['librarySets', set.fileName, 'parent'],
        message: `names no library set of the organization or the file (by slug): "${set.parentSlug}"`,
      });
    }
    set.parent = parent ?? null;
  }
  const ordered = parentsFirst(created, problems);
  const renumbered = new Map(
    [...refs].map(([name, ref]): [string, SetRef] => [
      name,
      'created' in ref ? { created: ordered.position.get(ref.created)! } : ref,
    ]),
  );
  return { refs: renumbered, created: ordered.sets, skipped };
}

/**
 * The created sets with each parent before its children, and where each index went: their
 * indexes (and their children's parent refs) are renumbered to that order; a chain of created sets that comes back to itself is a
 * problem naming it (spec 2 "Library set" rule 1). Sets the organization has never point at
 * created ones, so no cycle passes through them.
 */
function parentsFirst(
  sets: (PlannedSet & { fileName: string })[],
  problems: ImportProblem[],
): { sets: PlannedSet[]; position: ReadonlyMap<number, number> } {
  const order: number[] = [];
  const state = new Map<number, 'visiting' | 'done'>();
  const visit = (index: number, chain: number[]): void => {
    if (state.get(index) === 'done') return;
    if (state.get(index) === 'visiting') {
      const cycle = [...chain.slice(chain.indexOf(index)), index].map((i) => `"${sets[i]!.name}"`);
      problems.push({
        path: ['librarySets', sets[index]!.fileName, 'parent'],
        message: `makes a set its own ancestor: ${cycle.join(' → ')}`,
      });
      return;
    }
    state.set(index, 'visiting');
    const parent = sets[index]!.parent;
    if (parent && 'created' in parent) visit(parent.created, [...chain, index]);
    state.set(index, 'done');
    order.push(index);
  };
  sets.forEach((_, index) => visit(index, []));
  const position = new Map(order.map((index, at) => [index, at]));
  const ordered = order.map((index) => {
    const { name, slug, description, parent } = sets[index]!;
    return {
      name,
      slug,
      description,
      parent: parent && 'created' in parent ? { created: position.get(parent.created)! } : parent,
    };
  });
  return { sets: ordered, position };
}

function planVariables(
  organizationId: string,
  file: ImportFile,
  existing: ExistingLibrary,
  refs: ReadonlyMap<string, SetRef>,
  knownTags: ReadonlySet<string>,
  problems: ImportProblem[],
  notes: string[],
) {
  const planned: PlannedVariable[] = [];
  let skipped = 0;
  for (const [setName, set] of Object.entries(file.librarySets)) {
    const ref = refs.get(setName);
    const has = new Set(
      ref && 'existing' in ref
        ? (existing.variableNames.get(ref.existing) ?? []).map((n) => n.toLowerCase())
        : [],
    );
    const variablesPath = ['librarySets', setName, 'variables'];
    for (const [name, values] of distinctWithoutCase(
      Object.entries(set.variables),
      variablesPath,
      'variable',
      problems,
    )) {
      const path = [...variablesPath, name];
      // Every variable is checked, one left alone too: a file is valid or not whatever it meets.
      const variable = planVariable(organizationId, values, knownTags, path, problems);
      if (has.has(name.toLowerCase())) {
        skipped += 1;
        notes.push(`Variable "${name}" of library set "${setName}" exists; left alone.`);
      } else if (ref && variable) {
        planned.push({ set: ref, name, ...variable, path });
      }
    }
  }
  return { planned, skipped };
}

const KIND_OF: Record<VariableType, string> = {
  String: 'a text',
  Multiline: 'a text',
  Json: 'a text',
  Certificate: 'a text',
  Number: 'a number',
  Boolean: 'true or false',
};

/** A variable's type, sensitivity and values, as the API would take them (spec 2 "Variable" and "Variable value"). */
function planVariable(
  organizationId: string,
  values: readonly FileValueEntry[],
  knownTags: ReadonlySet<string>,
  path: PropertyKey[],
  problems: ImportProblem[],
): Pick<PlannedVariable, 'type' | 'sensitive' | 'values'> | undefined {
  const before = problems.length;
  const named = values.flatMap((value, index) => (value.type ? [{ type: value.type, index }] : []));
  const differing = named.find((entry) => entry.type !== named[0]!.type);
  if (differing) {
    problems.push({
      path: [...path, differing.index, 'type'],
      message: `differs from the type of value ${named[0]!.index}: a variable has one type`,
    });
    return undefined;
  }
  const type = named[0]?.type ?? inferredType(values.map((value) => value.value));
  if (!type) {
    problems.push({
      path,
      message: 'has values of different kinds (texts, numbers, true or false): name its type with "type"',
    });
    return undefined;
  }
  const sensitive = values.some((value) => value.sensitive);
  if (type === 'Boolean' && sensitive) {
    const index = values.findIndex((value) => value.sensitive);
    problems.push({ path: [...path, index, 'sensitive'], message: 'a Boolean variable is never sensitive' });
  }
  const tagIndex = new Map<string, number>();
  const planned = values.map((entry, index): PlannedFileValue | undefined => {
    const typed = typedValue(type, written(entry.value));
    if (!typed.ok) {
      problems.push({
        path: [...path, index, 'value'],
        message:
          kindOf(entry.value) === KIND_OF[type]
            ? typed.problem
            : `is not ${KIND_OF[type]} (the variable is a ${type})`,
      });
    }
    const scopes = entry.scopes.flatMap((scope, at) => {
      const name = tagName(scope);
      if (!name) {
        problems.push({ path: [...path, index, 'scopes', at], message: 'is not "Group/Tag"' });
        return [];
      }
      const key = tagKey(name.group, name.tag);
      if (!knownTags.has(key)) {
        problems.push({
          path: [...path, index, 'scopes', at],
          message: `names no tag of the file or the organization: "${scope}"`,
        });
        return [];
      }
      return [key];
    });
    if (!typed.ok) return undefined;
    return {
      stored: typed.stored,
      marks: marksFor(organizationId, type, sensitive, typed.stored),
      scopes: [...new Set(scopes)],
    };
  });
  const combinations = planned.map((value) =>
    (value?.scopes ?? []).map((key) => tagIndex.get(key) ?? tagIndex.set(key, tagIndex.size).get(key)!),
  );
  for (const repeated of repeatedCombinations(combinations)) {
    problems.push({
      path: [...path, repeated.index, 'scopes'],
      message: `are the scopes of value ${repeated.first}: a variable has one value per tag combination`,
    });
  }
  if (problems.length > before) return undefined;
  return {
    type,
    sensitive,
    values: planned.filter((value): value is PlannedFileValue => value !== undefined),
  };
}

function kindOf(value: FileValue): string {
  if (typeof value === 'number') return KIND_OF.Number;
  return typeof value === 'boolean' ? KIND_OF.Boolean : KIND_OF.String;
}

/** A file's value as the API's write would carry it: a text, a number or a Boolean in its own field. */
function written(value: FileValue): WrittenValue {
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'boolean') return { booleanValue: value };
  return { value };
}
