import { defineRoute, type Route } from '../../platform/http/route.js';
import { listQuery, pageSchema } from '../../platform/http/query-schemas.js';
import {
  groupBody,
  groupIdParams,
  groupMembersBody,
  groupUpdateBody,
  groupView,
  permissionCatalogueView,
} from '../../subgraphs/account/groups/group.schemas.js';
import type { GroupService } from '../../subgraphs/account/groups/group.service.js';
import { permissionCatalogue } from '../../subgraphs/account/groups/permission-catalogue.js';

const tag = 'Groups';

/** /groups and /permissions (spec 4.2). */
export function groupRoutes(groups: GroupService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/groups',
      operationId: 'listGroups',
      summary: "List the organization's groups",
      description: 'Needs UserList.',
      tag,
      auth: 'required',
      query: listQuery,
      response: pageSchema(groupView, 'GroupPage'),
      errors: [403],
      handle: ({ caller, query }) => groups.list(caller, query),
    }),
    defineRoute({
      method: 'get',
      path: '/groups/{id}',
      operationId: 'getGroup',
      summary: 'Read a group',
      description: 'Needs UserRead.',
      tag,
      auth: 'required',
      params: groupIdParams,
      response: groupView,
      errors: [403, 404],
      handle: ({ caller, params }) => groups.get(caller, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/groups',
      operationId: 'createGroup',
      summary: 'Create a group',
      description:
        'Needs UserCreate, and every permission given must be one the caller may grant (refused ones are named in `rejectedPermissions` of the 403). A global permission needs PermissionsAllGlobal to grant. AuditRead without AuditList is refused.',
      tag,
      auth: 'required',
      body: groupBody,
      response: groupView,
      errors: [403, 409],
      handle: ({ caller, body }) => groups.create(caller, body),
    }),
    defineRoute({
      method: 'put',
      path: '/groups/{id}',
      operationId: 'updateGroup',
      summary: 'Update a group',
      description:
        'Needs UserUpdate and the grant check of every permission being added (or re-scoped by a change of variableSetIds). Permissions on the group that the caller cannot grant are kept. A field left out keeps its stored value; one sent replaces it. A version other than the stored one, or a change committed by another request meanwhile, is 409.',
      tag,
      auth: 'required',
      params: groupIdParams,
      body: groupUpdateBody,
      response: groupView,
      errors: [403, 404, 409],
      handle: ({ caller, params, body }) => groups.update(caller, params.id, body),
    }),
    defineRoute({
      method: 'put',
      path: '/groups/{id}/members',
      operationId: 'setGroupMembers',
      summary: "Set a group's members",
      description: 'Needs UserUpdate; no grant check. The body is the whole membership.',
      tag,
      auth: 'required',
      params: groupIdParams,
      body: groupMembersBody,
      response: groupView,
      errors: [403, 404],
      handle: ({ caller, params, body }) => groups.setMembers(caller, params.id, body.userIds),
    }),
    defineRoute({
      method: 'delete',
      path: '/groups/{id}',
      operationId: 'deleteGroup',
      summary: 'Delete a group',
      description: 'Needs UserDelete. Answers the removed group.',
      tag,
      auth: 'required',
      params: groupIdParams,
      response: groupView,
      errors: [403, 404],
      handle: ({ caller, params }) => groups.remove(caller, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/permissions',
      operationId: 'listPermissions',
      summary: 'The permission catalogue',
      description: 'Any session.',
      tag: 'Permissions',
      auth: 'required',
      response: permissionCatalogueView,
      handle: async ({ caller }) => permissionCatalogue(caller),
    }),
  ];
}
