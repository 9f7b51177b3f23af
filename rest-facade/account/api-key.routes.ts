import { listQuery, pageSchema } from '../../platform/http/query-schemas.js';
import { defineRoute, type Route } from '../../platform/http/route.js';
import {
  accountApiKeyParams,
  apiKeyCreateBody,
  apiKeyCreatedView,
  apiKeyIdParams,
  apiKeyLookupBody,
  apiKeyView,
} from '../../subgraphs/account/api-keys/api-key.schemas.js';
import type { ApiKeyService } from '../../subgraphs/account/api-keys/api-key.service.js';
import { sessionAccountView, userIdParams } from '../../subgraphs/account/users/user.schemas.js';

const tag = 'API keys';
const apiKeyPage = pageSchema(apiKeyView, 'ApiKeyPage');

/** API keys (spec 4.2): the own-key routes under `me`, the service-account routes by id. */
export function apiKeyRoutes(keys: ApiKeyService): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/apikeys/lookup',
      operationId: 'lookupApiKey',
      summary: 'The account holding a key',
      description:
        "Anonymous. Takes the hex SHA-256 of a key, never the key; answers the account with its groups' permissions. Unknown, revoked and expired keys give the same 404.",
      tag,
      auth: 'none',
      body: apiKeyLookupBody,
      response: sessionAccountView,
      errors: [404],
      handle: ({ body }) => keys.lookup(body.sha),
    }),
    defineRoute({
      method: 'get',
      path: '/users/me/apikeys',
      operationId: 'listOwnApiKeys',
      summary: "The caller's own keys, newest first",
      description: 'Any session. Never a key or its hash. All of them unless `take` is given.',
      tag,
      auth: 'required',
      query: listQuery,
      response: apiKeyPage,
      handle: ({ caller, query }) => keys.listOwn(caller, query),
    }),
    defineRoute({
      method: 'post',
      path: '/users/me/apikeys',
      operationId: 'createOwnApiKey',
      summary: 'Mint a key for the caller',
      description:
        'Needs ProfileCreateApiKey. NoExpiry also needs ProfileNeverExpiresApiKey (400 naming it otherwise). The key is shown once.',
      tag,
      auth: 'required',
      status: 201,
      body: apiKeyCreateBody,
      response: apiKeyCreatedView,
      errors: [403],
      handle: ({ caller, body }) => keys.createOwn(caller, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/users/me/apikeys/{id}',
      operationId: 'deleteOwnApiKey',
      summary: "Revoke one of the caller's keys",
      description: 'Any session; no permission needed.',
      tag,
      auth: 'required',
      status: 204,
      params: apiKeyIdParams,
      response: null,
      errors: [404],
      handle: ({ caller, params }) => keys.deleteOwn(caller, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/users/{id}/apikeys',
      operationId: 'listApiKeys',
      summary: "An account's keys, newest first",
      description: 'Needs UserRead. Never a key or its hash. All of them unless `take` is given.',
      tag,
      auth: 'required',
      params: userIdParams,
      query: listQuery,
      response: apiKeyPage,
      errors: [403, 404],
      handle: ({ caller, params, query }) => keys.listFor(caller, params.id, query),
    }),
    defineRoute({
      method: 'post',
      path: '/users/{id}/apikeys',
      operationId: 'createServiceAccountApiKey',
      summary: 'Mint a key for a service account',
      description:
        "Needs UserCreateServiceAccountApiKey (which depends on UserRead); NoExpiry also needs ProfileNeverExpiresApiKey. The target must be a service account of the organization (400 otherwise; another organization's is 404). The key carries the target's permissions.",
      tag,
      auth: 'required',
      status: 201,
      params: userIdParams,
      body: apiKeyCreateBody,
      response: apiKeyCreatedView,
      errors: [403, 404],
      handle: ({ caller, params, body }) => keys.createFor(caller, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/users/{id}/apikeys/{apiKeyId}',
      operationId: 'deleteApiKey',
      summary: "Revoke another account's key",
      description: 'Needs UserDelete.',
      tag,
      auth: 'required',
      status: 204,
      params: accountApiKeyParams,
      response: null,
      errors: [403, 404],
      handle: ({ caller, params }) => keys.deleteFor(caller, params.id, params.apiKeyId),
    }),
  ];
}
