import type { RestApi } from '../../platform/http/rest-api.js';
import type { AccountServices } from '../../subgraphs/account/account-services.js';
import { accountRoutes } from './account.routes.js';

/** The account service's REST API (its OpenAPI document is kept in schema/account.openapi.json). */
export const ACCOUNT_API: RestApi<AccountServices> = {
  name: 'account',
  title: 'Account service',
  description: 'Organizations, accounts, groups and permissions, API keys and credits.',
  routesFor: accountRoutes,
};
