import { parse } from 'graphql';
import { MAX_TAKE } from '../../../platform/http/query-schemas.js';

/** The audit subgraph: the same reads as the REST facade, with the same checks. */
export const auditTypeDefs = parse(/* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])

  "An account, owned by the account subgraph."
  type User @key(fields: "id", resolvable: false) {
    id: ID!
  }

  "An organization, owned by the account subgraph."
  type Organization @key(fields: "id", resolvable: false) {
    id: ID!
  }

  "An integer from -(2^53 - 1) to 2^53 - 1: audit ids and versions outgrow Int's 32 bits."
  scalar SafeInt

  "One version of an audit entry."
  type AuditEntry {
    id: SafeInt!
    version: SafeInt!
    "The nil UUID for a global entry."
    organizationId: ID!
    "Whose entry it is, from the account subgraph; null for a global entry."
    organization: Organization
    "ISO 8601 UTC."
    loggedAt: String!
    "The nil UUID when written without a session."
    loggedById: ID!
    "Who wrote it, from the account subgraph; null for an entry written without a session."
    loggedBy: User
    entryType: String!
    action: String!
    entityName: String!
    entityId: String!
    beforeState: String
    afterState: String
    "True when the states exist but the caller may not read them."
    stateWithheld: Boolean!
  }

  type AuditEntryPage {
    "Every match, counted before paging."
    total: Int!
    items: [AuditEntry!]!
  }

  "A filter condition; conditions are AND-ed, and one without a value narrows nothing."
  input AuditCondition {
    "EntryType, EntityName, LoggedAt, ... (without regard to case)."
    field: String!
    "eq or contains."
    operatorType: String!
    value: String
  }

  type Query {
    "Needs AuditList; global entries also need AuditGlobalList."
    auditEntries(
      "How many entries to return, at most ${MAX_TAKE}."
      take: Int = 10
      skip: Int = 0
      sortField: String = "LoggedAt"
      sortDescending: Boolean = false
      conditions: [AuditCondition!]
    ): AuditEntryPage!
    "Needs AuditRead. The latest version unless one is asked for."
    auditEntry(id: SafeInt!, version: SafeInt): AuditEntry!
  }
`);
