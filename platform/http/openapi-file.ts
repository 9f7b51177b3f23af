import type { ServiceName } from '../config/settings.js';
import { projectPath } from '../project-path.js';
import { describeApi, type RestApi } from './rest-api.js';

/** Where a service's OpenAPI document is kept (checked in, like the supergraph). */
export function openApiPath(name: ServiceName): string {
  return projectPath('schema', `${name}.openapi.json`);
}

/** The document as it is kept: indented JSON, ending in a newline. */
export function openApiText<S>(api: RestApi<S>): string {
  return `${JSON.stringify(describeApi(api), null, 2)}\n`;
}
