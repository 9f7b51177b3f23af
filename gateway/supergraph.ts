import { readFileSync } from 'node:fs';
import { projectPath } from '../platform/project-path.js';

/** The supergraph composed at build time (`npm run schema:write`) and checked in. */
export const SUPERGRAPH_PATH = projectPath('schema', 'supergraph.graphql');

export function readSupergraph(): string {
  return readFileSync(SUPERGRAPH_PATH, 'utf8');
}
