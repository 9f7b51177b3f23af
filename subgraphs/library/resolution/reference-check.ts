import type { EntityManager } from '@mikro-orm/postgresql';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import { BadRequestError } from '../../../platform/errors/domain-errors.js';
import { ancestryOf } from '../domain/set-ancestry.js';
import { referenceCycle, referencedNames } from '../domain/substitution.js';

/** A variable as the cycle check reads it: its texts that hold a token (none when it is sensitive). */
interface ReferringVariable {
  id: number;
  setId: number;
  name: string;
  texts: string[];
}

/** The part of a library the check needs: every set's parent, and the variables of some sets. */
interface ReferenceLibrary {
  parentOf: ReadonlyMap<number, number | null>;
  variablesBySet: ReadonlyMap<number, ReferringVariable[]>;
}

/**
 * Spec 4.1 Substitution rule 6: a save that leaves a reference cycle through a variable, seen
 * from the variable's own set and its ancestors, is 400 naming the chain (`A → B → A`). Runs in
 * the writing transaction after the write, so it reads the library as the write leaves it. Only
 * a variable with a token in a scanned text can be on a cycle; writers that can close one take
 * turns from here to their commit, so two of them cannot each close half of it unseen.
 */
export async function refuseCycleThroughVariable(
  em: EntityManager,
  variableId: number,
  field: string,
): Promise<void> {
  const rows = OrganizationRows.of(em);
  const [written] = await rows.query<{ variable_set_id: number }>(
    `select variable.variable_set_id from "library"."variable" variable
     where variable.organization_id = ? and variable.id = ? and not variable.sensitive
       and exists (select 1 from "library"."variable_value" value
                   where value.variable_id = variable.id and value.value like '%@[%')`,
    [variableId],
  );
  if (!written) return;
  await rows.takeTurns('variable-references');
  const setId = written.variable_set_id;
  const library = await readReferences(rows, (parentOf) => ancestryOf(setId, parentOf));
  const variable = library.variablesBySet.get(setId)!.find((v) => v.id === variableId)!;
  refuseCycle(cycleThrough(library, variable), field);
}

/**
 * The same check for many variables written at once (an import): one read of every set's
 * referring variables, and each written variable's cycle blamed on its own field.
 */
export async function refuseCyclesThroughVariables(
  em: EntityManager,
  written: readonly { id: number; field: string }[],
): Promise<void> {
  if (written.length === 0) return;
  const rows = OrganizationRows.of(em);
  await rows.takeTurns('variable-references');
  const library = await readReferences(rows, (parentOf) => [...parentOf.keys()]);
  const fieldOf = new Map(written.map((variable) => [variable.id, variable.field]));
  for (const variables of library.variablesBySet.values()) {
    for (const variable of variables) {
      const field = fieldOf.get(variable.id);
      if (field !== undefined) refuseCycle(cycleThrough(library, variable), field);
    }
  }
}

/**
 * The same check after a set is given a new parent: every variable of the set and of its
 * descendants now sees other ancestors, so each that refers to others is checked; a cycle the
 * old parent already showed it is not this write's to refuse.
 */
export async function refuseCycleUnderSet(
  em: EntityManager,
  setId: number,
  oldParentId: number | null,
  field: string,
): Promise<void> {
  const rows = OrganizationRows.of(em);
  await rows.takeTurns('variable-references');
  // The set's subtree and every set above it, as the new parent and as the old one place them.
  const library = await readReferences(rows, (parentOf) => {
    const under = [...parentOf.keys()].filter((id) => ancestryOf(id, parentOf).includes(setId));
    const old = new Map(parentOf).set(setId, oldParentId);
    return [...new Set([...under, ...ancestryOf(setId, parentOf), ...ancestryOf(setId, old)])];
  });
  const before = { ...library, parentOf: new Map(library.parentOf).set(setId, oldParentId) };
  for (const [candidate, variables] of library.variablesBySet) {
    if (!ancestryOf(candidate, library.parentOf).includes(setId)) continue;
    for (const variable of variables) {
      const cycle = cycleThrough(library, variable);
      if (cycle && !cycleThrough(before, variable)) refuseCycle(cycle, field);
    }
  }
}

function refuseCycle(cycle: string[] | undefined, field: string): void {
  if (cycle) {
    throw BadRequestError.invalidFields([
      {
        field,
        message: `would close a reference cycle: ${cycle.map((name) => `@[${name}]`).join(' → ')}`,
      },
    ]);
  }
}

/**
 * Every set's parent, and the variables of the sets `scope` picks whose scanned texts hold a
 * token, with those texts.
 */
async function readReferences(
  rows: OrganizationRows,
  scope: (parentOf: ReadonlyMap<number, number | null>) => number[],
): Promise<ReferenceLibrary> {
  const sets = await rows.query<{ id: number; parent_variable_set_id: number | null }>(
    `select id, parent_variable_set_id from "library"."variable_set" where organization_id = ?`,
  );
  const parentOf = new Map(sets.map((set) => [set.id, set.parent_variable_set_id]));
  const referring = await rows.query<{ id: number; variable_set_id: number; name: string; texts: string[] }>(
    `select variable.id, variable.variable_set_id, variable.name, array_agg(value.value) as texts
     from "library"."variable" variable
     join "library"."variable_value" value on value.variable_id = variable.id
     where variable.organization_id = ? and variable.variable_set_id in (?) and not variable.sensitive
       and value.value like '%@[%'
     group by variable.id`,
    [scope(parentOf)],
  );
  const variablesBySet = new Map<number, ReferringVariable[]>();
  for (const row of referring) {
    const variable = { id: row.id, setId: row.variable_set_id, name: row.name, texts: row.texts };
    variablesBySet.set(variable.setId, [...(variablesBySet.get(variable.setId) ?? []), variable]);
  }
  return { parentOf, variablesBySet };
}

/**
 * The chain from `variable` back to itself, following references among the variables of its
 * set and ancestors; a name held in two of those sets refers to what either holds (which of
 * them wins depends on the tags a request names).
 */
function cycleThrough(library: ReferenceLibrary, variable: ReferringVariable): string[] | undefined {
  const references = new Map<string, Set<string>>();
  const names = new Map<string, string>();
  for (const setId of ancestryOf(variable.setId, library.parentOf)) {
    for (const seen of library.variablesBySet.get(setId) ?? []) {
      const key = seen.name.toLowerCase();
      if (!names.has(key) || seen.id === variable.id) names.set(key, seen.name);
      const targets = references.get(key) ?? new Set<string>();
      for (const text of seen.texts) for (const target of referencedNames(text)) targets.add(target);
      references.set(key, targets);
    }
  }
  return referenceCycle(variable.name.toLowerCase(), references, (key) => names.get(key) ?? key);
}
