import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json, found the same way from source (tests) and from dist/. */
function findProjectRoot(start: string): string {
  let folder = start;
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no package.json above ${start}`);
    folder = parent;
  }
  return folder;
}

const root = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the project, such as `schema/supergraph.graphql`. */
export function projectPath(...segments: string[]): string {
  return join(root, ...segments);
}
