import type { DocumentNode } from 'graphql';
import type { ServiceName } from '../platform/config/settings.js';
import { accountTypeDefs } from '../subgraphs/account/graphql/account.typedefs.js';
import { auditTypeDefs } from '../subgraphs/audit/graphql/audit.typedefs.js';

export interface SubgraphEntry {
  /** The service that serves it at `/graphql`. */
  name: ServiceName;
  typeDefs: DocumentNode;
}

/** The subgraphs the supergraph is composed of. */
export const SUBGRAPHS: SubgraphEntry[] = [
  { name: 'account', typeDefs: accountTypeDefs },
  { name: 'audit', typeDefs: auditTypeDefs },
];

/** The address written into the checked-in supergraph; the gateway routes to the running one. */
export function defaultSubgraphUrl(name: ServiceName, ports: Record<ServiceName, number>): string {
  return `http://127.0.0.1:${ports[name]}/graphql`;
}
