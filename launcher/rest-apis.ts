import type { RestApi } from '../platform/http/rest-api.js';
import { ACCOUNT_API } from '../rest-facade/account/account.api.js';
import { AUDIT_API } from '../rest-facade/audit/audit.api.js';
import { IDENTITY_API } from '../rest-facade/identity/identity.api.js';
import { LIBRARY_API } from '../rest-facade/library/library.api.js';

/** Every service's REST API, whose OpenAPI documents are kept in schema/. */
// The services each API runs over differ; here only the APIs' descriptions are read.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const REST_APIS: RestApi<any>[] = [LIBRARY_API, ACCOUNT_API, AUDIT_API, IDENTITY_API];
