import type { RestApi } from '../../platform/http/rest-api.js';
import type { LibraryServices } from '../../subgraphs/library/library-services.js';
import { libraryRoutes } from './library.routes.js';

/** The library service's REST API (its OpenAPI document is kept in schema/library.openapi.json). */
export const LIBRARY_API: RestApi<LibraryServices> = {
  name: 'library',
  title: 'Library service',
  description:
    'Tag groups and tags, library sets and their variables with values for each tag combination, and the resolved configuration programs read.',
  routesFor: libraryRoutes,
};
