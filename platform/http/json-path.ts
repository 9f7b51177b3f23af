/**
 * Where a part of a request sits, as a JSON path from its location: `body.values[2].value`, and
 * a key that is not a plain name quoted, `body.librarySets["Web API"].variables.Url`, so a name
 * holding a dot or a space still says unambiguously where it is.
 */
export function jsonPath(location: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, part) => {
    if (typeof part === 'number') return `${name}[${part}]`;
    const key = String(part);
    return /^[A-Za-z_$][\w$]*$/.test(key) ? `${name}.${key}` : `${name}[${JSON.stringify(key)}]`;
  }, location);
}
