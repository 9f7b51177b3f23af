import { writeFileSync } from 'node:fs';
import { composeSupergraph, subgraphSdl } from '../gateway/composition.js';
import { SUPERGRAPH_PATH } from '../gateway/supergraph.js';
import { SUBGRAPHS } from '../gateway/subgraphs.js';
import { REST_APIS } from '../launcher/rest-apis.js';
import { openApiPath, openApiText } from '../platform/http/openapi-file.js';
import { projectPath } from '../platform/project-path.js';

/** Writes the committed contracts under schema/: each subgraph's SDL, the supergraph, each OpenAPI document. */
for (const subgraph of SUBGRAPHS) {
  writeFileSync(projectPath('schema', `${subgraph.name}.graphql`), subgraphSdl(subgraph));
}
writeFileSync(SUPERGRAPH_PATH, composeSupergraph());
for (const api of REST_APIS) writeFileSync(openApiPath(api.name), openApiText(api));
process.stdout.write(`wrote the contracts under ${projectPath('schema')}\n`);
