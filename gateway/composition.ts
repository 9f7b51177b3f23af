import { composeServices } from '@apollo/composition';
import { buildSubgraphSchema, printSubgraphSchema } from '@apollo/subgraph';
import { subgraphTypeDefs } from '../platform/graphql/subgraph.js';
import { DEFAULT_PORTS } from '../platform/config/settings.js';
import { defaultSubgraphUrl, SUBGRAPHS, type SubgraphEntry } from './subgraphs.js';

/** The SDL a subgraph serves, as federation prints it. */
export function subgraphSdl(subgraph: SubgraphEntry): string {
  return printSubgraphSchema(buildSubgraphSchema({ typeDefs: subgraphTypeDefs(subgraph.classes) }));
}

/** Composes the supergraph from every subgraph's SDL; throws with every composition error. */
export function composeSupergraph(): string {
  const result = composeServices(
    SUBGRAPHS.map((subgraph) => ({
      name: subgraph.name,
      url: defaultSubgraphUrl(subgraph.name, DEFAULT_PORTS),
      typeDefs: subgraphTypeDefs(subgraph.classes),
    })),
  );
  if (result.errors) {
    throw new Error(`Composition failed:\n${result.errors.map((e) => `  - ${e.message}`).join('\n')}`);
  }
  return result.supergraphSdl;
}
