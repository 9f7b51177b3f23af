import { parse } from 'graphql';
import { MAX_TAKE } from '../../../platform/http/query-schemas.js';

/**
 * The account subgraph: the same operations as the REST facade's organization, user, group,
 * permission and own-key paths, with the same checks. User and Organization are entities
 * other subgraphs reference. The service-to-service paths (provisioning, key lookup,
 * permissions for renewal, the payment webhook) are REST only.
 */
export const accountTypeDefs = parse(/* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])

  "An organization. Fields other than id, name, active and branding need GlobalOrganizationRead."
  type Organization @key(fields: "id") {
    id: ID!
    name: String!
    active: Boolean!
    logo: String
    logoContentType: String
    customCss: String
    accountPatterns: [String!]!
    adminEmails: [String!]!
    additionalCredits: Int!
    usedCredits: Int!
    totalCredits: Int!
    pricingBand: String
    "Client secrets are never returned."
    providers: [IdentityProvider!]!
    version: Int!
    createdAt: String!
    updatedAt: String!
  }

  type IdentityProvider {
    provider: String!
    clientId: String!
    tenantId: String
    hasClientSecret: Boolean!
  }

  type SignInDetails {
    id: ID!
    name: String!
    logo: String
    logoContentType: String
    customCss: String
    providers: [SignInProvider!]!
  }

  type SignInProvider {
    provider: String!
    clientId: String!
    tenantId: String
  }

  type CreditBalance {
    usedCredits: Int!
    totalCredits: Int!
  }

  "An account. Its identities, groups and photo need UserRead, unless it is the caller's own."
  type User @key(fields: "id") {
    id: ID!
    organizationId: ID!
    name: String!
    email: String!
    serviceAccount: Boolean!
    profileImage: String
    identities: [LinkedIdentity!]!
    groups: [GroupReference!]!
    version: Int!
    createdAt: String!
    updatedAt: String!
  }

  type LinkedIdentity {
    provider: String!
    providerUserId: String!
    linkedAt: String!
  }

  type GroupReference {
    id: Int!
    name: String!
  }

  type Group {
    id: Int!
    name: String!
    description: String!
    permissions: [String!]!
    "Library sets the group's Variable* permissions are restricted to; empty: all sets."
    variableSetIds: [Int!]!
    members: [GroupMember!]!
    version: Int!
    createdAt: String!
    updatedAt: String!
  }

  type GroupMember {
    id: ID!
    name: String!
    email: String!
  }

  type ApiKey {
    id: Int!
    hint: String!
    description: String!
    createdAt: String!
    expiresAt: String
    expired: Boolean!
  }

  "A new key: apiKey is shown only here, once."
  type ApiKeyCreated {
    id: Int!
    apiKey: String!
    hint: String!
    description: String!
    createdAt: String!
    expiresAt: String
  }

  type Permission {
    name: String!
    value: Int!
    globalPermission: Boolean!
    dependsOn: [String!]!
  }

  type IdentityProviderCheckResult {
    valid: Boolean!
    detail: String!
  }

  type OrganizationPage {
    total: Int!
    items: [Organization!]!
  }

  type UserPage {
    total: Int!
    items: [User!]!
  }

  type GroupPage {
    total: Int!
    items: [Group!]!
  }

  type ApiKeyPage {
    total: Int!
    items: [ApiKey!]!
  }

  input OrganizationInput {
    name: String!
    active: Boolean
    accountPatterns: [String!]
    adminEmails: [String!]
    additionalCredits: Int
    pricingBand: String
    providers: [IdentityProviderInput!]
    logo: String
    logoContentType: String
    customCss: String
  }

  "A change of an organization: a field left out keeps its stored value, one given replaces it; null clears pricingBand, logo with logoContentType, and customCss."
  input OrganizationUpdateInput {
    name: String
    active: Boolean
    accountPatterns: [String!]
    adminEmails: [String!]
    additionalCredits: Int
    pricingBand: String
    "The whole list; a provider sent without clientSecret keeps the stored secret of the same provider and client id."
    providers: [IdentityProviderInput!]
    logo: String
    logoContentType: String
    customCss: String
    "The version read; a different stored version is CONFLICT."
    version: Int
  }

  input IdentityProviderInput {
    provider: String!
    clientId: String!
    tenantId: String
    "Write-only. Omit on update to keep the stored secret."
    clientSecret: String
  }

  input IdentityProviderCheckInput {
    provider: String!
    clientId: String!
    tenantId: String
    clientSecret: String!
  }

  input UserInput {
    name: String!
    email: String!
    serviceAccount: Boolean
  }

  "A change of an account: a field left out keeps its stored value, one given replaces it; null clears profileImage."
  input UserUpdateInput {
    name: String
    email: String
    "Cannot change; when given it must match."
    serviceAccount: Boolean
    profileImage: String
    version: Int
  }

  "A new group. A field left out or null takes its default: no description, no permissions, all sets."
  input GroupInput {
    name: String!
    description: String
    permissions: [String!]
    "Library sets the group's Variable* permissions are restricted to; empty: all sets."
    variableSetIds: [Int!]
  }

  "A change of a group: a field left out or null keeps its stored value, one given replaces it."
  input GroupUpdateInput {
    name: String
    description: String
    "The whole list; permissions the caller cannot grant stay on the group."
    permissions: [String!]
    "Library sets the group's Variable* permissions are restricted to; empty: all sets."
    variableSetIds: [Int!]
    "The version read; a different stored version is CONFLICT."
    version: Int
  }

  enum ApiKeyExpiry {
    OneHour
    OneDay
    OneMonth
    OneYear
    NoExpiry
  }

  "A field left out or null takes its default: no description, OneHour."
  input ApiKeyInput {
    description: String
    expiry: ApiKeyExpiry
  }

  type Query {
    "GlobalOrganizationList."
    organizations("How many to return, at most ${MAX_TAKE}; all when left out." take: Int, skip: Int): OrganizationPage!
    "GlobalOrganizationRead."
    organization(id: ID!): Organization!
    "Anonymous; active organizations only."
    signInDetails(organizationId: ID!): SignInDetails!
    "Any session: the caller's organization's balance."
    credits: CreditBalance!
    "Any session: the caller's own account."
    me: User!
    "UserList."
    users("How many to return, at most ${MAX_TAKE}; all when left out." take: Int, skip: Int): UserPage!
    "UserRead."
    user(id: ID!): User!
    "UserList."
    groups("How many to return, at most ${MAX_TAKE}; all when left out." take: Int, skip: Int): GroupPage!
    "UserRead."
    group(id: Int!): Group!
    "Any session: the permission catalogue."
    permissions: [Permission!]!
    "Any session: the caller's keys, newest first."
    myApiKeys("How many to return, at most ${MAX_TAKE}; all when left out." take: Int, skip: Int): ApiKeyPage!
    "UserRead: an account's keys, newest first."
    apiKeys(userId: ID!, "How many to return, at most ${MAX_TAKE}; all when left out." take: Int, skip: Int): ApiKeyPage!
  }

  type Mutation {
    "GlobalOrganizationCreate; also creates its Administrators group."
    createOrganization(input: OrganizationInput!): Organization!
    "GlobalOrganizationUpdate."
    updateOrganization(id: ID!, input: OrganizationUpdateInput!): Organization!
    "GlobalOrganizationDelete; answers the removed organization."
    deleteOrganization(id: ID!): Organization!
    "GlobalOrganizationRead and GlobalOrganizationUpdate or GlobalOrganizationCreate."
    checkIdentityProvider(input: IdentityProviderCheckInput!): IdentityProviderCheckResult!
    "UserCreate."
    createUser(input: UserInput!): User!
    "UserUpdate."
    updateUser(id: ID!, input: UserUpdateInput!): User!
    "UserDelete; answers the removed account."
    deleteUser(id: ID!): User!
    "UserUpdate: the account's whole membership."
    setUserGroups(id: ID!, groupIds: [Int!]!): User!
    "UserCreate plus the grant check."
    createGroup(input: GroupInput!): Group!
    "UserUpdate plus the grant check."
    updateGroup(id: Int!, input: GroupUpdateInput!): Group!
    "UserDelete; answers the removed group."
    deleteGroup(id: Int!): Group!
    "UserUpdate, no grant check: the group's whole membership."
    setGroupMembers(id: Int!, userIds: [ID!]!): Group!
    "ProfileCreateApiKey (NoExpiry also needs ProfileNeverExpiresApiKey)."
    createMyApiKey(input: ApiKeyInput!): ApiKeyCreated!
    "UserCreateServiceAccountApiKey; service accounts only."
    createServiceAccountApiKey(userId: ID!, input: ApiKeyInput!): ApiKeyCreated!
    "Any session: revokes one of the caller's keys."
    deleteMyApiKey(id: Int!): Boolean!
    "UserDelete: revokes another account's key."
    deleteApiKey(userId: ID!, id: Int!): Boolean!
  }
`);
