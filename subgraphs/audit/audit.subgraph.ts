import type { SubgraphClasses, SubgraphDefinition } from '../../platform/graphql/subgraph.js';
import { AuditResolver } from './audit.resolver.js';
import type { AuditService } from './audit.service.js';

/** The audit subgraph: the same reads as the REST facade, with the same checks. */
export const AUDIT_SUBGRAPH: SubgraphClasses = { resolvers: [AuditResolver] };

export function auditSubgraph(audit: AuditService): SubgraphDefinition {
  return { classes: AUDIT_SUBGRAPH, instances: [new AuditResolver(audit)] };
}
