import type { RestApi } from '../../platform/http/rest-api.js';
import type { TokenService } from '../../identity/token.service.js';
import { identityRoutes } from './identity.routes.js';

/** The identity service's REST API (its OpenAPI document is kept in schema/identity.openapi.json). */
export const IDENTITY_API: RestApi<TokenService> = {
  name: 'identity',
  title: 'Identity service',
  description:
    'Mints session tokens for logins, API keys and renewals. Reachable only inside the deployment.',
  routesFor: identityRoutes,
};
