import { SafeIntResolver } from 'graphql-scalars';
import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { parseInput } from '../../../platform/http/validation.js';
import {
  auditConditions,
  auditGetQuery,
  auditIdParams,
  auditListQuery,
  type AuditEntryView,
} from '../audit.schemas.js';
import { GLOBAL_ORGANIZATION_ID } from '../domain/audit-visibility.js';
import type { AuditService } from '../audit.service.js';
import { auditTypeDefs } from './audit.typedefs.js';

interface ListArgs {
  take?: number;
  skip?: number;
  sortField?: string;
  sortDescending?: boolean;
  conditions?: { field: string; operatorType: string; value?: string | null }[] | null;
}

/** Resolvers validate their arguments with the REST facade's schemas, then call the same service. */
export function auditSubgraph(audit: AuditService): SubgraphDefinition {
  return {
    typeDefs: auditTypeDefs,
    resolvers: {
      SafeInt: SafeIntResolver,
      AuditEntry: {
        organization: (entry: AuditEntryView) =>
          entry.organizationId === GLOBAL_ORGANIZATION_ID
            ? null
            : { __typename: 'Organization', id: entry.organizationId },
        loggedById: (entry: AuditEntryView) => entry.loggedBy,
        loggedBy: (entry: AuditEntryView) =>
          entry.loggedBy === GLOBAL_ORGANIZATION_ID ? null : { __typename: 'User', id: entry.loggedBy },
      },
      Query: {
        auditEntries: (_parent, args: ListArgs, { caller }) =>
          audit.list(
            caller,
            parseInput(auditListQuery, args, 'args'),
            parseInput(auditConditions, args.conditions ?? [], 'args.conditions'),
          ),
        auditEntry: (_parent, args: { id: number; version?: number | null }, { caller }) =>
          audit.get(
            caller,
            parseInput(auditIdParams, args, 'args').id,
            parseInput(auditGetQuery, { version: args.version ?? undefined }, 'args').version,
          ),
      },
    },
  };
}
