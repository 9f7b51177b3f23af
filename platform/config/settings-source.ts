import { readFileSync } from 'node:fs';

/**
 * Where raw setting values come from, looked up by the spec's key names (`Jwt:Issuer`).
 * Keys match without regard to case, as .NET-style configuration does. Later sources win:
 * the JSON file named by SETTINGS_FILE, then the environment (`Jwt__Issuer`), then
 * explicit overrides (the launcher's and the tests').
 *
 * Arrays come from JSON arrays, from indexed keys (`Audit__AuthNotRequired__0`), or from a
 * comma-separated string in one variable.
 */
export type RawTree = { [key: string]: unknown };

export class SettingsSource {
  private constructor(private readonly tree: RawTree) {}

  static from(options: {
    env: NodeJS.ProcessEnv;
    file?: RawTree;
    overrides?: Record<string, unknown>;
  }): SettingsSource {
    const tree: RawTree = {};
    mergeInto(tree, lowerKeys(options.file ?? {}));
    for (const [name, value] of Object.entries(options.env)) {
      if (value !== undefined) setPath(tree, name.split('__'), value);
    }
    for (const [key, value] of Object.entries(options.overrides ?? {})) {
      if (value !== undefined) setPath(tree, key.split(':'), value);
    }
    return new SettingsSource(arraysFromIndexes(tree) as RawTree);
  }

  /** The raw value at `A:B:C`, or undefined. */
  get(key: string): unknown {
    let node: unknown = this.tree;
    for (const part of key.toLowerCase().split(':')) {
      if (node === null || typeof node !== 'object') return undefined;
      node = (node as RawTree)[part];
    }
    return node;
  }
}

/** Reads the JSON settings file; a missing or malformed file stops the start with its path. */
export function readSettingsFile(path: string): RawTree {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`SETTINGS_FILE: cannot read ${path} (${(error as Error).message})`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new Error('the top level must be a JSON object');
    }
    return parsed as RawTree;
  } catch (error) {
    throw new Error(`SETTINGS_FILE: ${path} is not valid settings JSON (${(error as Error).message})`);
  }
}

function lowerKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowerKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: RawTree = {};
  for (const [key, child] of Object.entries(value)) {
    // A flat "Jwt:Issuer" key in the file is the same as a nested one.
    setPath(out, key.split(':'), lowerKeys(child));
  }
  return out;
}

function setPath(tree: RawTree, parts: string[], value: unknown): void {
  let node = tree;
  parts.slice(0, -1).forEach((part) => {
    const key = part.toLowerCase();
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as RawTree;
  });
  const last = parts[parts.length - 1]!.toLowerCase();
  const existing = node[last];
  if (isPlainObject(existing) && isPlainObject(value)) mergeInto(existing, value);
  // Keys inside an object value match without regard to case too (`Credits:Bands` { Pro: 5000 }).
  else node[last] = isPlainObject(value) ? lowerKeys(value) : value;
}

function mergeInto(target: RawTree, source: unknown): void {
  if (!isPlainObject(source)) return;
  for (const [key, value] of Object.entries(source)) setPath(target, [key], value);
}

function isPlainObject(value: unknown): value is RawTree {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function arraysFromIndexes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(arraysFromIndexes);
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => arraysFromIndexes(value[k]));
  }
  const out: RawTree = {};
  for (const key of keys) out[key] = arraysFromIndexes(value[key]);
  return out;
}
