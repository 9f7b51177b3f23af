import { readFileSync } from 'node:fs';
import { composeSupergraph, subgraphSdl } from '../../gateway/composition.js';
import { SUBGRAPHS } from '../../gateway/subgraphs.js';
import { readSupergraph } from '../../gateway/supergraph.js';
import { REST_APIS } from '../../launcher/rest-apis.js';
import { openApiPath, openApiText } from '../../platform/http/openapi-file.js';
import { projectPath } from '../../platform/project-path.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

/** Run `npm run schema:write` after changing a subgraph or a route, and review what changed in schema/. */
describe('decisions "Committed contracts": what schema/ keeps is what the code declares', () => {
  it('schema/supergraph.graphql is the composition of the subgraphs', () => {
    expect(readSupergraph()).toBe(composeSupergraph());
  });

  it.each(SUBGRAPHS.map((subgraph) => [subgraph.name, subgraph] as const))(
    "schema/%s.graphql is the subgraph's SDL",
    (name, subgraph) => {
      expect(readFileSync(projectPath('schema', `${name}.graphql`), 'utf8')).toBe(subgraphSdl(subgraph));
    },
  );

  it.each(REST_APIS.map((api) => [api.name, api] as const))(
    "schema/%s.openapi.json is the service's OpenAPI document",
    (name, api) => {
      expect(readFileSync(openApiPath(name), 'utf8')).toBe(openApiText(api));
    },
  );
});

describe('decisions "Committed contracts": each service serves the document schema/ keeps', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await startTestSystem({ processes: ['account', 'audit', 'identity', 'library'] });
  });

  afterAll(() => system.stop());

  it.each(REST_APIS.map((api) => [api.name, api.name] as const))(
    '%s serves schema/%s.openapi.json',
    async (name) => {
      const served = await system.client(name).get('/openapi/v1.json');
      expect(served.body).toEqual(JSON.parse(readFileSync(openApiPath(name), 'utf8')));
    },
  );
});
