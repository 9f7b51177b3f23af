import { defineRoute, type Route } from '../../platform/http/route.js';
import {
  auditConditions,
  auditEntryPage,
  auditEntryView,
  auditGetQuery,
  auditIdParams,
  auditListQuery,
  auditWriteBody,
} from '../../subgraphs/audit/audit.schemas.js';
import type { AuditService } from '../../subgraphs/audit/audit.service.js';

const tag = 'Audit';

/** The audit service's REST paths (spec section 4.4). */
export function auditRoutes(audit: AuditService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listAuditEntries',
      summary: 'List audit entries',
      description:
        'Needs AuditList. Global entries appear with AuditGlobalList; states need AuditRead (global: AuditGlobalRead) and are otherwise withheld.',
      tag,
      auth: 'required',
      query: auditListQuery,
      response: auditEntryPage,
      errors: [403],
      handle: ({ caller, query }) => audit.list(caller, query),
    }),
    defineRoute({
      method: 'post',
      path: '/filter',
      operationId: 'filterAuditEntries',
      summary: 'Filter audit entries',
      description:
        'Needs AuditList. The body is an array of conditions, AND-ed. Operators: eq (exact), contains (substring, without regard to case). Values are compared as text; a condition without a value narrows nothing.',
      tag,
      auth: 'required',
      query: auditListQuery,
      body: auditConditions,
      response: auditEntryPage,
      errors: [403],
      handle: ({ caller, query, body }) => audit.list(caller, query, body),
    }),
    defineRoute({
      method: 'get',
      path: '/{id}',
      operationId: 'getAuditEntry',
      summary: 'Read an audit entry',
      description:
        'Needs AuditRead (which depends on AuditList). The latest version unless `version` is given. A state the caller may not read is withheld, not refused.',
      tag,
      auth: 'required',
      params: auditIdParams,
      query: auditGetQuery,
      response: auditEntryView,
      errors: [403, 404],
      handle: ({ caller, params, query }) => audit.get(caller, params.id, query.version),
    }),
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'writeAuditEntry',
      summary: 'Write an audit entry',
      description:
        "With a session token, the entry belongs to the caller's organization and is logged by the caller. Without one, only entry types in Audit:AuthNotRequired are accepted (401 otherwise), as global entries. An existing id stores another version; an omitted id is the organization's next id. An id may be any up to 2147483647, and beyond it only one the organization has taken or its next one, so no write can exhaust the ids (bigints). Each state is at most 100000 characters of JSON text; entryType and action at most 100 characters, entityName and entityId at most 500.",
      tag,
      auth: 'optional',
      body: auditWriteBody,
      response: auditEntryView,
      errors: [401],
      handle: ({ caller, body }) => audit.write(caller, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/{id}',
      operationId: 'deleteAuditEntry',
      summary: 'Delete every version of an audit entry',
      description: "Needs AuditDelete. Only entries of the caller's organization; answers what was removed.",
      tag,
      auth: 'required',
      params: auditIdParams,
      response: auditEntryPage,
      errors: [403, 404],
      handle: ({ caller, params }) => audit.remove(caller, params.id),
    }),
  ];
}
