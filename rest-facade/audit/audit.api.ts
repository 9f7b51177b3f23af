import type { RestApi } from '../../platform/http/rest-api.js';
import type { AuditService } from '../../subgraphs/audit/audit.service.js';
import { auditRoutes } from './audit.routes.js';

/** The audit service's REST API (its OpenAPI document is kept in schema/audit.openapi.json). */
export const AUDIT_API: RestApi<AuditService> = {
  name: 'audit',
  title: 'Audit service',
  description: 'The change log of every service: who did what, when, with the state before and after.',
  routesFor: auditRoutes,
};
