import { GraphQLScalarType } from 'graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { pageType } from '../../platform/graphql/page-type.js';
import {
  ArgsType,
  Directive,
  Field,
  ID,
  InputType,
  Int,
  ObjectType,
} from '../../platform/graphql/type-graphql.js';
import { MAX_TAKE } from '../../platform/http/query-schemas.js';

/** Audit ids and versions are bigints (domain/audit-versions.ts): more than Int's 32 bits. */
export const SafeInt = new GraphQLScalarType({
  ...SafeIntResolver.toConfig(),
  description: "An integer from -(2^53 - 1) to 2^53 - 1: audit ids and versions outgrow Int's 32 bits.",
});

@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('User', { description: 'An account, owned by the account subgraph.' })
export class UserReference {
  @Field(() => ID)
  id!: string;
}

@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('Organization', { description: 'An organization, owned by the account subgraph.' })
export class OrganizationReference {
  @Field(() => ID)
  id!: string;
}

@ObjectType('AuditEntry', { description: 'One version of an audit entry.' })
export class AuditEntryType {
  @Field(() => SafeInt)
  id!: number;

  @Field(() => SafeInt)
  version!: number;

  @Field(() => ID, { description: 'The nil UUID for a global entry.' })
  organizationId!: string;

  @Field(() => OrganizationReference, {
    nullable: true,
    description: 'Whose entry it is, from the account subgraph; null for a global entry.',
  })
  organization?: OrganizationReference | null;

  @Field(() => String, { description: 'ISO 8601 UTC.' })
  loggedAt!: string;

  @Field(() => ID, { description: 'The nil UUID when written without a session.' })
  loggedById!: string;

  @Field(() => UserReference, {
    nullable: true,
    description: 'Who wrote it, from the account subgraph; null for an entry written without a session.',
  })
  loggedBy?: UserReference | null;

  @Field(() => String)
  entryType!: string;

  @Field(() => String)
  action!: string;

  @Field(() => String)
  entityName!: string;

  @Field(() => String)
  entityId!: string;

  @Field(() => String, { nullable: true })
  beforeState?: string | null;

  @Field(() => String, { nullable: true })
  afterState?: string | null;

  @Field(() => Boolean, { description: 'True when the states exist but the caller may not read them.' })
  stateWithheld!: boolean;
}

@ObjectType('AuditEntryPage')
export class AuditEntryPageType extends pageType(() => AuditEntryType) {}

@InputType('AuditCondition', {
  description: 'A filter condition; conditions are AND-ed, and one without a value narrows nothing.',
})
export class AuditConditionInput {
  @Field(() => String, { description: 'EntryType, EntityName, LoggedAt, ... (without regard to case).' })
  field!: string;

  @Field(() => String, { description: 'eq or contains.' })
  operatorType!: string;

  @Field(() => String, { nullable: true })
  value?: string | null;
}

/** The audit list's paging and sorting (spec section 8), with its filter conditions. */
@ArgsType()
export class AuditListArgs {
  @Field(() => Int, {
    nullable: true,
    defaultValue: 10,
    description: `How many entries to return, at most ${MAX_TAKE}.`,
  })
  take?: number;

  @Field(() => Int, { nullable: true, defaultValue: 0 })
  skip?: number;

  @Field(() => String, { nullable: true, defaultValue: 'LoggedAt' })
  sortField?: string;

  @Field(() => Boolean, { nullable: true, defaultValue: false })
  sortDescending?: boolean;

  @Field(() => [AuditConditionInput], { nullable: true })
  conditions?: AuditConditionInput[] | null;
}
