import { readFileSync } from 'node:fs';
import { composeSupergraph, subgraphSdl } from '../../gateway/composition.js';
import { SUBGRAPHS } from '../../gateway/subgraphs.js';
import { readSupergraph } from '../../gateway/supergraph.js';
import { projectPath } from '../../platform/project-path.js';

describe('decisions "Static supergraph": the checked-in supergraph is what the code composes', () => {
  it('schema/supergraph.graphql matches the composition of the subgraphs (run `npm run schema:compose`)', () => {
    expect(readSupergraph()).toBe(composeSupergraph());
  });

  it.each(SUBGRAPHS.map((subgraph) => [subgraph.name, subgraph] as const))(
    "schema/%s.graphql matches the subgraph's SDL",
    (name, subgraph) => {
      expect(readFileSync(projectPath('schema', `${name}.graphql`), 'utf8')).toBe(subgraphSdl(subgraph));
    },
  );
});
