import type { ServiceName } from '../platform/config/settings.js';
import type { SubgraphClasses } from '../platform/graphql/subgraph.js';
import { ACCOUNT_SUBGRAPH } from '../subgraphs/account/account.subgraph.js';
import { AUDIT_SUBGRAPH } from '../subgraphs/audit/audit.subgraph.js';
import { LIBRARY_SUBGRAPH } from '../subgraphs/library/library.subgraph.js';

export interface SubgraphEntry {
  /** The service that serves it at `/graphql`. */
  name: ServiceName;
  classes: SubgraphClasses;
}

/** The subgraphs the supergraph is composed of. */
export const SUBGRAPHS: SubgraphEntry[] = [
  { name: 'library', classes: LIBRARY_SUBGRAPH },
  { name: 'account', classes: ACCOUNT_SUBGRAPH },
  { name: 'audit', classes: AUDIT_SUBGRAPH },
];

/** The address written into the checked-in supergraph; the gateway routes to the running one. */
export function defaultSubgraphUrl(name: ServiceName, ports: Record<ServiceName, number>): string {
  return `http://127.0.0.1:${ports[name]}/graphql`;
}
