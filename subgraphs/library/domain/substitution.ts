/**
 * Substitution (spec 4.1 "Substitution"): after the winners are chosen, `@[Name]` in a winning text
 * is replaced by the winning value of the variable it names. Plain data in, plain data out.
 */

/** A winner as substitution reads it: its text (a Number or Boolean written out), and whether it is secret. */
export interface SubstitutionInput {
  name: string;
  text: string;
  /** Stored sensitive: its own text is never scanned (rule 4), but it can be referred to. */
  sensitive: boolean;
  /** Only text types are scanned for tokens; a Number or Boolean holds none. */
  scanned: boolean;
  /** The set it was won in (whose VariableReadSecrets reveals it when it is secret). */
  setId: number;
}

export interface Substituted {
  text: string;
  /** Secret itself, or embedding a secret directly or through a chain (rule 5). */
  sensitive: boolean;
  /** The sets of every secret in it, its own included: reading it needs their secrets. */
  secretSets: ReadonlySet<number>;
  /** Its text differs from the stored one because it embeds another value. */
  composed: boolean;
}

/** `@[Name]`: a name holds no `]` (variable names hold no brackets). */
const TOKEN = /@\[([^\]]*)\]/g;

/**
 * Every winner with its tokens replaced: names matched without regard to case (rule 1); chains
 * followed, each variable resolved once (rule 2); a name that is not a winner left as literal
 * text (rule 3); a secret's own text not scanned but its value used where referred to (rules 4
 * and 7: real text throughout, withheld only on output); a value embedding a secret, directly or
 * through a chain, secret itself (rule 5). A reference back into a chain being resolved (a cycle,
 * which saving refuses but request-time tags can still close) is left as literal text (rule 6).
 * Keyed as the input is (by lower-case name).
 */
export function substitute(winners: ReadonlyMap<string, SubstitutionInput>): Map<string, Substituted> {
  const done = new Map<string, Substituted>();
  const inProgress = new Set<string>();
  const resolveKey = (key: string): Substituted | undefined => {
    const known = done.get(key);
    if (known) return known;
    const winner = winners.get(key);
    if (!winner || inProgress.has(key)) return undefined;
    inProgress.add(key);
    const secretSets = new Set<number>(winner.sensitive ? [winner.setId] : []);
    let embedsSecret = false;
    const text =
      winner.sensitive || !winner.scanned
        ? winner.text
        : winner.text.replace(TOKEN, (token, name: string) => {
            const target = resolveKey(name.toLowerCase());
            if (!target) return token;
            if (target.sensitive) embedsSecret = true;
            for (const set of target.secretSets) secretSets.add(set);
            return target.text;
          });
    inProgress.delete(key);
    const result = {
      text,
      sensitive: winner.sensitive || embedsSecret,
      secretSets,
      composed: text !== winner.text,
    };
    done.set(key, result);
    return result;
  };
  for (const key of winners.keys()) resolveKey(key);
  return done;
}

/** The names a text refers to (`@[Name]`), in lower case, for the cycle check at save. */
export function referencedNames(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((match) => match[1]!.toLowerCase());
}

/**
 * A chain of references from a variable back to itself (spec 4.1 Substitution rule 6), as the
 * names it goes through (`['A', 'B', 'A']`), or undefined when there is none. `references` maps
 * each lower-case name to the lower-case names its values refer to; `displayName` gives each as
 * written.
 */
export function referenceCycle(
  start: string,
  references: ReadonlyMap<string, ReadonlySet<string>>,
  displayName: (key: string) => string = (key) => key,
): string[] | undefined {
  const path: string[] = [];
  const visited = new Set<string>();
  const visit = (key: string): string[] | undefined => {
    if (key === start && path.length > 0) return [...path, key].map(displayName);
    if (visited.has(key)) return undefined;
    visited.add(key);
    path.push(key);
    for (const next of references.get(key) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    return undefined;
  };
  return visit(start);
}
