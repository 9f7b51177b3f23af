import { writeFileSync } from 'node:fs';
import { composeSupergraph, subgraphSdl } from '../gateway/composition.js';
import { SUPERGRAPH_PATH } from '../gateway/supergraph.js';
import { SUBGRAPHS } from '../gateway/subgraphs.js';
import { projectPath } from '../platform/project-path.js';

/** Writes each subgraph's SDL and the composed supergraph under schema/ (checked in). */
for (const subgraph of SUBGRAPHS) {
  writeFileSync(projectPath('schema', `${subgraph.name}.graphql`), subgraphSdl(subgraph));
}
writeFileSync(SUPERGRAPH_PATH, composeSupergraph());
process.stdout.write(`wrote ${SUPERGRAPH_PATH}\n`);
