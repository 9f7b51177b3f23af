import type { Route } from '../../platform/http/route.js';
import type { AccountServices } from '../../subgraphs/account/account-services.js';
import { apiKeyRoutes } from './api-key.routes.js';
import { groupRoutes } from './group.routes.js';
import { organizationRoutes } from './organization.routes.js';
import { userRoutes } from './user.routes.js';
import { webhookRoutes } from './webhook.routes.js';

/** Every REST path of the account service (spec 4.2). */
export function accountRoutes(services: AccountServices): Route[] {
  return [
    ...organizationRoutes(services.organizations),
    ...apiKeyRoutes(services.apiKeys),
    ...userRoutes(services.users, services.provisioning),
    ...groupRoutes(services.groups),
    ...webhookRoutes(services.payments),
  ];
}
