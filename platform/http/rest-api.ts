import type { ServiceName } from '../config/settings.js';
import { buildOpenApiDocument } from './openapi.js';
import type { Route } from './route.js';

export const API_VERSION = '1.0.0';

/** A service's REST API as its facade declares it: what it is, and its routes over its services. */
export interface RestApi<S> {
  readonly name: ServiceName;
  readonly title: string;
  readonly description: string;
  routesFor(services: S): Route[];
}

/** The OpenAPI document of routes, as `/openapi/v1.json` serves it and `schema/` keeps it. */
export function openApiDocument(
  api: Omit<RestApi<never>, 'routesFor'>,
  routes: Route[],
): Record<string, unknown> {
  return buildOpenApiDocument(
    { title: api.title, version: API_VERSION, description: api.description },
    routes,
  );
}

/**
 * The OpenAPI document of an API without its services: a route's schemas do not depend on them,
 * so the routes are built over a stand-in that refuses any use.
 */
export function describeApi<S>(api: RestApi<S>): Record<string, unknown> {
  return openApiDocument(api, api.routesFor(describedOnly<S>()));
}

function describedOnly<S>(): S {
  const refuse = (): never => {
    throw new Error('These routes were built to be described, not called.');
  };
  const standIn: object = new Proxy(refuse, { get: () => standIn, apply: refuse });
  return standIn as S;
}
