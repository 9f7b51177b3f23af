import type { GraphQLContext } from '../../platform/graphql/subgraph.js';
import {
  Arg,
  Args,
  Ctx,
  FieldResolver,
  ID,
  Query,
  Resolver,
  Root,
} from '../../platform/graphql/type-graphql.js';
import { parseInput } from '../../platform/http/validation.js';
import {
  auditConditions,
  auditGetQuery,
  auditIdParams,
  auditListQuery,
  type AuditEntryView,
} from './audit.schemas.js';
import type { AuditService } from './audit.service.js';
import {
  AuditEntryPageType,
  AuditEntryType,
  AuditListArgs,
  OrganizationReference,
  SafeInt,
  UserReference,
} from './audit.types.js';
import { GLOBAL_ORGANIZATION_ID } from './domain/audit-visibility.js';

/** The audit log through GraphQL: the same reads as the REST facade, one line each over AuditService. */
@Resolver(() => AuditEntryType)
export class AuditResolver {
  constructor(private readonly audit: AuditService) {}

  @Query(() => AuditEntryPageType, {
    description: 'Needs AuditList; global entries also need AuditGlobalList.',
  })
  auditEntries(@Args(() => AuditListArgs) args: AuditListArgs, @Ctx() { caller }: GraphQLContext) {
    const { conditions, ...paging } = args;
    return this.audit.list(
      caller,
      parseInput(auditListQuery, paging, 'args'),
      parseInput(auditConditions, conditions ?? [], 'args.conditions'),
    );
  }

  @Query(() => AuditEntryType, {
    description: 'Needs AuditRead. The latest version unless one is asked for.',
  })
  auditEntry(
    @Arg('id', () => SafeInt) id: number,
    @Arg('version', () => SafeInt, { nullable: true }) version: number | null | undefined,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.audit.get(
      caller,
      parseInput(auditIdParams, { id }, 'args').id,
      parseInput(auditGetQuery, { version: version ?? undefined }, 'args').version,
    );
  }

  @FieldResolver(() => OrganizationReference, { nullable: true })
  organization(@Root() entry: AuditEntryView): OrganizationReference | null {
    return entry.organizationId === GLOBAL_ORGANIZATION_ID ? null : { id: entry.organizationId };
  }

  @FieldResolver(() => ID)
  loggedById(@Root() entry: AuditEntryView): string {
    return entry.loggedBy;
  }

  @FieldResolver(() => UserReference, { nullable: true })
  loggedBy(@Root() entry: AuditEntryView): UserReference | null {
    return entry.loggedBy === GLOBAL_ORGANIZATION_ID ? null : { id: entry.loggedBy };
  }
}
